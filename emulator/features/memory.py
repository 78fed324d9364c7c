"""The memory source: one ``FeatureTable`` of ``state.features``, queried in Python
(``select.py``) and written through a copy-on-write transaction.

A transaction leaves the table alone until ``commit``: inserts wait in a list (their fids
``<native name>.<n>`` numbered on from the highest such number, which the table's fid index
knows without a scan), and the first update or delete makes a working list of the table's
features (the changed ones replaced by copies, never changed in place). ``commit`` appends
the inserts in place when nothing else changed (the fid index follows), else puts the
working list in the table; a new table (a feature type without data yet, ``empty``) is put
into the store on commit, even when nothing was inserted.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from . import select
from .model import (
    GEOMETRY_PACKAGES,
    Attribute,
    Feature,
    FeatureStore,
    FeatureTable,
    Key,
    fid_number,
)
from .query import Bounds, Query, Schema, TypeRef

if TYPE_CHECKING:
    from ..core.state import State


def feature_store(state: State) -> FeatureStore | None:
    """``state.features``, None for a state without it (an older build)."""
    try:
        store: FeatureStore = state.features
    except AttributeError:
        return None
    return store


def key_of(ft: TypeRef) -> Key:
    return (ft.workspace, ft.store, ft.native_name or ft.name)


def provide(state: State, ft: TypeRef) -> MemorySource | None:
    """The provider of the tables ``state.features`` holds (``resolver.PROVIDERS``)."""
    store = feature_store(state)
    table = store.get(*key_of(ft)) if store is not None else None
    if store is None or table is None:
        return None
    return MemorySource(store, key_of(ft), table, schema_of(ft, table))


def empty(state: State, ft: TypeRef) -> MemorySource | None:
    """A source over a new, empty table with the feature type's schema, stored on its first
    commit (a database-backed type whose rows exist only once a transaction inserts them);
    None for a state without a feature store."""
    store = feature_store(state)
    if store is None:
        return None
    schema = schema_of(ft, None)
    table = FeatureTable(key_of(ft)[2], list(schema.attributes), schema.geometry, schema.srs)
    return MemorySource(store, key_of(ft), table, schema, stored=False)


def schema_of(ft: TypeRef, table: FeatureTable | None) -> Schema:
    """The feature type's schema: its configured attributes (else the table's), the table's
    geometry attribute (else the first geometry among the attributes), the table's CRS
    (else the feature type's, else ``EPSG:4326``)."""
    attributes: tuple[Attribute, ...] = ()
    if ft.attributes:
        attributes = tuple(
            Attribute(a.name, a.binding or "java.lang.String", a.nillable) for a in ft.attributes
        )
    elif table is not None:
        attributes = tuple(table.attributes)
    geometry = next((a.name for a in attributes if a.binding.startswith(GEOMETRY_PACKAGES)), None)
    if table is not None and table.geometry:
        geometry = table.geometry
    srs = table.srs if table is not None else ft.srs or "EPSG:4326"
    return Schema(attributes, geometry, srs)


class MemorySource:
    """A ``FeatureSource`` over one table (see the module docstring). The selection of the
    last query is kept, so that a count followed by a read of the same features (a WFS
    GetFeature) evaluates the filter once."""

    def __init__(
        self,
        store: FeatureStore,
        key: Key,
        table: FeatureTable,
        schema: Schema,
        stored: bool = True,
    ) -> None:
        self.store = store
        self.key = key
        self.table = table
        self.stored = stored
        self._schema = schema
        self._last: tuple[object, list[Feature], int, Sequence[Feature]] | None = None

    @property
    def schema(self) -> Schema:
        return self._schema

    def _selected(self, query: Query) -> Sequence[Feature]:
        features = self.table.features
        wanted = query.selection()
        last = self._last
        if last is not None and last[1] is features and last[2] == len(features):
            if last[0] == wanted:
                return last[3]
        found = select.select(features, self.table.index(), self._schema.geometry, query)
        self._last = (wanted, features, len(features), found)
        return found

    def count(self, query: Query) -> int:
        return len(self._selected(query))

    def read(self, query: Query) -> Iterator[Feature]:
        return select.page(select.ordered(self._selected(query), query.sort), query)

    def bounds(self) -> Bounds | None:
        return self.table.bounds()

    def values(self, attribute: str) -> list[Any]:
        seen: set[tuple[type, Any]] = set()
        out: list[Any] = []
        for feature in self.table.features:
            value = feature.properties.get(attribute)
            if value is None:
                continue
            try:
                key = (type(value), value)
                if key in seen:
                    continue
                seen.add(key)
            except TypeError:  # unhashable: compared one by one
                if any(type(v) is type(value) and v == value for v in out):
                    continue
            out.append(value)
        return out

    def transaction(self) -> MemoryTransaction:
        return MemoryTransaction(self)


class MemoryTransaction:
    """A ``FeatureTransaction`` on a ``MemorySource`` (see the module docstring)."""

    def __init__(self, source: MemorySource) -> None:
        self.source = source
        self._rows: list[Feature] | None = None
        """the working list, once an update or delete made one (inserts not included)"""
        self._added: list[Feature] = []
        self._numbered: int | None = None
        """the highest ``<name>.<n>`` of the working features, once known"""
        self._open = True

    @property
    def attributes(self) -> Sequence[Attribute]:
        return self.source.table.attributes

    def insert(
        self, rows: Sequence[Mapping[str, Any]], fids: Sequence[str | None] | None = None
    ) -> list[str]:
        self._check()
        name = self.source.table.name
        if self._numbered is None:
            if self._rows is None:
                self._numbered = self.source.table.index().numbered
            else:
                self._numbered = _highest(self._rows, name)
        out = []
        for i, row in enumerate(rows):
            given = fids[i] if fids is not None and i < len(fids) else None
            if given is None:
                self._numbered += 1
                given = f"{name}.{self._numbered}"
            else:
                self._numbered = max(self._numbered, fid_number(given, name) or 0)
            self._added.append(Feature(given, dict(row)))
            out.append(given)
        return out

    def _working(self) -> list[Feature]:
        """The working list, inserts included (made on first need)."""
        if self._rows is None:
            self._rows = list(self.source.table.features)
        if self._added:
            self._rows += self._added
            self._added = []
        return self._rows

    def _matching(self, rows: list[Feature], query: Query) -> set[int]:
        found = select.select(rows, None, self.source.schema.geometry, query)
        return {id(f) for f in found}

    def update(self, query: Query, changes: Mapping[str, Any]) -> int:
        self._check()
        rows = self._working()
        chosen = self._matching(rows, query)
        for i, feature in enumerate(rows):
            if id(feature) in chosen:
                rows[i] = Feature(feature.fid, {**feature.properties, **changes})
        return len(chosen)

    def delete(self, query: Query) -> int:
        self._check()
        rows = self._working()
        gone = self._matching(rows, query)
        if gone:
            self._rows = [f for f in rows if id(f) not in gone]
            self._numbered = None
        return len(gone)

    def commit(self) -> None:
        self._check()
        self._open = False
        source, table = self.source, self.source.table
        if not source.stored:
            table.features = [*(self._rows or []), *self._added]
            source.store.put(source.key[0], source.key[1], table)
            source.stored = True
        elif self._rows is not None:
            table.features = self._rows + self._added
        elif self._added:
            index = table.index()
            table.features.extend(self._added)
            index.note_appended(self._added)

    def discard(self) -> None:
        self._open = False
        self._rows, self._added = None, []

    def _check(self) -> None:
        if not self._open:
            raise RuntimeError("the transaction is over (committed or discarded)")


def _highest(features: Sequence[Feature], name: str) -> int:
    """The highest ``n`` of the fids ``<name>.<n>`` (0 when none is so numbered)."""
    numbers = (fid_number(f.fid, name) for f in features)
    return max((n for n in numbers if n is not None), default=0)
