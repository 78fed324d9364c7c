"""Reading an upload's feature types, by format, from the files it places."""

from __future__ import annotations

import posixpath

from ...core.datadir import DataDir
from ...core.errors import Invalid
from . import geopackage, properties, shapefiles
from .readers import MAX_FEATURES, TypeRead
from .staging import Placed

FORMATS = {"shp": "Shapefile", "properties": "Properties", "gpkg": "GeoPackage"}
"""the formats read here, and the display name of the GeoTools factory behind each (a
store's ``type``)"""
TYPE_FORMATS = {
    "Shapefile": "shp",
    "Directory of spatial files (shapefiles)": "shp",
    "Properties": "properties",
    "GeoPackage": "gpkg",
    "H2": "h2",
    "SpatiaLite": "spatialite",
    "Application Schema DataAccess": "appschema",
}
"""a store's type → the upload format of the same factory (``lookupDataStoreFactoryFormat``)"""
TARGETS = {**FORMATS, "h2": "H2"}
"""formats a ``target`` may name: the data is imported into a store of that type"""
EXTENSIONS = {"shp": ".shp", "properties": ".properties", "gpkg": ".gpkg"}


def choose_primary(placed: Placed, fmt: str) -> None:
    """Set the primary path of an unpacked ZIP (``findPrimaryFile``): for shapefiles the
    folder itself (a directory store), else the first file with the format's extension."""
    if placed.primary:
        return
    ext = EXTENSIONS[fmt]
    found = sorted(
        (p for p in placed.unpacked if p.lower().endswith(ext)),
        key=lambda p: (p.count("/"), p),
    )
    if fmt == "shp":
        found = [p for p in found if "/" not in p]
    if not found:
        raise Invalid(f"Could not find appropriate {fmt} file in archive")
    placed.primary = placed.folder if fmt == "shp" else f"{placed.folder}/{found[0]}"


def is_folder(placed: Placed) -> bool:
    return placed.primary == placed.folder and bool(placed.unpacked)


def check_extension(placed: Placed, fmt: str) -> None:
    """A single shapefile or property file must carry its format's extension (the factory
    would not take it); a GeoPackage is known by its content."""
    if is_folder(placed) or fmt == "gpkg":
        return
    if not placed.primary.lower().endswith(EXTENSIONS[fmt]):
        name = posixpath.basename(placed.primary)
        raise Invalid(
            f"Unable to configure datastore, bad parameters: {name} is not a {EXTENSIONS[fmt]} file"
        )


def read_types(datadir: DataDir, placed: Placed, fmt: str, charset: str | None) -> list[TypeRead]:
    """Every feature type the store will offer, in the order its data store lists them."""
    if fmt == "gpkg":
        data = placed.writes.get(placed.primary)
        if data is None:
            data = datadir.read(placed.primary) or b""
        return geopackage.read_all(data, posixpath.basename(placed.primary))
    folder = placed.primary if is_folder(placed) else posixpath.dirname(placed.primary)
    files = placed.files(datadir, folder)

    def rel(paths: list[str]) -> list[str]:
        return [f"{folder}/{p}" for p in paths]

    if fmt == "shp":
        if is_folder(placed):
            names = shapefiles.type_names(files)
        else:
            names = [posixpath.basename(placed.primary)[: -len(".shp")]]
    else:
        names = properties.type_names(files)
    out: list[TypeRead] = []
    left = MAX_FEATURES  # for the whole upload: each type may take what the others left
    for name in names:
        if fmt == "shp":
            read = shapefiles.read(files, name, charset, limit=left)
        else:
            read = properties.read(files, name, limit=left)
        left -= len(read.table.features)
        read.files = rel(read.files)
        out.append(read)
    return out
