"""What a reader asks a ``FeatureSource`` for (``Query``), and what a source's features are
(``Schema``, and ``TypeRef``: the feature type a source is picked for).

Names in a query are attribute names as the source's schema has them (local names: a
service strips a ``prefix:`` first). The bbox is in the source's CRS, tested against its
default geometry (``Schema.geometry``); the filter is a tree from ``filters`` (see
``filters/tree.py``), which a source evaluates as it can (in Python, in SQL).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Protocol

from ..core.record import field, record
from ..filters.tree import Filter
from .model import Attribute

Bounds = tuple[float, float, float, float]
"""(minx, miny, maxx, maxy)"""
SortBy = tuple[str, bool]
"""(attribute, descending)"""


@record(frozen=True)
class Query:
    """Which features, in which order, which page, with which properties.

    ``count`` (of a source) counts what ``fids``, ``bbox`` and ``filter`` select and ignores
    the rest; ``read`` gives them sorted (GeoTools' order: ascending puts empty values last,
    descending first; ties keep the source's order), then ``start`` and ``count`` page them,
    and ``properties`` (when given) restricts each feature to those names, in that order (a
    name the data lacks reads as None). ``params`` carries parameters for the back end (an
    SQL view's ``viewparams``); the memory source ignores them.
    """

    fids: tuple[str, ...] | None = None
    """only features with these ids (None: any)"""
    bbox: Bounds | None = None
    """only features whose default geometry intersects this box (in the source's CRS)"""
    filter: Filter | None = None
    sort: tuple[SortBy, ...] = ()
    start: int = 0
    count: int | None = None
    properties: tuple[str, ...] | None = None
    params: Mapping[str, str] = field(default_factory=dict)

    def selection(self) -> tuple[object, ...]:
        """What selects the features (not their order nor the page): equal for two queries
        that select the same features."""
        return (self.fids, self.bbox, self.filter)


@record(frozen=True)
class Schema:
    """A source's feature type: its attributes in order, the default geometry attribute's
    name (None: no geometry) and the CRS of its geometries (``EPSG:<code>``, a WKT, or
    ``EPSG:404000`` without a CRS)."""

    attributes: tuple[Attribute, ...]
    geometry: str | None
    srs: str

    def names(self) -> list[str]:
        return [a.name for a in self.attributes]


class AttributeRef(Protocol):
    """A configured attribute of a feature type (``catalog.entities.Attribute``)."""

    @property
    def name(self) -> str: ...
    @property
    def binding(self) -> str | None: ...
    @property
    def nillable(self) -> bool: ...


class TypeRef(Protocol):
    """The feature type a source is picked for (``catalog.entities.FeatureType``): where its
    data lives (workspace, store, native name) and its configured schema."""

    @property
    def workspace(self) -> str: ...
    @property
    def store(self) -> str: ...
    @property
    def name(self) -> str: ...
    @property
    def native_name(self) -> str | None: ...
    @property
    def srs(self) -> str | None: ...
    @property
    def attributes(self) -> Sequence[AttributeRef]: ...
