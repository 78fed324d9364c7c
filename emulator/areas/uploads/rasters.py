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

Budgets, checked on the header before anything else is read: the samples a file declares
(width × height × bands × bytes per sample) at most ``budget`` bytes (WCS ``maxInputMemory``
where set, else ``DEFAULT_INPUT_MEMORY``); a TIFF's strips or tiles must hold the pixels it
declares (all of them uncompressed, at least ``1 / MAX_COMPRESSION`` of them compressed); an
ArcGrid's cells are counted in chunks of the bytes, never split into a list.
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
from .readers import DEFAULT_INPUT_MEMORY, OverBudget, Unreadable

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
MAX_COMPRESSION = 10_000
"""the most pixel bytes one byte of compressed TIFF data may stand for (deflate's own limit
is about 1,000; fax and LZW codes of blank images go further)"""
CHUNK = 1 << 20
"""bytes of an ArcGrid's text counted at a time"""


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


def read_geotiff(
    name: str, data: bytes, sidecar: Sidecar, budget: int = DEFAULT_INPUT_MEMORY
) -> Raster:
    tags = _tiff_tags(name, data)
    width, height = int(tags.get(256, 0)), int(tags.get(257, 0))
    if width <= 0 or height <= 0:
        raise Unreadable(f"{name} has no pixels")
    _check_tiff_data(name, data, tags, budget)
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


def read_world_image(
    name: str, data: bytes, sidecar: Sidecar, budget: int = DEFAULT_INPUT_MEMORY
) -> Raster:
    ext = granules.extension(name)
    if ext in ("tif", "tiff"):
        tags = _tiff_tags(name, data)
        width, height = int(tags.get(256, 0)), int(tags.get(257, 0))
        if width <= 0 or height <= 0:
            raise Unreadable(f"{name} has no pixels")
        _check_tiff_data(name, data, tags, budget)
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
        check_budget(name, width * height * len(band_names), budget)
    try:
        envelope, srs = granules._world_file(name, ext, width, height, sidecar)
    except granules.Unreadable as exc:
        raise Unreadable(f"{name}: {exc}") from None
    wkt = None
    if srs is None:
        srs, wkt = srs_of_prj(sidecar(name.rsplit(".", 1)[0] + ".prj"))
    return Raster(width, height, envelope, srs, wkt, [Band(n, kind) for n in band_names])


_HEADER = re.compile(rb"^\s*([A-Za-z_]+)\s+([-+0-9.eE]+)\s*$")
_LINE = re.compile(rb"([^\r\n]*)(?:\r\n|\r|\n|$)")
_MARKED = bytes(32 if chr(c) in " \t\n\v\f\r" else 120 for c in range(256))
"""a translation table: white space to a space, any other byte to ``x``"""


def read_arcgrid(
    name: str, data: bytes, sidecar: Sidecar, budget: int = DEFAULT_INPUT_MEMORY
) -> Raster:
    if not data.isascii():
        raise Unreadable(f"{name} is not an ArcGrid ASCII file (it is not text)")
    header, body_at = _arcgrid_header(data)
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
    check_budget(name, ncols * nrows * 4, budget)
    cells = count_tokens(data, body_at, ncols * nrows)
    if cells < ncols * nrows:
        raise Unreadable(
            f"{name} is truncated: its header declares {ncols * nrows} cells, {cells} are present"
        )
    envelope = Envelope(minx, miny, minx + ncols * dx, miny + nrows * dy)
    srs, wkt = srs_of_prj(sidecar(name.rsplit(".", 1)[0] + ".prj"))
    nodata = header.get("nodata_value")
    return Raster(ncols, nrows, envelope, srs, wkt, [Band("GRAY_INDEX", "REAL_32BITS", nodata)])


def _arcgrid_header(data: bytes) -> tuple[dict[str, float], int]:
    """The header's keys and values (at most its first ten lines), and where the cells
    start."""
    header: dict[str, float] = {}
    at = 0
    for _ in range(10):
        line = _LINE.match(data, at)
        assert line is not None  # it matches anywhere, if only the empty string
        match = _HEADER.match(line.group(1))
        if not match:
            break
        header[match.group(1).decode().lower()] = float(match.group(2))
        at = line.end()
    return header, at


def count_tokens(data: bytes, start: int, enough: int) -> int:
    """The whitespace-separated tokens of ``data`` from ``start``, counted ``CHUNK`` bytes at
    a time (each chunk's white space made spaces and the rest ``x``: a token starts at each
    ``" x"``; no token is made), stopping once there are ``enough``."""
    count, spaced = 0, True  # whether the byte before the chunk was white space
    for at in range(start, len(data), CHUNK):
        chunk = data[at : at + CHUNK].translate(_MARKED)
        count += chunk.count(b" x") + (spaced and chunk.startswith(b"x"))
        spaced = chunk.endswith(b" ")
        if count >= enough:
            break
    return count


def check_budget(name: str, size: int, budget: int) -> None:
    """Refuse a raster whose samples (``size`` bytes as its header declares them) are
    more than ``budget`` bytes, before they are read."""
    if size > budget:
        raise OverBudget(
            f"{name} declares {size} bytes of samples; the upload budget is {budget} bytes"
            " (WCS maxInputMemory, else the emulator's default)"
        )


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


def _check_tiff_data(name: str, data: bytes, tags: dict[int, Any], budget: int) -> None:
    """Every strip or tile the directory declares lies inside the file, the samples the
    header declares are within ``budget``, and the strips or tiles are large enough to hold
    them (all of their bytes uncompressed, ``1 / MAX_COMPRESSION`` compressed): a header may
    not declare more pixels than its data can hold."""
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
    declared = _declared_bytes(tags)
    check_budget(name, declared, budget)
    present = sum(int(c) for c in counts)
    compressed = _first(tags.get(259), 1) != 1
    if present * (MAX_COMPRESSION if compressed else 1) < declared:
        what = "compressed " if compressed else ""
        raise Unreadable(
            f"{name} declares {tags.get(256)} × {tags.get(257)} pixels ({declared} bytes of"
            f" samples) but holds {present} bytes of {what}image data"
        )


def _declared_bytes(tags: dict[int, Any]) -> int:
    """The bytes of samples a TIFF header declares (its strips or tiles, padded as TIFF
    pads them: whole bytes per row, whole tiles)."""
    width, height = int(tags.get(256, 0)), int(tags.get(257, 0))
    samples = int(tags.get(277, 1) or 1)
    bits = _first(tags.get(258), 8)
    if 322 in tags and 323 in tags:
        tile_w, tile_h = max(int(tags[322]), 1), max(int(tags[323]), 1)
        tiles = -(-width // tile_w) * -(-height // tile_h)
        return tiles * tile_h * -(-(tile_w * samples * bits) // 8)
    return height * -(-(width * samples * bits) // 8)


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
