"""WFS queries over the features the emulator holds: type names, feature ids, BBOX,
CQL_FILTER and FILTER (an OGC filter, read as CQL), sorting, paging and property
selection. Pure domain logic over ``state.features`` (read through ``sources``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ...core.budget import Budget, TooCostly
from ...core.errors import EmulatorError
from ...core.record import field, record
from ..catalog.entities import FeatureType, is_projected
from . import sources
from .errors import INVALID, OwsError
from .model import View


@record
class Row:
    fid: str
    properties: dict[str, Any]


@record
class Result:
    type: FeatureType
    attributes: list[tuple[str, str]]
    """(name, binding) in schema order, after ``propertyName``"""
    geometry: str | None
    rows: list[Row] = field(default_factory=list)
    matched: int = 0


def resolve_types(view: View, names: str, locator: str) -> list[FeatureType]:
    out = []
    for name in [n.strip() for n in names.split(",") if n.strip()]:
        if name.startswith("(") and name.endswith(")"):
            name = name[1:-1]
        res = _find_type(view, name)
        if res is None:
            raise OwsError(f"Feature type {name} unknown", INVALID, locator)
        out.append(res)
    return out


def _find_type(view: View, name: str) -> FeatureType | None:
    local = name.rsplit(":", 1)[-1]
    prefix = name.rsplit(":", 1)[0] if ":" in name else None
    if prefix is not None and prefix.startswith(("http://", "https://", "{")):
        ns = view.catalog.namespace_by_uri(prefix.strip("{}"))
        prefix = ns.prefix if ns is not None else prefix
    try:
        item = view.find(f"{prefix}:{local}" if prefix else local, "typeName", metadata=True)
    except OwsError:
        return None
    if not hasattr(item, "type"):
        return None
    res = view.catalog.resources.get((item.workspace, item.name))
    return res if isinstance(res, FeatureType) else None


def schema(view: View, ft: FeatureType) -> tuple[list[tuple[str, str, bool]], str | None]:
    """(name, binding, nillable) per attribute, and the geometry attribute's name: the
    catalog's attribute list, else the feature table's."""
    table = sources.feature_table(view.state, ft.workspace, ft.store, ft.native_name or ft.name)
    if ft.attributes:
        attrs = [(a.name, a.binding or "java.lang.String", a.nillable) for a in ft.attributes]
    elif table is not None:
        attrs = [(a.name, a.binding, a.nillable) for a in table.attributes]
    else:
        attrs = []
    geometry = next((n for n, b, _ in attrs if _is_geometry(b)), None)
    if table is not None and table.geometry:
        geometry = table.geometry
    return attrs, geometry


def _is_geometry(binding: str) -> bool:
    return binding.startswith(("org.locationtech.jts.geom.", "com.vividsolutions.jts.geom."))


@record
class Query:
    fids: list[str] | None = None
    bbox: tuple[float, float, float, float] | None = None
    cql: str | None = None
    properties: list[str] | None = None
    sort: list[tuple[str, bool]] = field(default_factory=list)
    """(attribute, descending)"""
    start: int = 0
    count: int | None = None


def run(view: View, ft: FeatureType, q: Query) -> Result:
    attrs, geometry = schema(view, ft)
    table = sources.feature_table(view.state, ft.workspace, ft.store, ft.native_name or ft.name)
    features = list(table.features) if table is not None else []
    names = {n for n, _, _ in attrs}
    if q.properties is not None:
        for p in q.properties:
            if p.rsplit(":", 1)[-1] not in names:
                raise OwsError(
                    f"Illegal property name: {p} for feature type {ft.name}",
                    INVALID,
                    "propertyName",
                )
    if q.fids is not None:
        wanted = set(q.fids)
        features = [f for f in features if f.fid in wanted]
    if q.bbox is not None and geometry is not None:
        import shapely.geometry

        box = shapely.geometry.box(*q.bbox)
        features = [
            f
            for f in features
            if f.properties.get(geometry) is not None and f.properties[geometry].intersects(box)
        ]
    if q.cql:
        test = predicate(q.cql, geometry)
        features = [f for f in features if test(f.properties)]
    for key, descending in reversed(q.sort):
        if key.rsplit(":", 1)[-1] not in names:
            raise OwsError(
                f"Illegal property name: {key} for feature type {ft.name}", INVALID, "sortBy"
            )
        local = key.rsplit(":", 1)[-1]
        present = [f for f in features if f.properties.get(local) is not None]
        missing = [f for f in features if f.properties.get(local) is None]
        present.sort(key=lambda f: f.properties[local], reverse=descending)
        features = present + missing if not descending else missing + present
    matched = len(features)
    end = None if q.count is None else q.start + q.count
    page = features[q.start : end]
    keep = attrs
    if q.properties is not None:
        wanted = {p.rsplit(":", 1)[-1] for p in q.properties}
        keep = [a for a in attrs if a[0] in wanted]
    rows = [Row(f.fid, {n: f.properties.get(n) for n, _, _ in keep}) for f in page]
    return Result(ft, [(n, b) for n, b, _ in keep], geometry, rows, matched)


def predicate(cql: str, geometry: str | None) -> Callable[[dict[str, Any]], bool]:
    """The filter's test over feature properties; it evaluates under one ``Budget`` (from
    this call on), past which it raises an ``InvalidParameterValue`` exception."""
    from ..mosaics import filters

    try:
        test = filters.compile_filter(cql, Budget("filter"))
    except EmulatorError as exc:
        raise OwsError(exc.message, INVALID, "filter") from None
    if test is None:
        return lambda props: True

    def wrapped(props: dict[str, Any]) -> bool:
        values = dict(props)
        if geometry is not None and values.get(geometry) is not None:
            values[geometry] = _as_filter_geometry(values[geometry])
        try:
            return bool(test(values))
        except TooCostly as exc:
            raise OwsError(exc.message, INVALID, "filter") from None
        except (TypeError, ValueError):
            return False

    return wrapped


def _as_filter_geometry(geom: Any) -> Any:
    import shapely.geometry
    from pygeofilter import values

    return values.Geometry(shapely.geometry.mapping(geom))


def flips(ft: FeatureType, version: str) -> bool:
    """Whether WFS ``version`` writes this type's coordinates latitude first."""
    return version != "1.0.0" and not is_projected(ft.srs) and (ft.srs or "").upper() != "CRS:84"
