"""WCS 2.0.1 GetCoverage parameters, read as GeoServer's ``WCS20GetCoverageRequestReader``,
its KVP parsers and ``WCSDimensionsSubsetHelper`` read them: ``subset`` (trims and slices on
the coverage's axis labels, ``time`` and ``elevation`` on a coverage with those dimensions),
the CRS extension (``subsettingCrs``, ``outputCrs``), scaling (``scalefactor``,
``scaleaxes``, ``scalesize``, ``scaleextent``), ``rangesubset`` and ``interpolation``.

Exceptions carry GeoServer's codes; ``STATUS`` gives their HTTP status (the WCS 2.0 codes
GeoServer answers with 404 are not the OWS common ones).
"""

from __future__ import annotations

import math
import re
from typing import Any

from ...crs.envelope import Envelope
from ..catalog.entities import Coverage
from ..ows import rasters
from ..ows.errors import INVALID, OwsError
from ..ows.kvp import Call
from . import axes, formats
from .coverage import Request, domain, instant, number
from .interpolation import wcs20 as interpolation_of

STATUS = {
    "InvalidEncodingSyntax": 400,
    "InvalidScaleFactor": 404,
    "InvalidExtent": 404,
    "ScaleAxisUndefined": 404,
    "ScalingAxisUndefined": 404,
    "InterpolationMethodNotSupported": 404,
    "NotACrs": 404,
    "SubsettingCrs-NotSupported": 404,
    "OutputCrs-NotSupported": 404,
    "NoSuchCoverage": 404,
    "InvalidSubsetting": 404,
    "InvalidAxisLabel": 404,
    "NoSuchField": 404,
    "emptyCoverageIdList": 404,
}
SYNTAX = "InvalidEncodingSyntax"
SUBSETTING = "InvalidSubsetting"
AXIS = "InvalidAxisLabel"
TIME_NAMES = ("t", "time", "temporal", "phenomenontime")
ELEVATION_NAMES = ("elevation",)
AXIS_PREFIXES = (
    "http://www.opengis.net/def/axis/OGC/0/",
    "http://opengis.net/def/axis/OGC/0/",
    "http://opengis.net/def/crs/ISO/2004/",
)
GRID_AXES = {
    "i": 0,
    "j": 1,
    "http://www.opengis.net/def/axis/OGC/1/i": 0,
    "http://www.opengis.net/def/axis/OGC/1/j": 1,
}
_SYNTAX_TEXT = "Invalid syntax, dimension [ , crs ] ( intervalOrPoint ) is expected"


def parse_subset(value: str) -> tuple[str, str | None, list[str | None]]:
    """(dimension, crs, points) of one ``subset`` value: one point is a slice, two a trim
    (``None`` for ``*``)."""
    value = value.strip()
    open_at, close_at = value.find("("), value.find(")")
    if open_at == -1 or close_at == -1 or close_at < len(value) - 1:
        raise OwsError(_SYNTAX_TEXT, SYNTAX, "subset")
    head = re.split(r"\s*,\s*", value[:open_at])
    if len(head) > 2:
        raise OwsError(_SYNTAX_TEXT, SYNTAX, "subset")
    dimension, crs = head[0], head[1] if len(head) == 2 else None
    parts = re.split(r',\s*(?=(?:[^"]*"[^"]*")*[^"]*$)', value[open_at + 1 : close_at])
    if len(parts) not in (1, 2):
        raise OwsError(
            _SYNTAX_TEXT + " where interval or point has either 1 or two elements", SYNTAX, "subset"
        )
    return dimension, crs, [_point(p, len(parts) == 2) for p in parts]


def _point(text: str, star: bool) -> str | None:
    point = text.strip()
    if point == "*":
        if star:
            return None
        raise OwsError(
            "Invalid usage of *, it can be used only when specifying an interval", SYNTAX, "subset"
        )
    if len(point) >= 2 and point.startswith('"') and point.endswith('"'):
        return point[1:-1]
    try:
        float(point)
    except ValueError:
        raise OwsError(
            f"Invalid point value {point}, it is not a number and it's not between double quotes",
            SYNTAX,
            "subset",
        ) from None
    return point


def read(call: Call, cov: Coverage, ident: str, raster: rasters.Raster, dims: set[str]) -> Request:
    """The request of ``call``; ``dims`` are the coverage's enabled dimensions."""
    media = call.get("MEDIATYPE")
    if media:
        raise OwsError(
            f"mediaType {media} is not emulated (the coverage is answered alone)",
            INVALID,
            "mediaType",
        )
    fmt = formats.for_request(cov, call.get("FORMAT") or "image/tiff", check_declared=False)
    sub_crs = _crs(call.get("SUBSETTINGCRS"), "subsettingCrs", "SubsettingCrs-NotSupported")
    out_crs = _crs(call.get("OUTPUTCRS"), "outputCrs", "OutputCrs-NotSupported")
    req = Request(cov, ident, fmt, output_crs=out_crs, area_crs=sub_crs)
    req.empty = lambda: OwsError("Empty intersection after subsetting", SUBSETTING, "")
    _subsets(req, call.values("SUBSET"), raster, dims, sub_crs)
    _scaling(req, call)
    req.bands = _range_subset(call.get("RANGESUBSET"), raster)
    req.interpolation = interpolation_of(call.get("INTERPOLATION"))
    return req


def _crs(value: str | None, name: str, code: str) -> str | None:
    if value is None:
        return None
    from ...crs.registry import lookup, parse

    try:
        lookup(value)
        found = parse(value)
    except Exception:  # the registry refuses it (Invalid or NotFound)
        raise OwsError(f"Invalid {name}", code, value) from None
    return "CRS:84" if found.id == "CRS:84" else found.id


def _subsets(
    req: Request, values: list[str], raster: rasters.Raster, dims: set[str], sub_crs: str | None
) -> None:
    parsed = [parse_subset(v) for v in values]
    if len(parsed) > 2 + len(dims):
        raise OwsError("Invalid number of dimensions", SUBSETTING, str(len(parsed)))
    crs = sub_crs or raster.srs
    labels = axes.labels(crs)
    env = raster.envelope if sub_crs is None else _envelope_in(raster, sub_crs)
    low = [env.minx, env.miny]
    high = [env.maxx, env.maxy]
    seen: list[str] = []
    spatial = False
    for dimension, _, points in parsed:
        name = _dimension_name(dimension)
        if name.lower() in TIME_NAMES or name.lower() in ELEVATION_NAMES:
            kind = "time" if name.lower() in TIME_NAMES else "elevation"
            if kind not in dims:
                raise OwsError(f"Invalid axis label provided: {name}", AXIS, None)
            _dimension(req, kind, points, raster)
            continue
        index = axes.index(labels, name, crs)
        if index is None:
            raise OwsError(f"Invalid axis label provided: {name}", AXIS, name or "Null")
        if name in seen:
            raise OwsError("Axis label already used during subsetting", AXIS, name)
        seen.append(name)
        spatial = True
        _spatial(index, points, env, low, high)
    if spatial:
        req.area = Envelope(low[0], low[1], high[0], high[1])
    elif sub_crs is not None:
        req.area_crs = None


def _envelope_in(raster: rasters.Raster, crs: str) -> Envelope:
    from ...raster import reproject

    try:
        return reproject.envelope(raster.envelope, raster.srs or crs, crs)
    except reproject.NoTransform:
        raise OwsError(
            "Unable to initialize subsetting envelope", "SubsettingCrs-NotSupported", crs
        ) from None


def _dimension_name(dimension: str) -> str:
    name = dimension
    for prefix in AXIS_PREFIXES:
        if name.startswith(prefix):
            name = name[len(prefix) :]
            break
    if not name:
        raise OwsError(f"Empty/invalid axis label provided: {dimension}", AXIS, "subset")
    return name


def _spatial(
    index: int,
    points: list[str | None],
    env: Envelope,
    low: list[float],
    high: list[float],
) -> None:
    bounds = (env.minx, env.maxx) if index == 0 else (env.miny, env.maxy)
    if len(points) == 2:
        lo = float(points[0]) if points[0] is not None else -math.inf
        hi = float(points[1]) if points[1] is not None else math.inf
        if lo > hi:
            raise OwsError("Low greater than High", SUBSETTING, points[0])
        low[index], high[index] = lo, hi
        return
    text = points[0] or ""
    try:
        point = float(text)
    except ValueError:
        raise OwsError("SlicePoint outside coverage envelope", SUBSETTING, text) from None
    if point < bounds[0] or point > bounds[1]:
        raise OwsError("SlicePoint outside coverage envelope", SUBSETTING, text)
    low[index], high[index] = point, point  # the pixel holding the point (see fidelity.md)


def _dimension(req: Request, kind: str, points: list[str | None], raster: rasters.Raster) -> None:
    current = req.time if kind == "time" else req.elevation
    if current is not None:
        label = "Time" if kind == "time" else "Elevation"
        raise OwsError(
            f"{label} dimension trimming/slicing specified twice in the request",
            SUBSETTING,
            "subset",
        )
    reader = instant if kind == "time" else number
    attr = raster.time_attribute if kind == "time" else raster.elevation_attribute
    values = [_dim_value(reader, p) for p in points]
    if len(values) == 2:
        lo, hi = values
        if lo is not None and hi is not None and lo > hi:
            raise OwsError(f"Low greater than High: {points[0]}, {points[1]}", SUBSETTING, "subset")
        known = domain(raster, attr, reader)
        lo = lo if lo is not None else (known[0] if known else None)
        hi = hi if hi is not None else (known[-1] if known else None)
        ranges = [(lo, hi)] if lo is not None and hi is not None else []
    else:
        point = values[0]
        known = domain(raster, attr, reader)
        if kind == "time" and known and point not in known:  # GeoServer's nearest match on time
            point = min(known, key=lambda v: (abs((v - point).total_seconds()), v))
        ranges = [(point, point)]
    if kind == "time":
        req.time = ranges
    else:
        req.elevation = ranges


def _dim_value(reader: Any, point: str | None) -> Any:
    if point is None:
        return None
    found = reader(point)
    if found is None:
        raise OwsError(f"Invalid value for a dimension subset: {point}", SUBSETTING, "subset")
    return found


def _scaling(req: Request, call: Call) -> None:
    kinds = [k for k in ("SCALEFACTOR", "SCALEAXES", "SCALESIZE", "SCALEEXTENT") if call.get(k)]
    if len(kinds) > 1:
        raise OwsError(
            "Invalid scaling: more than one scaling method specified", INVALID, "scaling"
        )
    if not kinds:
        return
    text = call.get(kinds[0]) or ""
    if kinds[0] == "SCALEFACTOR":
        factor = _number(text, "InvalidScaleFactor", text)
        if factor <= 0:
            raise OwsError("Invalid scale factor", "InvalidScaleFactor", _java(factor))
        req.scale = (factor, factor)
        return
    items = _axis_items(text)
    if kinds[0] == "SCALEAXES":
        factors = [1.0, 1.0]
        for axis, value in items:
            factor = _number(value, "InvalidScaleFactor", value)
            if factor <= 0:
                raise OwsError("Invalid scale factor", "InvalidScaleFactor", _java(factor))
            factors[_grid_axis(axis)] = factor
        req.scale = (factors[0], factors[1])
    elif kinds[0] == "SCALESIZE":
        sizes = [0, 0]
        for axis, value in items:
            size = _number(value, "InvalidExtent", value)
            if size <= 0 or size != int(size):
                raise OwsError(f"Invalid target size {value}", "InvalidExtent", value)
            sizes[_grid_axis(axis)] = int(size)
        _need_both(sizes, items)
        req.size = (sizes[0], sizes[1])
    else:
        sizes = [0, 0]
        for axis, value in items:
            lo_hi = value.split(":")
            if len(lo_hi) != 2:
                raise OwsError(f"Invalid extent {value}", "InvalidExtent", value)
            lo = int(_number(lo_hi[0], "InvalidExtent", value))
            hi = int(_number(lo_hi[1], "InvalidExtent", value))
            if lo >= hi:
                raise OwsError(f"Invalid Extent for dimension:{axis}", "InvalidExtent", str(hi))
            sizes[_grid_axis(axis)] = hi - lo + 1
        _need_both(sizes, items)
        req.size = (sizes[0], sizes[1])


def _need_both(sizes: list[int], items: list[tuple[str, str]]) -> None:
    for axis, size in zip(("i", "j"), sizes, strict=True):
        if size == 0:
            raise OwsError(f"Missing extent along {axis}", "InvalidExtent", "Null")


def _axis_items(text: str) -> list[tuple[str, str]]:
    """``i(2),j(3)`` → [(i, 2), (j, 3)]."""
    found = re.findall(r"\s*([^,()]+?)\s*\(([^()]*)\)\s*(?:,|$)", text)
    if not found:
        raise OwsError(f"Invalid scaling value {text}", SYNTAX, "scaling")
    return [(a.strip(), b.strip()) for a, b in found]


def _grid_axis(axis: str) -> int:
    index = GRID_AXES.get(axis)
    if index is None:
        raise OwsError("Scale Axis Undefined", "ScaleAxisUndefined", axis)
    return index


def _number(text: str, code: str, locator: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise OwsError(f"Invalid number {text}", code, locator) from None
    if not math.isfinite(value):
        raise OwsError(f"Invalid number {text}", code, locator)
    return value


def _java(value: float) -> str:
    return f"{value:.1f}" if value == int(value) else repr(value)


def _range_subset(text: str | None, raster: rasters.Raster) -> list[int] | None:
    """Band indexes of ``rangesubset`` (names and ``first:last`` intervals)."""
    if not text:
        return None
    names = [b.name for b in raster.bands]
    out: list[int] = []
    for item in (t.strip() for t in text.split(",")):
        if ":" in item:
            start, end = (p.strip() for p in item.split(":", 1))
            for name in (start, end):
                if name not in names:
                    raise OwsError("Invalid Band Name", "NoSuchField", name)
            a, b = names.index(start), names.index(end)
            out.extend(range(a, b + 1) if a <= b else [a])
        elif item in names:
            out.append(names.index(item))
        else:
            raise OwsError("Invalid Band Name", "NoSuchField", item)
    return out or None
