"""The GeoJSON geometries of many features at once: what ``gml.geojson`` writes for each one
(coordinates rounded to ``decimals``, written as integers when whole), made with a few
vectorised shapely calls over the whole column instead of walking each geometry's
coordinates in Python (a 1,000-feature GetFeature spent most of its time there).

Points, lines, polygons and their multi forms in two dimensions go the vectorised way;
anything else (3D, collections, empty parts) goes through ``gml.geojson``. Rounding is
Python's ``round`` wherever a value has more decimals than kept, so that the bytes are
those ``gml.geojson`` writes.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ...core.lazy import LazyModule
from . import gml

numpy: Any = LazyModule("numpy")
shapely: Any = LazyModule("shapely")

POINT, LINESTRING, LINEARRING, POLYGON = 0, 1, 2, 3
MULTIS = {4: "MultiPoint", 5: "MultiLineString", 6: "MultiPolygon"}
NAMES = {POINT: "Point", LINESTRING: "LineString", POLYGON: "Polygon", **MULTIS}
"""shapely's type ids of the kinds written here"""
LIMIT = 1e15
"""whole values below this are written as integers (``gml._json_number``)"""


def geometries(geoms: Sequence[Any], decimals: int) -> list[Any]:
    """``gml.geojson`` of each geometry (None for None), in order."""
    out: list[Any] = [None] * len(geoms)
    if not geoms:
        return out
    arr = numpy.array(list(geoms), dtype=object)
    present = numpy.array([g is not None for g in geoms])
    fast = numpy.zeros(len(geoms), dtype=bool)
    if present.any():
        held = arr[present]
        kinds = shapely.get_type_id(held)
        ok = numpy.isin(kinds, list(NAMES)) & ~shapely.has_z(held) & ~shapely.is_empty(held)
        fast[numpy.flatnonzero(present)[ok]] = True
    chosen = numpy.flatnonzero(fast)
    if len(chosen):
        built = _vectorised(arr[chosen], decimals)
        if built is None:  # an empty part somewhere: every geometry the plain way
            chosen = numpy.array([], dtype=int)
        else:
            for i, value in zip(chosen.tolist(), built, strict=True):
                out[i] = value
    done = set(chosen.tolist())
    for i, geom in enumerate(geoms):
        if geom is not None and i not in done:
            out[i] = gml.geojson(geom, decimals)
    return out


def _vectorised(geoms: Any, decimals: int) -> list[Any] | None:
    kinds = shapely.get_type_id(geoms).tolist()
    parts, owner = shapely.get_parts(geoms, return_index=True)
    if shapely.is_empty(parts).any():
        return None
    part_kinds = shapely.get_type_id(parts)
    polygons = numpy.flatnonzero(part_kinds == POLYGON)
    rings, ring_owner = shapely.get_rings(parts[polygons], return_index=True)
    others = numpy.flatnonzero(part_kinds != POLYGON)
    sequences = numpy.concatenate([parts[others], rings])
    counts = shapely.get_num_coordinates(sequences).tolist()
    values = _rounded(shapely.get_coordinates(sequences), decimals)
    cut: list[list[Any]] = []
    start = 0
    for n in counts:
        cut.append(values[start : start + n])
        start += n
    shaped: list[Any] = [None] * len(parts)
    for k, i in enumerate(others.tolist()):
        shaped[i] = cut[k][0] if part_kinds[i] == POINT else cut[k]
    first = len(others)
    for k, i in enumerate(ring_owner.tolist()):
        part = int(polygons[i])
        if shaped[part] is None:
            shaped[part] = []
        shaped[part].append(cut[first + k])
    out: list[Any] = [[] if kinds[g] in MULTIS else None for g in range(len(geoms))]
    for part, g in enumerate(owner.tolist()):
        if kinds[g] in MULTIS:
            out[g].append(shaped[part])
        else:
            out[g] = shaped[part]
    return [{"type": NAMES[kinds[g]], "coordinates": out[g]} for g in range(len(geoms))]


def _rounded(coords: Any, decimals: int) -> list[list[Any]]:
    """The coordinates as lists of numbers: rounded as Python's ``round`` rounds, whole ones
    written as integers."""
    values = numpy.round(coords, decimals)
    if not (values == coords).all():
        # numpy's rounding (scale, round to integer, unscale) is Python's wherever the
        # scaled value is not within its own error of a half: those few go through ``round``
        scaled = coords * 10.0**decimals
        gap = numpy.abs(scaled - numpy.floor(scaled) - 0.5)
        doubt = (gap <= numpy.abs(scaled) * 1e-15 + 1e-9) | (numpy.abs(scaled) >= 2.0**52)
        for r, c in zip(*numpy.nonzero(doubt), strict=True):
            values[r, c] = round(float(coords[r, c]), decimals)
    whole = (numpy.floor(values) == values) & (numpy.abs(values) < LIMIT)
    if not whole.any():
        plain: list[list[Any]] = values.tolist()
        return plain
    if whole.all():
        ints: list[list[Any]] = values.astype(numpy.int64).tolist()
        return ints
    mixed = values.astype(object)
    mixed[whole] = [int(v) for v in values[whole].tolist()]
    out: list[list[Any]] = mixed.tolist()
    return out
