"""WCS 1.1.1 GetCoverage parameters, read as GeoServer's ``GetCoverageRequestReader`` and
``DefaultWebCoverageService111`` check them: ``IDENTIFIER``, ``BOUNDINGBOX``
(``minx,miny,maxx,maxy[,crs]``: the native CRS without one; a URN names EPSG's axis order,
latitude first for a geographic CRS), ``TIMESEQUENCE``, ``FORMAT``, ``STORE``, the output
grid (``GridBaseCRS`` among the coverage's response CRSs, ``GridType``, ``GridCS``,
``GridOrigin``, ``GridOffsets``) and ``RangeSubset``
(``contents[:interpolation][Bands[key,...]]``)."""

from __future__ import annotations

import re

from ...crs.envelope import Envelope
from ..catalog.entities import Coverage
from ..ows import rasters
from ..ows.errors import INVALID, MISSING, OwsError
from ..ows.kvp import Call
from . import axes, formats
from .coverage import Request, instant
from .interpolation import wcs11 as interpolation_of

GRID_TYPES = {
    "urn:ogc:def:method:wcs:1.1:2dsimplegrid": 2,
    "urn:ogc:def:method:wcs:1.1:2dgridin2dcrs": 4,
    "urn:ogc:def:method:wcs:1.1:2dgridin3dcrs": 6,
}
GRID_CS = "urn:ogc:def:cs:OGC:0.0:Grid2dSquareCS"
_RANGE = re.compile(
    r"^\s*([^:\[\]]+?)\s*(?::\s*([^\[\]]+?)\s*)?(?:\[\s*([^\[\]]+?)\s*\[([^\]]*)\]\s*\])?\s*$"
)


def read(call: Call, cov: Coverage, ident: str, raster: rasters.Raster, dims: set[str]) -> Request:
    box_text, times = call.get("BOUNDINGBOX"), call.get("TIMESEQUENCE")
    if not box_text and not times:
        raise OwsError(
            "Bounding box cannot be null, TimeSequence has not been specified",
            MISSING,
            "BoundingBox",
        )
    fmt = call.get("FORMAT")
    if not fmt:
        raise OwsError("format parameter is mandatory", MISSING, "format")
    req = Request(cov, ident, formats.for_request(cov, fmt))
    req.empty = lambda: OwsError(
        "The requested bounding box does not intersect the coverage", INVALID, "BoundingBox"
    )
    if box_text:
        req.area, req.area_crs = _bounding_box(box_text)
    _grid_crs(req, call, cov)
    _range_subset(req, call.get("RANGESUBSET"), cov, raster)
    if times and "time" in dims and raster.time_attribute:
        req.time = _times(times)
    return req


def _bounding_box(text: str) -> tuple[Envelope, str | None]:
    parts = [p.strip() for p in text.split(",")]
    crs = parts[4] if len(parts) >= 5 and not _is_number(parts[4]) else None
    numbers = parts[: len(parts) - (1 if crs else 0)]
    try:
        values = [float(p) for p in numbers]
    except ValueError:
        raise OwsError(f"Could not parse the bounding box {text}", INVALID, "BoundingBox") from None
    if len(values) not in (4, 6):
        raise OwsError(f"Could not parse the bounding box {text}", INVALID, "BoundingBox")
    half = len(values) // 2
    lower, upper = values[:2], values[half : half + 2]
    code = None
    if crs is not None:
        from .kvp10 import decode_crs

        try:
            code = decode_crs("EPSG:4326" if crs == "urn:ogc:def:crs:OGC:1.3:CRS84" else crs)
        except OwsError:
            raise OwsError(f"Could not recognize crs {crs}", INVALID, "BoundingBox") from None
        if crs.lower().startswith(("urn:", "http")) and axes.geographic(code):
            lower, upper = lower[::-1], upper[::-1]  # EPSG's order: latitude first
    for i in range(2):
        if lower[i] > upper[i]:
            raise OwsError(
                f"illegal bbox, min of dimension {i + 1}: {lower[i]} is greater than max of same"
                f" dimension: {upper[i]}",
                INVALID,
                "BoundingBox",
            )
    return Envelope(lower[0], lower[1], upper[0], upper[1]), code


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def _grid_crs(req: Request, call: Call, cov: Coverage) -> None:
    base = call.get("GRIDBASECRS")
    if base:
        code = base.rsplit(":", 1)[-1].rsplit("#", 1)[-1].rsplit("/", 1)[-1]
        listed = [s.rsplit(":", 1)[-1] for s in (cov.response_srs or [cov.srs or ""])]
        if code.lower() not in (c.lower() for c in listed):
            raise OwsError(
                f"CRS {base} is not among the supported ones for coverage {cov.name}",
                INVALID,
                "GridBaseCrs",
            )
        req.output_crs = f"EPSG:{code}"
    kind = (call.get("GRIDTYPE") or "urn:ogc:def:method:WCS:1.1:2dGridIn2dCrs").lower()
    offsets_len = GRID_TYPES.get(kind)
    if offsets_len is None:
        raise OwsError(f"Unknown grid type {call.get('GRIDTYPE')}", INVALID, "GridType")
    if offsets_len == 6:
        raise OwsError(f"Unsupported grid type {call.get('GRIDTYPE')}", INVALID, "GridType")
    cs = call.get("GRIDCS")
    if cs and cs.lower() != GRID_CS.lower():
        raise OwsError(f"Unsupported grid cs {cs}", INVALID, "GridCS")
    origin = _doubles(call.get("GRIDORIGIN"), "GridOrigin")
    if origin is not None and len(origin) != 2:
        raise OwsError(
            f"Grid origin size ({len(origin)}) inconsistent with grid type"
            f" {call.get('GRIDTYPE') or kind} that requires (2)",
            INVALID,
            "GridOrigin",
        )
    offsets = _doubles(call.get("GRIDOFFSETS"), "GridOffsets")
    if offsets is not None:
        if len(offsets) != offsets_len:
            raise OwsError(
                f"Invalid offsets lenght, grid type {call.get('GRIDTYPE') or kind} requires"
                f" {offsets_len}",
                INVALID,
                "GridOffsets",
            )
        sx, sy = offsets[0], offsets[-1]
        if sx == 0 or sy == 0:
            raise OwsError("Invalid grid offsets: a pixel size is 0", INVALID, "GridOffsets")
        req.resolution = (abs(sx), abs(sy))
        req.snap = False


def _doubles(text: str | None, locator: str) -> list[float] | None:
    if text is None or not text.strip():
        return None
    try:
        return [float(p) for p in re.split(r"[,\s]+", text.strip())]
    except ValueError:
        raise OwsError(f"Invalid {locator}: {text}", INVALID, locator) from None


def _range_subset(req: Request, text: str | None, cov: Coverage, raster: rasters.Raster) -> None:
    if text is None or not text.strip():
        return
    if ";" in text:
        raise OwsError("Multi field coverages are not supported yet", INVALID, "RangeSubset")
    match = _RANGE.match(text)
    if match is None:
        raise OwsError(f"Invalid RangeSubset {text}", INVALID, "RangeSubset")
    field_id, interp, axis, keys = match.groups()
    if field_id.lower() != "contents":
        raise OwsError(f"Unknown field {field_id}", INVALID, "RangeSubset")
    req.interpolation = interpolation_of(interp, cov)
    if axis is None:
        return
    if axis.lower() != "bands":
        raise OwsError(f"Unknown axis {axis} in field {field_id}", INVALID, "RangeSubset")
    names = [b.name.replace(" ", "_").lower() for b in raster.bands]
    out = []
    for key in (k.strip() for k in (keys or "").split(",") if k.strip()):
        if key.lower() not in names:
            raise OwsError(
                f"Unknown field/axis/key combination {field_id}/{axis}/{key}",
                INVALID,
                "RangeSubset",
            )
        out.append(names.index(key.lower()))
    req.bands = out or None


def _times(text: str) -> list[tuple[object, object]]:
    out: list[tuple[object, object]] = []
    for part in text.split(","):
        bounds = part.strip().split("/")
        low = instant(bounds[0])
        high = instant(bounds[1]) if len(bounds) > 1 else low
        if low is None or high is None:
            raise OwsError(f"Invalid time: {part}", INVALID, "TimeSequence")
        out.append((low, high))
    return out
