"""WFS queries over the features the emulator holds: type names, feature ids, BBOX,
CQL_FILTER and FILTER (an OGC filter, read as CQL), sorting, paging and property
selection. Pure domain logic: the data is read through ``features.source_for``."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from ...core.errors import EmulatorError
from ...core.record import field, record, replace
from ...crs import names
from ...crs.axes import north_first, swap
from ...crs.transform import between
from ...databases.errors import DatabaseError
from ...databases.virtual import InvalidParameter
from ...features import resolver
from ...features.query import Query as FeatureQuery
from ...features.source import ReadOnly
from ...filters.tree import Filter
from ..catalog.entities import FeatureType
from ..ows.collections import FeatureSet, Row, declared
from ..ows.errors import INVALID, OwsError
from ..ows.model import View


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
    res = view.catalog.resources.get((item.workspace or "", item.name))
    return res if isinstance(res, FeatureType) else None


@record
class Query:
    fids: list[str] | None = None
    bbox: tuple[float, float, float, float] | None = None
    """the ``BBOX`` numbers as given: in ``bbox_crs``'s axis order, else the type's"""
    bbox_crs: names.Ref | None = None
    srs_name: names.Ref | None = None
    """the CRS the features are written in (None: the type's declared CRS)"""
    cql: str | None = None
    properties: list[str] | None = None
    sort: list[tuple[str, bool]] = field(default_factory=list)
    """(attribute, descending)"""
    start: int = 0
    count: int | None = None
    params: dict[str, str] = field(default_factory=dict)
    """the type's ``viewparams`` (an SQL view's parameters)"""


def run(view: View, ft: FeatureType, q: Query, version: str = "1.1.0") -> FeatureSet:
    source, found = resolver.schema(view.state, ft)
    data = found.srs or ft.srs or "EPSG:4326"
    attrs = [(a.name, a.binding, a.nillable) for a in found.attributes]
    names = {n for n, _, _ in attrs}
    if q.properties is not None:
        for p in q.properties:
            if p.rsplit(":", 1)[-1] not in names:
                raise OwsError(
                    f"Illegal property name: {p} for feature type {ft.name}",
                    INVALID,
                    "propertyName",
                )
    flt = parse_filter(q.cql) if q.cql else None
    fids = tuple(q.fids) if q.fids is not None else None
    bbox = _data_bbox(q, ft, version, data)
    if q.bbox is not None and bbox is None:
        fids = ()  # the box has no image in the data's CRS: nothing is inside it
    selection = FeatureQuery(fids, bbox, flt, params=q.params)
    with filter_errors():
        matched = source.count(selection) if source is not None else _compiled(flt)
    for key, _ in q.sort:
        if key.rsplit(":", 1)[-1] not in names:
            raise OwsError(
                f"Illegal property name: {key} for feature type {ft.name}", INVALID, "sortBy"
            )
    keep = attrs
    if q.properties is not None:
        wanted = {p.rsplit(":", 1)[-1] for p in q.properties}
        keep = [a for a in attrs if a[0] in wanted]
    rows: list[Row] = []
    if source is not None:
        sort = tuple((key.rsplit(":", 1)[-1], desc) for key, desc in q.sort)
        page = replace(selection, sort=sort, start=q.start, count=q.count)
        page = replace(page, properties=tuple(n for n, _, _ in keep))
        with filter_errors():
            rows = [Row(f.fid, f.properties) for f in source.read(page)]
    if q.srs_name is not None and found.geometry is not None:
        rows = _in_crs(rows, found.geometry, data, q.srs_name)
    return FeatureSet(ft, [(n, b) for n, b, _ in keep], found.geometry, rows, matched, q.srs_name)


def _data_bbox(
    q: Query, ft: FeatureType, version: str, data: str
) -> tuple[float, float, float, float] | None:
    """The request's ``BBOX`` in the data's CRS, east/north: a box without a CRS is in the
    type's declared CRS (its database axis order in 1.1.0 and 2.0.0), as GeoServer reads
    it; one with a CRS is transformed from that CRS (its outline densified). None when
    there is no box, or it has no image in the data's CRS."""
    if q.bbox is None:
        return None
    ref = q.bbox_crs or declared(ft, version)
    box = swap(q.bbox) if north_first(ref) else q.bbox
    try:
        t = between(ref.id, data)
    except EmulatorError:
        raise OwsError(f"Unable to support srsName: {ref.id}", INVALID, "bbox") from None
    return t.bounds(box)


def _in_crs(rows: list[Row], geometry: str, data: str, target: names.Ref) -> list[Row]:
    """The rows with their default geometry transformed into ``target``."""
    from ...crs import geometries

    moved = geometries.reproject([r.properties.get(geometry) for r in rows], data, target.id)
    return [Row(r.fid, {**r.properties, geometry: g}) for r, g in zip(rows, moved, strict=True)]


def parse_filter(cql: str) -> Filter:
    """The ``Filter`` of a request's CQL text; a filter that does not parse is an
    ``InvalidParameterValue`` exception (locator ``filter``)."""
    from ...filters import ecql

    try:
        return ecql.parse(cql)
    except EmulatorError as exc:
        raise OwsError(exc.message, INVALID, "filter") from None


@contextmanager
def filter_errors() -> Iterator[None]:
    """A filter's errors while the data is read (one it cannot evaluate, one that runs past
    its time bound) as an ``InvalidParameterValue`` exception (locator ``filter``)."""
    try:
        yield
    except (DatabaseError, InvalidParameter, ReadOnly):
        raise  # the database's failure or refusal, not the filter's
    except EmulatorError as exc:
        raise OwsError(exc.message, INVALID, "filter") from None


def _compiled(flt: Filter | None) -> int:
    """Nothing matched (there is no data), once the filter is known to compile."""
    from ...filters import predicates

    predicates.predicate(flt)
    return 0
