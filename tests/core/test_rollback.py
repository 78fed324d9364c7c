"""A write's rollback ends only after a store another thread is saving is put back: until
then the store is neither held by the rollback nor in the state (a read then would fail)."""

from __future__ import annotations

import threading

import pytest

from geoserver_emulator.core import rollback as rollback_module
from geoserver_emulator.core.state import STORES, State


@pytest.mark.parametrize("end", ["commit", "undo"])
def test_rollback_ends_after_a_touch_under_way(monkeypatch, end):
    state = State()
    rollback = state.begin()
    saving, release = threading.Event(), threading.Event()
    real_dumps = rollback_module.pickle.dumps

    def slow_dumps(*args, **kwargs):
        saving.set()
        release.wait(10)
        return real_dumps(*args, **kwargs)

    monkeypatch.setattr(rollback_module.pickle, "dumps", slow_dumps)
    reader = threading.Thread(target=lambda: state.catalog)  # a read on another thread
    reader.start()
    assert saving.wait(10)
    missing: list[set[str]] = []

    def finish() -> None:
        getattr(rollback, end)()
        d = state.__dict__
        waiting = d.get("_pending_parts") or {}
        missing.append({name for name in STORES if name not in d and name not in waiting})

    writer = threading.Thread(target=finish)
    writer.start()
    writer.join(0.2)  # gives an unguarded end the time to run into the touch
    release.set()
    reader.join(10)
    writer.join(10)
    monkeypatch.setattr(rollback_module.pickle, "dumps", real_dumps)
    assert missing == [set()]
    assert state.catalog is not None and state.styles is not None
