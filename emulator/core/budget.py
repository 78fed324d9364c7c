"""Time budgets for the user-supplied patterns one request evaluates.

Regular expressions (URL checks, about filters, parameter filters, collectors), ECQL filters
and their ``LIKE`` patterns come from clients. Each evaluation that could run long takes a
``Budget`` for all of its work together (the live server answers every client from one event
loop, so time spent here is time every other client waits). Past it, ``check`` raises
``TooCostly``, a 400 naming what ran out.

A budget has two bounds, and ends at whichever comes first: ``seconds`` of the CPU time of
the thread that evaluates (``time.thread_time``, what the ``regex`` package's ``timeout``
counts for one match: the work done is bounded whatever the machine's load), and
``WALL_FACTOR`` times as much wall-clock time (what other clients actually wait, longer than
the CPU time on a busy machine). A budget is made and spent on one thread (a request's
handler). A ``SpentBudget`` counts only the time its pattern work notes. Budgets are
resource guards, never the emulated clock.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TypeVar

from .errors import Invalid

T = TypeVar("T")

PATTERN_SECONDS = 0.5
"""CPU seconds for the patterns of one request"""
WALL_FACTOR = 1.5
"""wall-clock seconds per CPU second of a budget: 0.75 s for one request, so that, with one
last match running out, no request stalls the others for a second"""
MATCH_SECONDS = 0.05
"""CPU seconds one regular-expression match may take (sane patterns take microseconds)"""


class TooCostly(Invalid):
    """A pattern, or a set of them, took longer to evaluate than its budget allows."""


class Budget:
    """``seconds`` of this thread's CPU time (and ``WALL_FACTOR`` times as much wall-clock
    time) for evaluating ``what``, counted from the first question asked of the budget (so
    that compiling a filter, and importing what it needs, is not charged)."""

    __slots__ = ("_cpu_end", "_wall_end", "seconds", "what")

    def __init__(self, what: str, seconds: float = PATTERN_SECONDS) -> None:
        self.what = what
        self.seconds = seconds
        self._cpu_end: float | None = None
        self._wall_end = 0.0

    def left(self) -> float:
        """Seconds left: the smaller of the CPU and the wall-clock bounds."""
        if self._cpu_end is None:
            self._cpu_end = time.thread_time() + self.seconds
            self._wall_end = time.monotonic() + self.seconds * WALL_FACTOR
        return min(self._cpu_end - time.thread_time(), self._wall_end - time.monotonic())

    def guard(self, test: Callable[[T], bool]) -> Callable[[T], bool]:
        """``test``, checking this budget (``TooCostly``) before each call: a filter over
        features, granules or map rows evaluated under the bound."""
        check = self.check

        def bounded(item: T) -> bool:
            check()
            return test(item)

        return bounded

    def check(self) -> None:
        """Raise ``TooCostly`` when the time is up."""
        if self.left() < 0:
            raise self.exceeded()

    def timeout(self, most: float = MATCH_SECONDS) -> float:
        """The timeout for the next regular-expression match: ``most``, or what is left if
        less; ``TooCostly`` when nothing is left."""
        left = self.left()
        if left <= 0:
            raise self.exceeded()
        return min(most, left)

    def spend(self, cpu: float, wall: float) -> None:
        """Note time spent on patterns (a plain budget counts it already)."""

    def exceeded(self) -> TooCostly:
        return TooCostly(
            f"Evaluating the {self.what} took longer than the emulator allows "
            f"({self.seconds:g} s for one request); use a simpler pattern"
        )


class SpentBudget(Budget):
    """A budget that counts only the time ``spend`` notes: for pattern work interleaved with
    other work (reading files between collector matches), which it must not be charged."""

    __slots__ = ("_cpu", "_wall")

    def __init__(self, what: str, seconds: float = PATTERN_SECONDS) -> None:
        super().__init__(what, seconds)
        self._cpu = self._wall = 0.0

    def left(self) -> float:
        return min(self.seconds - self._cpu, self.seconds * WALL_FACTOR - self._wall)

    def spend(self, cpu: float, wall: float) -> None:
        self._cpu += cpu
        self._wall += wall


MAX_REGEX_WEIGHT = 100_000
"""the most a regular expression may weigh (``regex_weight``): compiling costs time in
proportion to it (``(a{1000}){1000}`` takes a third of a second, one more level minutes),
and a compilation cannot be interrupted"""


def regex_weight(pattern: str) -> int:
    """An upper bound of the size a regular expression expands to when compiled: each atom
    counts one, times the counts of the ``{n}``/``{n,m}`` repeats around it (``*``, ``+``
    and ``?`` do not expand)."""
    frames: list[int] = [0]  # the weight of each open group so far
    last = 0  # the weight of the atom just read, which a repeat multiplies
    i, n = 0, len(pattern)
    while i < n:
        c = pattern[i]
        if c == "\\":
            i += 2
            last = 1
        elif c == "[":
            i = _class_end(pattern, i)
            last = 1
        elif c == "(":
            frames.append(0)
            i += 1
            last = 0
            continue
        elif c == ")" and len(frames) > 1:
            last = frames.pop()
            i += 1
        elif c == "{":
            count, i = _repeat(pattern, i)
            if count is not None:
                frames[-1] += last * (count - 1)
                last *= count
                continue
            last = 1
        else:
            i += 1
            last = 1 if c not in "|*+?" else last if c != "|" else 0
            if c in "*+?|":
                continue
        frames[-1] += last
    return sum(frames)


def _class_end(pattern: str, start: int) -> int:
    """The index after the character class opening at ``start``."""
    i = start + 1
    if i < len(pattern) and pattern[i] == "^":
        i += 1
    if i < len(pattern) and pattern[i] == "]":
        i += 1
    while i < len(pattern) and pattern[i] != "]":
        i += 2 if pattern[i] == "\\" else 1
    return i + 1


def _repeat(pattern: str, start: int) -> tuple[int | None, int]:
    """A ``{n}``, ``{n,}`` or ``{n,m}`` at ``start``: (its largest count, the index after
    it), or (None, start + 1) for a plain brace."""
    end = pattern.find("}", start)
    if end < 0:
        return None, start + 1
    low, _, high = pattern[start + 1 : end].partition(",")
    if not (low.strip() or high.strip()) or not all(
        part.strip().isdigit() or not part.strip() for part in (low, high)
    ):
        return None, start + 1
    numbers = [int(p) for p in (low, high) if p.strip()]
    return max(max(numbers), 1), end + 1
