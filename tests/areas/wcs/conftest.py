"""Helpers for the GetCoverage tests: GeoTIFFs written with tifffile (any sample type,
GeoTIFF tags, GDAL's no-data tag), their upload, and the answers read back."""

from __future__ import annotations

import io
from types import SimpleNamespace

import numpy as np
import pytest
import tifffile

WS = "sf"


def geotiff(
    pixels: np.ndarray,
    minx: float = 0.0,
    maxy: float = 100.0,
    px: float = 1.0,
    py: float = 1.0,
    epsg: int = 4326,
    nodata: float | None = None,
) -> bytes:
    """A GeoTIFF of ``pixels`` (bands, rows, columns), upper left corner (minx, maxy)."""
    geographic = epsg in (4326, 4269, 4258)
    keys = [1024, 0, 1, 2 if geographic else 1, 1025, 0, 1, 1]
    keys += [2048 if geographic else 3072, 0, 1, epsg]
    tags = [
        (33550, "d", 3, (px, py, 0.0), True),
        (33922, "d", 6, (0.0, 0.0, 0.0, minx, maxy, 0.0), True),
        (34735, "H", 4 + len(keys), (1, 1, 0, len(keys) // 4, *keys), True),
    ]
    if nodata is not None:
        tags.append((42113, "s", 0, str(nodata), True))
    bands = pixels.shape[0]
    data = pixels[0] if bands == 1 else np.moveaxis(pixels, 0, -1)
    out = io.BytesIO()
    rgb = bands == 3 and pixels.dtype == np.uint8
    tifffile.imwrite(
        out,
        np.ascontiguousarray(data),
        photometric="rgb" if rgb else "minisblack",
        planarconfig="contig" if bands > 1 else None,
        extratags=tags,
        metadata=None,
    )
    return out.getvalue()


def upload(client, store: str, body: bytes, fmt: str = "geotiff", ws: str = WS) -> None:
    r = client.put(
        f"/rest/workspaces/{ws}/coveragestores/{store}/file.{fmt}",
        content=body,
        headers={"Content-Type": "application/octet-stream"},
    )
    assert r.status_code == 201, r.text


def read_tiff(content: bytes) -> tuple[np.ndarray, dict[int, object]]:
    """(pixels (bands, rows, columns), tags by code) of a TIFF answer."""
    with tifffile.TiffFile(io.BytesIO(content)) as tif:
        page = tif.pages.first
        array = page.asarray()
        tags = {t.code: t.value for t in page.tags.values()}
        axes = page.axes
    if array.ndim == 2:
        array = array[None]
    elif axes.endswith("S"):
        array = np.moveaxis(array, -1, 0)
    return array, tags


def ows_error(r) -> tuple[str | None, str | None, str]:
    """(exceptionCode, locator, text) of an OWS exception report, or of the legacy
    ``ServiceExceptionReport`` WCS 1.0.0 answers (``code``, ``locator``, its text)."""
    from lxml import etree

    root = etree.fromstring(r.content)
    if etree.QName(root).localname == "ServiceExceptionReport":
        legacy = [e for e in root.iter() if etree.QName(e).localname == "ServiceException"]
        assert legacy, r.text
        return legacy[0].get("code"), legacy[0].get("locator"), (legacy[0].text or "").strip()
    found = [e for e in root.iter() if etree.QName(e).localname == "Exception"]
    assert found, r.text
    e = found[0]
    text = "".join(t.text or "" for t in e.iter() if etree.QName(t).localname == "ExceptionText")
    return e.get("exceptionCode"), e.get("locator"), text.strip()


@pytest.fixture
def g() -> SimpleNamespace:
    return SimpleNamespace(
        WS=WS, geotiff=geotiff, upload=upload, read_tiff=read_tiff, ows_error=ows_error
    )
