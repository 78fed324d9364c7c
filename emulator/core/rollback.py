"""``Rollback``: the undo record of one write, at the cost of what the write changes.

A write request that does not end in 2xx must leave the state exactly as it was. A
``Rollback`` opens an undo log (``core/tracking.py``) in the current context: from then on
every object of the state the write reaches is saved as it is reached (a record before an
attribute is set, a plain container before it is handed out, a tracked map's entry before
it changes), and nothing else is copied. ``commit()`` drops the log; ``undo()`` puts every
saved object back in place. Stores not yet unpickled when the write began (``State.restore``)
cost nothing: unpickled during the write, they are reached and saved like the others, and
stay loaded after an undo (equal to what they were).

Nothing outside the state's objects is touched (clock, journal, faults, the emulator).

**Extension point.** Something outside the process that a write changes along with the
state (a database transaction) joins the write with ``current()``: ``on_commit(callback)``
runs ``callback`` when the write is kept, before the in-memory changes are let go (if it
raises, the write is undone instead, ``on_undo`` callbacks included, and the error goes
on); ``on_undo(callback)`` runs when the write is undone, after the state is put back,
latest first. Neither runs for a write that is neither (none is left open).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from . import tracking

if TYPE_CHECKING:
    from contextvars import Token

    from .state import State


class Rollback(tracking.Changes):
    """The undo record of one write on ``state``: open from here until ``close()``, in the
    context (task or thread) that made it and the contexts copied from it."""

    __slots__ = ("state", "_commit_callbacks", "_undo_callbacks", "_token", "_closed")

    def __init__(self, state: State) -> None:
        super().__init__()
        self.state = state
        self._commit_callbacks: list[Callable[[], None]] = []
        self._undo_callbacks: list[Callable[[], None]] = []
        self._closed = False
        tracking.watch()
        self._token: Token[tracking.Changes | None] | None = tracking.ACTIVE.set(self)

    def on_commit(self, callback: Callable[[], None]) -> None:
        """Run ``callback`` when the write is kept (see the module docstring)."""
        self._commit_callbacks.append(callback)

    def on_undo(self, callback: Callable[[], None]) -> None:
        """Run ``callback`` when the write is undone (see the module docstring)."""
        self._undo_callbacks.append(callback)

    def commit(self) -> None:
        """Keep what the write did; later changes are no longer recorded."""
        if not self.open:
            return
        try:
            for callback in self._commit_callbacks:
                callback()
        except BaseException:
            self.undo()
            raise
        self.open = False
        self.forget()

    def undo(self) -> None:
        """Put the state back as it was when the write began; later changes are no longer
        recorded (an answer's status is out: what the app does after it is kept)."""
        if not self.open:
            return
        self.open = False
        super().undo()
        callbacks, self._undo_callbacks = self._undo_callbacks, []
        for callback in reversed(callbacks):
            callback()

    def close(self) -> None:
        """End the record (undone unless committed); call it where it was made."""
        if self._closed:
            return
        self._closed = True
        try:
            self.undo()
        finally:
            tracking.unwatch()
            if self._token is not None:
                try:
                    tracking.ACTIVE.reset(self._token)
                except ValueError:  # closed in another context: leave that one as it is
                    pass
                self._token = None


def current() -> Rollback | None:
    """The open undo record of the write running in this context, if any."""
    changes = tracking.active()
    return changes if isinstance(changes, Rollback) else None
