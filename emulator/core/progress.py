"""Seed progress over simulated time: (time, tiles done, tiles total) per task, as the clock
moved. The inspector draws it; nothing else reads it. Bounded: at most ``POINTS`` samples per
task (every other one is dropped when full, so the curve keeps its whole span) and ``TASKS``
tasks (the oldest forgotten first)."""

from __future__ import annotations

from collections.abc import Iterable

POINTS = 120
TASKS = 200

Sample = tuple[float, int, int]
"""(simulated seconds, tiles done, tiles total)"""


class ProgressHistory:
    def __init__(self) -> None:
        self.samples: dict[int, list[Sample]] = {}

    def sample(self, now: float, rows: Iterable[tuple[int, int, int]]) -> None:
        """Note (task id, done, total) for each task at ``now``; a task whose figures did not
        change since its last sample is not noted again."""
        for task, done, total in rows:
            points = self.samples.get(task)
            if points is None:
                if len(self.samples) >= TASKS:
                    del self.samples[next(iter(self.samples))]
                points = self.samples[task] = []
            if points and points[-1][1:] == (done, total):
                continue
            if points and points[-1][0] == now:
                points[-1] = (now, done, total)
                continue
            points.append((now, done, total))
            if len(points) > POINTS:  # halve, keeping the first and the latest
                kept = points[::2]
                points[:] = kept if kept[-1] == points[-1] else [*kept, points[-1]]

    def points(self, task: int) -> list[Sample]:
        return list(self.samples.get(task, ()))

    def clear(self) -> None:
        self.samples.clear()
