"""What the importer's endpoints do, over the state (``ImportController``,
``ImportTaskController``, ``Importer``): create, initialise and run imports, add data,
change tasks, their targets and layers.

Everything a request asks for is checked before the state changes; a refused request
changes nothing (the HTTP layer's rollback guarantees it besides). Reading data that fails
while an import is initialised is the import's ``INIT_ERROR`` (with the message), as
GeoServer records it; while data is added to an import it is the request's error.
"""

from __future__ import annotations

import posixpath
from typing import Any

from ...core.errors import Invalid, ServerError
from ..catalog.entities import Store, StyleRef
from ..mosaics.sources import DATADIR, FileRef, Files
from ..uploads.context import Context
from ..uploads.readers import Unreadable
from . import geo, init, jobs, places, reader, run, tasks
from .model import Data, ImportContext, ImportStore, ImportTask, Target, Transform
from .reader import ContextBody, LayerBody, StoreBody, TaskBody

NOT_IMPLEMENTED = ("archive", "database")
"""data types GeoServer's reader answers with ``UnsupportedOperationException``"""


def store_of(rt: Context) -> ImportStore:
    found: ImportStore = rt.state.importer
    return found


# -- imports -----------------------------------------------------------------------------


def create(
    rt: Context, body: ContextBody | None, import_id: int | None, run_async: bool, execute: bool
) -> ImportContext:
    """``POST /imports`` (and ``PUT /imports/<id>``, which reads no body)."""
    store = store_of(rt)
    ws, target, data, defaults = _resolve(rt, body)
    context = store.create(import_id)
    if run_async:
        context.state = "INIT"
    context.target_workspace, context.target_store = ws, target
    context.default_transforms = defaults
    context.data = data
    if not run_async and data is not None:
        init.initialise(rt, context)
    store.save(context)
    if run_async and data is not None:
        jobs.schedule(rt, store, context, init=True, execute=execute)
    elif execute and data is not None:
        run.run_context(rt, store, context)
    return context


def _resolve(
    rt: Context, body: ContextBody | None
) -> tuple[str | None, tuple[str, str] | None, Data | None, list[Transform]]:
    if body is None:
        return None, None, None, []
    cat = rt.state.catalog
    ws = None
    if body.workspace is not None:
        found = cat.workspace(body.workspace)
        if found is None:
            raise Invalid(f"Target workspace does not exist : {body.workspace}")
        ws = found.name
    target = None
    if body.store is not None:
        store = find_store(rt, body.store.name, body.store.workspace or ws)
        if store is None:
            raise Invalid(f"Target store does not exist : {body.store.name}")
        target = (store.workspace, store.name)
        ws = ws or store.workspace
    data = None if body.data is None else data_of(rt, body.data)
    return ws, target, data, list(body.transforms)


def find_store(rt: Context, name: str | None, ws: str | None) -> Store | None:
    """``getStoreByName``: in ``ws`` when given, else the default workspace first, then
    any (in workspace order)."""
    if name is None:
        return None
    cat = rt.state.catalog
    if ws is not None:
        return cat.store(ws, name)
    for candidate in [cat.default_workspace, *(w.name for w in cat.list_workspaces())]:
        found = cat.store(candidate, name) if candidate else None
        if found is not None:
            return found
    return None


def data_of(rt: Context, d: dict[str, Any]) -> Data:
    """Import data from its JSON (``ImportJSONReader.data``)."""
    if d.get("type") is None:
        raise Invalid('JSONObject["type"] not found.')
    kind = reader.text(d["type"]).lower()
    if kind == "file":
        if "file" not in d:
            raise Invalid("Could not find 'file' entry in data, mandatory for file type data")
        data = _file_data(rt, reader.text(d["file"]))
        charset = d.get("charsetEncoding")
        if charset is not None:
            _check_charset(reader.text(charset))
            data.charset = reader.text(charset)
        return data
    if kind == "directory":
        if "location" in d:
            return places.directory(rt, places.locate_local(reader.text(d["location"])))
        return places.directory(rt, FileRef(DATADIR, store_of(rt).folder()))
    if kind == "remote":
        if "location" not in d:
            raise Invalid("Could not find 'location' entry in data, mandatory for remote type data")
        out = Data("remote", location=reader.text(d["location"]))
        for key in ("username", "password", "domain"):
            if key in d:
                setattr(out, key, reader.text(d[key]))
        return out
    if kind == "mosaic":
        raise Invalid("Mosaic imports are not emulated")
    if kind in NOT_IMPLEMENTED:
        raise ServerError("TODO: implement")
    raise Invalid(f"Unknown data type: {reader.text(d['type'])}")


def _check_charset(name: str) -> None:
    try:
        "".encode(name)
    except LookupError:
        raise Invalid(f"{name} is not supported") from None


def _file_data(rt: Context, text: str) -> Data:
    """``FileData.createFromFile``: a folder is directory data, a ZIP is unpacked into an
    upload folder, anything else a file (kept, with no format, when it does not exist)."""
    ref = places.locate_local(text)
    if ref.path.lower().endswith(places.ARCHIVES):
        files = Files(rt.state.datadir, places.ORIGIN, rt.host)
        body = files.read(ref, rt.max_total)
        if body is not None:
            folder = store_of(rt).folder()
            places.accept(rt, folder, posixpath.basename(ref.path), body)
            return places.directory(rt, FileRef(DATADIR, folder))
    return places.describe(rt, ref)


def run_import(rt: Context, context: ImportContext, run_async: bool) -> None:
    """``POST /imports/<id>``: run the ready tasks, now or on the simulated clock."""
    if context.state == "INIT":
        raise Invalid("Import context is still in INIT state, cannot run it yet", status=412)
    store = store_of(rt)
    if not context.tasks and context.data is not None:
        init.initialise(rt, context)
    if run_async:
        store.save(context)
        jobs.schedule(rt, store, context, init=False, execute=True)
    else:
        run.run_context(rt, store, context)


# -- data --------------------------------------------------------------------------------


def upload_folder(rt: Context, context: ImportContext) -> str:
    """Where uploaded files go: the context's own folder when its data is one, else a new
    folder (``findOrCreateDirectory``)."""
    data = context.data
    if data is not None and data.type == "directory" and places.is_datadir(data):
        assert data.place is not None
        return data.place.path
    return store_of(rt).folder()


def accept_data(rt: Context, context: ImportContext, data: Data) -> list[ImportTask]:
    """``acceptData``: the tasks the data gives, added to the import."""
    store = store_of(rt)
    if context.data is not None and data.place == context.data.place:
        places.refresh(rt, context.data)
        data = context.data
    try:
        added = tasks.add_tasks(rt, store, context, data)
    except Unreadable as exc:
        raise tasks.read_error(exc, rt) from None
    store.save(context)
    return added


# -- tasks -------------------------------------------------------------------------------


def update_task(rt: Context, context: ImportContext, task: ImportTask, body: TaskBody) -> None:
    """``PUT /tasks/<id>``: target, charset, update mode, layer, transform chain."""
    if body.target is not None:
        update_target(rt, task, body.target)
    if body.charset is not None and task.data is not None:
        task.data.charset = body.charset
    if body.update_mode is not None:
        task.update_mode = body.update_mode
    if body.layer is not None:
        update_layer(rt, task, body.layer)
    if body.chain is not None:
        task.chain, task.transforms = body.chain[0], list(body.chain[1])
    changed(rt, context, task)


def changed(rt: Context, context: ImportContext, task: ImportTask) -> None:
    """``Importer.changed(task)``: prepare the task again, save the import."""
    tasks.prep(rt, store_of(rt), task)
    store_of(rt).save(context)


def update_target(rt: Context, task: ImportTask, body: StoreBody) -> None:
    """``updateStoreInfo``: an existing store by name (it must exist and be enabled), a new
    one when the task has none, else a change of the task's store."""
    if body.name is not None:
        found = find_store(rt, body.name, body.workspace)
        if found is None:
            raise Invalid("Unable to find referenced store")
        if not found.enabled:
            raise Invalid("Proposed target store is not enabled")
        task.target = Target(found.name, found.workspace, found.kind, found.type, True, True)
        task.direct = False
        return
    current = task.target
    if current is None:
        raise Invalid("The target store must have a name")
    if body.workspace is not None:
        if rt.state.catalog.workspace(body.workspace) is None:
            raise Invalid(f"No such workspace: {body.workspace}")
        if not current.existing:
            current.workspace = body.workspace
    if body.enabled is not None and not current.existing:
        current.enabled = body.enabled
    if body.description is not None and not current.existing:
        current.description = body.description
    if body.params and not current.existing:
        current.params.update(body.params)


def update_layer(rt: Context, task: ImportTask, body: LayerBody) -> None:
    """``updateLayer``: name, native name, title, abstract, description, style, SRS."""
    plan = task.layer
    if plan is None:
        raise Invalid("The task has no layer")
    if body.srs is not None and not geo.known(body.srs):
        raise reader.bad_request(f"Invalid SRS {body.srs}")
    style = None
    if body.style is not None:
        ws, name = body.style
        if rt.state.styles.get(ws, name) is None:
            raise Invalid(f"No such style: {name if ws is None else ws + ':' + name}")
        style = StyleRef(ws, name)
    for attr in ("name", "title", "abstract", "description", "native_name"):
        value = getattr(body, attr)
        if value is not None:
            setattr(plan, attr, value)
    if style is not None:
        plan.style, plan.generated = style, None
    if body.srs is not None:
        plan.native_crs = plan.native_crs or body.srs
        plan.srs = body.srs
        if plan.bbox is not None and plan.bbox.crs is None:
            from ...core.record import replace

            plan.bbox = replace(plan.bbox, crs=body.srs)
