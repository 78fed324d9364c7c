"""What deleting a store means to the areas that keep state of their own for it.

An image mosaic's index (``state.mosaics``) goes with its coverage store, and with
``purge=metadata|all`` its files too (the hook ``catalog.store_deleted``, which the mosaics
and uploads areas answer: ``geoserver_emulator/composition.py``); an app-schema
store's loaded mapping record, with the document schemas persisted for it
(``state.appschema``), goes with its data store. The store and workspace DELETE routes call
``store_deleted`` once the catalog has dropped the store. ``reader_names`` asks the same
areas what a coverage store's reader offers (an image mosaic's coverages, configured or
not), for ``…/coverages?list=all``; ``geometryless`` asks the uploads area which of a data
store's types have no geometry (``…/featuretypes?list=available_with_geom``). The catalog
sits below those areas, so it reaches them only through hooks (``core/hooks.py``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...core import hooks
from ...features import resolver as features
from .entities import CoverageStore, DataStore, Store

if TYPE_CHECKING:
    from ...core.state import State


def store_deleted(state: State, store: Store, purge: str | None = None) -> None:
    """Tell the other areas that ``store`` is gone (``purge``: the coverage store DELETE's)."""
    if isinstance(store, CoverageStore):
        hooks.call("catalog.store_deleted", state, store, purge)  # mosaics, single-file grids
    elif isinstance(store, DataStore):
        state.appschema.forget(store.workspace, store.name)
        features.drop_store(state, store.workspace, store.name)  # uploaded features go too


def reader_names(state: State, store: Store) -> list[str]:
    """The coverage names the store's reader offers beyond ``store.available``: an image
    mosaic's (an empty one's too, once its definition is uploaded)."""
    if not isinstance(store, CoverageStore) or store.url is None:
        return []
    return [name for names in hooks.call("catalog.reader_names", state, store) for name in names]


def geometryless(state: State, store: Store, names: list[str]) -> set[str]:
    """The names among ``names`` whose data the server holds and has no geometry attribute
    (a type whose schema is unknown here counts as having one)."""
    if not isinstance(store, DataStore):
        return set()
    out = set()
    for name in names:
        found = features.stored_schema(state, store.workspace, store.name, name)
        if found is not None and found.geometry is None:
            out.add(name)
    return out
