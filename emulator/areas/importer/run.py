"""Running a task: publishing what it imports (``Importer.run``, ``doDirectImport``,
``doIndirectImport``, ``addToCatalog``).

Direct (a store the import adds): the store (named after the data, made unique in the
workspace as GeoServer does: ``name``, ``name0``, ``name1``…; ``namespace`` added to its
connection parameters), the data behind it kept (features in ``state.features``, a grid as
the uploads keep one), the generated style, the feature type or coverage (its name made a
legal, unique layer name: ``a_`` before a leading non-letter, ``_`` for other characters,
then ``name0``…) and its layer. Tasks sharing a new store add it once.

Indirect (an existing store): the features, transformed (``apply.py``), go into the store:
``CREATE`` a new table (its native name unique in the store) published as a new layer,
``REPLACE`` the table of the same name emptied first, ``APPEND`` added to it; ``UPDATE`` is
GeoServer's ``not supported yet``. Raster data can only be harvested into a structured
(mosaic) store, which the emulator's importer does not do.

A task that fails ends in ``ERROR`` with GeoServer's message and changes nothing in the
catalog: everything is checked before the first change (GeoServer may leave a store it added
before failing; ``docs/fidelity.md``).
"""

from __future__ import annotations

import copy
import re

from ...features.model import Feature, FeatureTable
from ..catalog.entities import (
    COVERAGE_STORE,
    Attribute,
    BBox,
    CoverageStore,
    DataStore,
    FeatureType,
    StyleRef,
)
from ..catalog.model import Catalog
from ..styles.formats import SLD_10
from ..styles.model import Body, Env
from ..uploads.context import Context
from ..uploads.coverages import build_coverage
from ..uploads.crs import NO_CRS
from . import apply, generated, geo
from .formats import UPLOAD_FORMATS
from .model import ImportContext, ImportStore, ImportTask, LayerPlan, Target


class TaskFailed(Exception):
    """The task's error: the message GeoServer records for it."""


def ready(task: ImportTask) -> bool:
    """``readyForImport``: READY, or CANCELED (run again)."""
    return task.state in ("READY", "CANCELED")


def run_context(rt: Context, store: ImportStore, context: ImportContext) -> None:
    """Run every ready task, then save the context (its state follows its tasks')."""
    context.state = "RUNNING"
    for task in context.tasks:
        if ready(task):
            run_task(rt, context, task)
    store.save(context)


def run_task(rt: Context, context: ImportContext, task: ImportTask) -> None:
    if task.state == "COMPLETE":
        return
    task.state = "RUNNING"
    try:
        if task.direct:
            _direct(rt, context, task)
        else:
            _indirect(rt, task)
    except (TaskFailed, apply.TransformFailed) as exc:
        task.state, task.error = "ERROR", str(exc)
        return
    task.state = "COMPLETE"


def _need(task: ImportTask) -> tuple[Target, LayerPlan]:
    if task.target is None or task.layer is None:
        raise TaskFailed("Task has no layer configuration")
    return task.target, task.layer


# -- names -------------------------------------------------------------------------------


def _numbered(name: str, taken: object) -> str:
    """``name``, else ``name0``, ``name1``… (GeoServer's ``findUnique…Name``)."""
    if name not in taken:  # type: ignore[operator]
        return name
    i = 0
    while f"{name}{i}" in taken:  # type: ignore[operator]
        i += 1
    return f"{name}{i}"


class _Stores:
    def __init__(self, cat: Catalog, ws: str) -> None:
        self.cat, self.ws = cat, ws

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and self.cat.store(self.ws, name) is not None


class _Resources(_Stores):
    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and self.cat.resource(self.ws, name) is not None


def resource_name(cat: Catalog, ws: str, name: str) -> str:
    """A legal layer name no resource of the workspace has."""
    if not name[:1].isalpha():
        name = "a_" + name
    name = re.sub(r"[^A-Za-z0-9_]", "_", name)
    return _numbered(name, _Resources(cat, ws))


def _native_names(rt: Context, ws: str, store: str) -> set[str]:
    names = {t.name for t in rt.state.features.of_store(ws, store)}
    found = rt.state.catalog.store(ws, store)
    names.update(found.available if found is not None else [])
    names.update(
        r.native_name or r.name for r in rt.state.catalog.list_resources(ws, "featureType", store)
    )
    return names


# -- styles ------------------------------------------------------------------------------


def _style(rt: Context, layer: LayerPlan) -> tuple[StyleRef, bytes | None]:
    """The layer's style, and the body of a generated one to add (checked: a generated
    name another style took meanwhile fails the task, as GeoServer's catalog refuses it)."""
    if layer.generated is None:
        ref = layer.style or StyleRef(None, "point")
        if rt.state.styles.get(ref.workspace, ref.name) is None:
            raise TaskFailed(f"No such style: {ref.prefixed}")
        return ref, None
    gen = layer.generated
    if rt.state.styles.get(None, gen.name) is not None:
        raise TaskFailed(f"Style named '{gen.name}' already exists")
    body = gen.body or generated.sld(gen.template, gen.color_name, gen.color_code, gen.name)
    return StyleRef(None, gen.name), body


def _add_style(rt: Context, ref: StyleRef, body: bytes | None) -> None:
    if body is None:
        return
    env = Env(rt.state.datadir, rt.state.catalog, rt.state.ids, rt.when, rt.seconds)
    rt.state.styles.create(env, None, ref.name, Body(body, SLD_10))


# -- direct ------------------------------------------------------------------------------


def _direct(rt: Context, context: ImportContext, task: ImportTask) -> None:
    target, layer = _need(task)
    cat = rt.state.catalog
    ws = target.workspace
    if cat.workspace(ws) is None:
        raise TaskFailed(f"No such workspace: {ws}")
    created = context.stores.get(target.group)
    reuse = created is not None and cat.store(ws, created) is not None
    store_name = created if reuse and created else _numbered(target.name, _Stores(cat, ws))
    name = resource_name(cat, ws, layer.name)
    style, body = _style(rt, layer)
    # -- checked: from here on, only changes --
    if not reuse:
        _add_store(rt, target, store_name)
        context.stores[target.group] = store_name
    if target.kind == COVERAGE_STORE:
        _publish_coverage(rt, task, ws, store_name, name, style, body)
        return
    assert task.table is not None
    table = copy.deepcopy(task.table)
    if table.srs == NO_CRS and layer.srs:
        table.srs = layer.srs
    rt.state.features.put(ws, store_name, table)
    _publish_features(rt, ws, store_name, name, table, layer, style, body, {})


def _add_store(rt: Context, target: Target, name: str) -> None:
    cat = rt.state.catalog
    if target.kind == COVERAGE_STORE:
        new: DataStore | CoverageStore = CoverageStore(
            name, target.workspace, type=target.type, url=target.url, enabled=target.enabled
        )
    else:
        params = dict(target.params)
        ns = cat.namespace(target.workspace)
        if "namespace" not in params and ns is not None:
            params["namespace"] = ns.uri
        new = DataStore(name, target.workspace, type=target.type, enabled=target.enabled)
        new.connection_parameters = dict(sorted(params.items()))
    new.description = target.description
    cat.add_store(new, when=rt.when)


def _publish_coverage(
    rt: Context, task: ImportTask, ws: str, store_name: str, name: str, style: StyleRef,
    body: bytes | None,
) -> None:  # fmt: skip
    assert task.raster is not None and task.layer is not None
    store = rt.state.catalog.coverage_store(ws, store_name)
    assert store is not None
    fmt = UPLOAD_FORMATS[task.raster_format or "GeoTIFF"]
    native = task.layer.native_name
    rt.state.features.grids[(ws, store_name, native)] = task.raster
    cov = build_coverage(store, fmt, task.raster, native, name)
    layer = task.layer
    cov.title = layer.title or name
    cov.abstract, cov.description = layer.abstract, layer.description or cov.description
    _add_style(rt, style, body)
    rt.state.catalog.add_resource(cov, publish=True, default_style=style, when=rt.when)


def _publish_features(
    rt: Context, ws: str, store: str, name: str, table: FeatureTable, layer: LayerPlan,
    style: StyleRef, body: bytes | None, metadata: dict[str, object],
) -> None:  # fmt: skip
    ft = FeatureType(name, ws, store, native_name=table.name, title=layer.title or name)
    ft.abstract, ft.description = layer.abstract, layer.description
    ft.keywords = ["features", table.name]
    ft.srs = layer.srs
    ft.native_crs = layer.native_crs or layer.srs
    ft.projection_policy = layer.projection_policy or "NONE"
    raw = table.bounds()
    ft.native_bbox = layer.bbox if raw is None else BBox(raw[0], raw[2], raw[1], raw[3], ft.srs)
    ft.latlon_bbox = geo.lonlat(ft.native_bbox, ft.srs) or layer.latlon
    ft.attributes = [
        Attribute(a.name, 0, 1, a.nillable, a.binding, a.length) for a in table.attributes
    ]
    ft.metadata.update(metadata)  # type: ignore[arg-type]
    ft.enabled = True
    _add_style(rt, style, body)
    rt.state.catalog.add_resource(ft, publish=True, default_style=style, when=rt.when)


# -- indirect ----------------------------------------------------------------------------


def _indirect(rt: Context, task: ImportTask) -> None:
    target, layer = _need(task)
    cat = rt.state.catalog
    found = cat.store(target.workspace, target.name)
    if found is None:
        raise TaskFailed(f"No such store: {target.workspace}:{target.name}")
    if target.kind == COVERAGE_STORE:
        raise TaskFailed(
            "Indirect raster import can only work against a structured grid coverage store "
            f"(e.g., mosaic), this one is not: CoverageStoreInfoImpl[{found.name}]"
        )
    if task.update_mode == "UPDATE":
        raise TaskFailed("updateMode UPDATE is not supported yet")
    assert task.table is not None
    source = copy.deepcopy(task.table)
    if source.srs == NO_CRS and layer.srs:
        source.srs = layer.srs
    copied = apply.apply(source, task.transforms)
    if copied.srs is not None:
        layer.srs = layer.native_crs = copied.srs
    ws, store = target.workspace, target.name
    if task.update_mode == "CREATE":
        native = _numbered(source.name, _native_names(rt, ws, store))
        name = resource_name(cat, ws, layer.name)
        style, body = _style(rt, layer)
        table = _renamed(copied.table, native, [])
        rt.state.features.put(ws, store, table)
        _publish_features(rt, ws, store, name, table, layer, style, body, copied.metadata)
    else:
        _into_table(rt, ws, store, source.name, copied.table, task.update_mode == "REPLACE")
    task.processed = task.total = len(copied.table.features)


def _into_table(
    rt: Context, ws: str, store: str, name: str, incoming: FeatureTable, replace: bool
) -> None:
    """REPLACE or APPEND: the features go into the store's table of the same name."""
    features = rt.state.features
    current = features.get(ws, store, name)
    if current is None:
        configured = next(
            (r for r in rt.state.catalog.list_resources(ws, "featureType", store)
             if (r.native_name or r.name) == name),
            None,
        )  # fmt: skip
        if configured is None:
            raise TaskFailed(f"Schema '{name}' does not exist.")
        current = FeatureTable(name, incoming.attributes, incoming.geometry, incoming.srs, [])
    kept = [] if replace else list(current.features)
    features.put(ws, store, _renamed(incoming, name, kept, current))
    for res in rt.state.catalog.list_resources(ws, "featureType", store):
        if (res.native_name or res.name) == name and res.native_bbox is None:
            updated = copy.deepcopy(res)
            table = features.get(ws, store, name)
            raw = table.bounds() if table is not None else None
            if raw is not None:
                updated.native_bbox = BBox(raw[0], raw[2], raw[1], raw[3], res.srs)
                updated.latlon_bbox = geo.lonlat(updated.native_bbox, res.srs)
                rt.state.catalog.replace_resource(ws, res.name, updated, when=rt.when)


def _renamed(
    table: FeatureTable, name: str, kept: list[Feature], schema_of: FeatureTable | None = None
) -> FeatureTable:
    """The features under table ``name``: ``kept`` first, then ``table``'s, numbered on
    (``<name>.<n>``); with ``schema_of``, in that table's schema."""
    schema = schema_of if schema_of is not None else table
    names = {a.name for a in schema.attributes}
    out = list(kept)
    for feature in table.features:
        props = {k: v for k, v in feature.properties.items() if k in names}
        if schema.geometry and table.geometry and schema.geometry != table.geometry:
            props[schema.geometry] = feature.properties.get(table.geometry)
        out.append(Feature(f"{name}.{len(out) + 1}", props))
    return FeatureTable(name, list(schema.attributes), schema.geometry, schema.srs, out)
