"""``PUT …/datastores/{store}/{method}.{format}``: a data store from uploaded files.

As GeoServer's ``DataStoreFileController``: the files are placed (``staging``), the store
is created (type from the format's factory, connection parameters pointing at the files,
``namespace`` the workspace's URI, ``charset`` when given) or, when it exists with the same
type, its parameters updated. An existing store of another type (a database, say), or a new
one with a ``target`` other than the format, receives the features instead: appended, or
replacing its own with ``update=overwrite``; the uploaded files are not kept.

``configure``: ``none`` stops after the store (201); ``all`` configures every type; anything
else the first. A type the store already publishes (same native name) gets its bounds
refreshed; a new one a feature type and a layer, renamed ``name1``, ``name2``… when its
name is taken in the namespace. 201 when a type was configured, else 202; no body.

Everything is read and checked before anything changes: a refusal stores nothing.
"""

from __future__ import annotations

import copy

from ...core.errors import Invalid, NotFound, ServerError
from ...core.record import record
from ...features.model import Feature, FeatureTable
from ..catalog.entities import DataStore
from ..catalog.model import Catalog
from . import build, vectors
from .context import Context, Request, Sources
from .readers import OverBudget, TypeRead, Unreadable
from .staging import Placed, absolute, place, read_source


def check_format(fmt: str) -> str:
    key = fmt.lower()
    if key in vectors.FORMATS or key == "appschema":
        return key
    if key in ("h2", "spatialite"):
        factory = "h2.H2" if key == "h2" else "spatialite.SpatiaLite"
        raise ServerError(
            f"Datastore format unavailable: org.geotools.data.{factory}DataStoreFactory"
        )
    raise Invalid(f"Unsupported format: {fmt}")


@record
class Staged:
    """An upload read and checked, before anything changes: where its files go and the
    feature types they hold."""

    placed: Placed
    types: list[TypeRead]


def upload(ctx: Context, req: Request) -> int:
    """Carry out the upload; the status GeoServer answers (201 or 202)."""
    fmt = check_format(req.format)
    if fmt == "appschema":
        return _appschema(ctx, req)
    ws = begin(ctx, req, fmt)
    return finish(ctx, req, fmt, ws, stage(ctx.sources(), req, fmt, ws))


def begin(ctx: Context, req: Request, fmt: str) -> str:
    """The checks that need the catalog, before the files are read: the workspace (its
    name) and the ``target``."""
    workspace = ctx.state.catalog.workspace(req.workspace)
    if workspace is None:
        raise NotFound(f"No such workspace: {req.workspace}")
    target = (req.target or fmt).lower()
    if target not in vectors.TARGETS:
        raise Invalid(f"Unsupported format: {req.target}")
    return workspace.name


def stage(src: Sources, req: Request, fmt: str, ws: str) -> Staged:
    """Place the files (unpacking a ZIP) and read every feature type, changing nothing: the
    slow part of an upload, which may run off the event loop (``Sources``)."""
    placed = place(
        src.datadir,
        req.method,
        req.body,
        ws=ws,
        store=req.store,
        fmt=fmt,
        is_zip=req.is_zip,
        filename=req.filename,
        max_total=src.max_total,
        remote=src.remote,
        url_allowed=src.url_allowed,
        host=src.host,
    )
    vectors.choose_primary(placed, fmt)
    vectors.check_extension(placed, fmt)
    try:
        types = vectors.read_types(src.datadir, placed, fmt, req.charset)
    except OverBudget as exc:
        raise Invalid(str(exc)) from None
    except Unreadable as exc:
        raise Invalid(str(exc), status=src.decisions.upload_unreadable_status) from None
    return Staged(placed, types)


def finish(ctx: Context, req: Request, fmt: str, ws: str, staged: Staged) -> int:
    """The rest of the upload, on the staged files: the store, the features, the types."""
    cat = ctx.state.catalog
    placed, types = staged.placed, staged.types
    target = (req.target or fmt).lower()
    current = cat.data_store(ws, req.store)
    if current is None and cat.store(ws, req.store) is not None:
        raise ServerError(f"Store '{req.store}' already exists in workspace '{ws}'")
    if current is None:
        importing = target != fmt
    else:
        importing = vectors.TYPE_FORMATS.get(current.type or "") != fmt
    selected = _selected(types, req.configure)
    plan = build.plan_names(cat, ws, req.store, [t.table.name for t in selected])
    # -- checked: from here on, only changes --
    if not importing:
        placed.apply(ctx.state.datadir, ctx.seconds)
    names = [t.table.name for t in types]
    store = _save_store(ctx, ws, req, placed, fmt, target, current, importing, names)
    tables = _keep_features(ctx, ws, store.name, types, importing, req.update)
    if (req.configure or "").lower() == "none":
        return 201
    reads = {t.table.name: t for t in types}
    for native, name in plan:
        read = reads[native]
        read = TypeRead(tables[native], read.native_crs, read.files)
        build.configure_type(cat, ws, store.name, read, name, ctx.when)
    return 201 if plan else 202


def _appschema(ctx: Context, req: Request) -> int:
    """``url.appschema`` and ``external.appschema``: the mapping (or ZIP) the body names is
    uploaded as ``file.appschema`` would upload it (the app-schema area's rules)."""
    from ..appschema import codec as appschema_codec
    from ..appschema import upload as appschema_upload

    workspace = ctx.state.catalog.workspace(req.workspace)
    if workspace is None:
        raise NotFound(f"No such workspace: {req.workspace}")
    data = read_source(
        ctx.state.datadir,
        req.method,
        req.body,
        ctx.state.features.remote.get,
        ctx.url_allowed,
        ctx.host,
    )
    prefix = appschema_upload.folder_of(workspace.name, req.store) + "/"
    current = {
        p[len(prefix) :]: e.data for p, e in ctx.state.datadir.files.items() if p.startswith(prefix)
    }
    staged = appschema_upload.stage_upload(
        current,
        data,
        is_zip=req.is_zip,
        filename=appschema_codec.upload_filename(req.store, req.filename),
    )
    outcome = appschema_upload.apply_upload(
        ctx.state,
        workspace.name,
        req.store,
        staged,
        configure=req.configure,
        decisions=ctx.decisions,
        when=ctx.when,
        now=ctx.seconds,
        charset=req.charset,
    )
    return outcome.status


def _selected(types: list[TypeRead], configure: str | None) -> list[TypeRead]:
    mode = (configure or "").lower()
    if mode == "none":
        return []
    return list(types) if mode == "all" else types[:1]


def _params(ctx: Context, ws: str, fmt: str, placed: Placed | None, store: str) -> dict[str, str]:
    """The connection parameters pointing at the data (``updateParameters``), or for an
    import target the ones GeoServer creates for it (``autoCreateParameters``)."""
    if placed is None:
        folder = f"data/{ws}/{store}"
        if fmt == "h2":
            return {"database": absolute(store), "dbtype": "h2"}
        if fmt == "gpkg":
            return {"database": absolute(f"{folder}/{store}.gpkg"), "dbtype": "geopkg"}
        if fmt == "shp":
            return {"url": f"file:{absolute(folder)}/"}
        return {"directory": absolute(folder)}
    if fmt == "shp":
        path = placed.location(placed.primary)
        return {"url": f"file:{path}/" if vectors.is_folder(placed) else f"file:{path}"}
    if fmt == "properties":
        folder = placed.primary if vectors.is_folder(placed) else placed.primary.rpartition("/")[0]
        return {"directory": placed.location(folder)}
    return {"database": placed.location(placed.primary), "dbtype": "geopkg"}


def _save_store(
    ctx: Context,
    ws: str,
    req: Request,
    placed: Placed,
    fmt: str,
    target: str,
    current: DataStore | None,
    importing: bool,
    names: list[str],
) -> DataStore:
    cat: Catalog = ctx.state.catalog
    ns = cat.namespace(ws)
    uri = ns.uri if ns is not None else ""
    if current is None:
        store = DataStore(req.store, ws, type=vectors.TARGETS[target], enabled=True)
        params = _params(ctx, ws, target, None if importing else placed, req.store)
        if req.charset:
            params["charset"] = req.charset
        params["namespace"] = uri
        store.connection_parameters = dict(sorted(params.items()))
        store.available = list(names)
        cat.add_store(store, when=ctx.when)
        ctx.state.features.drop_store(ws, req.store)
        return store
    updated = copy.deepcopy(current)
    if importing:
        updated.available = list(dict.fromkeys([*current.available, *names]))
        replaced = cat.replace_store(current.workspace, current.name, updated, when=ctx.when)
        assert isinstance(replaced, DataStore)
        return replaced
    params = dict(updated.connection_parameters)
    params.update(_params(ctx, ws, fmt, placed, req.store))
    params["namespace"] = uri
    updated.connection_parameters = dict(sorted(params.items()))
    updated.available = list(names)
    replaced = cat.replace_store(current.workspace, current.name, updated, when=ctx.when)
    assert isinstance(replaced, DataStore)
    return replaced


def _keep_features(
    ctx: Context, ws: str, store: str, types: list[TypeRead], importing: bool, update: str | None
) -> dict[str, FeatureTable]:
    """Put the read tables in the feature store: as read, or imported into the target's."""
    features = ctx.state.features
    out: dict[str, FeatureTable] = {}
    if not importing:
        features.drop_store(ws, store)
    for read in types:
        table = read.table
        existing = features.get(ws, store, table.name) if importing else None
        if existing is not None:
            table = _imported(existing, table, (update or "").lower() == "overwrite")
        out[table.name] = features.put(ws, store, table)
    return out


def _imported(existing: FeatureTable, incoming: FeatureTable, overwrite: bool) -> FeatureTable:
    """The target table after adding ``incoming``'s features (new fids, counting on)."""
    kept = [] if overwrite else list(existing.features)
    names = {a.name for a in existing.attributes}
    geometry = existing.geometry
    start = len(kept) + 1
    for n, feature in enumerate(incoming.features, start=start):
        props = {k: v for k, v in feature.properties.items() if k in names}
        if geometry and incoming.geometry and geometry != incoming.geometry:
            props[geometry] = feature.properties.get(incoming.geometry)
        kept.append(Feature(f"{existing.name}.{n}", props))
    return FeatureTable(existing.name, existing.attributes, geometry, existing.srs, kept)
