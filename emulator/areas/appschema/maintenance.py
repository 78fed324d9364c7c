"""Clean and rebuild the persisted schemas of an app-schema store's internal MongoDB stores
(GeoServer's ``MongoStoreRestController``), with its checks in its order and its messages.

The store is looked up in the catalog; its mapping is the one the emulator loaded (or, for
an app-schema store made another way, read from the file its ``url`` names in the data
directory). Internal stores are the main file's sources; ``storeId`` is a source's ``id``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...core.errors import Invalid, ServerError
from .model import AppSchemaRecord, InternalStore, internal_stores
from .upload import is_app_schema, stage_files

if TYPE_CHECKING:
    from ...core.state import State


def _blank(*values: str) -> None:
    if any(not v.strip() for v in values):
        raise Invalid("All parameters are required.")


def app_schema_record(state: State, ws: str, store: str) -> AppSchemaRecord:
    """The loaded record of an app-schema store, or ``Invalid`` with GeoServer's message."""
    cat = state.catalog
    workspace = cat.workspace(ws)
    if workspace is None:
        raise Invalid("Workspace not found.")
    info = cat.data_store(workspace.name, store)
    if info is None:
        raise Invalid("Appschema datastore not found.")
    if not is_app_schema(info):
        raise Invalid("Datastore is not an App-Schema one.")
    url = info.connection_parameters.get("url", "")
    record = state.appschema.record(workspace.name, info.name)
    if record is not None and f"file:{record.main_path}" == url:
        return record
    return _load(state, workspace.name, info.name, url)


def _load(state: State, ws: str, store: str, url: str) -> AppSchemaRecord:
    """Read an app-schema store's mapping from the data directory, as GeoServer does when it
    first opens the store."""
    path = url[len("file:") :] if url.startswith("file:") else url
    dd = state.datadir
    if not path or dd.read(path) is None:
        raise ServerError(f"Unable to load the app-schema mapping {url or '(no url)'}")
    folder, _, main = path.rpartition("/")
    prefix = folder + "/" if folder else ""
    files = {p[len(prefix) :]: e.data for p, e in dd.files.items() if p.startswith(prefix)}
    try:
        staged = stage_files(files, main, from_zip=False)
    except Invalid as exc:
        raise ServerError(f"Unable to load the app-schema mapping {url}: {exc.message}") from None
    record = AppSchemaRecord(
        ws, store, folder, staged.main, staged.included, False, internal_stores(staged.main)
    )
    state.appschema.remember(record)
    state.appschema.infer_missing(record)
    return record


def _internal(record: AppSchemaRecord, store_id: str) -> InternalStore:
    for tm in record.main.type_mappings:
        if tm.source_data_store == store_id:
            source = record.main.source(store_id)
            if source is None or not source.is_document_database:
                raise Invalid("Internal Datastore is not a MongoDB one.")
            return record.internal[store_id]
    raise Invalid("Internal Datastore not found.")


def _all_internal(record: AppSchemaRecord) -> list[InternalStore]:
    if not record.internal:
        raise Invalid("Internal MongoDB Datastores not found.")
    return list(record.internal.values())


def clean_schemas(state: State, ws: str, store: str, store_id: str | None = None) -> None:
    """Delete the persisted schemas of one internal store (``store_id``) or of all."""
    record = app_schema_record(state, ws, store)
    targets = [_internal(record, store_id)] if store_id is not None else _all_internal(record)
    for internal in targets:
        state.appschema.clean(internal)


def rebuild_schemas(
    state: State,
    ws: str,
    store: str,
    store_id: str | None,
    ids: list[str],
    max_objects: int,
    schema: str | None = None,
) -> None:
    """Drop and re-infer the persisted schemas of one internal store or of all; with
    ``schema`` (one store only) just that schema is rebuilt."""
    record = app_schema_record(state, ws, store)
    if store_id is None:
        for internal in _all_internal(record):
            state.appschema.rebuild(internal, ids, max_objects)
        return
    internal = _internal(record, store_id)
    only = schema if schema is not None and schema.strip() else None
    if only is not None and only not in internal.collections:
        if not state.appschema.has_collection(internal.url, only):
            raise Invalid(f"Schema '{only}' does not exist.")
    state.appschema.rebuild(internal, ids, max_objects, only)


def check_path(ws: str, store: str, store_id: str | None = None) -> None:
    """GeoServer's first check of every schema endpoint: no blank path part."""
    _blank(ws, store, *([store_id] if store_id is not None else []))
