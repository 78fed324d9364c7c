"""``SeedScheduler``: GWC's ``TileBreeder`` over the emulator's state and clock.

It is driven only by the clock (``run_until``, subscribed by the ``Emulator``) and by
``drain``; reading the task list never moves work forward. What a read does change is
what GWC's does: the status list drops the tasks it has just shown finished (each finished
task is listed exactly once), and so does every kill request before it selects tasks.

Python API (``emu.scheduler``): ``tasks``, ``drain()``, ``cached_tiles(...)``, plus
``submit``, ``status``, ``kill_all`` and ``kill_task`` used by the REST routes.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from ...core.errors import Invalid
from ...core.record import fields, record
from ...core.state import State
from . import simulation
from .model import SeedGroup, SeedingStore, SeedTask, SeedWork
from .request import Resolved, SeedRequest, resolve
from .status import ActiveCounter, describe, row

MAX_DISPATCHES_WITHOUT_DRAIN = 50
KILL_STATES = {
    "running": ("RUNNING",),
    "pending": ("READY", "UNSET"),
    "all": ("READY", "UNSET", "RUNNING"),
}


@record(frozen=True)
class TaskView:
    """One task as the Python API shows it."""

    id: int
    layer: str
    type: str
    """SEED, RESEED or TRUNCATE"""
    state: str
    """GWC's state: UNSET/READY (pending), RUNNING, DONE, DEAD (aborted)"""
    row: tuple[int, int, int, int, int]
    """what the status list shows for it now"""
    listed: bool
    """still in the status list (False once killed, or shown finished)"""
    gridset: str
    format: str | None
    parameters: Mapping[str, str]


@record(frozen=True)
class KillReport:
    code: str
    """the kill code as GWC echoes it (``1`` becomes ``running``)"""
    terminated: list[str]
    """``[id: layer, TYPE, STATE]`` of each task terminated"""


def _rate(value: float) -> tuple[int, int]:
    from fractions import Fraction  # imported on first use (start-up cost)

    frac = Fraction(value).limit_denominator(1_000_000)
    if frac <= 0:
        frac = Fraction(1, 1_000_000)
    return frac.numerator, frac.denominator


class SeedScheduler:
    """The simulated seeding thread pool of one emulator."""

    def __init__(self, state: Callable[[], State]) -> None:
        self._state = state
        self.last_poll: tuple[str | None, float] | None = None
        """(layer, simulated time) of the last status list that showed unfinished work"""
        self.same_polls = 0
        """how many status lists in a row showed unfinished work at that same time"""

    @property
    def store(self) -> SeedingStore:
        return self._state().seeding

    # -- time --------------------------------------------------------------------------

    def run_until(self, now: float) -> None:
        """Do all the work simulated time up to ``now`` (seconds) allows."""
        simulation.run(self.store, round(now * 1000))

    def drain(self) -> None:
        """Run every pending and running task to its end (the clock does not move)."""
        simulation.run(self.store, None)
        simulation.commit_all(self.store)

    def commit(self) -> None:
        """Write the seed progress made up to now into the cache model (before a change
        that deletes from it)."""
        simulation.commit_all(self.store)

    def reset(self) -> None:
        """Forget the polls seen (tasks live in the state, which the emulator restores)."""
        self.last_poll, self.same_polls = None, 0

    def count_poll(self, layer: str | None, now: float, rows: list[list[int]]) -> int:
        """Count a status list: how many in a row showed pending or running tasks for the
        same layer at the same simulated time (0 when this one shows none)."""
        if not any(r[4] in (0, 1) for r in rows):
            self.last_poll, self.same_polls = None, 0
            return 0
        key = (layer, now)
        self.same_polls = self.same_polls + 1 if key == self.last_poll else 1
        self.last_poll = key
        return self.same_polls

    # -- requests ----------------------------------------------------------------------

    def submit(
        self, layer: str, request: SeedRequest, *, one_truncate_task: bool = True
    ) -> list[int]:
        """``TileBreeder.seed``: create the request's tasks and dispatch them; their ids."""
        store = self.store
        resolved = resolve(store, layer, request)
        group = self._group(store, resolved)
        count = 1 if resolved.type == "TRUNCATE" and one_truncate_task else resolved.threads
        ids = self._state().ids
        for _ in range(count):
            task_id = ids.next("seed-task")
            state = "UNSET" if resolved.type == "TRUNCATE" else "READY"
            store.tasks[task_id] = SeedTask(task_id, resolved.layer, resolved.type, group.id, state)
            group.members.append(task_id)
            store.queue.append(task_id)
        store.dispatches_without_drain += 1
        if store.dispatches_without_drain > MAX_DISPATCHES_WITHOUT_DRAIN:
            self._drain_pool()
        simulation.run(store, store.now)
        return list(group.members)

    def _group(self, store: SeedingStore, r: Resolved) -> SeedGroup:
        store.group_ids += 1
        settings = store.settings
        rule = settings.failures.get(r.layer)
        fail_after = None
        if rule is not None and rule.after_tiles is not None:
            per = r.range.meta[0] * r.range.meta[1]
            fail_after = -(-rule.after_tiles // per)
        group = SeedGroup(
            **{name: getattr(r, name) for name in fields(SeedWork)},
            id=store.group_ids,
            rate=_rate(settings.rate(r.layer)),
            fail_after=fail_after,
            fail_state="DEAD" if rule is None or rule.status == "aborted" else "RUNNING",
        )
        store.groups[group.id] = group
        return group

    def status(self, layer: str | None = None) -> list[list[int]]:
        """``getStatusList``: rows of the pooled tasks by id; then finished ones leave."""
        store = self.store
        active = ActiveCounter(store)
        rows = [
            row(store, t, active)
            for t in store.tasks.values()
            if t.listed and (layer is None or t.layer == layer)
        ]
        self._drain_pool()
        return rows

    def kill_all(self, code: str, layer: str | None = None) -> KillReport:
        """``kill_all=running|pending|all`` (``1`` = running) for one layer or all."""
        key = "running" if code == "1" else code.lower()
        if key not in KILL_STATES:
            raise Invalid(
                f"Unknown kill_all code: '{code}'. One of all|running|pending is expected."
            )
        self._drain_pool()
        chosen = [
            t
            for t in self.store.tasks.values()
            if t.listed and t.state in KILL_STATES[key] and (layer is None or t.layer == layer)
        ]
        texts = [describe(t) for t in chosen]
        for task in chosen:
            self._terminate(task)
        return KillReport("running" if key == "running" else code, texts)

    def kill_task(self, task_id: int) -> bool:
        """``terminateGWCTask``: True if the task was still in the pool."""
        task = self.store.tasks.get(task_id)
        if task is None or not task.listed:
            return False
        self._terminate(task)
        return True

    def _terminate(self, task: SeedTask) -> None:
        """Take the task out of the pool and flag it (see ``simulation.kill``)."""
        task.listed = False
        simulation.kill(self.store, task)

    def _drain_pool(self) -> None:
        """``TileBreeder.drain``: finished tasks leave the pool; done groups are forgotten."""
        store = self.store
        store.dispatches_without_drain = 0
        for task in store.tasks.values():
            if task.finished:
                task.listed = False
        for group in list(store.groups.values()):
            members = [store.tasks[i] for i in group.members]
            if all(m.finished and not m.listed for m in members):
                simulation.commit(store, group, store.now)
                for m in members:
                    del store.tasks[m.id]
                del store.groups[group.id]

    # -- views -------------------------------------------------------------------------

    @property
    def tasks(self) -> list[TaskView]:
        """Every task the scheduler still knows, by id (reading changes nothing)."""
        store = self.store
        active = ActiveCounter(store)
        out = []
        for t in store.tasks.values():
            g = store.groups[t.group]
            out.append(
                TaskView(
                    t.id,
                    t.layer,
                    t.type,
                    t.state,
                    tuple(row(store, t, active)),  # type: ignore[arg-type]
                    t.listed,
                    g.gridset,
                    g.format,
                    dict(g.parameters),
                )  # fmt: skip
            )
        return out

    def cached_tiles(
        self,
        layer: str,
        gridset: str | None = None,
        format: str | None = None,
        parameters: Mapping[str, str] | None = None,
        zoom: int | None = None,
    ) -> int:
        """How many tiles of ``layer`` the cache holds (optionally one gridset, format,
        parameter set or zoom level), counting the work done up to now."""
        simulation.commit_all(self.store)
        params = None if parameters is None else tuple(sorted(parameters.items()))
        return self.store.cache.count(layer, gridset, format, params, zoom)
