"""The mosaic operations the REST endpoints offer, over the whole emulated state.

Each operation checks and reads everything first (on a copy of the mosaic), then commits:
files into the data directory, the index, the catalog. A failure before the commit leaves
the state as it was.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from datetime import datetime
from typing import TYPE_CHECKING, Any

from ...core.errors import Forbidden, Invalid, MethodNotAllowed, NotFound, ServerError
from ...core.record import record, replace
from ...wire.geoserver.dates import catalog_timestamp
from ..catalog.entities import Coverage, CoverageStore
from ..catalog.parse import apply_fields
from . import archive, configure, database, harvest
from .granules import WORLD_FILES, is_candidate
from .model import Feature, Granule, Mosaic
from .sources import (
    DATADIR,
    FileRef,
    Files,
    HostBudget,
    Remote,
    locate,
    parse_key,
    store_root,
)

if TYPE_CHECKING:
    from ...core.state import State

PURGE_POLICIES = ("NONE", "METADATA", "ALL")


@record
class Context:
    """What an operation needs besides its arguments."""

    state: State
    now: datetime
    seconds: float
    """the emulated clock (seconds since start), for data-directory file times"""
    origin: datetime
    """the calendar instant the emulated clock started at"""
    url_allowed: Callable[[str], bool]
    max_total: int
    """the most bytes an archive may inflate to"""
    host: HostBudget | None = None
    """what the request may read of this machine; None: host paths resolve inside the
    emulated data directory (``sources.py``)"""

    @property
    def files(self) -> Files:
        return Files(self.state.datadir, self.origin, self.host)

    @property
    def when(self) -> str:
        """The catalog's date format."""
        return catalog_timestamp(self.now)


# -- lookups --------------------------------------------------------------------------------


def mosaic_of(state: State, store: CoverageStore) -> Mosaic | None:
    return state.mosaics.get(store_root(store.url))


def reader_names(state: State, store: CoverageStore) -> list[str]:
    """The coverages a mosaic store's reader offers, configured or not (the catalog's hook
    ``catalog.reader_names``)."""
    mosaic = mosaic_of(state, store)
    return mosaic.coverage_names() if mosaic is not None else []


def harvestable(ctx: Context, ws: str, name: str) -> tuple[CoverageStore, Mosaic]:
    store = ctx.state.catalog.coverage_store(ws, name)
    if store is None:
        raise NotFound(f"No such coverage store: {ws},{name}")
    mosaic = mosaic_of(ctx.state, store)
    if mosaic is None:
        raise MethodNotAllowed("Coverage store found, but it does not support resource harvesting")
    return store, mosaic


def coverage_index(ctx: Context, ws: str, name: str, coverage: str) -> tuple[Mosaic, str, Coverage]:
    """The mosaic behind a published coverage and its native coverage name (the index's
    lookups and 404s, as ``StructuredCoverageController`` words them)."""
    cat = ctx.state.catalog
    if cat.workspace(ws) is None:
        raise NotFound(f"No such workspace : {ws}")
    store = cat.coverage_store(ws, name)
    if store is None:
        raise NotFound(f"No such coverage store: {name}")
    found = [
        r for r in cat.list_resources(store.workspace, "coverage", store.name) if r.name == coverage
    ]
    if not found or not isinstance(found[0], Coverage):
        raise NotFound(f"No such coverage in store: {coverage}")
    cov = found[0]
    mosaic = mosaic_of(ctx.state, store)
    if mosaic is not None:
        mosaic = database.live(ctx.state, mosaic)  # a database index: as its table holds it
    if mosaic is None:
        raise ServerError(
            f"The reader of coverage store {store.workspace}:{store.name} "
            "is not a structured grid coverage reader"
        )
    names = mosaic.coverage_names()
    native = cov.native_coverage_name
    if native is None:
        if len(names) > 1:
            raise ServerError(
                f"The grid coverage configuration for {cov.name} does not specify "
                "a native coverage name, yet the reader provides more than one coverage. "
                "Please assign a native coverage name "
                "(the GUI does so automatically)"
            )
        native = names[0]
    if native not in names:
        raise ServerError(f"Could not find a granule source for coverage {native}")
    return mosaic, native, cov


# -- uploads and harvests -------------------------------------------------------------------


@record
class Staged:
    """A mosaic upload unpacked and its granules read, before anything changes."""

    root: FileRef
    overlay: dict[str, bytes]
    """the archive's files by data-directory key"""
    mosaic: Mosaic


def upload(
    ctx: Context, ws: str, name: str, data: bytes, configured: bool, coverage_name: str | None
) -> CoverageStore:
    """``PUT file.imagemosaic``: the ZIP becomes the store's folder and index."""
    folder = workspace_of(ctx, ws)
    staged = stage_upload(ctx.files, folder, name, data, ctx.max_total, ctx.now)
    return finish_upload(ctx, ws, name, staged, configured, coverage_name)


def workspace_of(ctx: Context, ws: str) -> str:
    """The workspace's name as the catalog has it (its data folder's), or 404."""
    workspace = ctx.state.catalog.workspace(ws)
    if workspace is None:
        raise NotFound(f"No such workspace : {ws}")
    return workspace.name


def stage_upload(
    files: Files, ws: str, name: str, data: bytes, max_total: int, now: datetime
) -> Staged:
    """Unpack the ZIP into ``data/<ws>/<name>`` and read its indexer and granules, changing
    nothing (``files`` is only read): the slow part of a mosaic upload, which may run off
    the event loop."""
    root = FileRef(DATADIR, f"data/{ws}/{name}")
    overlay = {root.child(p).key: body for p, body in archive.unzip(data, max_total).items()}
    mosaic = harvest.open_folder(files, root, overlay)
    listing = [FileRef(DATADIR, k.partition(":")[2]) for k in overlay]
    refs = harvest.candidates(files, root, mosaic.indexer, listing)
    if not refs and mosaic.indexer.source is None:
        raise Invalid("Could not find appropriate imagemosaic file in archive")
    mosaic.add(harvest.read_granules(mosaic, refs, files, now, overlay))
    return Staged(root, overlay, mosaic)


def finish_upload(
    ctx: Context, ws: str, name: str, staged: Staged, configured: bool, coverage_name: str | None
) -> CoverageStore:
    """The rest of a mosaic upload, on the staged archive: files, store, index, coverage."""
    cat = ctx.state.catalog
    ctx.files.delete(staged.root)
    _write(ctx, staged.overlay)
    store = configure.ensure_store(cat, ws, name, staged.root.url, ctx.when)
    _index_all(ctx, staged.mosaic)
    ctx.state.mosaics.put(staged.mosaic)
    if configured:
        _configure_new(ctx, staged.mosaic, store, coverage_name)
    return store


def _index_all(ctx: Context, mosaic: Mosaic) -> None:
    """Every granule of a mosaic just read goes into its database index (when it has one)."""
    database.write(ctx.state, replace(mosaic, granules=[]), mosaic)


def put_external(
    ctx: Context, ws: str, name: str, text: str, configured: bool, coverage_name: str | None
) -> CoverageStore:
    """``PUT external.imagemosaic``: a mosaic folder already on the server becomes a store."""
    cat = ctx.state.catalog
    if cat.workspace(ws) is None:
        raise NotFound(f"No such workspace : {ws}")
    root = _existing(ctx, text)
    if not ctx.files.is_dir(root):
        root = root.parent
    mosaic = ctx.state.mosaics.get(root.key)
    if mosaic is None:
        mosaic = harvest.open_folder(ctx.files, root)
        refs = harvest.candidates(ctx.files, root, mosaic.indexer)
        mosaic.add(harvest.read_granules(mosaic, refs, ctx.files, ctx.now))
        _index_all(ctx, mosaic)
    store = configure.ensure_store(cat, ws, name, root.url, ctx.when)
    ctx.state.mosaics.put(mosaic)
    if configured:
        _configure_new(ctx, mosaic, store, coverage_name)
    return store


def _configure_new(
    ctx: Context, mosaic: Mosaic, store: CoverageStore, coverage_name: str | None
) -> None:
    if not mosaic.granules and not mosaic.indexer.flag("CanBeEmpty"):
        raise ServerError("Could not acquire reader for coverage.")
    configure.configure_all(ctx.state.catalog, mosaic, store, coverage_name, ctx.when)


def harvest_external(
    ctx: Context, ws: str, name: str, text: str, update_bbox: bool
) -> list[Granule]:
    """``POST external.imagemosaic``: index a file, or every granule of a folder."""
    store, mosaic = harvestable(ctx, ws, name)
    target = _existing(ctx, text)
    before = database.live(ctx.state, mosaic)
    work = copy.deepcopy(before)
    refs = (
        harvest.candidates(ctx.files, target, work.indexer)
        if ctx.files.is_dir(target)
        else [target]
    )
    added = work.add(harvest.read_granules(work, refs, ctx.files, ctx.now))
    database.write(ctx.state, before, work)
    _commit(ctx, work, store, update_bbox)
    return added


def harvest_upload(
    ctx: Context, ws: str, name: str, data: bytes, is_zip: bool, filename: str, update_bbox: bool
) -> list[Granule]:
    """``POST file.<format>``: the body (a ZIP, or one file named ``filename``) goes into the
    store's upload folder and is harvested."""
    store, mosaic = harvestable(ctx, ws, name)
    folder = FileRef(DATADIR, f"data/{store.workspace}/{store.name}")
    if is_zip:
        entries = archive.unzip(data, ctx.max_total)
        refs = [folder.child(p) for p in entries if is_candidate(p)]
    else:
        name = archive.safe_name(filename)
        if name is None:
            raise Invalid(f"Invalid file name: {filename}")
        entries = {name: data}
        refs = [folder.child(name)]
    overlay = {folder.child(p).key: body for p, body in entries.items()}
    before = database.live(ctx.state, mosaic)
    work = copy.deepcopy(before)
    added = work.add(harvest.read_granules(work, refs, ctx.files, ctx.now, overlay))
    database.write(ctx.state, before, work)
    _write(ctx, overlay)
    _commit(ctx, work, store, update_bbox)
    return added


def read_named(ctx: Context, text: str) -> bytes:
    """The bytes of the local file a ``url.``/``external.`` body names (a ZIP to unpack)."""
    target = _existing(ctx, text)
    data = ctx.files.read(target, limit=ctx.max_total)
    if data is None or ctx.files.is_dir(target):
        raise Invalid(f"Failed to read the input file {text.strip()}")
    return data


def _existing(ctx: Context, text: str) -> FileRef:
    """The local file a harvest body names; URL checks for a remote one."""
    target = locate(text)
    if isinstance(target, Remote):
        if not ctx.url_allowed(target.url):
            raise Invalid(
                f"Evaluation Failure: '{target.url}' was not accepted by external URL checks"
            )
        raise Invalid(f"Failed to locate the input file {text.strip()}")
    if not ctx.files.exists(target):
        raise Invalid(f"Failed to locate the input file {text.strip()}")
    return target


def _write(ctx: Context, overlay: dict[str, bytes]) -> None:
    for key, body in overlay.items():
        ctx.files.write(parse_key(key), body, ctx.seconds)


def _commit(ctx: Context, mosaic: Mosaic, store: CoverageStore, update_bbox: bool) -> None:
    ctx.state.mosaics.put(mosaic)
    if update_bbox:
        configure.update_bounds(ctx.state.catalog, mosaic, store, ctx.when)


# -- removal --------------------------------------------------------------------------------


def purge_policy(value: str | None) -> str:
    policy = (value or "none").upper()
    if policy not in PURGE_POLICIES:
        raise Invalid(
            f"Invalid purge value {value}, allowed values are [{', '.join(PURGE_POLICIES)}]"
        )
    return policy


def remove(
    ctx: Context,
    mosaic: Mosaic,
    native: str,
    predicate: Callable[[Feature], bool] | None,
    policy: str,
    update_bbox: bool,
    store: CoverageStore | None = None,
) -> list[Granule]:
    """Remove the granules the predicate selects, and their files as ``policy`` says."""
    return remove_granules(
        ctx, mosaic, mosaic.select(native, predicate), policy, update_bbox, store
    )


def remove_granules(
    ctx: Context,
    mosaic: Mosaic,
    chosen: list[Granule],
    policy: str,
    update_bbox: bool,
    store: CoverageStore | None = None,
) -> list[Granule]:
    before = replace(mosaic, granules=list(mosaic.granules))
    gone = mosaic.remove(chosen)
    database.write(ctx.state, before, mosaic)
    ctx.state.mosaics.put(mosaic)  # a database index's mirror follows its table
    for granule in gone:
        for ref in purged_files(granule, policy):
            ctx.files.delete(ref)
    if update_bbox and store is not None:
        configure.update_bounds(ctx.state.catalog, mosaic, store, ctx.when)
    return gone


def purged_files(granule: Granule, policy: str) -> list[FileRef]:
    """The data-directory files a removal deletes: with ``ALL`` the granule and its side
    files (overviews, masks, world and projection files, auxiliary metadata); with
    ``METADATA`` only the auxiliary metadata (``.aux.xml``). Files outside the data
    directory are never deleted."""
    if granule.file is None or policy == "NONE":
        return []
    ref = parse_key(granule.file)
    if ref.tree != DATADIR:
        return []
    stem = ref.path.rsplit(".", 1)[0]
    metadata = [f"{ref.path}.aux.xml", f"{stem}.aux.xml"]
    if policy == "METADATA":
        names = metadata
    else:
        ext = ref.path.rsplit(".", 1)[-1].lower()
        worlds = [f"{stem}.{w}" for w in (*WORLD_FILES.get(ext, ()), "wld")]
        names = [ref.path, f"{ref.path}.ovr", f"{ref.path}.msk", f"{stem}.prj", *worlds, *metadata]
    return [FileRef(DATADIR, n) for n in dict.fromkeys(names)]


# -- deleting a store ---------------------------------------------------------------------

CLEANUP_SUFFIXES = (
    "properties", "shp", "dbf", "sbn", "sbx", "shx", "qix", "lyr", "prj", "ncx", "gbx9",
    "ncx2", "ncx3", "sample_image.dat", "sample_image", "xml", "db",
)  # fmt: skip
"""ImageMosaic's cleanup filter (file-name endings), with the names below: the files a
``purge=metadata`` removes from the top of the mosaic's folder (configuration, index,
sample image, auxiliary metadata); the granules stay."""
CLEANUP_NAMES = ("error.txt", "_metadata", "error.txt.lck")


def release_store(state: State, store: CoverageStore, purge: str | None) -> Mosaic | None:
    """What deleting coverage store ``store`` (already gone from the catalog) does to its
    mosaic, as ``CoverageStoreController.delete`` and the structured reader's ``delete`` do.

    The index goes (unless, with no purge, another store still reads the same folder).
    ``purge=metadata`` also deletes the folder's configuration and index files,
    ``purge=all`` every granule with its side files and everything in the folder. Only
    data-directory files are deleted; a purge value other than ``metadata`` or ``all``
    counts as none, as in GeoServer. Returns the dropped mosaic."""
    root = store_root(store.url)
    mosaic = state.mosaics.get(root)
    if mosaic is None:
        return None
    policy = (purge or "none").upper()
    if policy not in ("METADATA", "ALL"):
        others = state.catalog.stores.values()
        if any(isinstance(o, CoverageStore) and store_root(o.url) == root for o in others):
            return None
        return state.mosaics.drop(mosaic.root)
    folder = parse_key(mosaic.root)
    datadir = state.datadir
    if policy == "ALL":
        for granule in mosaic.granules:
            for ref in purged_files(granule, "ALL"):
                datadir.delete(ref.path)
    if folder.tree == DATADIR:
        for name, is_dir in datadir.listdir(folder.path):
            if policy == "ALL" or (not is_dir and _cleaned(name)):
                datadir.delete(f"{folder.path}/{name}")
    return state.mosaics.drop(mosaic.root)


def _cleaned(name: str) -> bool:
    return name in CLEANUP_NAMES or name.endswith(CLEANUP_SUFFIXES)


# -- configuring a coverage -------------------------------------------------------------------


def configure_coverage(ctx: Context, ws: str, name: str, fields: dict[str, Any]) -> Coverage:
    """``POST …/coverages`` on a mosaic store: the coverage built from the index, with the
    fields the client gave on top (only a name: configured entirely from the index)."""
    cat = ctx.state.catalog
    store, mosaic = harvestable(ctx, ws, name)
    mosaic = database.live(ctx.state, mosaic)
    given_store = fields.pop("store", None)
    fields.pop("namespace", None)
    if given_store and given_store.rpartition(":")[2] != store.name:
        raise Forbidden(f"Expected coverage store {store.name} but client specified {given_store}")
    if not fields.get("name"):
        raise Invalid("Trying to create new coverage inside the store, but no name was specified")
    native = fields.get("native_coverage_name") or fields.get("native_name")
    coverage = configure.build_coverage(mosaic, store, native, fields["name"])
    apply_fields(coverage, fields, "coverage")
    coverage.enabled = True
    cat.add_resource(coverage, when=ctx.when)
    return coverage
