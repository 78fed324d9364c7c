"""Helpers for the mosaics tests: real tiny GeoTIFFs (written with Pillow and the GeoTIFF
tags), world-file images, ZIP archives and a watertemp-like mosaic, exposed through the ``m``
fixture (test modules cannot import a conftest)."""

from __future__ import annotations

import io
import zipfile
from types import SimpleNamespace

import pytest
from PIL import Image, TiffImagePlugin, TiffTags

WS = "wcs"
STORE = "watertemp"
ROOT = f"/rest/workspaces/{WS}/coveragestores/{STORE}"
INDEX = f"{ROOT}/coverages/{STORE}/index"
ZIP = {"Content-Type": "application/zip"}
TEXT = {"Content-Type": "text/plain"}
GF = "{http://www.geoserver.org/rest/granules}"
GML = "{http://www.opengis.net/gml}"

INDEXER = (
    "TimeAttribute=ingestion\n"
    "ElevationAttribute=elevation\n"
    "Schema=*the_geom:Polygon,location:String,ingestion:java.util.Date,elevation:Integer\n"
    "PropertyCollectors=TimestampFileNameExtractorSPI[timeregex](ingestion),"
    "IntegerFileNameExtractorSPI[elevationregex](elevation)\n"
)
TIMEREGEX = "regex=[0-9]{8}T[0-9]{7}\n"
ELEVATIONREGEX = "regex=(?<=_)[0-9]{3}(?=_)\n"


def geotiff(
    minx: float = 0.0,
    maxy: float = 10.0,
    px: float = 1.0,
    py: float = 1.0,
    width: int = 4,
    height: int = 4,
    epsg: int | None = 4326,
    mode: str = "L",
    pixel_is_point: bool = False,
    tiepoint: bool = True,
    date_time: str | None = None,
) -> bytes:
    """A tiny GeoTIFF: ``width`` × ``height`` pixels of ``px`` × ``py`` map units, upper left
    corner at (minx, maxy), CRS ``EPSG:<epsg>`` (projected when the code is not 4326/4269)."""
    image = Image.new(mode, (width, height))
    ifd = TiffImagePlugin.ImageFileDirectory_v2()
    if tiepoint:
        x, y = (minx + px / 2, maxy - py / 2) if pixel_is_point else (minx, maxy)
        ifd[33550] = (float(px), float(py), 0.0)
        ifd.tagtype[33550] = TiffTags.DOUBLE
        ifd[33922] = (0.0, 0.0, 0.0, float(x), float(y), 0.0)
        ifd.tagtype[33922] = TiffTags.DOUBLE
    keys = [1025, 0, 1, 2 if pixel_is_point else 1]
    if epsg is not None:
        geographic = epsg in (4326, 4269, 4258)
        keys = [1024, 0, 1, 2 if geographic else 1, *keys, 2048 if geographic else 3072, 0, 1, epsg]
    ifd[34735] = (1, 1, 0, len(keys) // 4, *keys)
    ifd.tagtype[34735] = TiffTags.SHORT
    if date_time:
        ifd[306] = date_time
    buf = io.BytesIO()
    image.save(buf, format="TIFF", tiffinfo=ifd)
    return buf.getvalue()


def png(width: int = 4, height: int = 4) -> bytes:
    buf = io.BytesIO()
    Image.new("RGB", (width, height)).save(buf, format="PNG")
    return buf.getvalue()


def world(minx: float, maxy: float, px: float, py: float) -> bytes:
    """A world file: pixel sizes and the centre of the upper left pixel."""
    return f"{px}\n0.0\n0.0\n{-py}\n{minx + px / 2}\n{maxy - py / 2}\n".encode()


def zipped(files: dict[str, bytes | str]) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, body in files.items():
            archive.writestr(name, body.encode() if isinstance(body, str) else body)
    return buf.getvalue()


def granule_name(elevation: int, day: str) -> str:
    """``NCOM_wattemp_000_20081031T0000000_12.tiff``: elevation and date in the name."""
    return f"NCOM_wattemp_{elevation:03d}_{day}T0000000_12.tiff"


def watertemp(
    days: tuple[str, ...] = ("20081031", "20081101"), elevations: tuple[int, ...] = (0,)
) -> dict[str, bytes | str]:
    """The files of a watertemp-like mosaic: indexer, regex files and one granule per
    (elevation, day), side by side in longitude."""
    files: dict[str, bytes | str] = {
        "indexer.properties": INDEXER,
        "timeregex.properties": TIMEREGEX,
        "elevationregex.properties": ELEVATIONREGEX,
    }
    for i, (e, d) in enumerate((e, d) for e in elevations for d in days):
        files[granule_name(e, d)] = geotiff(minx=float(i), maxy=45.0, px=0.25, py=0.25)
    return files


def put_mosaic(
    client, files: dict[str, bytes | str], store: str = STORE, ws: str = WS, query: str = ""
):
    url = f"/rest/workspaces/{ws}/coveragestores/{store}/file.imagemosaic{query}"
    return client.put(url, content=zipped(files), headers=ZIP)


@pytest.fixture
def m() -> SimpleNamespace:
    return SimpleNamespace(
        WS=WS,
        STORE=STORE,
        ROOT=ROOT,
        INDEX=INDEX,
        ZIP=ZIP,
        TEXT=TEXT,
        GF=GF,
        GML=GML,
        INDEXER=INDEXER,
        TIMEREGEX=TIMEREGEX,
        ELEVATIONREGEX=ELEVATIONREGEX,
        geotiff=geotiff,
        png=png,
        world=world,
        zipped=zipped,
        granule_name=granule_name,
        watertemp=watertemp,
        put_mosaic=put_mosaic,
    )


@pytest.fixture
def wcs(emu):
    """The stock emulator with a ``wcs`` workspace (GeoServer's test data has one)."""
    emu.state.catalog.add_workspace(WS)
    return emu
