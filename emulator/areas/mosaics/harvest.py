"""Reading granules and mosaic folders: what ImageMosaic's indexer and harvester do.

Everything here reads; nothing is changed until the caller commits the result, so a granule
that cannot be read (an error naming it) leaves the mosaic as it was.
"""

from __future__ import annotations

import fnmatch
from datetime import datetime

from ...core.budget import SpentBudget
from ...core.errors import Invalid
from ...crs.envelope import Envelope
from . import collect, configfiles, granules
from .bindings import convert
from .indexer import CONFIG_FILES, Indexer
from .model import Granule, Mosaic
from .sources import FileRef, Files

Overlay = dict[str, bytes]
"""files not written yet (an upload being checked), by ``FileRef.key``"""


def open_folder(files: Files, root: FileRef, overlay: Overlay | None = None) -> Mosaic:
    """A mosaic for a folder (its configuration read and checked, no granules yet). With an
    ``overlay``, the folder's content is the overlay's (an upload replaces the folder)."""

    def read(name: str) -> bytes | None:
        if overlay is not None:
            return overlay.get(root.child(name).key)
        return files.read(root.child(name))

    indexer = configfiles.load(read)
    name = indexer.param("Name") or root.name
    mosaic = Mosaic(root.key, name, indexer, crs=indexer.param("MosaicCRS"))
    check(mosaic)
    return mosaic


def check(mosaic: Mosaic) -> None:
    """Refuse a configuration the index could not work with (``Invalid`` with the reason)."""
    source = mosaic.indexer.source or "the mosaic configuration"
    for coverage in mosaic.coverage_names():
        names = {a.name for a in mosaic.schema(coverage)}
        if mosaic.location_attribute not in names:
            raise Invalid(
                f"{source}: the index schema has no location attribute "
                f"'{mosaic.location_attribute}'"
            )
        if not any(a.is_geometry for a in mosaic.schema(coverage)):
            raise Invalid(f"{source}: the index schema has no geometry attribute")
        for param in ("TimeAttribute", "ElevationAttribute"):
            for attr in mosaic.indexer.domain(param):
                if attr not in names:
                    raise Invalid(
                        f"{source}: {param} {attr} is not an attribute of the index schema"
                    )
        for c in mosaic.indexer.collectors:
            if c.spi.lower() in collect.REGEX_SPIS or c.spi.lower() in collect.OTHERS:
                if c.mapped not in names:
                    raise Invalid(
                        f"{source}: collector {c.spi} fills {c.mapped}, "
                        "which is not in the index schema"
                    )
            problem = collect.check(c)
            if problem:
                raise Invalid(f"{source}: collector {c.spi}: {problem}")


def candidates(
    files: Files, folder: FileRef, indexer: Indexer, listing: list[FileRef] | None = None
) -> list[FileRef]:
    """The files below a folder (or of ``listing``) the indexer would try as granules."""
    wildcard = indexer.param("Wildcard")
    recursive = indexer.flag("Recursive", True)
    out = []
    for ref in listing if listing is not None else files.walk(folder, recursive):
        relative = ref.relative_to(folder)
        if relative is None or (not recursive and "/" in relative):
            continue
        if relative in CONFIG_FILES or not granules.is_candidate(ref.name):
            continue
        if wildcard and not fnmatch.fnmatch(ref.name, wildcard):
            continue
        out.append(ref)
    return out


def read_granules(
    mosaic: Mosaic,
    refs: list[FileRef],
    files: Files,
    now: datetime,
    overlay: Overlay | None = None,
) -> list[Granule]:
    """Granules for files (not yet in the index). ``Invalid`` naming the first file that
    cannot be indexed. Sets the mosaic's CRS and bands when it had none; the caller keeps
    the mosaic unchanged (a copy) until all went well."""
    root = _root(mosaic)
    crs = mosaic.crs
    heterogeneous = mosaic.indexer.flag("HeterogeneousCRS")
    out: list[Granule] = []
    budget = SpentBudget("property collectors' regular expressions")
    for ref in refs:
        label = _location(mosaic, root, ref)
        try:
            info = _raster(files, ref, overlay or {})
        except granules.Unreadable as exc:
            raise Invalid(f"Could not harvest {label}: {exc}") from None
        if crs is None:
            crs = info.crs
        if not mosaic.granules and not out:
            mosaic.bands, mosaic.eight_bit = info.bands, info.eight_bit
        elif info.crs != crs and not heterogeneous:
            raise Invalid(
                f"Could not harvest {label}: its CRS ({info.crs or 'unknown'}) "
                f"differs from the mosaic's ({crs})"
            )
        modified = now if overlay and ref.key in overlay else files.modified(ref)
        facts = collect.GranuleFacts(ref.absolute, info, modified, now)
        values = _values(mosaic, facts, label, budget)
        out.append(Granule(0, mosaic.coverage_names()[0], label, info.envelope, values, ref.key))
    mosaic.crs = crs
    return out


def declared_granule(
    mosaic: Mosaic, location: str, envelope: Envelope, values: dict[str, object]
) -> Granule:
    """A granule a scenario declares (no file behind it), its values converted to the schema."""
    coverage = mosaic.coverage_names()[0]
    attrs = {
        a.name: a
        for a in mosaic.schema(coverage)
        if not a.is_geometry and a.name != mosaic.location_attribute
    }
    converted = {k: convert(v, attrs[k].binding) for k, v in values.items() if k in attrs}
    return Granule(0, coverage, location, envelope, converted)


def _root(mosaic: Mosaic) -> FileRef:
    tree, _, path = mosaic.root.partition(":")
    return FileRef(tree, path)


def _location(mosaic: Mosaic, root: FileRef, ref: FileRef) -> str:
    relative = ref.relative_to(root)
    if relative is not None and not mosaic.indexer.flag("AbsolutePath"):
        return relative
    return ref.absolute


def _raster(files: Files, ref: FileRef, overlay: Overlay) -> granules.RasterInfo:
    def sidecar(name: str) -> bytes | None:
        side = ref.parent.child(name.rsplit("/", 1)[-1])
        return overlay[side.key] if side.key in overlay else files.read(side)

    data = overlay.get(ref.key)
    if data is not None:
        return granules.read_bytes(ref.name, data, sidecar)
    if not files.exists(ref) or files.is_dir(ref):
        raise granules.Unreadable("the file does not exist")
    try:
        with files.open(ref) as stream:
            return granules.read(ref.name, stream, sidecar)
    except OSError as exc:
        raise granules.Unreadable(f"it cannot be opened ({exc.strerror or exc})") from None


def _values(
    mosaic: Mosaic, facts: collect.GranuleFacts, label: str, budget: SpentBudget
) -> dict[str, object]:
    schema = {a.name: a for a in mosaic.schema()}
    values: dict[str, object] = {}
    for collector in mosaic.indexer.collectors:
        try:
            applies, value = collect.collect(collector, facts, budget)
        except collect.CollectError as exc:
            raise Invalid(f"Could not harvest {label}: {exc}") from None
        attr = schema.get(collector.mapped)
        if applies and attr is not None:
            values[collector.mapped] = convert(value, attr.binding)
    if any(a.name == "imageindex" for a in schema.values()):
        values.setdefault("imageindex", 0)
    return values
