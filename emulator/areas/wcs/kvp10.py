"""WCS 1.0.0 GetCoverage parameters, read as GeoServer's ``Wcs10GetCoverageRequestReader``
and ``DefaultWebCoverageService100`` check them: ``CRS`` and ``BBOX`` (mandatory; longitude
first), ``WIDTH``/``HEIGHT`` or ``RESX``/``RESY``, ``RESPONSE_CRS``, ``FORMAT`` (one the
coverage lists), ``INTERPOLATION``, ``BAND`` (1-based: ``1,3``, ``1/3``, ``1/5/2``),
``TIME`` and ``ELEVATION`` (the latest time and lowest elevation when not given)."""

from __future__ import annotations

from typing import Any

from ...crs.envelope import Envelope
from ..catalog.entities import Coverage
from ..ows import rasters
from ..ows.errors import INVALID, MISSING, NO_CODE, OwsError
from ..ows.kvp import Call, bbox_numbers
from . import formats
from .coverage import Ranges, Request, domain, instant, number
from .interpolation import wcs10 as interpolation_of


def read(call: Call, cov: Coverage, ident: str, raster: rasters.Raster, dims: set[str]) -> Request:
    crs_name = call.get("CRS")
    if not crs_name:
        raise OwsError("CRS parameter is mandatory", MISSING, "crs")
    crs = decode_crs(crs_name)
    text = call.get("BBOX")
    if not text:
        raise OwsError("bbox parameter is mandatory", MISSING, "bbox")
    minx, miny, maxx, maxy = bbox_numbers(text)
    for axis, low, high in (("X", minx, maxx), ("Y", miny, maxy)):
        if low > high:
            raise OwsError(
                f"illegal bbox, min{axis}: {low} is greater than max{axis}: {high}", INVALID, "bbox"
            )
    req = Request(cov, ident, formats.FORMATS[0], Envelope(minx, miny, maxx, maxy), crs)
    req.snap = False
    req.empty = lambda: OwsError(
        "The request bbox is outside of the coverage area", INVALID, "bbox"
    )
    _grid(req, call)
    fmt = call.get("FORMAT")
    if not fmt:
        raise OwsError("format parameter is mandatory", MISSING, "format")
    req.format = formats.for_request(cov, fmt)
    response = call.get("RESPONSE_CRS")
    req.output_crs = decode_crs(response) if response else crs
    req.interpolation = interpolation_of(call.get("INTERPOLATION"), cov)
    req.bands = bands(call.get("BAND"), len(raster.bands))
    if "time" in dims and raster.time_attribute:
        req.time = _values(call.get("TIME"), instant) or _latest(raster)
    if "elevation" in dims and raster.elevation_attribute:
        known = domain(raster, raster.elevation_attribute, number)
        req.elevation = _values(call.get("ELEVATION"), number) or (
            [(known[0], known[0])] if known else None
        )
    return req


def decode_crs(name: str) -> str:
    """A 1.0.0 CRS name (``WGS84(DD)`` is EPSG:4326), or ``Could not recognize crs``."""
    from ...crs.registry import lookup, parse

    text = "EPSG:4326" if name == "WGS84(DD)" else name
    try:
        lookup(text)
        return parse(text).id
    except Exception:  # the registry refuses it (Invalid or NotFound)
        raise OwsError(f"Could not recognize crs {name}", INVALID, "crs") from None


def _grid(req: Request, call: Call) -> None:
    for key in ("DEPTH", "RESZ"):
        if call.get(key):
            raise OwsError("3D grids are not supported.", INVALID, key.lower())
    width, height = call.get("WIDTH"), call.get("HEIGHT")
    if width is not None and height is not None:
        req.size = (_positive_int(width, "width"), _positive_int(height, "height"))
        return
    resx, resy = call.get("RESX"), call.get("RESY")
    if resx is not None and resy is not None:
        rx, ry = _positive(resx, "resx"), _positive(resy, "resy")
        box = req.area
        assert box is not None
        if (box.maxx - box.minx) / rx < 2 or (box.maxy - box.miny) / ry < 2:
            raise OwsError('Illegal argument: "resolutions".', NO_CODE)
        req.resolution = (rx, ry)
        return
    raise OwsError("Could not recognize grid resolution", INVALID, None)


def _positive_int(text: str, key: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise OwsError(f"Invalid {key}: {text}", INVALID, key) from None
    if value <= 0:
        raise OwsError(f"Invalid {key}: {text}, it must be positive", INVALID, key)
    return value


def _positive(text: str, key: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise OwsError(f"Invalid {key}: {text}", INVALID, key) from None
    if not value > 0 or value == float("inf"):
        raise OwsError(f"Invalid {key}: {text}, it must be positive", INVALID, key)
    return value


def bands(text: str | None, count: int) -> list[int] | None:
    """0-based band indexes of a ``BAND`` value (``2``, ``1,3``, ``1/3``, ``1/5/2``)."""
    if text is None or not text.strip():
        return None
    try:
        if "/" in text:
            parts = [int(round(float(p))) for p in text.split("/")]
            step = parts[2] if len(parts) > 2 else 1
            if len(parts) > 3 or step <= 0:
                raise ValueError(text)
            picked = list(range(parts[0], parts[1] + 1, step))
        else:
            picked = [int(p) for p in text.split(",") if p.strip()]
    except ValueError:
        raise OwsError(
            f'Band parameters incorrectly specified: For input string: "{text}"', NO_CODE
        ) from None
    if not picked or any(b < 1 or b > count for b in picked):
        raise OwsError(
            f"Band Select Operation: band index out of range 1..{count}: {text}", NO_CODE
        )
    return [b - 1 for b in picked]


def _values(text: str | None, reader: Any) -> Ranges | None:
    """Ranges of a ``TIME``/``ELEVATION`` value (``a,b``, ``start/end``)."""
    if text is None or not text.strip():
        return None
    out: Ranges = []
    for part in text.split(","):
        bounds = part.strip().split("/")
        low = reader(bounds[0])
        high = reader(bounds[1]) if len(bounds) > 1 else low
        if low is None or high is None:
            raise OwsError(
                f"Invalid value: {part}", INVALID, "time" if reader is instant else "elevation"
            )
        out.append((low, high))
    return out


def _latest(raster: rasters.Raster) -> Ranges | None:
    known = domain(raster, raster.time_attribute, instant)
    return [(known[-1], known[-1])] if known else None
