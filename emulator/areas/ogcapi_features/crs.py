"""CRSs as OGC API Features names them (OGC URIs: ``…/def/crs/OGC/1.3/CRS84``,
``…/def/crs/EPSG/0/3857``), and reprojection of geometries and boxes between them.

The ``crs``, ``bbox-crs`` and ``filter-crs`` parameters take what GeoTools'
``CRS.decode`` takes (``EPSG:3857``, ``urn:ogc:def:crs:EPSG::3857``, the OGC URIs,
``CRS:84``, a safe CURIE ``[EPSG:3857]``); a CRS the EPSG database does not hold is a
``ValueError``. A feature type's ``EPSG:4326`` is CRS84, as GeoServer (which forces longitude
first) reports it. Coordinates are held longitude first; an answer in a CRS named by URI or
URN whose first axis is north (``…/EPSG/0/4326``) is written latitude first, as GeoTools
writes the authority's axis order; ``EPSG:4326`` and CRS84 are written longitude first.

The common transforms (geographic ↔ spherical Mercator) run without PROJ
(``ows/crs.py``); any other goes through pyproj, imported on first use.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, NamedTuple

from ...core.errors import EmulatorError
from ...crs import registry
from ..ows import crs as fast

CRS84 = "http://www.opengis.net/def/crs/OGC/1.3/CRS84"
EPSG_URI = "http://www.opengis.net/def/crs/EPSG/0/"
NO_CRS = "EPSG:404000"

Transform = Callable[[Any], Any]
"""an (N, 2) array of x/y (longitude first) to another CRS's"""


class Crs(NamedTuple):
    code: str
    """``EPSG:<n>`` or ``CRS:84``"""
    uri: str
    """the OGC URI GeoServer writes"""
    lat_first: bool
    """written latitude first (named by URI or URN, with a north-first axis)"""


WGS84 = Crs("CRS:84", CRS84, False)


def parse(identifier: str) -> Crs:
    """The CRS a parameter names; ``ValueError`` when it names none."""
    text = identifier.strip()
    if text.startswith("[") and text.endswith("]"):
        text = text[1:-1]
    if text.upper() in ("CRS:84", "OGC:CRS84") or text.rstrip("/").endswith("/OGC/1.3/CRS84"):
        return WGS84
    if text.upper() == "URN:OGC:DEF:CRS:OGC:1.3:CRS84":
        return WGS84
    try:
        code = registry.parse(text)
        if code.authority != "EPSG":
            raise ValueError(text)
        found = registry.lookup(f"EPSG:{code.code}")
    except (EmulatorError, ValueError):
        raise ValueError(text) from None
    by_uri = text.lower().startswith(("urn:", "http://", "https://"))
    lat_first = by_uri and _north_first(found)
    return Crs(f"EPSG:{code.code}", EPSG_URI + code.code, lat_first)


def _north_first(crs: Any) -> bool:
    axes = crs.axis_info
    return bool(axes) and axes[0].direction.lower() in ("north", "south")


def uri_of(srs: str | None) -> str | None:
    """The OGC URI of a feature type's CRS (``EPSG:4326`` → CRS84); None without a code."""
    if not srs:
        return None
    code = srs.strip().upper()
    if code in ("EPSG:4326", "CRS:84"):
        return CRS84
    if code.startswith("EPSG:") and code[5:].isdigit() and code != NO_CRS:
        return EPSG_URI + code[5:]
    return None


def same(a: str | None, b: str | None) -> bool:
    """Whether two CRS codes hold the same coordinates (CRS84 and EPSG:4326 do)."""
    norm = {"CRS:84": "EPSG:4326"}
    x, y = (norm.get((s or "").upper(), (s or "").upper()) for s in (a, b))
    return x == y


def transform(source: str | None, target: str) -> Transform | None:
    """x/y in ``source`` (a feature type's CRS: a code or a WKT) to ``target`` (a code);
    None for the identity. ``ValueError`` when the source cannot be read."""
    if not source or source.upper() == NO_CRS or same(source, target):
        return None
    quick = fast.transform_array(source, target) if source.upper().startswith("EPSG:") else None
    if quick is not None:
        return quick
    return _pyproj(source, target)


@functools.lru_cache(maxsize=64)
def _pyproj(source: str, target: str) -> Transform:
    import numpy
    import pyproj

    def read(crs: str) -> Any:
        try:
            return pyproj.CRS.from_user_input("OGC:CRS84" if crs.upper() == "CRS:84" else crs)
        except pyproj.exceptions.CRSError:
            raise ValueError(f"Cannot read the CRS {crs[:60]}") from None

    proj = pyproj.Transformer.from_crs(read(source), read(target), always_xy=True)

    def apply(xy: Any) -> Any:
        x, y = proj.transform(xy[:, 0], xy[:, 1])
        return numpy.column_stack((x, y))

    return apply


def geometry(geom: Any, fn: Transform | None, flip: bool = False) -> Any:
    """``geom`` transformed (and its axes swapped with ``flip``)."""
    if fn is None and not flip:
        return geom
    import shapely

    def run(xy: Any) -> Any:
        out = fn(xy) if fn is not None else xy
        return out[:, ::-1] if flip else out

    return shapely.transform(geom, run)


def box(
    bounds: tuple[float, float, float, float], fn: Transform | None
) -> tuple[float, float, float, float]:
    """The bounds of a box transformed (its edges sampled, so that a curved edge is kept)."""
    if fn is None:
        return bounds
    import numpy

    minx, miny, maxx, maxy = bounds
    steps = numpy.linspace(0.0, 1.0, 21)
    xs = numpy.concatenate([minx + (maxx - minx) * steps, numpy.full(21, maxx)])
    xs = numpy.concatenate([xs, maxx - (maxx - minx) * steps, numpy.full(21, minx)])
    ys = numpy.concatenate([numpy.full(21, miny), miny + (maxy - miny) * steps])
    ys = numpy.concatenate([ys, numpy.full(21, maxy), maxy - (maxy - miny) * steps])
    out = fn(numpy.column_stack((xs, ys)))
    finite = out[numpy.isfinite(out).all(axis=1)]
    if not len(finite):
        raise ValueError("the box lies outside the area of the CRS")
    low, high = finite.min(axis=0), finite.max(axis=0)
    return float(low[0]), float(low[1]), float(high[0]), float(high[1])
