"""Simulated time: seconds since the emulator started, plus a fixed calendar origin.

``ManualClock`` moves only when told; ``RealtimeClock`` follows the wall clock and can also
be pushed forward; ``StepClock`` moves by a fixed step as each request arrives (polling
loops finish without waiting, and the same requests give the same answers). Listeners (the
seed scheduler) are called after every advance so that the work that time allows gets done;
reading the clock never changes anything.

Simulated time ends at ``LAST_INSTANT``: the calendar the emulator writes dates with ends
with the year 9999, so an advance that would pass it is refused (``ClockLimit``, a
``ValueError``) and changes nothing, while a step clock's tick stops there.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Protocol

DEFAULT_ORIGIN = datetime(2026, 1, 1, tzinfo=UTC)
LAST_INSTANT = datetime(9999, 1, 1, tzinfo=UTC)
"""the latest simulated instant: Python's calendar ends with the year 9999, and the dates
written from the clock (journal times, capabilities, uploads, seed estimates) leave a
year's room for what is added to them"""

Listener = Callable[[float], None]


class ClockLimit(ValueError):
    """An advance that would take simulated time past ``LAST_INSTANT``."""


class FrozenClockWarning(UserWarning):
    """A client is waiting for simulated time that a manual clock will never give it."""


class Clock(Protocol):
    origin: datetime

    def now(self) -> float: ...

    def advance(self, seconds: float) -> float: ...

    def room(self) -> float: ...

    def subscribe(self, listener: Listener) -> None: ...

    def reset(self) -> None: ...


class _ListenerMixin:
    def __init__(self) -> None:
        self._listeners: list[Listener] = []

    def subscribe(self, listener: Listener) -> None:
        self._listeners.append(listener)

    def _notify(self, now: float) -> None:
        for listener in self._listeners:
            listener(now)

    def room(self) -> float:
        """Seconds simulated time may still advance before ``LAST_INSTANT``."""
        left = (LAST_INSTANT - self.origin).total_seconds()  # type: ignore[attr-defined]
        return float(left - self.now())  # type: ignore[attr-defined]

    def _check(self, seconds: float) -> None:
        """Refuse an advance that is negative or would pass ``LAST_INSTANT``."""
        if seconds < 0:
            raise ValueError("seconds must be non-negative")
        room = self.room()
        if seconds > room:
            raise ClockLimit(
                f"advancing simulated time by {seconds:g} s would take it past"
                f" {LAST_INSTANT.date().isoformat()} (the calendar ends with the year 9999);"
                f" at most {max(room, 0.0):.0f} s are left"
            )

    def datetime(self) -> datetime:
        """The current simulated instant on the calendar."""
        return self.origin + timedelta(seconds=self.now())  # type: ignore[attr-defined,no-any-return]

    def millis(self) -> int:
        """The current simulated instant as epoch milliseconds."""
        return int(self.datetime().timestamp() * 1000)


class ManualClock(_ListenerMixin):
    """Frozen until ``advance``; the pytest fixtures' default."""

    kind = "manual"

    def __init__(self, origin: datetime = DEFAULT_ORIGIN) -> None:
        super().__init__()
        self.origin = origin
        self._now = 0.0

    def now(self) -> float:
        return self._now

    def advance(self, seconds: float) -> float:
        self._check(seconds)
        self._now += seconds
        self._notify(self._now)
        return self._now

    def reset(self) -> None:
        self._now = 0.0


class RealtimeClock(_ListenerMixin):
    """Follows the wall clock (monotonic), plus whatever ``advance`` added; `serve`'s default."""

    kind = "realtime"

    def __init__(
        self, origin: datetime = DEFAULT_ORIGIN, monotonic: Callable[[], float] = time.monotonic
    ) -> None:
        super().__init__()
        self.origin = origin
        self._monotonic = monotonic
        self._start = monotonic()
        self._offset = 0.0

    def now(self) -> float:
        return self._monotonic() - self._start + self._offset

    def advance(self, seconds: float) -> float:
        self._check(seconds)
        self._offset += seconds
        now = self.now()
        self._notify(now)
        return now

    def sync(self) -> float:
        """Let listeners catch up with the wall clock."""
        now = self.now()
        self._notify(now)
        return now

    def reset(self) -> None:
        self._start = self._monotonic()
        self._offset = 0.0


class StepClock(ManualClock):
    """A manual clock that also moves by ``step`` seconds as each request arrives, before the
    request is answered (``tick``): deterministic, and polling loops still end."""

    kind = "step"

    def __init__(self, origin: datetime = DEFAULT_ORIGIN, step: float = 1.0) -> None:
        if not math.isfinite(step) or step <= 0:
            raise ValueError(f"clock step must be a positive number of seconds, got {step!r}")
        super().__init__(origin)
        self.step = step

    def tick(self) -> float:
        """One request's worth of time (less when ``LAST_INSTANT`` is nearer: time stops
        there)."""
        return self.advance(min(self.step, max(self.room(), 0.0)))


CLOCKS = ("manual", "realtime", "step")
DEFAULT_STEP = 1.0


def make_clock(
    kind: str, origin: datetime = DEFAULT_ORIGIN, step: float = DEFAULT_STEP
) -> ManualClock | RealtimeClock:
    if kind == "manual":
        return ManualClock(origin)
    if kind == "realtime":
        return RealtimeClock(origin)
    if kind == "step":
        return StepClock(origin, step)
    raise ValueError(f"unknown clock {kind!r}; expected one of {', '.join(CLOCKS)}")
