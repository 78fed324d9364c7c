"""What a write changes, recorded as it happens: the undo log behind ``core/rollback.py``.

While a write is open (``Changes`` active in the request's context), every mutable object
the write can reach is saved, as a shallow copy, before the write can change it; undoing
puts each saved object's contents back in place, so every reference to it stays good. The
cost is what the write reaches, never the size of the stores. Three ways in, together
complete for the objects a state holds (``tests/core/test_tracking.py`` checks that a
state holds nothing else):

- **Records and tracked classes** (``@record``, ``@tracked``): an attribute set or delete
  saves the object's ``__dict__`` first (a permanent ``__setattr__``; a check of the
  context and nothing more outside a write). While any write is open, their classes also
  get a ``__getattribute__`` that saves every plain container an attribute hands out
  (``watch``/``unwatch``, counted across threads), together with the containers inside it
  (walked iteratively, through tuples, stopping at records and tracked maps, which look
  after themselves), before the caller holds it. Code can only change a plain container
  of a state it got through an attribute, or through a container handed out that way.
- **Tracked maps** (``TrackedDict``): the stores' big tables (layers, resources, tile
  layers, files…) log each change by key, so a write that adds one layer to ten thousand
  saves one entry. The first deletion a write makes in a map saves the whole map's order
  instead (a C-speed copy: a deleted key put back must go back to its place). Their values
  are records or immutable values, never plain containers (refused: they would escape).
- **Everything else** a state holds is immutable (strings, numbers, tuples of them,
  frozen records' own fields).

Objects a write never reaches cost nothing, and nothing is pickled. A container the write
only read is left alone by the undo (restored only when it differs from its copy).
"""

from __future__ import annotations

import operator
import threading
from collections import deque
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, TypeVar, cast

T = TypeVar("T")
K = TypeVar("K")
V = TypeVar("V")

CONTAINERS: frozenset[type] = frozenset({dict, list, set, deque, bytearray})
"""the plain mutable containers a state may hold (exact types)"""

_OTHER, _CONTAINER, _TUPLE = 0, 1, 2
_KINDS: dict[type, int] = {t: _CONTAINER for t in CONTAINERS}
_KINDS[tuple] = _TUPLE

_ABSENT = object()
_WHOLE = object()

_get = object.__getattribute__
_set = object.__setattr__
_delete = object.__delattr__


def _kind(cls: type) -> int:
    kind = _KINDS.get(cls)
    if kind is None:
        kind = _KINDS[cls] = _TUPLE if issubclass(cls, tuple) else _OTHER
    return kind


class Changes:
    """The undo log of one write: the plain containers and objects' ``__dict__``s it
    reached (each with its contents when first reached), and the changes to tracked maps,
    in order."""

    __slots__ = ("open", "saved", "walked", "ops", "whole", "fresh")

    def __init__(self) -> None:
        self.open = True
        self.saved: dict[int, tuple[Any, Any]] = {}
        """id → (container, its contents when the write first reached it)"""
        self.walked: dict[int, tuple[Any, ...]] = {}
        """the tuples walked through (kept alive, so that an id is never reused)"""
        self.ops: list[tuple[dict[Any, Any], Any, Any]] = []
        """tracked-map changes: (map, key, old value or ``_ABSENT``), or (map, ``_WHOLE``,
        a copy of the map)"""
        self.whole: set[int] = set()
        """the tracked maps saved whole by this write (later changes need no entry)"""
        self.fresh: dict[int, object] = {}
        """the records and tracked objects made by this write, by id: never saved (one may
        outlive the write in a cache; undoing it would leave it half made)"""

    def keep(self, root: object) -> None:
        """Save ``root`` (a plain container or tuple) and every container inside it that is
        not saved yet. Iterative: nesting depth costs no stack."""
        saved, walked = self.saved, self.walked
        stack = [root]
        while stack:
            obj = stack.pop()
            key = id(obj)
            kind = _kind(type(obj))
            if kind == _TUPLE:
                if key not in walked:
                    walked[key] = cast(tuple[Any, ...], obj)
                    stack.extend(cast(tuple[Any, ...], obj))
                continue
            if kind != _CONTAINER or key in saved:
                continue
            copy: Any
            if type(obj) is dict:
                copy = obj.copy()  # type: ignore[attr-defined]
                items: Iterable[Any] = copy.values()
            elif type(obj) is set:
                copy, items = set(cast(set[Any], obj)), ()  # hashable: nothing mutable inside
            elif type(obj) is bytearray:
                copy, items = bytes(obj), ()
            else:  # list, deque
                copy = items = list(cast(list[Any], obj))
            saved[key] = (obj, copy)
            for item in items:
                if _kind(type(item)) != _OTHER:
                    stack.append(item)

    def keep_object(self, obj: object) -> None:
        """Save a record's (or tracked object's) attributes before one is set or deleted;
        an object with no attributes yet is being made by this write."""
        key = id(obj)
        if key in self.fresh:
            return
        attributes = _get(obj, "__dict__")
        if attributes:
            self.keep(attributes)
        else:
            self.fresh[key] = obj

    def set_key(self, table: dict[Any, Any], key: Any) -> None:
        if id(table) not in self.whole:
            self.ops.append((table, key, dict.get(table, key, _ABSENT)))

    def save_whole(self, table: dict[Any, Any]) -> None:
        if id(table) not in self.whole:
            self.whole.add(id(table))
            self.ops.append((table, _WHOLE, dict.copy(table)))

    def undo(self) -> None:
        """Put back everything saved; the log is empty afterwards."""
        for table, key, old in reversed(self.ops):
            if key is _WHOLE:
                dict.clear(table)
                dict.update(table, old)
            elif old is _ABSENT:
                dict.pop(table, key, None)
            else:
                dict.__setitem__(table, key, old)
        for obj, copy in self.saved.values():
            _restore(obj, copy)
        self.forget()

    def forget(self) -> None:
        self.saved.clear()
        self.walked.clear()
        self.ops.clear()
        self.whole.clear()
        self.fresh.clear()


def _restore(obj: Any, copy: Any) -> None:
    """Put ``copy`` back into ``obj`` in place, only when they differ (a container that was
    only read is left alone: another thread may be iterating it)."""
    kind = type(obj)
    if kind is dict:
        if len(obj) != len(copy) or list(obj) != list(copy) or not _same(obj.values(), copy):
            obj.clear()
            obj.update(copy)
    elif kind is set:
        if obj != copy:  # by difference: the elements kept keep their places
            added, removed = obj - copy, copy - obj
            obj -= added
            obj |= removed
    elif kind is bytearray:
        if obj != copy:
            obj[:] = copy
    elif len(obj) != len(copy) or not _same(obj, copy):  # list, deque
        if kind is list:
            obj[:] = copy
        else:
            obj.clear()
            obj.extend(copy)


def _same(a: Iterable[Any], b: Iterable[Any]) -> bool:
    return all(map(operator.is_, a, b))


ACTIVE: ContextVar[Changes | None] = ContextVar("geoserver_emulator_changes", default=None)
"""the undo log of the write running in this context, if any"""


def active() -> Changes | None:
    """The open undo log of this context's write, or None."""
    changes = ACTIVE.get()
    return changes if changes is not None and changes.open else None


# -- records and tracked classes ----------------------------------------------------------

_CLASSES: list[type] = []
_WATCHERS = 0
_LOCK = threading.Lock()


@contextmanager
def unrecorded() -> Iterator[None]:
    """Nothing done inside is recorded (objects unpickled into a state during a write:
    they are the state as it was, saved when the write reaches them)."""
    token = ACTIVE.set(None)
    try:
        yield
    finally:
        ACTIVE.reset(token)


def made(obj: object) -> None:
    """Note ``obj`` as made by the running write, if any (``@record``'s ``__init__``)."""
    changes = ACTIVE.get()
    if changes is not None and changes.open:
        changes.fresh[id(obj)] = obj


def _set_attribute(self: Any, name: str, value: Any) -> None:
    changes = ACTIVE.get()
    if changes is not None and changes.open:
        changes.keep_object(self)
    _set(self, name, value)


def _delete_attribute(self: Any, name: str) -> None:
    changes = ACTIVE.get()
    if changes is not None and changes.open:
        changes.keep_object(self)
    _delete(self, name)


def _watched(self: Any, name: str) -> Any:
    """``__getattribute__`` while a write is open: a plain container handed out is saved
    first (with what it holds)."""
    value = _get(self, name)
    if name == "__dict__":
        changes = ACTIVE.get()
        if changes is not None and changes.open:
            changes.keep_object(self)
        return value
    kind = _KINDS.get(type(value))
    if kind is None:
        kind = _kind(type(value))
    if kind != _OTHER:
        changes = ACTIVE.get()
        if changes is not None and changes.open and id(self) not in changes.fresh:
            changes.keep(value)  # what a fresh object holds is fresh, or was saved on its way
    return value


def register(cls: type[T], *, mutable: bool = True) -> type[T]:
    """Track ``cls``'s instances (``@record`` calls this for every record class).
    ``mutable``: its attributes can be set (a frozen record's cannot)."""
    own = ("__getattribute__", "__setattr__", "__delattr__") if mutable else ("__getattribute__",)
    for name in own:
        if name in cls.__dict__:
            raise TypeError(f"{cls.__qualname__}: a tracked class cannot define {name}")
    if mutable:
        cls.__setattr__ = _set_attribute  # type: ignore[method-assign,assignment]
        cls.__delattr__ = _delete_attribute  # type: ignore[method-assign,assignment]
    with _LOCK:
        _CLASSES.append(cls)
        if _WATCHERS:
            cls.__getattribute__ = _watched  # type: ignore[method-assign,assignment]
    return cls


def tracked(cls: type[T]) -> type[T]:
    """Class decorator: a class (not a record) whose instances a state holds, such as a
    store. Its subclasses are tracked too."""
    return register(cls)


def is_tracked(cls: type) -> bool:
    """Whether instances of ``cls`` look after themselves (tracked classes and their
    subclasses, ``TrackedDict``)."""
    return cls is TrackedDict or cls.__setattr__ is _set_attribute or cls in _CLASSES


def watch() -> None:
    """Give every tracked class the watching ``__getattribute__`` (a write begins)."""
    global _WATCHERS
    with _LOCK:
        _WATCHERS += 1
        if _WATCHERS == 1:
            for cls in _CLASSES:
                cls.__getattribute__ = _watched  # type: ignore[method-assign,assignment]


def unwatch() -> None:
    """Take the watching ``__getattribute__`` away once no write is open."""
    global _WATCHERS
    with _LOCK:
        _WATCHERS -= 1
        if _WATCHERS == 0:
            for cls in _CLASSES:
                if "__getattribute__" in cls.__dict__:
                    del cls.__getattribute__


# -- tracked maps ---------------------------------------------------------------------------


def _check(value: object) -> None:
    if type(value) in CONTAINERS or (_kind(type(value)) == _TUPLE and _holds_containers(value)):
        raise TypeError(f"a tracked map holds records and immutable values, not {value!r:.80}")


def _holds_containers(value: Any) -> bool:
    stack = [value]
    while stack:
        kind = _kind(type(item := stack.pop()))
        if kind == _CONTAINER:
            return True
        if kind == _TUPLE:
            stack.extend(item)
    return False


class TrackedDict(dict[K, V]):
    """A ``dict`` whose changes during a write are logged by key (see the module docstring).

    Pickled as its class and a plain copy of its items, so that unpickling costs one call,
    not one per item."""

    __slots__ = ()

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (), dict(self))

    def __setstate__(self, state: dict[K, V]) -> None:
        dict.update(self, state)

    def __setitem__(self, key: K, value: V) -> None:
        _check(value)
        changes = ACTIVE.get()
        if changes is not None and changes.open:
            changes.set_key(self, key)
        dict.__setitem__(self, key, value)

    def __delitem__(self, key: K) -> None:
        self._whole()
        dict.__delitem__(self, key)

    def _whole(self) -> None:
        changes = ACTIVE.get()
        if changes is not None and changes.open:
            changes.save_whole(self)

    def pop(self, key: K, *default: Any) -> Any:  # type: ignore[override]
        if key in self:
            self._whole()
        return dict.pop(self, key, *default)

    def popitem(self) -> tuple[K, V]:
        self._whole()
        return dict.popitem(self)

    def clear(self) -> None:
        if self:
            self._whole()
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

    def copy(self) -> TrackedDict[K, V]:
        out: TrackedDict[K, V] = TrackedDict()
        dict.update(out, self)
        return out

