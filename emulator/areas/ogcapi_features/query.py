"""``/items`` and ``/items/{featureId}``: the parameters turned into a ``features.Query``,
run through the feature type's ``FeatureSource`` (any back end), and the page of features
that comes back, in the CRS asked for, with its paging.

As GeoServer's ``FeatureService.items``: ``bbox`` (CRS84 unless ``bbox-crs``; across the
antimeridian, two boxes), ``datetime`` (every date attribute of the type, any of them
matching; a type without one matches nothing), ``filter`` (when the ``filter`` class is on, in
``filter-lang``, its geometries in ``filter-crs``), ``ids``, ``sortby``, ``properties`` and
``exclude-properties``, ``crs`` (each when its class is on; otherwise ignored), ``limit`` (at
most the WFS ``maxFeatures``, and the default) and ``startIndex``. Pure domain logic.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from ...core.errors import EmulatorError
from ...core.lazy import LazyModule
from ...core.record import field, record, replace
from ...features import resolver
from ...features.model import GEOMETRY_PACKAGES, Feature
from ...features.query import Query
from ...filters.tree import Filter
from ..catalog.entities import FeatureType
from . import crs as crsmod
from . import params as pmod
from .conformance import CQL2_JSON, CQL2_TEXT, Conformance
from .errors import invalid
from .params import Params

ast: Any = LazyModule("pygeofilter.ast")
values: Any = LazyModule("pygeofilter.values")

DATE_BINDINGS = frozenset(
    {"java.util.Date", "java.sql.Date", "java.sql.Timestamp", "java.sql.Time"}
)
"""the bindings ``datetime`` filters on (GeoServer: every ``java.util.Date`` subclass)"""
UNLIMITED = 2**31 - 1


@record
class Page:
    """One page of features, ready to be written."""

    type: FeatureType
    attributes: list[tuple[str, str]]
    """(name, binding) of what is written, in schema order"""
    geometry: str | None
    rows: list[Feature]
    """with geometries in ``crs`` (longitude first; ``crs.lat_first`` says to swap)"""
    matched: int
    start: int
    limit: int
    """the page size asked for (capped), what the paging links keep"""
    crs: crsmod.Crs = crsmod.WGS84
    prev: tuple[int, int] | None = None
    """(startIndex, limit) of the previous page"""
    next: tuple[int, int] | None = None
    extra: dict[str, Any] = field(default_factory=dict)


def page_size(p: Params, wfs_max: int, type_max: int) -> int:
    """``limit``, at most the WFS and the feature type's ``maxFeatures`` (and their value
    when no limit is given)."""
    caps = [m for m in (wfs_max, type_max) if m > 0]
    size = p.limit if p.limit is not None else UNLIMITED
    return min([size, *caps])


def run(
    state: Any,
    ft: FeatureType,
    p: Params,
    conf: Conformance,
    wfs_max: int,
    item_id: str | None = None,
    prefixed: str | None = None,
) -> Page:
    """The page of ``ft``'s features ``p`` asks for (``item_id``: that one feature)."""
    source, schema = resolver.schema(state, ft)
    name = prefixed or f"{ft.workspace}:{ft.name}"
    attrs = [(a.name, a.binding) for a in schema.attributes]
    native = schema.srs
    query = _selection(p, conf, schema.geometry, native, attrs, item_id)
    sort: tuple[tuple[str, bool], ...] = ()
    if p.sortby and conf.feature("sortBy"):
        sort = tuple(pmod.sort_keys(p.sortby))
        _known([k for k, _ in sort], attrs, name)
    keep = _properties(p, conf, attrs, name)
    out_crs = _output_crs(p, conf)
    size = page_size(p, wfs_max, ft.max_features)
    page_query = replace(query, sort=sort, start=p.start, count=size)
    page_query = replace(page_query, properties=tuple(n for n, _ in keep))
    rows: list[Feature] = []
    matched = 0
    if source is not None:
        with filter_errors():
            matched = source.count(query)
            rows = list(source.read(page_query))
    geometry = schema.geometry if any(n == schema.geometry for n, _ in keep) else None
    rows = _reprojected(rows, geometry, native, out_crs)
    page = Page(ft, keep, geometry, rows, matched, p.start, size, out_crs)
    page.prev, page.next = paging(p.start, size, len(rows))
    return page


def paging(start: int, size: int, returned: int) -> tuple[tuple[int, int] | None, ...]:
    """(prev, next) as (startIndex, limit), as GeoServer's ``buildPrevNextLinks`` decides:
    a previous page after the first; a next one whenever this page came back full."""
    prev = None
    if start > 0:
        first = max(start - size, 0)
        prev = (first, start - first)
    nxt = (start + returned, size) if returned > 0 and size <= returned else None
    return prev, nxt


# -- the selection ---------------------------------------------------------------------------


def _selection(
    p: Params,
    conf: Conformance,
    geometry: str | None,
    native: str,
    attrs: list[tuple[str, str]],
    item_id: str | None,
) -> Query:
    parts: list[Any] = []
    fids: set[str] | None = None
    if item_id is not None:
        fids = {item_id}
    if p.ids and conf.feature("ids"):
        fids = set(p.ids) if fids is None else fids & set(p.ids)
    box = None
    if p.bbox is not None:
        boxes = _boxes(p.bbox, p.bbox_crs, native)
        if geometry is None:
            parts.append(ast.Include(True))
        elif len(boxes) == 1:
            box = boxes[0]
        else:
            nodes = [ast.BBox(ast.Attribute(geometry), *b) for b in boxes]
            parts.append(ast.Or(nodes[0], nodes[1]))
    if p.datetime is not None:
        parts.append(_time_filter(p.datetime, attrs))
    flt = None
    if p.filter is not None and conf.feature("filter"):
        flt = parse_filter(p.filter, p.filter_lang, p.filter_crs, conf, native)
    if parts:
        node = parts[0]
        for part in [*parts[1:], *([flt.ast] if flt is not None else [])]:
            node = ast.And(node, part)
        flt = Filter(None, node)
    ordered = tuple(sorted(fids)) if fids is not None else None
    return Query(fids=ordered, bbox=box, filter=flt)


def _boxes(text: str, bbox_crs: str | None, native: str) -> list[tuple[float, float, float, float]]:
    numbers = pmod.bbox_numbers(text)
    source = crsmod.WGS84
    if bbox_crs is not None:
        try:
            source = crsmod.parse(bbox_crs)
        except ValueError:
            raise invalid(f"Invalid CRS: {bbox_crs}") from None
    if crsmod.same(source.code, "EPSG:4326"):
        boxes = pmod.lonlat_boxes(numbers)
    else:
        pmod.check_box(*numbers)
        boxes = [(numbers[0], numbers[1], numbers[2], numbers[3])]
    try:
        fn = crsmod.transform(source.code, native) if native else None
        return [crsmod.box(b, fn) for b in boxes]
    except ValueError as exc:
        raise invalid(f"Cannot use the bbox in the data's CRS: {exc}") from None


def _time_filter(text: str, attrs: list[tuple[str, str]]) -> Any:
    low, high = pmod.time_range(text)
    tests = []
    for name, binding in attrs:
        if binding not in DATE_BINDINGS:
            continue
        attr = ast.Attribute(name)
        bounds = []
        if low is not None:
            bounds.append(ast.GreaterEqual(attr, low))
        if high is not None:
            bounds.append(ast.LessEqual(attr, high))
        tests.append(bounds[0] if len(bounds) == 1 else ast.And(bounds[0], bounds[1]))
    if not tests:
        return ast.Include(True)  # EXCLUDE: no date attribute to match
    node = tests[0]
    for test in tests[1:]:
        node = ast.Or(node, test)
    return node


def parse_filter(
    text: str, lang: str | None, filter_crs: str | None, conf: Conformance, native: str
) -> Filter:
    """The ``filter`` in its language, its geometries brought from ``filter-crs`` (CRS84 by
    default) into the data's CRS."""
    from ...filters import cql2, ecql

    try:
        language = conf.language(lang)
    except ValueError as exc:
        raise invalid(str(exc)) from None
    source = crsmod.WGS84
    if filter_crs is not None:
        try:
            source = crsmod.parse(filter_crs)
        except ValueError:
            raise invalid(_no_code(filter_crs)) from None
    reader = {CQL2_TEXT: cql2.parse_text, CQL2_JSON: cql2.parse_json}.get(language, ecql.parse)
    try:
        flt = reader(text)
    except EmulatorError as exc:
        raise invalid(f"{exc.message}\nParsing : {text}.") from None
    fn = crsmod.transform(source.code, native) if native else None
    if fn is not None and flt.node is not None:
        _reproject_literals(flt.node, fn)
    return flt


def _no_code(text: str) -> str:
    """GeoTools' text for a CRS it cannot decode."""
    from ...crs import registry

    try:
        code = registry.parse(text.strip("[]")).id
    except EmulatorError:
        code = text
    authority = code.partition(":")[0]
    return (
        f'No code "{code}" from authority "{authority}" found for object of type '
        '"CoordinateReferenceSystem".'
    )


def _reproject_literals(root: Any, fn: crsmod.Transform) -> None:
    """Bring the geometry literals of a parsed filter into the data's CRS (in place)."""
    import dataclasses

    import shapely.geometry

    stack = [root]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.BBox):
            box = (float(node.minx), float(node.miny), float(node.maxx), float(node.maxy))
            node.minx, node.miny, node.maxx, node.maxy = crsmod.box(box, fn)
            continue
        if not dataclasses.is_dataclass(node) or isinstance(node, type):
            if isinstance(node, list | tuple):
                stack.extend(node)
            continue
        for f in dataclasses.fields(node):
            value = getattr(node, f.name)
            if isinstance(value, values.Geometry):
                moved = crsmod.geometry(shapely.geometry.shape(value.geometry), fn)
                setattr(node, f.name, values.Geometry(shapely.geometry.mapping(moved)))
            elif isinstance(value, values.Envelope):
                x1, y1, x2, y2 = crsmod.box((value.x1, value.y1, value.x2, value.y2), fn)
                setattr(node, f.name, values.Envelope(x1, x2, y1, y2))
            else:
                stack.append(value)


# -- what is written ---------------------------------------------------------------------------


def _known(names: Sequence[str], attrs: list[tuple[str, str]], type_name: str) -> None:
    known = {n for n, _ in attrs}
    for name in names:
        if name.rsplit(":", 1)[-1] not in known:
            raise invalid(f"Illegal property name: {name} for feature type {type_name}")


def _properties(
    p: Params, conf: Conformance, attrs: list[tuple[str, str]], type_name: str
) -> list[tuple[str, str]]:
    if (p.properties is None and p.exclude is None) or not conf.feature("propertySelection"):
        return attrs
    if p.properties is not None and p.exclude is not None:
        raise invalid("You cannot use both properties and exclude-properties in the same request")
    if p.properties:
        _known(p.properties, attrs, type_name)
        wanted = {n.rsplit(":", 1)[-1] for n in p.properties}
        return [a for a in attrs if a[0] in wanted]
    if p.exclude:
        return [a for a in attrs if a[0] not in set(p.exclude)]
    return attrs


def _output_crs(p: Params, conf: Conformance) -> crsmod.Crs:
    if p.crs is None or not conf.feature("crsByReference"):
        return crsmod.WGS84
    try:
        return crsmod.parse(p.crs)
    except ValueError:
        raise invalid(f"Invalid CRS: {p.crs}") from None


def _reprojected(
    rows: list[Feature], geometry: str | None, native: str, out: crsmod.Crs
) -> list[Feature]:
    if geometry is None or not rows:
        return rows
    try:
        fn = crsmod.transform(native, out.code)
    except ValueError as exc:
        raise invalid(f"Cannot reproject the features: {exc}") from None
    if fn is None:
        return rows
    moved: Callable[[Any], Any] = lambda g: crsmod.geometry(g, fn)  # noqa: E731
    return [
        Feature(f.fid, {**f.properties, geometry: moved(f.properties[geometry])})
        if f.properties.get(geometry) is not None
        else f
        for f in rows
    ]


def is_geometry(binding: str) -> bool:
    return binding.startswith(GEOMETRY_PACKAGES)


@contextmanager
def filter_errors() -> Iterator[None]:
    """A filter's failure while the data is read (one it cannot evaluate, one past its time
    bound) as a 400 ``InvalidParameterValue``."""
    try:
        yield
    except EmulatorError as exc:
        if exc.status >= 500:
            raise
        raise invalid(exc.message) from None
