"""The undo log (``core/tracking.py``, ``core/trackeddict.py``, ``core/rollback.py``): what a
write reaches is saved as it is reached and put back in place by an undo, key order
included; what a write makes is left alone; nothing recurses on deep values."""

from __future__ import annotations

import copy
import pickle
import threading
from collections import deque
from typing import Any

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from geoserver_emulator import Emulator
from geoserver_emulator.core import rollback as rollback_module
from geoserver_emulator.core import tracking
from geoserver_emulator.core.record import field, record
from geoserver_emulator.core.state import STORES, State
from geoserver_emulator.core.trackeddict import TrackedDict


@record
class Box:
    name: str
    items: list[Any] = field(default_factory=list)
    table: dict[str, Any] = field(default_factory=dict)
    tags: set[str] = field(default_factory=set)
    queue: deque[int] = field(default_factory=deque)
    raw: bytearray = field(default_factory=bytearray)
    pair: tuple[Any, ...] = ()


@tracking.tracked
class Store:
    def __init__(self) -> None:
        self.boxes: TrackedDict[str, Box] = TrackedDict()
        self.count = 0


def write(state: Any = None) -> rollback_module.Rollback:
    return rollback_module.Rollback(state)


def digest(obj: object) -> bytes:
    return pickle.dumps(pickle.loads(pickle.dumps(obj, 5)), 5)


def test_an_undo_puts_every_container_back_in_place() -> None:
    box = Box("b", [1, [2]], {"k": {"n": 1}}, {"x"}, deque([1]), bytearray(b"ab"), ([3],))
    inner_list, inner_dict, in_tuple = box.items[1], box.table["k"], box.pair[0]
    before = digest(box)
    w = write()
    box.items.append(9)
    box.items[1].append(8)  # a container inside a container handed out
    box.table["k"]["n"] = 2
    box.table["new"] = 1
    box.tags.add("y")
    box.tags.discard("x")
    box.queue.appendleft(0)
    box.raw.extend(b"cd")
    box.pair[0].append(4)  # a container inside a tuple
    box.name = "renamed"
    del box.tags
    w.close()  # not committed: undone
    assert digest(box) == before
    assert box.items[1] is inner_list and box.table["k"] is inner_dict and box.pair[0] is in_tuple


def test_a_commit_keeps_everything() -> None:
    box = Box("b")
    w = write()
    box.items.append(1)
    box.name = "kept"
    w.commit()
    box.items.append(2)  # after the decision: not recorded
    w.close()
    assert box.items == [1, 2] and box.name == "kept"


def test_what_a_write_makes_is_left_alone_by_its_undo() -> None:
    """A record made during a refused write may live on in a cache: it stays whole."""
    cache: list[Box] = []
    w = write()
    made = Box("new")
    made.items.append(1)
    made.name = "changed"
    cache.append(made)
    w.close()
    assert made.name == "changed" and made.items == [1]


def test_deep_values_cost_no_recursion() -> None:
    """A value nested far deeper than the recursion limit is saved and put back."""
    deep: dict[str, Any] = {}
    node = deep
    for _ in range(20_000):
        node["x"] = {}
        node = node["x"]
    box = Box("deep", table=deep)
    w = write()
    leaf = box.table
    for _ in range(20_000):
        leaf = leaf["x"]
    leaf["changed"] = True
    w.close()
    assert "changed" not in leaf


# -- tracked maps -----------------------------------------------------------------------------

KEYS = st.sampled_from([f"k{i}" for i in range(8)])
OPS = st.lists(
    st.one_of(
        st.tuples(st.just("set"), KEYS, st.integers(0, 3)),
        st.tuples(st.just("del"), KEYS),
        st.tuples(st.just("pop"), KEYS),
        st.tuples(st.just("popitem")),
        st.tuples(st.just("setdefault"), KEYS, st.integers(0, 3)),
        st.tuples(st.just("update"), st.dictionaries(KEYS, st.integers(0, 3), max_size=3)),
        st.tuples(st.just("clear")),
    ),
    max_size=12,
)


def apply(table: dict[str, int], ops: list[tuple[Any, ...]]) -> None:
    for op, *args in ops:
        if op == "set":
            table[args[0]] = args[1]
        elif op == "del":
            table.pop(args[0], None) if args[0] not in table else table.__delitem__(args[0])
        elif op == "pop":
            table.pop(args[0], None)
        elif op == "popitem" and table:
            table.popitem()
        elif op == "setdefault":
            table.setdefault(args[0], args[1])
        elif op == "update":
            table.update(args[0])
        elif op == "clear":
            table.clear()


@given(
    start=st.dictionaries(KEYS, st.integers(0, 3)),
    rounds=st.lists(st.tuples(OPS, st.sampled_from(["commit", "undo", "outside"])), max_size=5),
)
@example(  # a key added as the side order is taken again, then an undo that reorders
    start={"k1": 0, "k2": 0},
    rounds=[([("del", "k1")], "commit"), ([("set", "k5", 1)], "commit"), ([("del", "k2")], "undo")],
)
def test_a_tracked_map_comes_back_in_its_order(
    start: dict[str, int], rounds: list[tuple[list[tuple[Any, ...]], str]]
) -> None:
    """Writes kept, writes undone and changes outside any write, in any order: each undo
    gives back exactly the items and the key order the map had when the write began (the
    side order taken again at every new key a write may take it at)."""
    from geoserver_emulator.core import trackeddict

    rebase, trackeddict.REBASE = trackeddict.REBASE, -1_000_000  # at every new key
    try:
        _rounds(start, rounds)
    finally:
        trackeddict.REBASE = rebase


def _rounds(start: dict[str, int], rounds: list[tuple[list[tuple[Any, ...]], str]]) -> None:
    table: TrackedDict[str, int] = TrackedDict(start)
    mirror = dict(start)
    for ops, end in rounds:
        if end == "outside":
            apply(table, ops)
            apply(mirror, ops)
            continue
        w = write()
        apply(table, ops)
        if end == "commit":
            w.commit()
            apply(mirror, ops)
        w.close()
        assert list(table.items()) == list(mirror.items())
        assert type(table) is TrackedDict


def test_a_tracked_map_refuses_plain_containers() -> None:
    table: TrackedDict[str, Any] = TrackedDict()
    for value in ([], {}, {1}, ("x", [1]), deque()):
        with pytest.raises(TypeError, match="tracked map"):
            table["k"] = value
    table["k"] = ("x", (1, "y"))  # immutable values are fine


def test_a_tracked_map_pickles_and_copies_as_itself_in_order() -> None:
    table: TrackedDict[str, int] = TrackedDict({"b": 1, "a": 2})
    for again in (pickle.loads(pickle.dumps(table, 5)), copy.deepcopy(table), copy.copy(table)):
        assert type(again) is TrackedDict and list(again.items()) == [("b", 1), ("a", 2)]
    assert type(table.copy()) is TrackedDict


def test_a_deletion_saves_one_entry_not_the_map() -> None:
    table: TrackedDict[int, int] = TrackedDict((i, i) for i in range(10_000))
    w = write()
    del table[5000]
    table[10_000] = 1
    assert len(w.ops) == 2 and not w.saved
    w.close()
    assert list(table) == list(range(10_000))


# -- hooks, contexts, the extension point ------------------------------------------------------


def test_the_read_hook_is_there_during_writes_and_gone_after_a_read_settles() -> None:
    w = write()
    assert Box.__dict__.get("__getattribute__") is tracking._watched
    w.close()
    tracking.settle()
    assert "__getattribute__" not in Box.__dict__

    w = write()

    @record
    class Late:  # a class made (a module imported) while a write is open
        items: list[int] = field(default_factory=list)

    assert Late.__dict__.get("__getattribute__") is tracking._watched
    w.close()
    tracking.settle()
    assert "__getattribute__" not in Late.__dict__


def test_writes_in_two_threads_keep_their_own_logs() -> None:
    a, b = Box("a"), Box("b")
    both_open = threading.Barrier(2, timeout=10)
    errors: list[BaseException] = []

    def run(box: Box, keep: bool) -> None:
        try:
            w = write()
            both_open.wait()
            box.items.append(1)
            both_open.wait()
            if keep:
                w.commit()
            w.close()
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [
        threading.Thread(target=run, args=(a, True)),
        threading.Thread(target=run, args=(b, False)),
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors and a.items == [1] and b.items == []


def test_outside_resources_join_the_outcome() -> None:
    calls: list[str] = []
    state = State()
    assert rollback_module.running(state) is None and rollback_module.current() is None
    w = state.begin()
    assert rollback_module.running(state) is w and rollback_module.current() is w
    w.on_outcome(lambda: calls.append("commit 1"), lambda: calls.append("undo 1"))
    w.on_outcome(lambda: calls.append("commit 2"), lambda: calls.append("undo 2"))
    w.commit()
    w.close()
    assert calls == ["commit 1", "commit 2"]
    assert rollback_module.running(state) is None and rollback_module.current() is None

    calls.clear()
    box = Box("b")
    w = state.begin()
    w.on_outcome(lambda: calls.append("commit"), lambda: calls.append(f"undo sees {box.name}"))
    w.on_outcome(lambda: calls.append("commit"), lambda: None if 1 / 0 else None)  # fails
    box.name = "changed"
    w.undo()
    w.close()
    assert calls == ["undo sees b"]  # each once, latest first, after the state is back


def test_a_failing_commit_undoes_the_write_and_what_was_not_committed() -> None:
    box = Box("b")
    calls: list[str] = []
    w = write()
    box.name = "changed"

    def fail() -> None:
        raise ConnectionError("the database went away")

    w.on_outcome(lambda: calls.append("commit 1"), lambda: calls.append("undo 1"))
    w.on_outcome(fail, lambda: calls.append("undo 2"))
    w.on_outcome(lambda: calls.append("commit 3"), lambda: calls.append("undo 3"))
    with pytest.raises(ConnectionError):
        w.commit()
    w.close()
    assert box.name == "b" and calls == ["commit 1", "undo 3", "undo 2"]


def test_a_store_unpickled_during_a_refused_write_is_as_it_was() -> None:
    emu = Emulator("stock")
    state = State.restore(emu.scenario.baseline)
    expected = digest(State.restore(emu.scenario.baseline).styles)
    w = state.begin()
    assert "styles" not in state.__dict__
    state.styles.styles.pop(next(iter(state.styles.styles)))  # unpickled here, then changed
    state.ids.next("StyleInfoImpl")
    w.close()
    assert digest(state.styles) == expected
    assert state.ids.peek("StyleInfoImpl") == State.restore(emu.scenario.baseline).ids.peek(
        "StyleInfoImpl"
    )


def test_the_stock_state_holds_only_what_the_log_sees() -> None:
    from shapely.geometry.base import BaseGeometry

    state = Emulator("stock").state
    assert not tracking.untracked([getattr(state, n) for n in STORES], (BaseGeometry,))
    assert tracking.untracked([object()])  # an unknown object is reported


def test_the_big_tables_stay_tracked_maps_through_scenarios_and_writes(client, emu) -> None:
    """What keeps a write's cost off the catalog's size: the tables that grow with it log by
    key (a plain dict there would still be undone right, but saved whole)."""

    def tables() -> dict[str, object]:
        state, catalog, seeding = emu.state, emu.state.catalog, emu.state.seeding
        return {
            **{name: getattr(catalog, name) for name in ("workspaces", "namespaces", "stores")},
            **{name: getattr(catalog, name) for name in ("resources", "layers", "layer_groups")},
            "tile_layers": seeding.tile_layers,
            "published": seeding.published,
            "published_bounds": seeding.published_bounds,
            "styles": state.styles.styles,
            "files": state.datadir.files,
        }

    assert {k for k, v in tables().items() if type(v) is not TrackedDict} == set()
    body = {"featureType": {"name": "tracked", "nativeName": "roads"}}
    assert (
        client.post("/rest/workspaces/sf/datastores/sf/featuretypes", json=body).status_code == 201
    )
    assert client.delete("/rest/workspaces/tiger?recurse=true").status_code == 200
    assert (
        client.post("/rest/styles", json={"style": {"name": "s", "filename": "s.sld"}}).status_code
        == 201
    )
    emu.reset()
    assert {k for k, v in tables().items() if type(v) is not TrackedDict} == set()


def test_a_failing_undo_callback_still_ends_the_write(emu, monkeypatch) -> None:
    """The rollback middleware ends the undo record even when undoing raises (here after
    an exception escaped the endpoint): no write is left open, else the hooks would stay
    and the next write would find a stale log."""
    import asyncio

    import httpx

    from geoserver_emulator.areas.catalog import routes_workspaces

    real_undo = rollback_module.Rollback.undo

    def failing_undo(self: rollback_module.Rollback) -> None:
        real_undo(self)
        raise RuntimeError("an undo callback failed")

    def boom(*args: Any, **kwargs: Any) -> None:
        raise RuntimeError("boom")

    monkeypatch.setattr(rollback_module.Rollback, "undo", failing_undo)
    monkeypatch.setattr(routes_workspaces, "apply_fields", boom)

    async def post() -> int:
        transport = httpx.ASGITransport(app=emu.asgi_app, raise_app_exceptions=False)
        async with httpx.AsyncClient(
            transport=transport, base_url="http://localhost/geoserver", auth=("admin", "geoserver")
        ) as c:
            r = await c.post("/rest/workspaces", json={"workspace": {"name": "half"}})
            return r.status_code

    assert asyncio.run(post()) == 500
    assert not tracking.writing()


def test_a_tracked_map_growing_in_writes_keeps_its_side_order_bounded(monkeypatch) -> None:
    """Keys inserted by writes after a deletion (a catalog built over REST) do not pile up
    in the map's side order: it is taken again, except by a write that needs it."""
    from geoserver_emulator.core import trackeddict

    monkeypatch.setattr(trackeddict, "REBASE", 8)
    table: TrackedDict[int, int] = TrackedDict((i, i) for i in range(4))
    w = write()
    del table[0]
    w.commit()
    w.close()
    for i in range(100, 200):  # one write per insertion, as REST does
        w = write()
        table[i] = i
        w.commit()
        w.close()
    assert table._added is not None and len(table._added) <= 8 + len(table)
    w = write()
    del table[150]
    for i in range(300, 400):
        table[i] = i
    w.close()  # undone: 150 goes back to its place
    assert list(table) == [1, 2, 3, *range(100, 200)]
