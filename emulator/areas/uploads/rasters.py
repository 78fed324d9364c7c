"""Single-file rasters read from their headers: GeoTIFF, world images, ArcGrid ASCII.

What GeoServer's readers report and ``CatalogBuilder.buildCoverage`` copies into a coverage:
grid size and grid-to-world transform, envelope, CRS, and the bands with their data type and
no-data value. Only headers are read (for ArcGrid, the text is tokenised to check that the
cells are all there); declared sizes are checked against the bytes present (TIFF strips and
tiles inside the file), so a truncated file is refused by name.

- GeoTIFF: the TIFF tags, through Pillow's tag directory (no pixel decoding, any sample
  format); georeferencing and CRS from the GeoTIFF tags (``mosaics.granules``), or a
  ``.tfw`` world file and ``.prj``; no-data from ``GDAL_NODATA`` (42113).
- World image: a PNG, JPEG, GIF or TIFF header (Pillow) with its world file and an optional
  ``.prj``.
- ArcGrid: the ASCII header (``ncols``, ``nrows``, ``xllcorner``/``xllcenter``, …,
  ``cellsize``, ``NODATA_value``); 32-bit float cells; an optional ``.prj``.
"""

from __future__ import annotations

import io
import re
import warnings
from types import SimpleNamespace
from typing import Any

from ...core.record import field, record
from ...crs.envelope import Envelope
from ..mosaics import granules
from .crs import srs_of_prj
from .readers import Unreadable

SAMPLE_TYPES = {
    (1, 1): "UNSIGNED_1BIT", (1, 2): "UNSIGNED_2BITS", (1, 4): "UNSIGNED_4BITS",
    (1, 8): "UNSIGNED_8BITS", (2, 8): "SIGNED_8BITS", (1, 16): "UNSIGNED_16BITS",
    (2, 16): "SIGNED_16BITS", (1, 32): "UNSIGNED_32BITS", (2, 32): "SIGNED_32BITS",
    (3, 32): "REAL_32BITS", (3, 64): "REAL_64BITS",
}  # fmt: skip
RANGES = {
    "UNSIGNED_1BIT": (0.0, 1.0), "UNSIGNED_2BITS": (0.0, 3.0), "UNSIGNED_4BITS": (0.0, 15.0),
    "UNSIGNED_8BITS": (0.0, 255.0), "SIGNED_8BITS": (-128.0, 127.0),
    "UNSIGNED_16BITS": (0.0, 65535.0), "SIGNED_16BITS": (-32768.0, 32767.0),
    "UNSIGNED_32BITS": (0.0, 4294967295.0), "SIGNED_32BITS": (-2147483648.0, 2147483647.0),
}  # fmt: skip
GDAL_NODATA = 42113


@record
class Band:
    name: str
    data_type: str
    """GeoTools' sample dimension type: ``UNSIGNED_8BITS``, ``REAL_32BITS``…"""
    nodata: float | None = None

    @property
    def range(self) -> tuple[float, float] | None:
        return RANGES.get(self.data_type)


@record
class Raster:
    """What a raster reader reports about one file."""

    width: int
    height: int
    envelope: Envelope
    srs: str | None
    """``EPSG:<code>``, None when unknown"""
    wkt: str | None = None
    bands: list[Band] = field(default_factory=list)

    @property
    def transform(self) -> tuple[float, float, float, float]:
        """(scaleX, scaleY, translateX, translateY), pixel centres (GeoServer's grid)."""
        env = self.envelope
        sx = (env.maxx - env.minx) / self.width
        sy = -(env.maxy - env.miny) / self.height
        return sx, sy, env.minx + sx / 2, env.maxy + sy / 2


Sidecar = granules.Sidecar


def read_geotiff(name: str, data: bytes, sidecar: Sidecar) -> Raster:
    tags = _tiff_tags(name, data)
    width, height = int(tags.get(256, 0)), int(tags.get(257, 0))
    if width <= 0 or height <= 0:
        raise Unreadable(f"{name} has no pixels")
    _check_tiff_data(name, data, tags)
    georef = granules._geotiff(SimpleNamespace(tag_v2=tags), width, height)  # type: ignore[arg-type]
    if georef is None:
        try:
            georef = granules._world_file(name, granules.extension(name), width, height, sidecar)
        except granules.Unreadable as exc:
            raise Unreadable(f"{name}: {exc}") from None
    envelope, srs = georef
    wkt = None
    if srs is None:
        srs, wkt = srs_of_prj(sidecar(name.rsplit(".", 1)[0] + ".prj"))
    samples = int(tags.get(277, 1) or 1)
    bits = _first(tags.get(258), 8)
    fmt = _first(tags.get(339), 1)
    kind = SAMPLE_TYPES.get((fmt, bits))
    if kind is None:
        raise Unreadable(f"{name} has samples of a type GeoTools does not read ({bits} bits)")
    nodata = _number(tags.get(GDAL_NODATA))
    names = _band_names(int(tags.get(262, 1) or 1), samples)
    return Raster(width, height, envelope, srs, wkt, [Band(n, kind, nodata) for n in names])


def read_world_image(name: str, data: bytes, sidecar: Sidecar) -> Raster:
    ext = granules.extension(name)
    if ext in ("tif", "tiff"):
        tags = _tiff_tags(name, data)
        width, height = int(tags.get(256, 0)), int(tags.get(257, 0))
        _check_tiff_data(name, data, tags)
        samples, bits, fmt = int(tags.get(277, 1) or 1), _first(tags.get(258), 8), 1
        photometric = int(tags.get(262, 1) or 1)
        kind = SAMPLE_TYPES.get((_first(tags.get(339), fmt), bits), "UNSIGNED_8BITS")
        band_names = _band_names(photometric, samples)
    else:
        try:
            info = granules.read(name, io.BytesIO(data), lambda _n: b"1 0 0 -1 0 0")
        except granules.Unreadable as exc:
            raise Unreadable(f"{name}: {exc}") from None
        width, height, kind, band_names = (
            info.width,
            info.height,
            "UNSIGNED_8BITS",
            list(info.bands),
        )
    if width <= 0 or height <= 0:
        raise Unreadable(f"{name} has no pixels")
    try:
        envelope, srs = granules._world_file(name, ext, width, height, sidecar)
    except granules.Unreadable as exc:
        raise Unreadable(f"{name}: {exc}") from None
    wkt = None
    if srs is None:
        srs, wkt = srs_of_prj(sidecar(name.rsplit(".", 1)[0] + ".prj"))
    return Raster(width, height, envelope, srs, wkt, [Band(n, kind) for n in band_names])


_HEADER = re.compile(r"^\s*([A-Za-z_]+)\s+([-+0-9.eE]+)\s*$")


def read_arcgrid(name: str, data: bytes, sidecar: Sidecar) -> Raster:
    try:
        text = data.decode("ascii")
    except UnicodeDecodeError:
        raise Unreadable(f"{name} is not an ArcGrid ASCII file (it is not text)") from None
    lines = text.splitlines()
    header: dict[str, float] = {}
    body_at = 0
    for i, line in enumerate(lines[:10]):
        match = _HEADER.match(line)
        if not match:
            body_at = i
            break
        header[match.group(1).lower()] = float(match.group(2))
        body_at = i + 1
    for key in ("ncols", "nrows", "cellsize"):
        if key not in header and not (key == "cellsize" and "dx" in header):
            raise Unreadable(f"{name} is not an ArcGrid ASCII file (no {key} in its header)")
    ncols, nrows = int(header["ncols"]), int(header["nrows"])
    dx = header.get("cellsize", header.get("dx", 0.0))
    dy = header.get("cellsize", header.get("dy", dx))
    if ncols <= 0 or nrows <= 0 or dx <= 0 or dy <= 0:
        raise Unreadable(f"{name} has an empty grid or a non-positive cell size")
    if "xllcorner" in header and "yllcorner" in header:
        minx, miny = header["xllcorner"], header["yllcorner"]
    elif "xllcenter" in header and "yllcenter" in header:
        minx, miny = header["xllcenter"] - dx / 2, header["yllcenter"] - dy / 2
    else:
        raise Unreadable(f"{name} has no lower-left corner (xllcorner/yllcorner) in its header")
    cells = sum(len(line.split()) for line in lines[body_at:])
    if cells < ncols * nrows:
        raise Unreadable(
            f"{name} is truncated: its header declares {ncols * nrows} cells, {cells} are present"
        )
    envelope = Envelope(minx, miny, minx + ncols * dx, miny + nrows * dy)
    srs, wkt = srs_of_prj(sidecar(name.rsplit(".", 1)[0] + ".prj"))
    nodata = header.get("nodata_value")
    return Raster(ncols, nrows, envelope, srs, wkt, [Band("GRAY_INDEX", "REAL_32BITS", nodata)])


def _tiff_tags(name: str, data: bytes) -> Any:
    if data[:4] not in (b"II*\x00", b"MM\x00*"):
        raise Unreadable(f"{name} is not a TIFF file")
    from PIL import TiffImagePlugin

    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            ifd = TiffImagePlugin.ImageFileDirectory_v2(data[:8])
            if ifd.next <= 0 or ifd.next >= len(data):
                raise Unreadable(f"{name} is truncated: its first directory lies past the end")
            stream = io.BytesIO(data)
            stream.seek(ifd.next)
            ifd.load(stream)
            tags = {k: ifd[k] for k in list(ifd.keys())}
        if caught:
            raise Unreadable(f"{name} is truncated: its TIFF directory runs past the end")
    except Unreadable:
        raise
    except Exception as exc:  # Pillow raises various kinds for a broken directory
        raise Unreadable(f"{name} has a corrupt TIFF directory ({type(exc).__name__})") from None
    return tags


def _check_tiff_data(name: str, data: bytes, tags: dict[int, Any]) -> None:
    """Every strip or tile the directory declares lies inside the file."""
    offsets = tags.get(273) or tags.get(324) or ()
    counts = tags.get(279) or tags.get(325) or ()
    offsets = offsets if isinstance(offsets, tuple) else (offsets,)
    counts = counts if isinstance(counts, tuple) else (counts,)
    if not offsets or len(offsets) != len(counts):
        raise Unreadable(f"{name} has no image data (its strip or tile table is missing)")
    end = max(int(o) + int(c) for o, c in zip(offsets, counts, strict=True))
    if end > len(data):
        raise Unreadable(
            f"{name} is truncated: its image data ends at byte {end}, the file at {len(data)}"
        )


def _band_names(photometric: int, samples: int) -> list[str]:
    if photometric == 3:
        return ["PALETTE_INDEX"]
    if photometric == 2 and samples >= 3:
        names = ["RED_BAND", "GREEN_BAND", "BLUE_BAND", "ALPHA_BAND"][:samples]
        return names + [f"Band{i + 1}" for i in range(len(names), samples)]
    if samples == 1:
        return ["GRAY_INDEX"]
    if samples == 2:
        return ["GRAY_INDEX", "ALPHA_BAND"]
    return [f"Band{i + 1}" for i in range(samples)]


def _first(value: Any, default: int) -> int:
    if isinstance(value, tuple):
        value = value[0] if value else default
    try:
        return int(value)
    except (TypeError, ValueError):
        return default


def _number(value: Any) -> float | None:
    if value is None:
        return None
    try:
        return float(str(value).strip().rstrip("\x00"))
    except ValueError:
        return None
