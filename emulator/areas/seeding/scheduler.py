"""The simulated seed scheduler. (The seeding issue fills in the task state machine.)

It is driven only by the clock (``run_until``) and ``drain``; reading tasks never moves them.
"""

from __future__ import annotations

from collections.abc import Callable

from ...state import State


class SeedScheduler:
    def __init__(self, state: Callable[[], State]) -> None:
        self._state = state
        self.now = 0.0

    def run_until(self, now: float) -> None:
        """Do all the work simulated time up to ``now`` allows."""
        self.now = max(self.now, now)

    def drain(self) -> None:
        """Run every pending and running task to the end."""

    def reset(self) -> None:
        self.now = 0.0
