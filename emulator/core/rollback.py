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

Outside resources join the same outcome through ``on_outcome(commit, undo)`` (reach the
running record with ``running(state)``, from any thread): a database transaction opened by a
REST write is committed with the state, or rolled back with it. ``commit`` calls the commit
callbacks first, in order; if one raises, the write is undone instead (the state, that
callback's undo and those not yet called; earlier commits stand) and the exception goes on.
``undo`` calls the undo callbacks, each once, in reverse order; one that raises does not stop
the others.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from . import tracking

if TYPE_CHECKING:
    from contextvars import Token

    from .state import State

GUARD = "_rollback"
"""where a state keeps its running ``Rollback`` (in its ``__dict__``: ``running(state)``)"""


class Rollback(tracking.Changes):
    """The undo record of one write on ``state``: open from here until ``close()``, in the
    context (task or thread) that made it and the contexts copied from it."""

    __slots__ = ("state", "_outcomes", "_token", "_closed")

    def __init__(self, state: State) -> None:
        super().__init__()
        self.state = state
        self._outcomes: list[tuple[Callable[[], None], Callable[[], None]]] = []
        self._closed = False
        tracking.watch()
        self._token: Token[tracking.Changes | None] | None = tracking.ACTIVE.set(self)
        if state is not None:
            state.__dict__[GUARD] = self

    def on_outcome(self, commit: Callable[[], None], undo: Callable[[], None]) -> None:
        """Have ``commit`` called when the write's changes are kept, ``undo`` when they are
        undone (an outside resource's transaction; see the module docstring)."""
        self._outcomes.append((commit, undo))

    def commit(self) -> None:
        """Keep what the write did; later changes are no longer recorded."""
        if not self.open:
            return
        while self._outcomes:
            commit, undo = self._outcomes.pop(0)
            try:
                commit()
            except BaseException:
                self._outcomes.insert(0, (commit, undo))
                self.undo()
                raise
        self.open = False
        self.forget()

    def undo(self) -> None:
        """Put the state back as it was when the write began, then undo the outside
        resources; later changes are no longer recorded (an answer's status is out: what
        the app does after it is kept)."""
        if not self.open:
            return
        self.open = False
        super().undo()
        outcomes, self._outcomes = self._outcomes, []
        for _, undo in reversed(outcomes):
            try:
                undo()
            except Exception:  # an outside resource that cannot roll back: the rest still do
                pass

    def close(self) -> None:
        """End the record (undone unless committed); call it where it was made."""
        if self._closed:
            return
        self._closed = True
        try:
            self.undo()
        finally:
            if self.state is not None and self.state.__dict__.get(GUARD) is self:
                del self.state.__dict__[GUARD]
            tracking.unwatch()
            if self._token is not None:
                try:
                    tracking.ACTIVE.reset(self._token)
                except ValueError:  # closed in another context: leave that one as it is
                    pass
                self._token = None


def running(state: State) -> Rollback | None:
    """The undo record of the write under way on ``state``, None outside one."""
    found = state.__dict__.get(GUARD)
    return found if isinstance(found, Rollback) and found.open else None


def current() -> Rollback | None:
    """The open undo record of the write running in this context, if any."""
    changes = tracking.active()
    return changes if isinstance(changes, Rollback) else None
