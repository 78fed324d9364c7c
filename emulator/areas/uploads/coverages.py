"""``PUT …/coveragestores/{store}/{method}.{format}`` for single-file coverages.

As GeoServer's ``CoverageStoreFileController``: the file is placed as for data stores
(``staging``; a non-ZIP body is saved as ``<store>.<format>``), read and checked first
(``rasters``; as the upload validator does, an unreadable file stores nothing), then the
coverage store is created or updated (type ``GeoTIFF``, ``WorldImage`` or ``ArcGrid``; URL
``file:data/<ws>/<store>/<file>`` for inline uploads, the file's absolute URL for external
ones). With ``configure=none`` that is all (201, no body); otherwise the coverage is built
as ``CatalogBuilder.buildCoverage`` builds it (named after the file, or ``coverageName``),
added with its layer or, when the store already has it, updated; 201 with the store.
"""

from __future__ import annotations

import copy
import math
import posixpath
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ...core.errors import Invalid, NotFound, ServerError
from ...core.record import record
from ...crs.envelope import to_lonlat
from ..catalog.entities import BBox, Coverage, CoverageDimension, CoverageStore
from ..catalog.model import Catalog
from ..mosaics.configure import INTERPOLATIONS, SUPPORTED_FORMATS
from ..mosaics.sources import DATADIR, FileRef, locate
from . import rasters
from .context import Context, Request, Sources
from .readers import OverBudget, Unreadable
from .staging import Placed, place

if TYPE_CHECKING:
    from ...core.state import State

Reader = Callable[[str, bytes, rasters.Sidecar, int], rasters.Raster]
FORMATS: dict[str, tuple[str, Reader, tuple[str, ...]]] = {
    "geotiff": ("GeoTIFF", rasters.read_geotiff, ("tif", "tiff")),
    "worldimage": (
        "WorldImage",
        rasters.read_world_image,
        ("png", "jpg", "jpeg", "gif", "tif", "tiff", "bmp"),
    ),  # fmt: skip
    "arcgrid": ("ArcGrid", rasters.read_arcgrid, ("asc", "arc", "grd")),
}
"""the formats read here: (store type, reader, file extensions a ZIP's main file has)"""
PARAMETERS = {
    "geotiff": {
        "InputTransparentColor": "",
        "SUGGESTED_TILE_SIZE": "512,512",
        "RescalePixels": "true",
    },  # fmt: skip
    "worldimage": {"InputTransparentColor": "", "SUGGESTED_TILE_SIZE": "512,512"},
    "arcgrid": {"InputTransparentColor": "", "SUGGESTED_TILE_SIZE": "512,512"},
}
EXECUTABLES = (b"\x7fELF", b"MZ", b"\xfe\xed\xfa", b"\xcf\xfa\xed\xfe", b"#!")


@record
class Staged:
    """A coverage upload read and checked, before anything changes."""

    placed: Placed
    raster: rasters.Raster


def upload(ctx: Context, req: Request) -> CoverageStore | None:
    """Carry out the upload; the store to answer with (None with ``configure=none``)."""
    fmt, ws = begin(ctx, req)
    return finish(ctx, req, fmt, ws, stage(ctx.sources(), req, fmt, ws))


def begin(ctx: Context, req: Request) -> tuple[str, str]:
    """The checks made before the file is read: the format (lower case) and the workspace
    (its name)."""
    fmt = req.format.lower()
    if fmt not in FORMATS:
        raise Invalid(f"Uploads of {req.format} coverages are not emulated")
    workspace = ctx.state.catalog.workspace(req.workspace)
    if workspace is None:
        raise NotFound(f"No such workspace : {req.workspace}")
    return fmt, workspace.name


def stage(src: Sources, req: Request, fmt: str, ws: str) -> Staged:
    """Place the file (unpacking a ZIP) and read its raster header, within the budgets,
    changing nothing: the slow part of an upload, which may run off the event loop."""
    _, reader, exts = FORMATS[fmt]
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
    _check_executables(placed)
    _choose_primary(placed, fmt, exts)
    return Staged(placed, _read(src, placed, reader))


def finish(ctx: Context, req: Request, fmt: str, ws: str, staged: Staged) -> CoverageStore | None:
    """The rest of the upload, on the staged file: the store and the coverage."""
    type_name = FORMATS[fmt][0]
    cat = ctx.state.catalog
    placed, raster = staged.placed, staged.raster
    native = posixpath.basename(placed.primary).rsplit(".", 1)[0]
    name = req.coverage_name or native
    current = cat.coverage_store(ws, req.store)
    if current is None and cat.store(ws, req.store) is not None:
        raise ServerError(f"Store '{req.store}' already exists in workspace '{ws}'")
    configure = (req.configure or "").lower() != "none"
    existing = _existing_coverage(cat, current, name, native) if configure else None
    if configure and existing is None:
        other = cat.resource(ws, name)
        if other is not None:
            raise ServerError(f"Resource named '{name}' already exists in namespace: '{ws}'")
    # -- checked: from here on, only changes --
    placed.apply(ctx.state.datadir, ctx.seconds)
    url = _url(req.method, placed, ws, req.store)
    store = _save_store(cat, ws, req.store, type_name, url, current, ctx.when, native)
    ctx.state.features.grids[(ws, store.name, native)] = raster
    if not configure:
        return None
    built = build_coverage(store, fmt, raster, native, name)
    if existing is None:
        cat.add_resource(built, publish=True, when=ctx.when)
    else:
        updated = copy.deepcopy(existing)
        for attr in ("native_crs", "srs", "native_bbox", "latlon_bbox", "dimensions",
                     "native_coverage_name", "native_format", "parameters"):  # fmt: skip
            setattr(updated, attr, getattr(built, attr))
        cat.replace_resource(ws, existing.name, updated, when=ctx.when)
    return store


def _check_executables(placed: Placed) -> None:
    for path, data in placed.writes.items():
        if data.startswith(EXECUTABLES):
            raise Invalid(
                f"{posixpath.basename(path)} is an executable, not coverage data: upload refused"
            )


def _choose_primary(placed: Placed, fmt: str, exts: tuple[str, ...]) -> None:
    if placed.primary:
        return
    found = sorted(
        (p for p in placed.unpacked if p.rsplit(".", 1)[-1].lower() in exts),
        key=lambda p: (p.count("/"), p),
    )
    if not found:
        raise Invalid(f"Could not find appropriate {fmt} file in archive")
    placed.primary = f"{placed.folder}/{found[0]}"


def _read(src: Sources, placed: Placed, reader: Reader) -> rasters.Raster:
    folder = posixpath.dirname(placed.primary)
    files = placed.files(src.datadir, folder)
    name = posixpath.basename(placed.primary)

    def sidecar(other: str) -> bytes | None:
        return files.get(other) or files.get(other.lower()) or files.get(other.upper())

    try:
        return reader(name, files.get(name, b""), sidecar, src.raster_budget)
    except OverBudget as exc:
        raise Invalid(str(exc)) from None
    except Unreadable as exc:
        raise Invalid(str(exc), status=src.decisions.upload_unreadable_status) from None


def _url(method: str, placed: Placed, ws: str, store: str) -> str:
    default, path = f"data/{ws}/{store}", placed.primary
    if method != "external" and (path == default or path.startswith(default + "/")):
        url = "file:" + path
    else:
        url = "file:" + placed.location(path)
    return url.replace("+", "%2B").replace(" ", "%20")


def _existing_coverage(
    cat: Catalog, store: CoverageStore | None, name: str, native: str
) -> Coverage | None:
    if store is None:
        return None
    found = cat.list_resources(store.workspace, "coverage", store.name)
    for res in found:
        if res.name == name and isinstance(res, Coverage):
            return res
    if len(found) == 1 and isinstance(found[0], Coverage) and found[0].native_name == native:
        return found[0]
    return None


def _save_store(
    cat: Catalog,
    ws: str,
    name: str,
    type_name: str,
    url: str,
    current: CoverageStore | None,
    when: str | None,
    native: str,
) -> CoverageStore:
    if current is None:
        store = CoverageStore(name, ws, type=type_name, url=url, enabled=True)
        store.available = [native]
        cat.add_store(store, when=when)
        return store
    updated = copy.deepcopy(current)
    updated.type, updated.url = type_name, url
    updated.available = [native]
    replaced = cat.replace_store(current.workspace, current.name, updated, when=when)
    assert isinstance(replaced, CoverageStore)
    return replaced


def build_coverage(
    store: CoverageStore, fmt: str, raster: rasters.Raster, native: str, name: str
) -> Coverage:
    """A coverage as ``CatalogBuilder.buildCoverage`` builds it from the reader."""
    type_name = FORMATS[fmt][0]
    srs = raster.srs or "EPSG:4326"
    env = raster.envelope
    cov = Coverage(name, store.workspace, store.name, native_name=native)
    cov.native_coverage_name = native
    cov.title = name
    cov.keywords = [name, "WCS", type_name]
    cov.description = f"Generated from {type_name}"
    cov.native_crs = raster.wkt or srs
    cov.srs = srs
    cov.native_bbox = BBox(env.minx, env.maxx, env.miny, env.maxy, srs)
    lonlat = to_lonlat(env, srs)
    if lonlat is not None:
        cov.latlon_bbox = BBox(lonlat.minx, lonlat.maxx, lonlat.miny, lonlat.maxy, "EPSG:4326")
    cov.projection_policy = "REPROJECT_TO_DECLARED" if raster.srs else "FORCE_DECLARED"
    cov.enabled = True
    cov.native_format = type_name
    cov.supported_formats = list(SUPPORTED_FORMATS)
    cov.interpolation_methods = list(INTERPOLATIONS)
    cov.default_interpolation_method = INTERPOLATIONS[0]
    cov.dimensions = [_dimension(b) for b in raster.bands]
    cov.request_srs = [srs]
    cov.response_srs = [srs]
    cov.metadata = {"dirName": f"{store.name}_{native}"}
    cov.parameters = dict(PARAMETERS[fmt])
    cov.extras["grid"] = grid_of(raster, srs)
    return cov


def grid_of(raster: rasters.Raster, srs: str) -> dict[str, Any]:
    """The ``<grid>`` GeoServer writes for a file: the raster's size, its pixel-centre
    grid-to-world transform and the declared CRS."""
    sx, sy, tx, ty = raster.transform
    return {
        "@dimension": "2",
        "range": {"low": "0 0", "high": f"{raster.width} {raster.height}"},
        "transform": {
            "scaleX": sx,
            "scaleY": sy,
            "shearX": 0.0,
            "shearY": 0.0,
            "translateX": tx,
            "translateY": ty,
        },
        "crs": srs,
    }


def from_grid(state: State, store: CoverageStore, native: str, name: str) -> Coverage | None:
    """The coverage GeoServer would build for ``native`` of an upload store (for a coverage
    POSTed with only a name after ``configure=none``), None when no grid is kept for it."""
    grid = state.features.grids.get((store.workspace, store.name, native))
    fmt = next((k for k, (t, _, _) in FORMATS.items() if t == store.type), None)
    if grid is None or fmt is None:
        return None
    return build_coverage(store, fmt, grid, native, name)


RADIANCE = "W.m-2.Sr-1"
"""the unit ``CatalogBuilder`` gives a band named RED…, GREEN… or BLUE… that has none"""


def _dimension(band: rasters.Band) -> CoverageDimension:
    """A band as ``CatalogBuilder.getCoverageDimensions`` describes it: the single-file
    readers' sample dimensions carry no value range (``-Infinity``..``Infinity``), the
    no-data value becomes ``nullValues``, the sample type ``dimensionType``."""
    unit = RADIANCE if band.name.upper().startswith(("RED", "GREEN", "BLUE")) else None
    nulls = [] if band.nodata is None else [band.nodata]
    return CoverageDimension(
        band.name,
        "GridSampleDimension[-Infinity,Infinity]",
        -math.inf,
        math.inf,
        nulls,
        unit,
        band.data_type,
    )


# -- the data directory side ------------------------------------------------------------------


def _file_of(store: CoverageStore) -> FileRef | None:
    if store.type not in {t for t, _, _ in FORMATS.values()} or not store.url:
        return None
    try:
        ref = locate(store.url)
    except Invalid:
        return None
    return ref if isinstance(ref, FileRef) and ref.tree == DATADIR else None


def upload_folders(state: State) -> set[str]:
    """The data-directory folders holding the files of single-file coverage stores."""
    out = set()
    for store in state.catalog.stores.values():
        if isinstance(store, CoverageStore):
            ref = _file_of(store)
            if ref is not None and ref.parent.path:
                out.add(ref.parent.path)
    return out


SIDE_FILES = ("prj", "tfw", "tifw", "tiffw", "pgw", "pngw", "jgw", "jpgw", "jpegw", "gfw",
              "gifw", "bpw", "bmpw", "wld", "ovr", "msk")  # fmt: skip


def release_store(state: State, store: CoverageStore, purge: str | None) -> None:
    """What deleting a single-file coverage store does: its grids go; ``purge=all`` deletes
    its file with the side files (world file, ``.prj``, overviews, masks, auxiliary
    metadata) and the store's upload folder when nothing else is left in it;
    ``purge=metadata`` only the auxiliary metadata (``.aux.xml``). Files outside the data
    directory are never deleted."""
    for key in [k for k in state.features.grids if k[:2] == (store.workspace, store.name)]:
        del state.features.grids[key]
    ref = _file_of(store)
    policy = (purge or "none").lower()
    if ref is None or policy not in ("all", "metadata"):
        return
    stem = ref.path.rsplit(".", 1)[0]
    names = [f"{ref.path}.aux.xml", f"{stem}.aux.xml"]
    if policy == "all":
        names += [ref.path, *(f"{stem}.{ext}" for ext in SIDE_FILES)]
    for path in names:
        state.datadir.delete(path)
    folder = f"data/{store.workspace}/{store.name}"
    if policy == "all" and ref.parent.path == folder and not state.datadir.listdir(folder):
        state.datadir.delete(folder)
