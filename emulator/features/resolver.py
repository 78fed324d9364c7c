"""``source_for``: the ``FeatureSource`` of a feature type, from the first provider that has
its data.

A provider is a function ``(state, feature type) -> FeatureSource | None``; ``PROVIDERS``
lists them in the order they are asked. Adding a kind of data (a PostGIS table for a JDBC
store whose database answers; shared read-only sample data copied on first write) is
adding a provider to that tuple.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from ..core.record import record
from . import memory, postgis, stock
from .query import AttributeRef, Schema, TypeRef
from .source import FeatureSource

if TYPE_CHECKING:
    from ..core.state import State

Provider = Callable[["State", TypeRef], FeatureSource | None]

PROVIDERS: tuple[Provider, ...] = (
    memory.provide,  # the tables of state.features (uploaded files, WFS-T inserts)
    stock.provide,  # the release data directory's sample features, shared until written
    postgis.provide,  # the tables and SQL views of PostGIS stores used live (databases/)
)


def source_for(
    state: State, feature_type: TypeRef, *, create: bool = False
) -> FeatureSource | None:
    """The source of ``feature_type``'s data; None when no provider has any. With
    ``create``, a feature type without data gets a new, empty memory table instead (stored
    on its first commit: what a WFS Transaction writes to)."""
    for provider in PROVIDERS:
        found = provider(state, feature_type)
        if found is not None:
            return found
    return memory.empty(state, feature_type) if create else None


def schema(state: State, feature_type: TypeRef) -> tuple[FeatureSource | None, Schema]:
    """The source (None without data) and the schema of a feature type: the source's, else
    the configured one."""
    source = source_for(state, feature_type)
    if source is not None:
        return source, source.schema
    return None, memory.schema_of(feature_type, None)


@record(frozen=True)
class NativeRef:
    """A type of a store named by its native name only (no feature type configured yet):
    what ``stored_schema`` asks the providers about."""

    workspace: str
    store: str
    name: str
    native_name: str | None = None
    srs: str | None = None
    attributes: tuple[AttributeRef, ...] = ()


def stored_schema(state: State, workspace: str, store: str, name: str) -> Schema | None:
    """The schema of the data a store holds under ``name`` (a table uploaded, a database
    table), None when no provider has such data."""
    source = source_for(state, NativeRef(workspace, store, name, name))
    return None if source is None else source.schema


def drop_store(state: State, workspace: str, store: str) -> None:
    """Forget the data a deleted store's types had in the emulator (uploaded tables and
    grids); a database's tables stay, as GeoServer never drops them."""
    found = memory.feature_store(state)
    if found is not None:
        found.drop_store(workspace, store)
