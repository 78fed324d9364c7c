"""``State`` snapshots: restored states are independent copies, unpickled part by part on
first use, and safe when several threads use a restored state for the first time at once."""

from __future__ import annotations

import datetime
import enum
import gc
import pickle
import re
import threading
import types
from pathlib import PurePath

import pytest

from geoserver_emulator import Emulator
from geoserver_emulator.core import state as state_module
from geoserver_emulator.core.state import STORES, State

# objects that may be shared without being observable: immutable atoms, and things pickled
# by reference (classes, functions, modules, enum members)
ATOMS = (
    str, bytes, int, float, bool, type(None), complex, range, re.Pattern, enum.Enum,
    datetime.date, datetime.time, datetime.timedelta, datetime.tzinfo, PurePath, type,
    types.ModuleType, types.FunctionType, types.BuiltinFunctionType, types.CodeType,
)  # fmt: skip


def mutable_objects(root: object) -> dict[int, object]:
    """Every object reachable from ``root`` whose identity matters (by id)."""
    out: dict[int, object] = {}
    seen: set[int] = set()
    stack = [root]
    while stack:
        obj = stack.pop()
        if isinstance(obj, ATOMS) or id(obj) in seen:
            continue
        seen.add(id(obj))
        if not isinstance(obj, tuple | frozenset):  # empty ones are interpreter singletons
            out[id(obj)] = obj
        stack.extend(gc.get_referents(obj))
    return out


def every_store(state: State) -> list[object]:
    return [getattr(state, name) for name in STORES]


def test_two_states_restored_from_one_baseline_share_no_mutable_object():
    baseline = Emulator("stock").scenario.baseline
    a, b = State.restore(baseline), State.restore(baseline)
    in_a = mutable_objects(every_store(a))
    in_b = mutable_objects(every_store(b))
    shared = in_a.keys() & in_b.keys()
    assert not shared, [type(in_a[i]).__name__ for i in list(shared)[:5]]
    # each keeps its own links between the stores of one part
    assert a.catalog.tiles is a.seeding and b.catalog.tiles is b.seeding


def test_two_emulators_from_one_scenario_share_nothing_in_any_store():
    a, b = Emulator("stock"), Emulator("stock")
    b_objects = mutable_objects(every_store(b.state))
    assert not mutable_objects(every_store(a.state)).keys() & b_objects.keys()
    a.reset()  # a fresh copy again, still nothing in common with b
    assert not mutable_objects(every_store(a.state)).keys() & b_objects.keys()


def test_a_part_is_unpickled_on_first_use_of_one_of_its_stores():
    state = Emulator("stock").scenario.state()
    assert not set(STORES) & state.__dict__.keys()
    state.users  # noqa: B018 - the attribute access is the test
    assert set(STORES) & state.__dict__.keys() == {"users"}
    state.seeding  # noqa: B018
    assert set(STORES) & state.__dict__.keys() == {"users", "seeding", "catalog"}
    assert state.catalog.tiles is state.seeding


def test_stores_that_share_an_object_are_pickled_together_and_stay_linked():
    state = Emulator("stock").scenario.state()
    shared: list[str] = []
    state.urlchecks.__dict__["probe"] = state.about  # a store reaching into another
    state.styles.__dict__["probe"] = ("x", [shared])  # a mutable object inside a tuple
    state.mosaics.__dict__["probe"] = ("x", shared)
    state.users.__dict__["probe"] = state.security.__dict__["probe"] = ()  # immutable: no link
    groups = [names for names, _ in state.snapshot().parts]
    assert {("urlchecks", "about"), ("styles", "mosaics"), ("users",), ("security",)} <= set(groups)
    again = State.restore(state.snapshot())
    assert again.urlchecks.probe is again.about
    assert again.styles.probe[1][0] is again.mosaics.probe[1]


def test_unknown_attributes_are_attribute_errors():
    state = Emulator("stock").scenario.state()
    with pytest.raises(AttributeError):
        state.nothing  # noqa: B018
    assert not hasattr(State(), "_pending_parts")


def test_a_restored_state_holds_what_the_state_it_was_taken_from_held():
    emu = Emulator("stock")
    emu.state.users.create_user(None, "kept", "pw", True)
    again = State.restore(emu.state.snapshot())
    assert again.snapshot() == emu.state.snapshot()
    assert "kept" in again.users.service().users


def test_concurrent_first_use_of_one_part_keeps_one_copy(monkeypatch):
    """Two threads unpickle the catalog's part at the same moment, one through ``catalog``
    and one through ``seeding``: both must end up with the same copy, still linked."""
    state = Emulator("stock").scenario.state()
    both_inside = threading.Barrier(2, timeout=1)
    real_loads = pickle.loads

    def loads(blob: bytes) -> object:
        value = real_loads(blob)
        try:
            both_inside.wait()  # hold until the other thread has its own copy too
        except threading.BrokenBarrierError:
            pass  # an implementation that unpickles once under a lock never gets here twice
        return value

    monkeypatch.setattr(state_module.pickle, "loads", loads)
    got: dict[str, object] = {}
    threads = [
        threading.Thread(target=lambda n=name: got.__setitem__(n, getattr(state, n)))
        for name in ("catalog", "seeding")
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert got["catalog"] is state.catalog and got["seeding"] is state.seeding
    assert state.catalog.tiles is state.seeding


def test_concurrent_first_use_of_every_store():
    state = Emulator("stock").scenario.state()
    start = threading.Barrier(len(STORES))
    got: dict[str, object] = {}

    def touch(name: str) -> None:
        start.wait()
        got[name] = getattr(state, name)

    threads = [threading.Thread(target=touch, args=(name,)) for name in STORES]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert all(got[name] is getattr(state, name) for name in STORES)
    assert state.catalog.tiles is state.seeding


def test_a_view_before_first_use_is_the_shared_start_and_after_it_the_states_own():
    baseline = Emulator("stock").scenario.baseline
    a, b = State.restore(baseline), State.restore(baseline)
    assert a.view("catalog") is b.view("catalog")  # one read-only copy for both
    assert "catalog" not in a.__dict__  # reading it did not load a's own
    own = a.catalog
    assert own is not b.view("catalog") and a.view("catalog") is own
    users = a.users
    assert a.view("users") is users  # loaded: its own
    with pytest.raises(AttributeError):
        a.view("nothing")


def test_lists_read_after_reset_see_the_writes_that_follow(client_for):
    """A list answered from the shared start catalog never hides a later write, nor leaks
    one into another emulator or past a reset."""
    emu = Emulator("stock")
    client = client_for(emulator=emu)

    def names(c):
        return [w["name"] for w in c.get("/rest/workspaces.json").json()["workspaces"]["workspace"]]

    before = names(client)
    body = {"workspace": {"name": "fresh"}}
    assert client.post("/rest/workspaces", json=body).status_code == 201
    emu.state.catalog.delete_workspace("tiger", recurse=True)  # a write from Python
    assert "fresh" in names(client) and "tiger" not in names(client)
    assert names(client_for(emulator=Emulator("stock"))) == before
    emu.reset()
    assert names(client) == before
    emu.state.catalog.delete_workspace("tiger", recurse=True)
    assert "tiger" not in names(client) and "tiger" in before
