"""What every version's GetCoverage does once its parameters are read: the ``Request``
(area, CRSs, size or scale, interpolation, bands, dimension selection, format) run over the
coverage's pixels (``ows/rasters.py``) into a ``Grid`` in the output CRS.

The order is GeoServer's: the area is intersected with the coverage's envelope (in its
native CRS), the output grid is decided and checked against the WCS limits
(``maxInputMemory``, ``maxOutputMemory``, KiB; the emulator's own bounds where they are 0)
before any pixel is allocated, then the pieces (a file, or a mosaic's selected granules,
the first one covering a pixel wins) are sampled onto it.
"""

from __future__ import annotations

import datetime
import math
from collections.abc import Callable
from typing import Any

from ...core.record import field, record
from ...crs.envelope import Envelope
from ...raster import reproject
from ...raster.model import Grid, Target, bytes_per_sample, fill_value
from ...raster.resample import NEAREST, sample
from ..catalog.entities import Coverage
from ..ows import rasters
from ..ows.errors import NO_CODE, OwsError
from .formats import Format

DEFAULT_OUTPUT_MEMORY = 256 * 1024 * 1024
"""the most bytes an answer may hold when ``maxOutputMemory`` is 0 (GeoServer then has no
limit; the emulator, which holds the answer in memory, keeps this one)"""
DEFAULT_INPUT_MEMORY = 1024 * 1024 * 1024
"""the most bytes a request may read when ``maxInputMemory`` is 0 (the upload budget)"""

Ranges = list[tuple[Any, Any]]
"""closed ranges of instants or numbers (a single value is a range of one)"""


@record
class Request:
    coverage: Coverage
    ident: str
    format: Format
    area: Envelope | None = None
    """the requested box in ``area_crs`` (None: the whole coverage)"""
    area_crs: str | None = None
    """None: the coverage's native CRS"""
    output_crs: str | None = None
    size: tuple[int, int] | None = None
    """(width, height) of the answer"""
    resolution: tuple[float, float] | None = None
    """(x, y) pixel size in the output CRS"""
    scale: tuple[float, float] | None = None
    """factors on the native pixel counts (WCS 2.0 scaling)"""
    snap: bool = True
    """crop on the native pixel edges (WCS 1.1.1, 2.0.1) rather than on the box (1.0.0)"""
    interpolation: str = NEAREST
    bands: list[int] | None = None
    """0-based indexes of the bands to answer, in order (None: all)"""
    time: Ranges | None = None
    elevation: Ranges | None = None
    empty: Callable[[], OwsError] = field(
        default=lambda: OwsError("Empty intersection after subsetting", NO_CODE)
    )
    """the exception of a box outside the coverage (each version words its own)"""


def limits(service: dict[str, Any]) -> tuple[int, int]:
    """(input, output) limits in bytes: the WCS settings' KiB, the emulator's when 0."""
    inp = int(service.get("maxInputMemory") or 0) * 1024
    out = int(service.get("maxOutputMemory") or 0) * 1024
    return inp if inp > 0 else DEFAULT_INPUT_MEMORY, out if out > 0 else DEFAULT_OUTPUT_MEMORY


def format_bytes(count: int) -> str:
    """A byte count as GeoServer's ``WCSUtils.formatBytes`` writes it (``#.##`` KB/MB)."""
    if count < 1024:
        return f"{count}B"
    if count < 1024 * 1024:
        return f"{_two(count / 1024.0)}KB"
    return f"{_two(count / 1024.0 / 1024.0)}MB"


def _two(value: float) -> str:
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return text


def too_much(kind: str, limit: int, actual: int) -> OwsError:
    if kind == "read":
        text = (
            f"This request is trying to read too much data, the limit is {format_bytes(limit)}"
            f" but the actual amount of bytes to be read is {format_bytes(actual)}"
        )
    else:
        text = (
            "This request is trying to generate too much data, the limit is "
            f"{format_bytes(limit)} but the actual amount of bytes to be written in the output"
            f" is {format_bytes(actual)}"
        )
    return OwsError(text, NO_CODE)


def check_output(width: int, height: int, bands: int, dtype: str, limit: int) -> None:
    actual = width * height * bands * bytes_per_sample(dtype)
    if actual > limit:
        raise too_much("write", limit, actual)


def raster_of(state: Any, cov: Coverage) -> rasters.Raster:
    found = rasters.raster(state, cov)
    if found is None:
        raise OwsError(
            f"Failed to read the coverage {cov.workspace}:{cov.name}: the emulator holds no"
            " pixels for it",
            NO_CODE,
        )
    return found


def run(state: Any, req: Request, raster: rasters.Raster, service: dict[str, Any]) -> Grid:
    """The answer's grid, after the limits are checked."""
    native = raster.srs
    out_crs = req.output_crs or native
    area = _native_area(req, raster)
    band_index = req.bands if req.bands is not None else list(range(len(raster.bands)))
    target = _target(req, raster, area, out_crs)
    in_limit, out_limit = limits(service)
    sx, sy = raster.resolution
    read = (
        math.ceil((area.maxx - area.minx) / sx)
        * math.ceil((area.maxy - area.miny) / sy)
        * len(band_index)
        * bytes_per_sample(raster.dtype)
    )
    if read > in_limit:
        raise too_much("read", in_limit, read)
    check_output(target.width, target.height, len(band_index), raster.dtype, out_limit)
    return _compose(req, raster, target, band_index, out_crs)


def _native_area(req: Request, raster: rasters.Raster) -> Envelope:
    """The requested box in the native CRS, intersected with the coverage's envelope (on
    its pixel edges when ``snap``)."""
    env = raster.envelope
    box = req.area
    if box is None:
        return env
    if req.area_crs is not None and not _same(req.area_crs, raster.srs):
        try:
            box = reproject.envelope(box, req.area_crs, raster.srs or req.area_crs)
        except reproject.NoTransform:
            raise req.empty() from None
    inter = Envelope(
        max(box.minx, env.minx),
        max(box.miny, env.miny),
        min(box.maxx, env.maxx),
        min(box.maxy, env.maxy),
    )
    if inter.minx > inter.maxx or inter.miny > inter.maxy:
        raise req.empty()
    if not req.snap:
        return inter
    sx, sy = raster.resolution
    eps = 1e-9
    c0 = math.floor((inter.minx - env.minx) / sx + eps)
    c1 = max(math.ceil((inter.maxx - env.minx) / sx - eps), c0 + 1)
    r0 = math.floor((env.maxy - inter.maxy) / sy + eps)
    r1 = max(math.ceil((env.maxy - inter.miny) / sy - eps), r0 + 1)
    c1, r1 = min(c1, raster.width), min(r1, raster.height)
    c0, r0 = min(c0, c1 - 1), min(r0, r1 - 1)
    return Envelope(env.minx + c0 * sx, env.maxy - r1 * sy, env.minx + c1 * sx, env.maxy - r0 * sy)


def _same(a: str | None, b: str | None) -> bool:
    try:
        return reproject.same(a, b)
    except Exception:  # an unknown code: not the same
        return False


def _target(req: Request, raster: rasters.Raster, area: Envelope, out_crs: str | None) -> Target:
    sx, sy = raster.resolution
    cols = max(1, round((area.maxx - area.minx) / sx))
    rows = max(1, round((area.maxy - area.miny) / sy))
    env = area
    if out_crs is not None and raster.srs is not None and not _same(out_crs, raster.srs):
        env = reproject.envelope(area, raster.srs, out_crs)
        rows = max(1, math.ceil(cols / ((env.maxx - env.minx) / (env.maxy - env.miny))))
    if req.size is not None:
        cols, rows = req.size
    elif req.resolution is not None:
        rx, ry = req.resolution
        cols = max(1, round((env.maxx - env.minx) / abs(rx)))
        rows = max(1, round((env.maxy - env.miny) / abs(ry)))
    elif req.scale is not None:
        cols, rows = int(cols * req.scale[0]), int(rows * req.scale[1])
    return Target(cols, rows, env, out_crs)


def _compose(
    req: Request, raster: rasters.Raster, target: Target, bands: list[int], out_crs: str | None
) -> Grid:
    import numpy as np

    chosen = tuple(raster.bands[i] for i in bands)
    nodata = next((b.nodata for b in chosen if b.nodata is not None), None)
    to_source = None
    if out_crs is not None and raster.srs is not None and not _same(out_crs, raster.srs):
        to_source = reproject.points(out_crs, raster.srs)
    out: Any = None
    filled: Any = None
    for piece in select(req, raster, target, to_source):
        pixels = piece.read()
        picked = (
            pixels[bands] if len(bands) != pixels.shape[0] or bands != sorted(bands) else pixels
        )
        grid = Grid(picked, piece.envelope, raster.srs, chosen)
        values, covered = sample(grid, target, req.interpolation, to_source)
        if out is None:
            out = np.full(values.shape, fill_value(values.dtype.name, nodata), dtype=values.dtype)
            filled = np.zeros(covered.shape, dtype=bool)
        fresh = covered & ~filled
        out[:, fresh] = values[:, fresh]
        filled |= covered
    if out is None:
        shape = (len(bands), target.height, target.width)
        out = np.full(shape, fill_value(raster.dtype, nodata), dtype=raster.dtype)
    return Grid(out, target.envelope, out_crs, chosen)


def select(
    req: Request, raster: rasters.Raster, target: Target, to_source: Any
) -> list[rasters.Piece]:
    """The pieces that may cover the target, in drawing order: a mosaic's granules at the
    requested (or default) time and elevation, most recent first."""
    pieces = raster.pieces
    if not raster.mosaic:
        return pieces
    if to_source is None:
        pieces = [p for p in pieces if p.envelope.intersects(target.envelope)]
    if raster.time_attribute and req.time is not None:
        pieces = [
            p for p in pieces if _within(instant(p.values.get(raster.time_attribute)), req.time)
        ]
    if raster.elevation_attribute and req.elevation is not None:
        pieces = [
            p
            for p in pieces
            if _within(number(p.values.get(raster.elevation_attribute)), req.elevation)
        ]
    if raster.time_attribute:
        attr = raster.time_attribute
        epoch = datetime.datetime(1, 1, 1, tzinfo=datetime.UTC)
        pieces = sorted(pieces, key=lambda p: instant(p.values.get(attr)) or epoch, reverse=True)
    return pieces


def _within(value: Any, ranges: Ranges) -> bool:
    return value is not None and any(lo <= value <= hi for lo, hi in ranges)


def instant(value: Any) -> datetime.datetime | None:
    if isinstance(value, datetime.datetime):
        return value if value.tzinfo else value.replace(tzinfo=datetime.UTC)
    if isinstance(value, datetime.date):
        return datetime.datetime(value.year, value.month, value.day, tzinfo=datetime.UTC)
    if value is None or value == "":
        return None
    from ...filters.converters import parse_instant

    return parse_instant(str(value))


def number(value: Any) -> float | None:
    if value is None or value == "" or isinstance(value, bool):
        return None
    try:
        return float(value)
    except (TypeError, ValueError):
        return None


def domain(raster: rasters.Raster, attribute: str | None, read: Callable[[Any], Any]) -> list[Any]:
    """The distinct values of a mosaic attribute over its granules, sorted."""
    if not attribute:
        return []
    found = {read(p.values.get(attribute)) for p in raster.pieces}
    return sorted(v for v in found if v is not None)
