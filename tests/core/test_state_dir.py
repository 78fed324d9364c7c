"""``dir(emu.state)`` shows every store, documented, without loading any."""

from __future__ import annotations

from geoserver_emulator import Emulator
from geoserver_emulator.core.state import STORES


def test_dir_lists_every_store_without_loading_it():
    state = Emulator("stock").state
    listed = set(dir(state))
    assert set(STORES) <= listed
    assert "_pending_parts" not in listed
    assert not set(STORES) & set(vars(state))  # nothing unpickled by dir()
    assert state.catalog is not None and "catalog" in vars(state)
