"""``PUT …/datastores/<store>/file.appschema``: stage the upload, check it, then apply it.

As GeoServer's ``DataStoreFileController``: the body is saved as ``<store>.appschema`` (or
``?filename=``) in ``data/<ws>/<store>/``, whose old contents go first when that file is
already there; a ZIP is unpacked there instead and its first ``*.appschema`` is the main
file. The store is created (type ``Application Schema DataAccess``, ``dbtype`` app-schema,
``namespace`` the workspace's URI, ``url`` the main file) or its parameters updated. Then
``configure``: ``none`` stops; ``all`` configures every mapped type; anything else (or
nothing) only the first. A type already in the store (same native name) is refreshed, a
new one gets a feature type and a layer (renamed ``name1`` … ``name9`` when its name is
taken in the namespace). A PUT never removes feature types.

Everything is checked before anything changes: an upload that is not a mapping, a ZIP
without ``.appschema``, a referenced file that is missing, or a corrupt or escaping archive
answers 400 and leaves the data directory and catalog as they were.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...core.errors import Invalid, NotFound, ServerError
from ...core.profile import Decisions
from ...core.record import field, record
from ..catalog.model import Catalog, DataStore, FeatureType, copy_of
from . import archive
from .mapping import is_local, parse_mapping, resolve, schema_locations
from .model import AppSchemaRecord, MappingDoc, internal_stores

if TYPE_CHECKING:
    from ...core.state import State

STORE_TYPE = "Application Schema DataAccess"
DBTYPE = "app-schema"


@record
class Staged:
    """A store folder as it would be after the upload, already checked."""

    files: dict[str, bytes]
    main: MappingDoc
    included: tuple[MappingDoc, ...] = ()
    from_zip: bool = False


@record
class Outcome:
    status: int
    created: bool
    configured: list[str] = field(default_factory=list)


def is_app_schema(store: DataStore) -> bool:
    params = store.connection_parameters
    return store.type == STORE_TYPE or params.get("dbtype", "").lower() == DBTYPE


def folder_of(ws: str, store: str) -> str:
    return f"data/{ws}/{store}"


# -- staging ------------------------------------------------------------------------------


def stage_upload(current: dict[str, bytes], body: bytes, *, is_zip: bool, filename: str) -> Staged:
    """The folder after writing ``body`` over ``current`` (paths relative to the folder)."""
    files = {} if filename in current else dict(current)
    if is_zip:
        entries = archive.read_zip(body)
        main = archive.find_main(list(entries))
        if main is None:
            raise Invalid("Could not find appropriate appschema file in archive")
        files.update(entries)
    else:
        main = filename
        files[filename] = body
    return stage_files(files, main, from_zip=is_zip)


def stage_files(files: dict[str, bytes], main_path: str, *, from_zip: bool) -> Staged:
    """Parse the main mapping and everything it refers to, or raise ``Invalid``."""
    where = "archive" if from_zip else "store directory"
    if main_path not in files:
        raise Invalid(f"Mapping file {main_path} is missing from the {where}")
    main = parse_mapping(files[main_path], main_path)
    included: list[MappingDoc] = []
    pending, seen = [main], {main_path}
    while pending:
        doc = pending.pop(0)
        for ref in doc.includes:
            path = resolve(doc.path, ref) if is_local(ref) else None
            if path is None or path not in files:
                raise Invalid(
                    f"Included mapping file {ref} (included by {doc.path}) "
                    f"is missing from the {where}"
                )
            if path not in seen:
                seen.add(path)
                parsed = parse_mapping(files[path], path)
                included.append(parsed)
                pending.append(parsed)
    _check_schemas(files, [main, *included], where)
    return Staged(files, main, tuple(included), from_zip)


def _check_schemas(files: dict[str, bytes], docs: list[MappingDoc], where: str) -> None:
    """Every local ``schemaUri`` is present, and so is every local schema it includes."""
    pending: list[tuple[str, str, str]] = [
        (doc.path, uri, "targetTypes") for doc in docs for uri in doc.schema_uris if is_local(uri)
    ]
    seen: set[str] = set()
    while pending:
        base, ref, how = pending.pop(0)
        path = resolve(base, ref)
        if path is None or path not in files:
            raise Invalid(f"Schema {ref} (named by {how} of {base}) is missing from the {where}")
        if path in seen:
            continue
        seen.add(path)
        for location in schema_locations(files[path], path):
            if is_local(location):
                pending.append((path, location, "an include or import"))


# -- applying -------------------------------------------------------------------------------


def _selected(names: list[str], configure: str | None) -> list[str]:
    mode = (configure or "").lower()
    if mode == "none":
        return []
    return list(names) if mode == "all" else names[:1]


def _plan_names(
    cat: Catalog, ws: str, store: str, selected: list[str]
) -> list[tuple[str, str | None]]:
    """(native name, new name or None when the store already has it) for each selected type."""
    existing = {
        (r.native_name or r.name): r.name for r in cat.list_resources(ws, "featureType", store)
    }
    taken = {r.name for r in cat.list_resources(ws)}
    plan: list[tuple[str, str | None]] = []
    for native in selected:
        if native in existing:
            plan.append((native, None))
            continue
        name, x = native, 1
        if name in taken:
            while True:
                name, x = f"{native}{x}", x + 1
                if x >= 10 or name not in taken:
                    break
        if name in taken:
            raise ServerError(f"Resource named '{name}' already exists in namespace: '{ws}'")
        taken.add(name)
        plan.append((native, name))
    return plan


def _status(
    decisions: Decisions, created: bool, staged: Staged, configure: str | None, n: int
) -> int:
    mode = (configure or "").lower()
    if mode == "none":
        return 201 if created else decisions.appschema_replace_status
    if n == 0:
        return 202
    if created and mode == "all":
        if staged.from_zip:
            return decisions.appschema_create_zip_status
        return decisions.appschema_create_file_status
    return 201


def apply_upload(
    state: State,
    ws: str,
    store_name: str,
    staged: Staged,
    *,
    configure: str | None,
    decisions: Decisions,
    when: str | None = None,
    now: float = 0.0,
    charset: str | None = None,
) -> Outcome:
    """Write the staged folder, create or update the store, configure the types."""
    cat = state.catalog
    workspace = cat.workspace(ws)
    if workspace is None:
        raise NotFound(f"No such workspace: {ws}")
    ws = workspace.name
    current = cat.data_store(ws, store_name)
    if current is not None and not is_app_schema(current):
        return _foreign_store(current, staged, configure)
    plan = _plan_names(cat, ws, store_name, _selected(staged.main.names, configure))
    folder = folder_of(ws, store_name)
    _write_folder(state, folder, staged.files, now)
    created = current is None
    if created:
        state.appschema.forget(ws, store_name)
    _save_store(cat, ws, store_name, f"{folder}/{staged.main.path}", staged, when, charset)
    configured = _configure(cat, ws, store_name, plan, when)
    record = AppSchemaRecord(
        ws,
        store_name,
        folder,
        staged.main,
        staged.included,
        staged.from_zip,
        internal_stores(staged.main),
    )
    state.appschema.infer_missing(state.appschema.remember(record))
    return Outcome(_status(decisions, created, staged, configure, len(plan)), created, configured)


def _foreign_store(current: DataStore, staged: Staged, configure: str | None) -> Outcome:
    """An existing store of another kind: GeoServer keeps it as it is and drops the upload;
    configuring app-schema types in it fails."""
    selected = _selected(staged.main.names, configure)
    if (configure or "").lower() == "none":
        return Outcome(201, False)
    if not selected:
        return Outcome(202, False)
    raise ServerError(
        f"Store {current.name} is a {current.type or 'non app-schema'} store: "
        f"it cannot publish the app-schema type {selected[0]}"
    )


def _write_folder(state: State, folder: str, files: dict[str, bytes], now: float) -> None:
    dd = state.datadir
    prefix = folder + "/"
    for path in [p for p in dd.files if p.startswith(prefix)]:
        if path[len(prefix) :] not in files:
            dd.delete(path)
    for rel, data in files.items():
        if dd.read(prefix + rel) != data:
            dd.write(prefix + rel, data, now)


def _save_store(
    cat: Catalog,
    ws: str,
    name: str,
    main: str,
    staged: Staged,
    when: str | None,
    charset: str | None,
) -> None:
    ns = cat.namespace(ws)
    uri = ns.uri if ns is not None else ""
    current = cat.data_store(ws, name)
    store = DataStore(name, ws, type=STORE_TYPE) if current is None else copy_of(current)
    params = store.connection_parameters
    params["dbtype"] = params.get("dbtype") or DBTYPE
    params["namespace"] = uri
    params["url"] = f"file:{main}"
    if current is None and charset:
        params["charset"] = charset
    store.connection_parameters = dict(sorted(params.items()))
    store.available = staged.main.names
    store.lists_children = staged.from_zip
    if current is None:
        cat.add_store(store, when=when)
    else:
        cat.replace_store(ws, name, store, when=when)


def _configure(
    cat: Catalog, ws: str, store: str, plan: list[tuple[str, str | None]], when: str | None
) -> list[str]:
    done: list[str] = []
    for native, name in plan:
        if name is None:
            found = next(
                r
                for r in cat.list_resources(ws, "featureType", store)
                if (r.native_name or r.name) == native
            )
            cat.replace_resource(ws, found.name, copy_of(found), when=when)
            done.append(found.name)
            continue
        ft = FeatureType(
            name, ws, store, native_name=native, title=name, keywords=["features", native]
        )
        cat.add_resource(ft, publish=True, when=when)
        done.append(name)
    return done
