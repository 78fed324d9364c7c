"""Geometries (shapely) from one CRS into another: what a map, a feature info answer or a WFS
``srsName`` reads features through.

``reproject(geometries, source, target)`` transforms them all at once (one call into the
transformation for every coordinate). A geometry with a point the target cannot hold (a
world polygon in a UTM zone, the poles in Mercator) is first clipped to the target's valid
area, as GeoServer's projection handlers clip before they transform; one still without an
image is dropped (None).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .transform import Transform, between


def reproject(geometries: Sequence[Any], source: str, target: str) -> list[Any]:
    """``geometries`` (None allowed) transformed from ``source`` into ``target``; ``NotFound``
    when either CRS is unknown."""
    return transformed(geometries, between(source, target))


def transformed(geometries: Sequence[Any], t: Transform) -> list[Any]:
    """``geometries`` transformed by ``t`` (None where there is none, or no image)."""
    if t.identity or not geometries:
        return list(geometries)
    import numpy as np
    import shapely

    items = np.empty(len(geometries), dtype=object)
    items[:] = list(geometries)
    present = np.array([g is not None for g in geometries], dtype=bool)
    out = np.empty(len(geometries), dtype=object)
    out[:] = None
    if present.any():
        out[present] = shapely.transform(items[present], t.coords)
        boxes = shapely.bounds(out[present])
        bad = ~np.isfinite(boxes).all(axis=1) & ~np.isnan(boxes).all(axis=1)
        where = np.flatnonzero(present)[bad]
        for i in where:
            out[i] = _clipped(items[i], t)
    return list(out)


def _clipped(geometry: Any, t: Transform) -> Any:
    """``geometry`` cut to ``t``'s valid area, then transformed; None when nothing is left."""
    import numpy as np
    import shapely

    area = t.domain()
    if area is None:
        return None
    cut = shapely.intersection(geometry, shapely.box(*area))
    if cut is None or cut.is_empty:
        return None
    moved = shapely.transform(cut, t.coords)
    return moved if np.isfinite(shapely.bounds(moved)).all() else None
