"""Stateful test: submit / advance / kill / list / drain against a naive model of the pool.

The model steps simulated time from one take to the next and moves each task metatile by
metatile, the way GWC's threads do (take, seed, update the counters, take again), with the
pool and its FIFO queue spelled out. The scheduler computes the same in closed form from
task ends; both must print the same rows after any sequence of operations.
"""

from __future__ import annotations

import math

from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule

from geoserver_emulator import Emulator
from geoserver_emulator.areas.seeding import tiles
from geoserver_emulator.areas.seeding.model import FailureRule, TileLayer
from geoserver_emulator.areas.seeding.request import SeedRequest
from geoserver_emulator.areas.seeding.status import estimate

POOL = 3
MAX_DISPATCHES_WITHOUT_DRAIN = 50
TRUNCATE_MS = 1000
RATES = {"a:fast": 10.0, "b:odd": 3.0, "c:slow": 2.5, "d:failing": 4.0}
FAIL_AFTER_TILES = 20  # 2 metatiles of 16


class NaivePool:
    """GWC's pool moved metatile by metatile (skipping the milliseconds where nothing
    happens)."""

    def __init__(self) -> None:
        self.now = 0
        self.tasks: dict[int, dict] = {}
        self.groups: list[dict] = []
        self.queue: list[int] = []
        self.running: list[int] = []
        self.next_id = 1
        self.dispatches = 0

    def take_time(self, task: dict, n: int) -> int:
        return task["start"] + math.ceil(n * 1000 / task["group"]["rate"] - 1e-9)

    def submit(self, layer: str, kind: str, threads: int, tr: tiles.TileRange) -> list[int]:
        group = {
            "type": kind, "rate": RATES[layer], "members": [],
            "remaining": tiles.metatile_count(tr), "total": tiles.tile_count(tr),
            "fail": 2 if layer == "d:failing" else None,
        }  # fmt: skip
        self.groups.append(group)
        ids = []
        for _ in range(1 if kind == "TRUNCATE" else max(threads, 1)):
            tid = self.next_id
            self.next_id += 1
            self.tasks[tid] = {
                "id": tid, "group": group, "state": "PENDING", "listed": True, "terminate": False,
                "start": None, "end": None, "takes": 0, "last": None,
            }  # fmt: skip
            group["members"].append(tid)
            self.queue.append(tid)
            ids.append(tid)
        self.dispatches += 1
        if self.dispatches > MAX_DISPATCHES_WITHOUT_DRAIN:
            self._drop_ended()
        self._fill(self.now)
        return ids

    def _drop_ended(self) -> None:
        """GWC's ``TileBreeder.drain``: ended tasks leave the pool."""
        self.dispatches = 0
        for task in self.tasks.values():
            if task["end"] is not None:
                task["listed"] = False

    def _end(self, task: dict, t: int, state: str) -> None:
        task["end"], task["state"] = t, state
        if task["id"] in self.running:
            self.running.remove(task["id"])

    def _take(self, task: dict, t: int) -> bool:
        group = task["group"]
        if group["remaining"] > 0:
            group["remaining"] -= 1
            task["takes"] += 1
            return True
        self._end(task, t, "DONE")
        return False

    def _fill(self, t: int) -> None:
        while self.queue and len(self.running) < POOL:
            task = self.tasks[self.queue.pop(0)]
            task["start"], task["state"] = t, "RUNNING"
            if task["group"]["type"] == "TRUNCATE":
                self.running.append(task["id"])
            elif task["terminate"]:
                if task["group"]["remaining"] > 0:
                    task["group"]["remaining"] -= 1
                self._end(task, t, "DONE")
            else:
                self.running.append(task["id"])
                self._take(task, t)

    def _step(self, t: int) -> None:
        for tid in sorted(self.running):
            task = self.tasks[tid]
            group = task["group"]
            if group["type"] == "TRUNCATE":
                if t == task["start"] + TRUNCATE_MS:
                    self._end(task, t, "DONE")
                continue
            n = task["takes"]
            if self.take_time(task, n) != t:
                continue
            if group["fail"] is not None and n == group["fail"] + 1:
                self._end(task, t, "DEAD")
                continue
            task["last"] = (n, t)
            if task["terminate"]:
                if group["remaining"] > 0:
                    group["remaining"] -= 1
                self._end(task, t, "DONE")
                continue
            self._take(task, t)
        self._fill(t)

    def _next(self, after: int) -> int | None:
        """The next millisecond at which some running task does anything."""
        times = []
        for tid in self.running:
            task = self.tasks[tid]
            if task["group"]["type"] == "TRUNCATE":
                times.append(task["start"] + TRUNCATE_MS)
            else:
                times.append(self.take_time(task, task["takes"]))
        later = [t for t in times if t > after]
        return min(later) if later else None

    def advance(self, until: int) -> None:
        t = self._next(self.now)
        while t is not None and t <= until:
            self._step(t)
            t = self._next(t)
        self.now = max(self.now, until)

    def drain(self) -> None:
        t = self._next(self.now)
        while t is not None:
            self._step(t)
            t = self._next(t)

    def _active(self, group: dict, t: int) -> int:
        members = [self.tasks[i] for i in group["members"]]
        return sum(
            1
            for m in members
            if m["start"] is not None and m["start"] <= t and (m["end"] is None or m["end"] >= t)
        )

    def rows(self, drop: bool = True) -> list[list[int]]:
        out = []
        for task in sorted(self.tasks.values(), key=lambda x: x["id"]):
            if not task["listed"]:
                continue
            code = {"PENDING": 0, "RUNNING": 1, "DONE": 2, "DEAD": -1}[task["state"]]
            group = task["group"]
            if task["start"] is None or group["type"] == "TRUNCATE":
                out.append([-1, -1, -2, task["id"], code])
                continue
            total = group["total"]
            if task["last"] is None:
                done, remaining = -1, -1
            else:
                k, at = task["last"]
                done = (k - 1) * 16
                remaining = estimate(
                    (at - task["start"]) // 1000, total, self._active(group, at), done
                )
            out.append([done, total, -2 if total <= 0 else remaining, task["id"], code])
        if drop:
            self._drop_ended()
        return out

    def kill_all(self, code: str) -> list[int]:
        self._drop_ended()
        states = {"running": ("RUNNING",), "pending": ("PENDING",), "all": ("PENDING", "RUNNING")}[
            code
        ]
        chosen = [
            t
            for t in sorted(self.tasks.values(), key=lambda x: x["id"])
            if t["listed"] and t["state"] in states
        ]
        for task in chosen:
            task["listed"], task["terminate"] = False, True
        return [t["id"] for t in chosen]

    def kill_task(self, tid: int) -> bool:
        """``terminateGWCTask``: no drain first; any task still in the pool, ended or not."""
        task = self.tasks.get(tid)
        if task is None or not task["listed"]:
            return False
        task["listed"], task["terminate"] = False, True
        return True


class SchedulerMachine(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.emu = Emulator("empty")
        store = self.emu.state.seeding
        store.settings.pool_size = POOL
        store.settings.truncate_seconds = TRUNCATE_MS / 1000
        for name, rate in RATES.items():
            store.tile_layers[name] = TileLayer(name)
            store.settings.rates[name] = rate
        store.settings.failures["d:failing"] = FailureRule(after_tiles=FAIL_AFTER_TILES)
        self.model = NaivePool()
        self.ms = 0

    @rule(
        layer=st.sampled_from(sorted(RATES)),
        kind=st.sampled_from(["seed", "seed", "reseed", "truncate"]),
        threads=st.integers(0, 3),
        zoom_stop=st.integers(0, 3),
    )
    def submit(self, layer, kind, threads, zoom_stop):
        req = SeedRequest(
            gridset_id="EPSG:4326",
            zoom_start=0,
            zoom_stop=zoom_stop,
            thread_count=threads,
            type=kind,
        )
        ids = self.emu.scheduler.submit(layer, req)
        group = self.emu.state.seeding.groups[max(self.emu.state.seeding.groups)]
        assert ids == self.model.submit(layer, kind.upper(), threads, group.range)

    @rule(ms=st.integers(0, 1500))
    def advance(self, ms):
        self.ms += ms
        self.emu.clock.advance(ms / 1000)
        self.model.advance(self.ms)

    @rule(code=st.sampled_from(["running", "pending", "all", "1"]))
    def kill_all(self, code):
        report = self.emu.scheduler.kill_all(code)
        killed = [int(text[1:].split(":")[0]) for text in report.terminated]
        assert killed == self.model.kill_all("running" if code == "1" else code)

    @rule(task=st.integers(1, 12))
    def kill_task(self, task):
        assert self.emu.scheduler.kill_task(task) == self.model.kill_task(task)

    @rule()
    def status(self):
        assert self.emu.scheduler.status() == self.model.rows()

    @precondition(lambda self: len(self.model.tasks) < 40)
    @rule()
    def drain(self):
        self.emu.scheduler.drain()
        self.model.drain()

    @invariant()
    def same_rows_and_pool(self):
        shown = [list(t.row) for t in self.emu.scheduler.tasks if t.listed]
        assert shown == self.model.rows(drop=False)
        assert len(self.emu.state.seeding.running) <= POOL


TestScheduler = SchedulerMachine.TestCase
TestScheduler.settings = settings(max_examples=80, stateful_step_count=30, deadline=None)


def run_steps(steps: list[tuple[str, dict]]) -> None:
    """Run the machine through the given rules, checking the invariant after each, as
    hypothesis does (a failing sequence it once found, replayed without its database)."""
    machine = SchedulerMachine()
    machine.same_rows_and_pool()
    for name, args in steps:
        getattr(machine, name)(**args)
        machine.same_rows_and_pool()


def test_a_task_killed_while_pending_takes_its_sibling_s_last_metatile():
    # task 3 holds the first of two metatiles when task 4 (killed while pending) starts at
    # 1000 ms and takes the second; task 3 finds the iterator dry at 1001 ms: one metatile
    # completed, so it shows 0 tiles done (it once showed 16)
    run_steps(
        [
            ("submit", {"kind": "truncate", "layer": "a:fast", "threads": 0, "zoom_stop": 0}),
            ("advance", {"ms": 901}),
            ("submit", {"kind": "seed", "layer": "a:fast", "threads": 0, "zoom_stop": 0}),
            ("submit", {"kind": "seed", "layer": "a:fast", "threads": 2, "zoom_stop": 1}),
            ("kill_all", {"code": "pending"}),
            ("drain", {}),
            ("status", {}),
        ]
    )


def test_the_51st_request_without_a_list_drops_the_ended_tasks():
    # of the first request's three tasks, two find the single metatile gone at once and
    # end; the 51st request after it (no list, no kill in between) drains the pool
    seed = {"kind": "seed", "layer": "a:fast", "zoom_stop": 0}
    run_steps(
        [("submit", {**seed, "threads": 3})]
        + [("submit", {**seed, "threads": 0})] * 50
        + [("status", {})]
    )
