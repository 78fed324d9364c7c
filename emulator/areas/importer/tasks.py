"""Tasks from import data, and their preparation (``Importer.addTasks``, ``createTasks``
and ``prep``).

A file gives one task per feature type it holds (a shapefile one, a GeoPackage one per
table) or one for its grid; a directory groups its files by format, folder by folder: with
no target store, several shapefiles of one folder share one new store named after the
folder, any other file gets a store of its own, named after it; with a target store every
file is imported into it. A folder holding only files of unknown format gives a task per
file (``NO_FORMAT``); otherwise such files are left out.

``prep`` decides a task's state: ``NO_FORMAT`` without a format, ``ERROR`` without a target
store, ``BAD_FORMAT`` when vector data meets a coverage store (or raster data a data store),
``NO_CRS`` while the layer has no SRS, ``NO_BOUNDS`` without bounds, else ``READY``; it
gives the layer its generated style (``generated.py``) the first time.
"""

from __future__ import annotations

import posixpath

from ...core.errors import Invalid
from ...crs.envelope import Envelope
from ..catalog.entities import COVERAGE_STORE, DATA_STORE, Attribute, BBox, CoverageStore, StyleRef
from ..mosaics.sources import FileRef, Files
from ..uploads.context import Context
from ..uploads.crs import NO_CRS
from ..uploads.readers import TypeRead, Unreadable
from . import formats, generated, geo
from .model import (
    Data,
    FileEntry,
    GeneratedStyle,
    ImportContext,
    ImportStore,
    ImportTask,
    LayerPlan,
    Target,
)
from .places import ORIGIN

DIRECTORY_TYPE = "Shapefile"
"""the store type of a folder of shapefiles (the shapefile factory reads folders)"""


def add_tasks(
    rt: Context, store: ImportStore, context: ImportContext, data: Data
) -> list[ImportTask]:
    """The tasks ``data`` gives, added to the context; ``Unreadable`` for a broken file."""
    if data.place is None:
        return []
    if data.type == "file":
        entry = data.file
        if entry is None or entry.format is None:
            return []  # a lone file of unknown format gives no task
        return _create(rt, store, context, data, [entry], entry.format, _stem(entry), True)
    out: list[ImportTask] = []
    by_folder: dict[str, list[FileEntry]] = {}
    for entry in data.files:
        by_folder.setdefault(posixpath.dirname(entry.name), []).append(entry)
    for folder in sorted(by_folder):
        out.extend(_folder_tasks(rt, store, context, data, folder, by_folder[folder]))
    return out


def _folder_tasks(
    rt: Context,
    store: ImportStore,
    context: ImportContext,
    data: Data,
    folder: str,
    entries: list[FileEntry],
) -> list[ImportTask]:
    groups: dict[str | None, list[FileEntry]] = {}
    for entry in entries:
        groups.setdefault(entry.format, []).append(entry)
    skip_unknown = set(groups) != {None}
    out: list[ImportTask] = []
    if context.target_store is None:
        shapefiles = groups.pop("Shapefile", [])
        if len(shapefiles) > 1:
            assert data.place is not None
            name = posixpath.basename(folder) if folder else posixpath.basename(data.place.path)
            out += _create(rt, store, context, data, shapefiles, "Shapefile", name, False, folder)
        elif shapefiles:
            groups["Shapefile"] = shapefiles
    for fmt in sorted(groups, key=lambda f: f or ""):
        for entry in groups[fmt]:
            if fmt is None and skip_unknown:
                continue
            out += _create(rt, store, context, data, [entry], fmt, _stem(entry), True)
    return out


def _stem(entry: FileEntry) -> str:
    return entry.basename.rsplit(".", 1)[0] if "." in entry.basename else entry.basename


def _entry_data(data: Data, entry: FileEntry) -> Data:
    """A task's data: the file of its entry (in the data's folder, or a sub-folder)."""
    assert data.place is not None
    folder = posixpath.dirname(entry.name)
    place = data.place.child(folder) if folder else data.place
    other = [_base(o) or "" for o in entry.other]
    single = FileEntry(entry.basename, entry.format, _base(entry.prj), other, _base(entry.style))
    return Data("file", place, file=single, format=entry.format, charset=data.charset)


def _base(path: str | None) -> str | None:
    return None if path is None else path.rsplit("/", 1)[-1]


def entry_files(rt: Context, place: FileRef, entry: FileEntry) -> dict[str, bytes]:
    """The files of one entry (main file, ``.prj``, side files, style), by name."""
    files = Files(rt.state.datadir, ORIGIN, rt.host)
    out: dict[str, bytes] = {}
    for name in (entry.name, entry.prj, *entry.other, entry.style):
        if name is None:
            continue
        found = files.read(place.child(name), rt.max_total)
        if found is not None:
            out[name] = found
    return out


def _create(
    rt: Context,
    store: ImportStore,
    context: ImportContext,
    data: Data,
    entries: list[FileEntry],
    fmt: str | None,
    name: str,
    single: bool,
    folder: str = "",
) -> list[ImportTask]:
    """``createTasks``: the target (the context's, else a new store for ``entries``), a task
    per item the format lists, each prepared and added."""
    assert data.place is not None
    group = context.next_task
    target = _target(rt, context, data, entries, fmt, name, single, folder, group)
    tasks: list[ImportTask] = []
    if fmt is None:
        task = ImportTask(0, data=_entry_data(data, entries[0]), target=target)
        tasks.append(task)
    elif formats.is_raster(fmt):
        entry = entries[0]
        raster = formats.read_raster(entry_files(rt, data.place, entry), entry)
        task = ImportTask(0, data=_entry_data(data, entry), target=target, chain="raster")
        task.raster, task.raster_format, task.source = raster, fmt, entry.basename
        task.layer = _coverage_plan(entry, raster)
        tasks.append(task)
    else:
        for entry in entries:
            files = entry_files(rt, data.place, entry)
            for read in formats.read_vector(files, entry, data.charset):
                task = ImportTask(0, data=_entry_data(data, entry), target=target)
                task.table, task.source = read.table, read.table.name
                task.layer = _feature_plan(read)
                task.total = len(read.table.features)
                tasks.append(task)
    for task in tasks:
        task.direct = target is None or not target.existing
        _indirect_coverage(rt, task)
        context.add_task(task)
        prep(rt, store, task)
    return tasks


def _target(
    rt: Context,
    context: ImportContext,
    data: Data,
    entries: list[FileEntry],
    fmt: str | None,
    name: str,
    single: bool,
    folder: str,
    group: int,
) -> Target | None:
    if context.target_store is not None:
        return existing_target(rt, *context.target_store)
    if fmt is None:
        return None
    ws = context.target_workspace or rt.state.catalog.default_workspace
    if ws is None:
        raise Invalid("No target workspace, and the catalog has no default workspace")
    assert data.place is not None
    if single:
        path = data.place.child(entries[0].name)
    else:
        path = data.place.child(folder) if folder else data.place
    where = path.absolute
    if formats.is_raster(fmt):
        return Target(name, ws, COVERAGE_STORE, fmt, url="file:" + where, group=group)
    if fmt == "GeoPackage":
        params = {"database": where, "dbtype": "geopkg"}
    else:
        params = {"url": f"file:{where}" if single else f"file:{where}/"}
        if data.charset:
            params["charset"] = data.charset
    kind = fmt if single else DIRECTORY_TYPE
    return Target(name, ws, DATA_STORE, kind, params=params, group=group)


def existing_target(rt: Context, ws: str, name: str) -> Target:
    """A target naming a store of the catalog."""
    found = rt.state.catalog.store(ws, name)
    if found is None:
        raise Invalid(f"Target store does not exist : {name}")
    return Target(found.name, found.workspace, found.kind, found.type, True, found.enabled)


def _indirect_coverage(rt: Context, task: ImportTask) -> None:
    """Raster data imported into an existing coverage store takes the store's name, and
    appends when the store already has coverages."""
    target, layer = task.target, task.layer
    if task.direct or target is None or layer is None or target.kind != COVERAGE_STORE:
        return
    layer.name = target.name
    store = rt.state.catalog.store(target.workspace, target.name)
    if isinstance(store, CoverageStore) and rt.state.catalog.list_resources(
        target.workspace, "coverage", target.name
    ):
        task.update_mode = "APPEND"


def _feature_plan(read: TypeRead) -> LayerPlan:
    table = read.table
    srs = table.srs if table.srs.startswith("EPSG:") and table.srs != NO_CRS else None
    raw = table.bounds()
    bbox = None if raw is None else BBox(raw[0], raw[2], raw[1], raw[3], srs)
    native = read.native_crs if read.native_crs and read.native_crs != NO_CRS else srs
    return LayerPlan(
        "featureType", table.name, table.name, table.name, title=table.name, srs=srs,
        native_crs=native, bbox=bbox, latlon=geo.lonlat(bbox, srs),
        attributes=[Attribute(a.name, 0, 1, a.nillable, a.binding, a.length)
                    for a in table.attributes],
    )  # fmt: skip


def _coverage_plan(entry: FileEntry, raster: object) -> LayerPlan:
    from ..uploads.rasters import Raster

    assert isinstance(raster, Raster)
    native = _stem(entry)
    srs = raster.srs or "EPSG:4326"
    env: Envelope = raster.envelope
    bbox = BBox(env.minx, env.maxx, env.miny, env.maxy, srs)
    return LayerPlan(
        "coverage", native, native, native, title=native, srs=srs,
        native_crs=raster.wkt or srs, bbox=bbox, latlon=geo.lonlat(bbox, srs),
    )  # fmt: skip


def prep(rt: Context, store: ImportStore, task: ImportTask) -> bool:
    """``Importer.prep``: the task's state from its data, target and layer; True when READY."""
    if task.state == "COMPLETE":
        return True
    if task.data is None or task.data.format is None:
        task.state = "NO_FORMAT"
        return False
    target, layer = task.target, task.layer
    if target is None:
        task.error, task.state = "No target store for task", "ERROR"
        return False
    raster = formats.is_raster(task.data.format)
    if raster != (target.kind == COVERAGE_STORE):
        task.error = (
            "Unable to import raster data into vector store"
            if target.kind == DATA_STORE
            else "Unable to import vector data into raster store"
        )
        task.state = "BAD_FORMAT"
        return False
    if layer is None:
        task.error, task.state = "Task has no layer configuration", "ERROR"
        return False
    if layer.style is None and layer.generated is None:
        _style(rt, store, task, layer, target.workspace)
    if layer.srs is None:
        task.state = "NO_CRS"
        return False
    if task.state == "NO_CRS":
        layer.latlon = layer.latlon or geo.lonlat(layer.bbox, layer.srs)
        layer.projection_policy = "FORCE_DECLARED"
    else:
        layer.projection_policy = "NONE"
    if layer.bbox is None:
        task.state = "NO_BOUNDS"
        return False
    task.state = "READY"
    return True


def _style(rt: Context, store: ImportStore, task: ImportTask, layer: LayerPlan, ws: str) -> None:
    """The layer's style: from the data's own style file, else generated; a layer without
    geometry gets the catalog's ``point`` style."""
    if layer.kind == "coverage":
        template: str | None = "raster"
    else:
        binding = next((a.binding for a in layer.attributes if geo.is_geometry(a.binding)), None)
        template = generated.template_for(binding)
    if template is None:
        layer.style = StyleRef(None, "point")
        return
    name = generated.unique_name(rt.state.styles, ws, layer.name)
    body = _style_file(rt, task)
    if body is not None:
        layer.generated = GeneratedStyle(name, "file", body=body)
        return
    store.ramp, color, code = generated.next_color(store.ramp)
    layer.generated = GeneratedStyle(name, template, color, code)


def _style_file(rt: Context, task: ImportTask) -> bytes | None:
    data = task.data
    if data is None or data.file is None or data.file.style is None or data.place is None:
        return None
    files = Files(rt.state.datadir, ORIGIN, rt.host)
    return files.read(data.place.child(data.file.style), rt.max_total)


def read_error(exc: Unreadable, rt: Context) -> Invalid:
    """The answer to data that cannot be read while tasks are added (GeoServer: 500
    ``Error updating context``; the spec profile: 400, as other uploads)."""
    return Invalid(f"Error updating context: {exc}", status=rt.decisions.upload_unreadable_status)
