"""A ``Query`` answered over a list of features in Python: what the memory source (and any
source holding its rows in memory) runs.

Selection by ids (through the table's ``FidIndex`` when one is given), by bbox (the default
geometry intersects it, tested by shapely over all candidates at once), by filter (the
``filters`` engine under one ``Budget("filter")``); then GeoTools' order (a stable sort per
key, empty values last ascending and first descending) and the page.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

from ..core.budget import Budget
from ..core.lazy import LazyModule
from ..filters.tree import Filter
from .model import Feature, FidIndex
from .query import Bounds, Query, SortBy

shapely: Any = LazyModule("shapely")
"""imported by the first bbox query (with numpy, a third of a second)"""
pygeofilter_values: Any = LazyModule("pygeofilter.values")
"""what a filter's spatial predicates read a geometry as (imported by the first one)"""


def select(
    features: Sequence[Feature], index: FidIndex | None, geometry: str | None, query: Query
) -> Sequence[Feature]:
    """The features ``query`` selects (ids, bbox, filter), in their order (not sorted, not
    paged). ``index`` is the fid index of ``features`` (None: ids are looked up by a scan);
    ``geometry`` the default geometry attribute. Shares the features: never change them."""
    if query.fids is not None:
        wanted = set(query.fids)
        positions = index.find(wanted) if index is not None else None
        if positions is not None:
            features = [features[p] for p in positions]
        else:
            features = [f for f in features if f.fid in wanted]
    if query.bbox is not None and geometry is not None:
        features = _intersecting(features, geometry, query.bbox)
    if query.filter is not None:
        test = feature_test(query.filter, geometry)
        if test is not None:
            features = [f for f in features if test(f.properties)]
    return features


def _intersecting(features: Sequence[Feature], geometry: str, bbox: Bounds) -> list[Feature]:
    candidates = [f for f in features if f.properties.get(geometry) is not None]
    if not candidates:
        return []
    box = shapely.box(*bbox)
    hits = shapely.intersects([f.properties[geometry] for f in candidates], box)
    return [f for f, hit in zip(candidates, hits, strict=True) if hit]


def feature_test(flt: Filter, geometry: str | None) -> Callable[[Mapping[str, Any]], bool] | None:
    """The filter's test over feature properties, under one ``Budget("filter")`` (from the
    first feature on; ``TooCostly`` past it); None when every feature passes. A value that
    cannot be compared fails the test. The geometry reaches the filter as pygeofilter's
    ``Geometry`` (what its spatial predicates read), converted only when the filter reads
    that attribute."""
    from ..filters import predicates

    test = predicates.predicate(flt, Budget("filter"))
    if test is None:
        return None
    if geometry is None or not _reads(flt, geometry):
        return lambda props: _passes(test, props)
    name = geometry

    def run(props: Mapping[str, Any]) -> bool:
        if props.get(name) is None:
            return _passes(test, props)
        values = dict(props)
        values[name] = _as_filter_geometry(props[name])
        return _passes(test, values)

    return run


def _passes(test: Callable[[Mapping[str, Any]], bool], props: Mapping[str, Any]) -> bool:
    try:
        return bool(test(props))
    except (TypeError, ValueError):
        return False


def _reads(flt: Filter, attribute: str) -> bool:
    """Whether the filter reads ``attribute`` (by its name, or a qualified name whose local
    part it is: what ``filters.expressions.attribute`` falls back to)."""
    return any(n.rsplit(":", 1)[-1] == attribute for n in flt.attributes())


def _as_filter_geometry(geom: Any) -> Any:
    return pygeofilter_values.Geometry(shapely.geometry.mapping(geom))


def ordered(features: Sequence[Feature], sort: Sequence[SortBy]) -> Sequence[Feature]:
    """``features`` in the order of the sort keys (GeoTools': ascending puts empty values
    last, descending first; equal values keep their order)."""
    out = features
    for key, descending in reversed(sort):
        present = [f for f in out if f.properties.get(key) is not None]
        missing = [f for f in out if f.properties.get(key) is None]
        present.sort(key=lambda f: f.properties[key], reverse=descending)
        out = present + missing if not descending else missing + present
    return out


def page(features: Sequence[Feature], query: Query) -> Iterator[Feature]:
    """The page ``query.start``/``query.count`` of sorted features, each restricted to
    ``query.properties`` when given."""
    end = None if query.count is None else query.start + query.count
    chosen = features[query.start : end]
    if query.properties is None:
        return iter(chosen)
    names = query.properties
    return (Feature(f.fid, {n: f.properties.get(n) for n in names}) for f in chosen)
