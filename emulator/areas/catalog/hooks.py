"""What deleting a store means to the areas that keep state of their own for it.

An image mosaic's index (``state.mosaics``) goes with its coverage store, and with
``purge=metadata|all`` its files too (``mosaics.service.release_store``); an app-schema
store's loaded mapping record, with the document schemas persisted for it
(``state.appschema``), goes with its data store. The store and workspace DELETE routes call
``store_deleted`` once the catalog has dropped the store.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .entities import CoverageStore, DataStore, Store

if TYPE_CHECKING:
    from ...state import State


def store_deleted(state: State, store: Store, purge: str | None = None) -> None:
    """Tell the other areas that ``store`` is gone (``purge``: the coverage store DELETE's)."""
    if isinstance(store, CoverageStore):
        from ..mosaics.service import release_store  # the mosaics area, loaded on first use

        release_store(state, store, purge)
        from ..uploads.coverages import release_store as release_file  # single-file coverages

        release_file(state, store, purge)
    elif isinstance(store, DataStore):
        state.appschema.forget(store.workspace, store.name)
        state.features.drop_store(store.workspace, store.name)  # uploaded features go too
