"""Coordinate transformations between any two CRSs PROJ's database knows, east/north (x/y)
on both sides (axis order is the callers' business: ``axes.py``).

``between(source, target)`` gives a ``Transform``: points, coordinate arrays (what
``shapely.transform`` calls), boxes (the outline densified, as GeoTools'
``ReferencedEnvelope.transform``) and the target's valid area in the source CRS (what
geometries are clipped to first, as GeoServer's projection handlers do).

A fast path needs no PROJ: the same CRS (also ``EPSG:4326`` and ``CRS:84``; the spherical
Mercator codes among themselves) is the identity, and WGS 84 ↔ spherical Mercator are two
formulas (latitudes clamped to Mercator's ±85.0511°, as GeoServer's handler clips). Every
other pair is a ``pyproj.Transformer``, made once per pair and thread (transformers are
cached per thread: PROJ contexts are not shared between threads). ``EPSG:404000`` (the
wildcard plane of data without a CRS) goes to and from anything unchanged, as in GeoTools.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Callable
from typing import Any

from ..core.errors import NotFound
from . import names

Box = tuple[float, float, float, float]
"""minx, miny, maxx, maxy"""
Arrays = Callable[[Any, Any], tuple[Any, Any]]

GEOGRAPHIC = frozenset({"EPSG:4326", "CRS:84"})
MERCATOR = frozenset({"EPSG:3857", "EPSG:900913", "EPSG:3785", "EPSG:102100", "EPSG:102113"})
WILDCARD = "EPSG:404000"
R = 6378137.0
MAX_LAT = 85.0511287798066
DENSIFY = 8
"""points per box edge (beyond the corners) when a box is transformed"""


class Transform:
    """x/y in ``source`` to x/y in ``target`` (ids such as ``EPSG:26713``)."""

    def __init__(self, source: str, target: str, arrays: Arrays | None) -> None:
        self.source, self.target = source, target
        self._arrays = arrays
        self._domain: Box | None = None
        self._domain_known = False

    @property
    def identity(self) -> bool:
        return self._arrays is None

    def arrays(self, xs: Any, ys: Any) -> tuple[Any, Any]:
        """Numpy arrays of x and y transformed (non-finite where a point has no image)."""
        if self._arrays is None:
            return xs, ys
        return self._arrays(xs, ys)

    def point(self, x: float, y: float) -> tuple[float, float]:
        import numpy as np

        xs, ys = self.arrays(np.array([x], dtype=float), np.array([y], dtype=float))
        return float(xs[0]), float(ys[0])

    def coords(self, xy: Any) -> Any:
        """An (N, 2) array transformed (for ``shapely.transform``)."""
        if self._arrays is None:
            return xy
        import numpy as np

        xs, ys = self._arrays(xy[:, 0], xy[:, 1])
        return np.column_stack((xs, ys))

    def bounds(self, box: Box, densify: int = DENSIFY) -> Box | None:
        """The extent of ``box``'s outline (corners and ``densify`` points an edge)
        transformed; None when no point of it has an image."""
        if self._arrays is None:
            return box
        import numpy as np

        minx, miny, maxx, maxy = box
        t = np.linspace(0.0, 1.0, densify + 2)
        xs = minx + (maxx - minx) * t
        ys = miny + (maxy - miny) * t
        px = np.concatenate((xs, xs, np.full_like(ys, minx), np.full_like(ys, maxx)))
        py = np.concatenate((np.full_like(xs, miny), np.full_like(xs, maxy), ys, ys))
        ox, oy = self._arrays(px, py)
        ok = np.isfinite(ox) & np.isfinite(oy)
        if not ok.any():
            return None
        ox, oy = ox[ok], oy[ok]
        return float(ox.min()), float(oy.min()), float(ox.max()), float(oy.max())

    def domain(self) -> Box | None:
        """Where the target CRS is valid, as a box in the source CRS (None: unknown or
        everywhere)."""
        if not self._domain_known:
            self._domain = None if self._arrays is None else _domain(self.source, self.target)
            self._domain_known = True
        return self._domain


def family(identifier: str) -> str:
    """The id two CRSs share when one transforms into the other unchanged."""
    if identifier in GEOGRAPHIC:
        return "EPSG:4326"
    if identifier in MERCATOR:
        return "EPSG:3857"
    return identifier


def identifier(crs: str) -> str:
    """The id of a CRS however it is spelled (``urn:ogc:def:crs:EPSG::4326`` → ``EPSG:4326``);
    ``Invalid`` when it names no authority."""
    return names.read(crs).id


_local = threading.local()


def between(source: str, target: str) -> Transform:
    """The transformation from ``source`` to ``target`` (ids or any spelling); ``NotFound``
    when either is unknown."""
    key = (source, target)
    cache: dict[tuple[str, str], Transform] | None = getattr(_local, "cache", None)
    if cache is None:
        cache = _local.cache = {}
    found = cache.get(key)
    if found is None:
        if len(cache) > 512:
            cache.clear()
        found = cache[key] = _make(identifier(source), identifier(target))
    return found


def _make(source: str, target: str) -> Transform:
    a, b = family(source), family(target)
    if a == b or WILDCARD in (a, b):
        _check(source)
        _check(target)
        return Transform(source, target, None)
    if (a, b) == ("EPSG:4326", "EPSG:3857"):
        return Transform(source, target, _to_mercator)
    if (a, b) == ("EPSG:3857", "EPSG:4326"):
        return Transform(source, target, _from_mercator)
    return Transform(source, target, _proj(source, target))


def _check(identifier: str) -> None:
    if identifier in GEOGRAPHIC or identifier in MERCATOR or identifier == WILDCARD:
        return
    from . import registry

    registry.resolve(names.read(identifier))


def _proj(source: str, target: str) -> Arrays:
    import warnings

    from pyproj import Transformer
    from pyproj.exceptions import ProjError

    from . import registry

    src = registry.resolve(names.read(source))
    dst = registry.resolve(names.read(target))
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # "best transformation not available" (no grid)
            transformer = Transformer.from_crs(src, dst, always_xy=True)
    except ProjError:
        raise NotFound(f"No transformation from {source} to {target}") from None

    def run(xs: Any, ys: Any) -> tuple[Any, Any]:
        import numpy as np

        with np.errstate(all="ignore"):
            ox, oy = transformer.transform(xs, ys, errcheck=False)
        return np.asarray(ox, dtype=float), np.asarray(oy, dtype=float)

    return run


def _to_mercator(xs: Any, ys: Any) -> tuple[Any, Any]:
    import numpy as np

    with np.errstate(all="ignore"):
        lat = np.radians(np.clip(ys, -MAX_LAT, MAX_LAT))
        return np.radians(xs) * R, np.log(np.tan(np.pi / 4 + lat / 2)) * R


def _from_mercator(xs: Any, ys: Any) -> tuple[Any, Any]:
    import numpy as np

    with np.errstate(all="ignore"):
        return np.degrees(xs / R), np.degrees(2 * np.arctan(np.exp(ys / R)) - np.pi / 2)


def _domain(source: str, target: str) -> Box | None:
    """The target's area of use (lon/lat) in the source CRS."""
    if family(target) == "EPSG:3857":
        area: Box | None = (-180.0, -MAX_LAT, 180.0, MAX_LAT)
    else:
        area = _area_of_use(target)
    if area is None:
        return None
    if family(source) == "EPSG:4326":
        return area
    try:
        to_source = between("EPSG:4326", source)
    except NotFound:
        return None
    return to_source.bounds(area)


def _area_of_use(identifier: str) -> Box | None:
    from . import registry

    try:
        crs = registry.resolve(names.read(identifier))
    except NotFound:
        return None
    area = crs.area_of_use
    if area is None:
        return None
    box: Box = area.bounds
    if not all(math.isfinite(v) for v in box) or box[0] > box[2]:
        return None  # no area, or one across the antimeridian: not clipped
    return box
