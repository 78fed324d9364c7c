"""``Rollback``: the state as it was before a write request, kept at the least cost.

A write request that does not end in 2xx must leave the state exactly as it was. Taking a
whole snapshot before every write would pickle every store; instead the loaded stores are
moved out of the state while the request runs, and a store's group (the stores that share
objects, pickled together as in ``State.snapshot``) is pickled when the request first uses
one of them. A store the request never uses costs nothing; a store still waiting to be
unpickled (``State.restore``) costs nothing either: its pickle is its old value.

``commit()`` keeps the changes; ``undo()`` puts back every store the request used as the
pickle taken when it was first used (unpickled on its next use, as after a reset), and lets
stores unpickled during the request wait again. Nothing
outside the state (clock, journal, faults) is touched.

Outside resources join the same outcome through ``on_outcome(commit, undo)`` (reach the
running record with ``running(state)``): a database transaction opened by a REST write is
committed with the state, or rolled back with it. ``commit`` calls the commit callbacks
first, in order; if one raises, the request is undone instead (the state, that callback's
undo and those not yet called; earlier commits stand) and the exception goes on. ``undo``
calls the undo callbacks, each once, in reverse order; one that raises does not stop the
others.
"""

from __future__ import annotations

import pickle
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from .gcpause import paused

if TYPE_CHECKING:
    from .state import State

GUARD = "_rollback"
"""where a state keeps its running ``Rollback`` (in its ``__dict__``)"""
MISSING = object()


class Rollback:
    """The undo record of one request on ``state``; at most one runs at a time."""

    def __init__(self, state: State, groups: list[tuple[str, ...]], pending: str) -> None:
        self.state = state
        d = state.__dict__
        if GUARD in d:
            raise RuntimeError("a rollback is already running on this state")
        self.groups = {name: group for group in groups for name in group}
        self._pending_key = pending
        self.waiting = {
            name: blob for name, (blob, _) in (d.get(pending) or {}).items() if name not in d
        }
        """the stores not yet unpickled: their pickle is their value before the request"""
        self.held: dict[str, Any] = {}
        for name in self.groups:
            if name in d:
                self.held[name] = d.pop(name)
        self.saved: list[tuple[list[str], bytes]] = []
        self._lock = threading.Lock()  # a read from another thread may touch a store too
        self._outcomes: list[tuple[Callable[[], None], Callable[[], None]]] = []
        d[GUARD] = self

    def on_outcome(self, commit: Callable[[], None], undo: Callable[[], None]) -> None:
        """Have ``commit`` called when the request's changes are kept, ``undo`` when they
        are undone (an outside resource's transaction; see the module docstring)."""
        self._outcomes.append((commit, undo))

    def touch(self, name: str) -> Any:
        """Called by ``State.__getattr__`` while ``name`` is missing: for a store moved out,
        pickle its group as it is now (before the request changes it), put the group back
        and return the store; ``MISSING`` for a store this rollback does not hold."""
        d = self.state.__dict__
        with self._lock:
            if name in self.held:
                group = [n for n in self.groups[name] if n in self.held]
                values = {n: self.held.pop(n) for n in group}
                with paused():
                    self.saved.append((group, pickle.dumps(values, pickle.HIGHEST_PROTOCOL)))
                for key, value in values.items():
                    d.setdefault(key, value)
            # put back by another thread's touch a moment ago, or never held
            return d.get(name, MISSING)

    def commit(self) -> None:
        """Keep what the request did (after a ``touch`` under way on another thread has
        put its group back: until then its stores are in neither place)."""
        while self._outcomes:
            commit, undo = self._outcomes.pop(0)
            try:
                commit()
            except BaseException:
                self._outcomes.insert(0, (commit, undo))
                self.undo()
                raise
        d = self.state.__dict__
        with self._lock:
            for name, value in self.held.items():
                d.setdefault(name, value)
            self.held.clear()
            self.saved.clear()
            d.pop(GUARD, None)

    def undo(self) -> None:
        """Put the state back as it was when the request began. A store the request used
        waits, as its pickle, for its next use (a refusal pays no unpickling, and the next
        write saves nothing for it); so does a store unpickled during the request. A
        ``touch`` under way on another thread is waited for, so that its pickle is put back."""
        outcomes, self._outcomes = self._outcomes, []
        for _, undo in reversed(outcomes):
            try:
                undo()
            except Exception:  # an outside resource that cannot roll back: the rest still do
                pass
        d = self.state.__dict__
        with self._lock:
            d.pop(GUARD, None)
            d.update(self.held)
            pending = d.setdefault(self._pending_key, {})
            for group, blob in self.saved:
                box: dict[str, Any] = {}
                for name in group:
                    d.pop(name, None)
                    pending[name] = (blob, box)
            boxes: dict[int, dict[str, Any]] = {}
            for name, blob in self.waiting.items():
                d.pop(name, None)
                pending[name] = (blob, boxes.setdefault(id(blob), {}))
            self.held.clear()
            self.saved.clear()


def running(state: State) -> Rollback | None:
    """The undo record of the write under way on ``state``, None outside one."""
    found = state.__dict__.get(GUARD)
    return found if isinstance(found, Rollback) else None
