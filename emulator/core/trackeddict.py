"""``TrackedDict``: a store's big table, whose changes during a write are logged by key.

A write that adds one layer to ten thousand logs one entry (the key and what it held), so
undoing it costs one entry too (``core/tracking.py`` holds the log). A deletion is logged
the same way; putting a deleted key back must also put it back in its place (iteration
order is part of the state: listings and dumps follow it), which a dict cannot do in
place. So a map that a write deletes from keeps its key order on the side, cheaply:
the keys in order at one moment (``list(d)``, a C-speed copy made at the first deletion a
write makes in the map, taken again when the keys inserted since outnumber it by
``REBASE``) and the keys inserted since, in order. Only an undo that puts a
deleted key back rebuilds the map in that order; a write that succeeds pays one
``append`` per new key.

The values are records and immutable values, never plain containers: a container handed
out by a lookup would escape the log (``TypeError``, a programming error).
"""

from __future__ import annotations

from typing import Any, TypeVar

from .tracking import ACTIVE, CONTAINER, TUPLE, kind_of

K = TypeVar("K")
V = TypeVar("V")

REBASE = 4096
"""keys inserted since the order was taken beyond which it is taken again (not by a write
that deleted from the map: its undo needs the order as it was)"""


def _check(value: object) -> None:
    kind = kind_of(type(value))
    if kind == CONTAINER or (kind == TUPLE and _holds_containers(value)):
        raise TypeError(f"a tracked map holds records and immutable values, not {value!r:.80}")


def _holds_containers(value: Any) -> bool:
    stack = [value]
    while stack:
        kind = kind_of(type(item := stack.pop()))
        if kind == CONTAINER:
            return True
        if kind == TUPLE:
            stack.extend(item)
    return False


class TrackedDict(dict[K, V]):
    """A ``dict`` whose changes during a write are logged by key (see the module docstring).

    Pickled (and copied) as its class and a plain copy of its items: unpickling costs one
    call, not one per item, and the key order on the side is not kept (taken again when
    needed)."""

    __slots__ = ("_order", "_added")
    __tracked_map__ = True

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        dict.__init__(self, *args, **kwargs)
        self._order: list[K] | None = None
        """the keys in order when taken (None: not taken since made or unpickled)"""
        self._added: list[K] = []
        """keys inserted since, in order (a key inserted twice is where it was last)"""

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (), dict(self))

    def __setstate__(self, state: dict[K, V]) -> None:
        dict.update(self, state)

    def copy(self) -> TrackedDict[K, V]:
        out: TrackedDict[K, V] = type(self)()
        dict.update(out, self)
        return out

    # -- changes ----------------------------------------------------------------------

    def __setitem__(self, key: K, value: V) -> None:
        _check(value)
        changes = ACTIVE.get()
        if changes is not None and changes.open:
            changes.set_key(self, key)
        order = self._order
        if order is None or key in self:
            dict.__setitem__(self, key, value)
            return
        added = self._added
        added.append(key)
        dict.__setitem__(self, key, value)
        if len(added) > REBASE + len(order) and (
            changes is None or not changes.open or id(self) not in changes.marks
        ):  # not while this write may need the order to put a deleted key back
            self._order, self._added = list(self), []

    def _deleting(self, key: K) -> None:
        changes = ACTIVE.get()
        if changes is not None and changes.open:
            if self._order is None:
                self._order, self._added = list(self), []
            changes.delete_key(self, key)

    def __delitem__(self, key: K) -> None:
        if key in self:
            self._deleting(key)
        dict.__delitem__(self, key)

    def pop(self, key: K, *default: Any) -> Any:
        if key in self:
            self._deleting(key)
        return dict.pop(self, key, *default)

    def popitem(self) -> tuple[K, V]:
        if self:
            self._deleting(next(reversed(self)))
        return dict.popitem(self)

    def clear(self) -> None:
        for key in list(self):
            self._deleting(key)
        dict.clear(self)

    def setdefault(self, key: K, default: V = None) -> V:  # type: ignore[assignment]
        if key not in self:
            self[key] = default
        return dict.__getitem__(self, key)

    def update(self, *args: Any, **kwargs: Any) -> None:
        for key, value in dict(*args, **kwargs).items():
            self[key] = value

    def __ior__(self, other: Any) -> TrackedDict[K, V]:  # type: ignore[override,misc]
        self.update(other)
        return self

    # -- the key order, for the undo --------------------------------------------------

    def order_mark(self) -> int:
        """Where the keys inserted from now on begin (``reorder`` forgets them)."""
        return len(self._added)

    def reorder(self, mark: int) -> None:
        """Put the keys back in the order they had when ``mark`` was taken (the undo has
        put every key back; those it re-inserted came last)."""
        order = self._order
        assert order is not None, "a deletion during a write takes the order first"
        del self._added[mark:]
        latest = dict.fromkeys(reversed(self._added))  # by last insertion, latest first
        keys = [k for k in order if k not in latest and k in self]
        keys.extend(k for k in reversed(latest) if k in self)
        items = [(k, dict.__getitem__(self, k)) for k in keys]
        dict.clear(self)
        dict.update(self, items)
        self._order, self._added = keys, []
