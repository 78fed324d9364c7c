"""What the importer finds in a folder of files, and what it reads from each.

As the importer's ``Directory.prepare`` and ``SpatialFile``: every file whose format is
known is a main file (``.shp`` Shapefile, ``.gpkg`` GeoPackage, ``.tif``/``.tiff``
GeoTIFF, ``.asc``/``.arc`` ArcGrid, an image with a world file WorldImage), grouped with
its ``.prj`` and the other files of the same name (``.dbf``, ``.shx``, ``.cpg``, world
files…) and with its style (``.sld``); every other file is an entry of unknown format.
Hidden files and ``__MACOSX`` folders are left out. CSV, KML, GeoJSON and GML files, which
the importer also reads, are entries of unknown format here (``docs/importer.md``).

``read_vector`` and ``read_raster`` read an entry with the upload readers
(``areas/uploads``): a shapefile, a GeoPackage's tables, a raster's grid.
"""

from __future__ import annotations

import posixpath
from collections.abc import Callable

from ...core.errors import Invalid
from ..uploads import geopackage, rasters, shapefiles
from ..uploads.readers import TypeRead, Unreadable
from .model import FileEntry

VECTOR = {"shp": "Shapefile", "gpkg": "GeoPackage"}
"""main file extensions of vector formats → the format's name (its store type)"""
RASTER = {"tif": "GeoTIFF", "tiff": "GeoTIFF", "asc": "ArcGrid", "arc": "ArcGrid"}
WORLD_FILES = {
    "png": ("pgw", "pngw"), "jpg": ("jgw", "jpgw"), "jpeg": ("jgw", "jpegw"),
    "gif": ("gfw", "gifw"), "bmp": ("bpw", "bmpw"),
}  # fmt: skip
"""images that are a WorldImage when a world file (or ``.wld``) lies beside them"""
UPLOAD_FORMATS = {"GeoTIFF": "geotiff", "WorldImage": "worldimage", "ArcGrid": "arcgrid"}
"""raster formats → the uploads area's format key (its reader and coverage builder)"""
RASTER_FORMATS = frozenset(UPLOAD_FORMATS)
STYLE_EXTENSIONS = ("sld",)
MAX_ENTRIES = 10_000
"""no folder of import data may hold more files than this"""


def is_raster(fmt: str | None) -> bool:
    return fmt in RASTER_FORMATS


def _ext(name: str) -> str:
    base = posixpath.basename(name)
    return base.rsplit(".", 1)[-1].lower() if "." in base else ""


def _stem(name: str) -> str:
    base = posixpath.basename(name)
    return base.rsplit(".", 1)[0].lower() if "." in base else base.lower()


def hidden(path: str) -> bool:
    """A file the importer leaves out: a hidden file, or one of a ``__MACOSX`` folder."""
    parts = path.split("/")
    return any(p.startswith(".") or p == "__MACOSX" for p in parts)


def format_of(name: str, siblings: set[str]) -> str | None:
    """The format of a main file named ``name``; ``siblings`` are the lower-cased names of
    the files beside it (a world image needs its world file). None: not a main file."""
    ext = _ext(name)
    if ext in VECTOR:
        return VECTOR[ext]
    if ext in RASTER:
        return RASTER[ext]
    stem = _stem(name)
    worlds = (*WORLD_FILES.get(ext, ()), "wld") if ext in WORLD_FILES else ()
    if any(f"{stem}.{w}" in siblings for w in worlds):
        return "WorldImage"
    return None


def scan(paths: list[str]) -> list[FileEntry]:
    """The entries of a folder's files (``paths`` relative to it, any depth), folder by
    folder in path order, as ``Directory.prepare`` groups them."""
    visible = sorted(p for p in paths if not hidden(p))
    if len(visible) > MAX_ENTRIES:
        raise Invalid(f"Too many files in the import data: {len(visible)} (at most {MAX_ENTRIES})")
    by_folder: dict[str, list[str]] = {}
    for path in visible:
        by_folder.setdefault(posixpath.dirname(path), []).append(path)
    out: list[FileEntry] = []
    for folder in sorted(by_folder):
        out.extend(_scan_folder(by_folder[folder]))
    return out


def _scan_folder(paths: list[str]) -> list[FileEntry]:
    siblings = {posixpath.basename(p).lower() for p in paths}
    mains: dict[str, FileEntry] = {}
    for path in paths:
        fmt = format_of(path, siblings)
        if fmt is not None and _stem(path) not in mains:
            mains[_stem(path)] = FileEntry(path, fmt)
    taken = {m.name for m in mains.values()}
    loose: list[FileEntry] = []
    for path in paths:
        if path in taken:
            continue
        main = mains.get(_stem(path))
        if main is None:
            loose.append(FileEntry(path))
        elif _ext(path) == "prj" and main.prj is None:
            main.prj = path
        elif _ext(path) in STYLE_EXTENSIONS and main.style is None:
            main.style = path
        else:
            main.other.append(path)
    entries = sorted([*mains.values(), *loose], key=lambda e: e.name)
    return entries


# -- reading -----------------------------------------------------------------------------

Files = dict[str, bytes]
"""a folder's files by path relative to the data's folder"""


def _folder_files(files: Files, entry: FileEntry) -> Files:
    """The files beside ``entry``, by name within its folder."""
    folder = posixpath.dirname(entry.name)
    prefix = folder + "/" if folder else ""
    return {p[len(prefix) :]: d for p, d in files.items() if p.startswith(prefix)}


def read_vector(files: Files, entry: FileEntry, charset: str | None) -> list[TypeRead]:
    """The feature types of a vector entry (one per shapefile, one per GeoPackage table);
    ``Unreadable`` for a broken file."""
    if entry.format == "GeoPackage":
        return geopackage.read_all(files.get(entry.name, b""), entry.basename)
    local = _folder_files(files, entry)
    stem = entry.basename[: -len(".shp")]
    return [shapefiles.read(local, stem, charset)]


RasterReader = Callable[[str, bytes, rasters.Sidecar], rasters.Raster]
READERS: dict[str, RasterReader] = {
    "GeoTIFF": rasters.read_geotiff,
    "WorldImage": rasters.read_world_image,
    "ArcGrid": rasters.read_arcgrid,
}


def read_raster(files: Files, entry: FileEntry) -> rasters.Raster:
    """The grid of a raster entry; ``Unreadable`` for a broken file."""
    assert entry.format is not None
    local = _folder_files(files, entry)
    lowered = {k.lower(): v for k, v in local.items()}

    def sidecar(other: str) -> bytes | None:
        return local.get(other) or lowered.get(other.lower())

    return READERS[entry.format](entry.basename, local.get(entry.basename, b""), sidecar)


__all__ = ["Unreadable", "read_raster", "read_vector", "scan"]
