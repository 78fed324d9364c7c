"""``FeatureStore`` (``state.features``): the features behind file-backed feature types.

Read and written through ``features.source_for`` (a ``FeatureSource``); the uploads area
builds tables from files, the catalog re-keys and drops them with their stores.

A store created by uploading a shapefile, a GeoPackage or a property file keeps what the
files hold here, one ``FeatureTable`` per native type name, so that the OGC services can
answer counts, bounds, attribute values and geometries. Tables are keyed by workspace,
store and native name; they go when their store is deleted and travel with a scenario
(section ``features``).

Geometries are shapely geometries (or None); other values are plain Python (str, int,
float, bool, ``datetime.date``/``datetime.datetime``, None). Fids are GeoServer's:
``<typename>.<n>`` for shapefiles, the primary key for GeoPackages, the file's own ids for
property files.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..core.record import field, record
from ..core.trackeddict import TrackedDict
from ..core.tracking import tracked

if TYPE_CHECKING:
    from ..areas.uploads.rasters import Raster

GEOMETRY_PACKAGE = "org.locationtech.jts.geom."
GEOMETRY_PACKAGES = (GEOMETRY_PACKAGE, "com.vividsolutions.jts.geom.")
"""where geometry bindings live (JTS's package, and its name before LocationTech)"""


@record
class Attribute:
    """A schema attribute; ``binding`` is the Java class name GeoServer reports."""

    name: str
    binding: str
    nillable: bool = True
    length: int | None = None
    """the declared length of a text attribute (a DBF field's width), when there is one"""

    @property
    def is_geometry(self) -> bool:
        return self.binding.startswith(GEOMETRY_PACKAGE)


@record
class Feature:
    fid: str
    properties: dict[str, Any] = field(default_factory=dict)


def make_feature(fid: str, properties: dict[str, Any]) -> Feature:
    """``Feature(fid, properties)`` without the record constructor's argument handling: how
    a source reading thousands of rows makes each one."""
    feature = object.__new__(Feature)
    feature.__dict__.update(fid=fid, properties=properties)
    return feature


@record
class FeatureTable:
    """One feature type's schema and features."""

    name: str
    """the native type name"""
    attributes: list[Attribute] = field(default_factory=list)
    geometry: str | None = None
    """the default geometry attribute's name"""
    srs: str = "EPSG:404000"
    """``EPSG:<code>``, the WKT when no code is known, or ``EPSG:404000`` without a CRS"""
    features: list[Feature] = field(default_factory=list)

    def index(self) -> FidIndex:
        """The fid index of ``features`` as they are now (rebuilt after the list changed:
        another list, another length or another name)."""
        found: FidIndex | None = self.__dict__.get(_INDEX)
        if found is None or not found.fits(self):
            found = self.__dict__[_INDEX] = FidIndex.of(self)
        return found

    def __getstate__(self) -> dict[str, Any]:
        """Pickled without the fid index (rebuilt on first use)."""
        return {k: v for k, v in self.__dict__.items() if k != _INDEX}

    def bounds(self) -> tuple[float, float, float, float] | None:
        """(minx, miny, maxx, maxy) of the geometries, None when there are none (one
        vectorised call over all of them: an upload of 100,000 features is read on the event
        loop in milliseconds)."""
        geoms = [
            g
            for f in self.features
            if self.geometry and (g := f.properties.get(self.geometry)) is not None
        ]
        if not geoms:
            return None
        import numpy
        import shapely

        boxes = shapely.bounds(numpy.array(geoms, dtype=object))
        boxes = boxes[~numpy.isnan(boxes[:, 0])]  # empty geometries: NaN
        if not len(boxes):
            return None
        low, high = boxes[:, :2].min(axis=0), boxes[:, 2:].max(axis=0)
        return (float(low[0]), float(low[1]), float(high[0]), float(high[1]))


_INDEX = "_fid_index"
"""where a table keeps its ``FidIndex`` (in its ``__dict__``: not a field)"""


@tracked
class FidIndex:
    """Where each fid sits in a table's ``features``, and the highest ``<name>.<n>``
    number: built in one pass over the list, so that an id lookup or the next insert's
    fid costs no scan. It holds the list it was built for, and fits the table only while
    the table holds that same list, at the same length, under the same name (an append
    made through ``note_appended`` keeps it fitting)."""

    def __init__(self, table: FeatureTable) -> None:
        self.features = table.features
        self.length = 0
        self.name = table.name
        self.positions: TrackedDict[str, int] = TrackedDict()
        self.unique = True
        self.numbered = 0
        """the highest ``n`` of the fids ``<name>.<n>``, 0 when there is none"""

    @classmethod
    def of(cls, table: FeatureTable) -> FidIndex:
        index = cls(table)
        index.note_appended(table.features)
        return index

    def fits(self, table: FeatureTable) -> bool:
        return (
            self.features is table.features
            and self.length == len(table.features)
            and self.name == table.name
        )

    def note_appended(self, added: list[Feature]) -> None:
        """Count ``added``, the features just appended to the indexed list."""
        positions, name = self.positions, self.name
        for position, feature in enumerate(added, start=self.length):
            fid = feature.fid
            if positions.setdefault(fid, position) != position:
                self.unique = False
            number = fid_number(fid, name)
            if number is not None and number > self.numbered:
                self.numbered = number
        self.length += len(added)

    def find(self, fids: set[str]) -> list[int] | None:
        """The positions of the features with these fids, in table order; None when fids
        repeat in the table (the caller scans)."""
        if not self.unique:
            return None
        found = (self.positions.get(fid) for fid in fids)
        return sorted(p for p in found if p is not None)


def fid_number(fid: str, name: str) -> int | None:
    """``n`` of a fid ``<name>.<n>`` (what a new feature of table ``name`` is numbered
    after), None for a fid not so made."""
    head, _, tail = fid.rpartition(".")
    if head != name or not tail.isdigit():
        return None
    try:
        return int(tail)
    except ValueError:  # a digit Python cannot read as a number (``²``)
        return None


Key = tuple[str, str, str]


@record
class FeatureStore:
    tables: dict[Key, FeatureTable] = field(default_factory=dict)
    """by (workspace, store, native name)"""
    grids: dict[Key, Raster] = field(default_factory=dict)
    """what the readers report about uploaded single-file coverages (grid, transform,
    bands with data types and no-data), by (workspace, store, native coverage name)"""
    remote: dict[str, bytes] = field(default_factory=dict)
    """content registered for URLs (by a scenario or the control plane), which ``url.``
    uploads read in place of the network the emulated server does not have"""

    def get(self, workspace: str, store: str, name: str) -> FeatureTable | None:
        return self.tables.get((workspace, store, name))

    def put(self, workspace: str, store: str, table: FeatureTable) -> FeatureTable:
        self.tables[(workspace, store, table.name)] = table
        return table

    def of_store(self, workspace: str, store: str) -> list[FeatureTable]:
        return [t for (w, s, _), t in sorted(self.tables.items()) if (w, s) == (workspace, store)]

    def drop_store(self, workspace: str, store: str) -> None:
        for key in [k for k in self.tables if k[:2] == (workspace, store)]:
            del self.tables[key]
        for key in [k for k in self.grids if k[:2] == (workspace, store)]:
            del self.grids[key]

    def rename_workspace(self, old: str, new: str) -> None:
        for store in {k[1] for k in [*self.tables, *self.grids] if k[0] == old}:
            self.move_store((old, store), (new, store))

    def move_store(self, old: tuple[str, str], new: tuple[str, str]) -> None:
        """Re-key a renamed or moved store's tables."""
        for key in [k for k in self.tables if k[:2] == old]:
            self.tables[(*new, key[2])] = self.tables.pop(key)
        for key in [k for k in self.grids if k[:2] == old]:
            self.grids[(*new, key[2])] = self.grids.pop(key)
