"""The mosaics model: each image mosaic's configuration and its granule index.

A mosaic lives in a folder (``root``: a path of the emulated data directory, or a folder of
this machine for an external mosaic) and is found from its coverage store through the
store's URL, so that renaming the store or its workspace keeps the mosaic. Each granule is
one indexed file: its footprint, its ``location`` and the attributes its collectors filled.
Granule ids count up per mosaic and are never reused (``<coverage>.<id>`` on the wire).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from ...core.record import field, record
from ...crs.envelope import Envelope, union
from . import indexer as config
from .bindings import IndexAttribute

Feature = dict[str, Any]
"""a granule as a filter sees it: attribute name → value (the geometry as an ``Envelope``)"""


@record
class Granule:
    id: int
    coverage: str
    """the native coverage name it belongs to (the index type name)"""
    location: str
    envelope: Envelope
    values: dict[str, Any] = field(default_factory=dict)
    """the other index attributes, by name (the geometry and location excluded)"""
    file: str | None = None
    """``datadir:<path>`` or ``host:<path>`` of the indexed file; None for a granule a
    scenario declared without a file"""

    @property
    def fid(self) -> str:
        return f"{self.coverage}.{self.id}"


@record
class Mosaic:
    root: str
    """``datadir:data/<ws>/<store>`` or ``host:/some/folder``"""
    name: str
    """the mosaic's coverage name: the indexer's ``Name``, else the folder's name"""
    indexer: config.Indexer = field(default_factory=config.Indexer)
    crs: str | None = None
    """``EPSG:<code>`` of the granules (the first one's), None while unknown"""
    granules: list[Granule] = field(default_factory=list)
    next_id: int = 1
    bands: tuple[str, ...] = ("GRAY_INDEX",)
    """the band names of the granules (the first one's)"""
    eight_bit: bool = False

    # -- structure ------------------------------------------------------------------------

    def coverage_names(self) -> list[str]:
        declared = [name for name, _ in self.indexer.coverages if name]
        return declared or [self.name]

    def schema(self, coverage: str | None = None) -> list[IndexAttribute]:
        return config.schema(self.indexer, coverage or self.name)

    def geometry_attribute(self, coverage: str | None = None) -> str:
        geoms = [a.name for a in self.schema(coverage) if a.is_geometry]
        return geoms[0] if geoms else "the_geom"

    @property
    def location_attribute(self) -> str:
        return self.indexer.location_attribute

    # -- granules -------------------------------------------------------------------------

    def granules_of(self, coverage: str) -> list[Granule]:
        return [g for g in self.granules if g.coverage == coverage]

    def find(self, coverage: str, fid: str) -> Granule | None:
        return next((g for g in self.granules_of(coverage) if g.fid == fid), None)

    def feature(self, granule: Granule) -> Feature:
        out: Feature = dict(granule.values)
        out[self.location_attribute] = granule.location
        out[self.geometry_attribute(granule.coverage)] = granule.envelope
        return out

    def select(
        self,
        coverage: str,
        predicate: Callable[[Feature], bool] | None = None,
        offset: int = 0,
        limit: int | None = None,
    ) -> list[Granule]:
        """The granules of ``coverage`` the predicate accepts, in index order, paged."""
        found = self.granules_of(coverage)
        if predicate is not None:  # ``feature``'s dict, its two names looked up once
            location, geometry = self.location_attribute, self.geometry_attribute(coverage)
            found = [
                g
                for g in found
                if predicate({**g.values, location: g.location, geometry: g.envelope})
            ]
        end = None if limit is None else offset + limit
        return found[offset:end]

    def add(
        self, granules: Iterable[Granule], ids: Iterable[int | None] | None = None
    ) -> list[Granule]:
        """Index new granules, each given the next id (or, where ``ids`` names one, that id,
        the next id moving past it); a granule of a file already indexed replaces the old
        entry, as a re-harvest does. Linear in the index plus the new granules."""
        added = list(granules)
        wanted = list(ids) if ids is not None else [None] * len(added)
        keys = {(g.file, g.coverage) for g in added if g.file is not None}
        if keys:  # one pass for every replaced entry (granules of the same files)
            self.granules = [g for g in self.granules if (g.file, g.coverage) not in keys]
        latest: dict[tuple[str | None, str], Granule] = {}
        for granule, given in zip(added, wanted, strict=True):
            granule.id = self.next_id
            self.next_id += 1
            if given is not None:
                granule.id = given
                self.next_id = max(self.next_id, given + 1)
            if granule.file is not None:
                latest[(granule.file, granule.coverage)] = granule
        # within the batch too, the last granule of a file is the one kept
        self.granules.extend(
            g for g in added if g.file is None or latest[(g.file, g.coverage)] is g
        )
        return added

    def remove(self, granules: Iterable[Granule]) -> list[Granule]:
        gone = {id(g) for g in granules}
        removed = [g for g in self.granules if id(g) in gone]
        self.granules = [g for g in self.granules if id(g) not in gone]
        return removed

    # -- what a reader reports ---------------------------------------------------------------

    def envelope(self, coverage: str) -> Envelope | None:
        return union(g.envelope for g in self.granules_of(coverage))

    def domain(self, coverage: str, param: str) -> list[Any]:
        """The distinct values of the time (``TimeAttribute``) or elevation
        (``ElevationAttribute``) attribute, sorted."""
        attrs = self.indexer.domain(param)
        if not attrs:
            return []
        values = {g.values.get(attrs[0]) for g in self.granules_of(coverage)}
        return sorted(v for v in values if v is not None)


@record
class MosaicStore:
    mosaics: dict[str, Mosaic] = field(default_factory=dict)
    """by root"""

    def get(self, root: str | None) -> Mosaic | None:
        return None if root is None else self.mosaics.get(root)

    def put(self, mosaic: Mosaic) -> Mosaic:
        self.mosaics[mosaic.root] = mosaic
        return mosaic

    def drop(self, root: str) -> Mosaic | None:
        return self.mosaics.pop(root, None)

    def all(self) -> list[Mosaic]:
        return [self.mosaics[k] for k in sorted(self.mosaics)]
