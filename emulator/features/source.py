"""``FeatureSource``: the one interface every reader and writer of feature data uses.

A source is picked per feature type by ``features.source_for`` and lives for one request:
read its schema, count and read features by ``Query``, ask the bounds or one attribute's
values (a dimension's domain), and write through a ``FeatureTransaction`` that commits or
discards as one unit. Features a source reads are shared with it: read them, never change
them (a transaction makes changed copies).

Errors are domain errors: an invalid filter ``Invalid``, a filter that runs past its time
bound ``core.budget.TooCostly`` (a 400).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any, Protocol

from ..core.errors import Invalid
from .model import Attribute, Feature
from .query import Bounds, Query, Schema


class ReadOnly(Invalid):
    """A write to data that cannot be written (a database view, an SQL view)."""


class FeatureTransaction(Protocol):
    """Writes to one source, seen by this transaction's own later operations, applied to
    the source by ``commit`` (all of them) or dropped by ``discard``."""

    @property
    def attributes(self) -> Sequence[Attribute]:
        """What an insert or an update may set (the stored data's attributes)."""
        ...

    def insert(
        self, rows: Sequence[Mapping[str, Any]], fids: Sequence[str | None] | None = None
    ) -> list[str]:
        """Add one feature per row of property values; their new fids, in order. ``fids``
        (WFS ``idgen="UseExisting"``): the ids to keep, one per row (None: a new one)."""
        ...

    def update(self, query: Query, changes: Mapping[str, Any]) -> int:
        """Set ``changes`` on the features ``query`` selects; how many they were."""
        ...

    def delete(self, query: Query) -> int:
        """Remove the features ``query`` selects; how many they were."""
        ...

    def commit(self) -> None: ...

    def discard(self) -> None: ...


class FeatureSource(Protocol):
    """The data behind one feature type (see the module docstring)."""

    @property
    def schema(self) -> Schema: ...

    def count(self, query: Query) -> int:
        """How many features the query selects (``fids``, ``bbox``, ``filter``; its paging
        ignored)."""
        ...

    def read(self, query: Query) -> Iterator[Feature]:
        """The selected features, sorted, paged and restricted to ``query.properties``."""
        ...

    def bounds(self) -> Bounds | None:
        """The bounds of the default geometries, None when there is none."""
        ...

    def values(self, attribute: str) -> list[Any]:
        """The distinct non-empty values of one attribute, in the source's order."""
        ...

    def transaction(self) -> FeatureTransaction: ...
