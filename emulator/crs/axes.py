"""Axis order: whether a CRS, as a client named it, gives northing (latitude) first.

The emulator keeps and transforms every coordinate east/north (x/y, longitude first);
``north_first`` says where a request's numbers or a response's coordinates must be swapped:
never for a spelling that forces x/y (``names.Ref.xy``), else where the database's first
axis points north or south (``EPSG:4326`` as a URN, ``EPSG:3035``, the Gauss-Krüger zones…),
as GeoTools' ``CRS.getAxisOrder(crs) == NORTH_EAST``.
"""

from __future__ import annotations

import functools

from ..core.errors import NotFound
from . import names

LAT_LON = frozenset({"EPSG:4326", "EPSG:4258", "EPSG:4269", "EPSG:4267", "EPSG:4283"})
EAST_NORTH = frozenset({"EPSG:3857", "EPSG:900913", "EPSG:404000", "EPSG:26713", "CRS:84"})
"""the common answers, without asking PROJ"""


def north_first(ref: names.Ref) -> bool:
    """Whether ``ref``'s first axis is northing; an unknown CRS is east/north."""
    if ref.xy:
        return False
    return database_north_first(ref.id)


@functools.lru_cache(maxsize=1024)
def database_north_first(identifier: str) -> bool:
    """Whether the database's definition of ``EPSG:n`` (or another id) is northing first."""
    if identifier in LAT_LON:
        return True
    if identifier in EAST_NORTH:
        return False
    from . import registry

    try:
        crs = registry.resolve(names.read(identifier, epsg_xy=False))
    except NotFound:
        return False
    axes = crs.axis_info
    return bool(axes) and axes[0].direction.lower() in ("north", "south")


def swap(box: tuple[float, float, float, float]) -> tuple[float, float, float, float]:
    """A box's numbers with x and y exchanged."""
    return box[1], box[0], box[3], box[2]


@functools.lru_cache(maxsize=1024)
def metres_per_unit(identifier: str) -> float | None:
    """Metres in one unit of a CRS's first axis; None for degrees (a geographic CRS, or
    one the database does not know: treated as WGS 84)."""
    if identifier in LAT_LON or identifier == "CRS:84":
        return None
    if identifier in EAST_NORTH:
        return 1.0
    from . import registry

    try:
        crs = registry.resolve(names.read(identifier))
    except NotFound:
        return None
    axes = crs.axis_info
    if crs.is_geographic or not axes:
        return None
    factor = axes[0].unit_conversion_factor
    return float(factor) if factor else 1.0
