"""Status rows as ``TileBreeder.getStatusList`` prints them, estimate quirks included.

A row is ``[tilesDone, tilesTotal, timeRemaining, taskId, status]``. A seed task updates its
numbers only when it completes a metatile: ``tilesDone`` counts the metatiles completed
*before* that one (it lags one behind, and counts whole metatiles), ``timeRemaining`` is
``round(timeSpent * (tilesTotal / activeThreads) / tilesDone) - timeSpent`` in Java double
arithmetic, where ``activeThreads`` is how many tasks of the request were running at that
moment. Hence 0 after the first metatile of a fresh task (0 * ∞ is NaN, rounded to 0) and
``-1 - timeSpent`` when the first metatile took a second or more (∞ rounds to
``Long.MAX_VALUE``, narrowed to ``int``). A pending task shows ``[-1,-1,-2,id,0]``; a
truncate task never sets its counters.
"""

from __future__ import annotations

import math
from bisect import bisect_left, bisect_right

from .java import int_div, math_round, to_int, to_long
from .model import SeedGroup, SeedingStore, SeedTask
from .simulation import take_time, takes

STATE_CODES = {"UNSET": 0, "READY": 0, "RUNNING": 1, "DONE": 2, "DEAD": -1}


def _jdiv(a: float, b: float) -> float:
    """Java double division (no exception on zero)."""
    if b != 0:
        return a / b
    if a == 0 or math.isnan(a):
        return math.nan
    return math.copysign(math.inf, a) * math.copysign(1.0, b)


def estimate(spent: int, total: int, threads: int, done: int) -> int:
    """``SeedTask.updateStatusInfo``'s remaining time, bit for bit."""
    per_thread = _jdiv(float(total), float(threads))
    ratio = _jdiv(per_thread, float(done))
    return to_int(math_round(float(spent) * ratio) - spent)


class ActiveCounter:
    """How many members of each group were running at a given millisecond."""

    def __init__(self, store: SeedingStore) -> None:
        self._store = store
        self._spans: dict[int, tuple[list[int], list[float]]] = {}

    def __call__(self, group: SeedGroup, t: int) -> int:
        spans = self._spans.get(group.id)
        if spans is None:
            members = [self._store.tasks[i] for i in group.members]
            started = [m for m in members if m.start is not None]
            starts = sorted(m.start for m in started if m.start is not None)
            ends = sorted(math.inf if m.end is None else float(m.end) for m in started)
            spans = self._spans[group.id] = (starts, ends)
        starts, ends = spans
        return bisect_right(starts, t) - bisect_left(ends, t)


def completed_by(task: SeedTask, group: SeedGroup, now: int) -> int:
    """Metatiles the task has completed by ``now``."""
    if task.finished:
        return task.completed
    n = takes(task, group, now)
    if task.cap is not None:
        n = min(n, task.cap)
    return max(n - 1, 0)


def row(store: SeedingStore, task: SeedTask, active: ActiveCounter) -> list[int]:
    group = store.groups[task.group]
    code = STATE_CODES[task.state]
    if task.start is None or group.type == "TRUNCATE":
        return [-1, -1, -2, task.id, code]
    total = task.tiles_total
    k = 0 if group.crash is not None else completed_by(task, group, store.now)
    if k == 0:
        done, remaining = -1, -1
    else:
        at = take_time(task, group, k)
        done = to_long((k - 1) * group.meta_tiles)
        spent = int_div(to_int(at - task.start), 1000)
        remaining = estimate(spent, total, max(active(group, at), 1), done)
    if total <= 0:
        remaining = -2
    return [done, total, remaining, task.id, code]


def describe(task: SeedTask) -> str:
    """``GWCTask.toString``: ``[id: layer, TYPE, STATE]``."""
    return f"[{task.id}: {task.layer}, {task.type}, {task.state}]"
