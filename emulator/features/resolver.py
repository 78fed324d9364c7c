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

from . import memory, stock
from .query import Schema, TypeRef
from .source import FeatureSource

if TYPE_CHECKING:
    from ..core.state import State

Provider = Callable[["State", TypeRef], FeatureSource | None]

PROVIDERS: tuple[Provider, ...] = (
    memory.provide,  # the tables of state.features (uploaded files, WFS-T inserts)
    stock.provide,  # the release data directory's sample features, shared until written
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
