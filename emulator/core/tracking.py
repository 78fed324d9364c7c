"""What a write changes, recorded as it happens: the undo log behind ``core/rollback.py``.

While a write is open (its ``Changes`` active in the request's context), each object of the
state is saved, as a shallow copy, just before the write could first change it; undoing
puts each saved object's contents back in place, so every reference to it stays good. The
cost is what the write reaches, never the size of the stores; nothing is pickled.

- **Records and tracked classes** (``@record``, ``@tracked``): setting or deleting an
  attribute saves the object's ``__dict__`` first (a permanent ``__setattr__``: outside a
  write it only checks the context). While any write is open their classes also get a
  ``__getattribute__`` (``watch``; ``settle`` takes it away once no write is open) that
  saves a plain container an attribute hands out, with the containers inside it (walked
  iteratively through containers and tuples, stopping at records and tracked maps, which
  look after themselves), before the caller holds it.
- **Tracked maps** (``core/trackeddict.py``): the stores' big tables log each change by
  key, so a write that adds one layer to ten thousand logs one entry.
- **What a write makes** (a record built, an object whose first attribute is set, during
  the write) is never saved: it may outlive the write in a cache and must stay whole.

A state holds nothing else: immutable values, plain containers, tuples, tracked maps and
instances of tracked classes (``untracked`` lists anything else; the tests keep it empty).
An undo writes a container back only where it differs from its copy (one the write only
read is left alone: another thread may be iterating it).
"""

from __future__ import annotations

import datetime
import enum
import operator
import re
import threading
import types
from collections import deque
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import PurePath
from typing import Any, TypeVar, cast

T = TypeVar("T")

CONTAINERS: frozenset[type] = frozenset({dict, list, set, deque, bytearray})
"""the plain mutable containers a state may hold (exact types)"""

OTHER, CONTAINER, TUPLE = 0, 1, 2
"""what a value is to the log: left alone, saved, walked through"""
_KINDS: dict[type, int] = {t: CONTAINER for t in CONTAINERS}
_KINDS[tuple] = TUPLE

ABSENT = object()
"""the old value of a key a tracked map did not hold"""

_get = object.__getattribute__
_set = object.__setattr__
_delete = object.__delattr__


def kind_of(cls: type) -> int:
    kind = _KINDS.get(cls)
    if kind is None:
        kind = _KINDS[cls] = TUPLE if issubclass(cls, tuple) else OTHER
    return kind


class Changes:
    """The undo log of one write: the plain containers and objects' ``__dict__``s it
    reached (each with its contents when first reached), and the changes to tracked maps,
    in order."""

    __slots__ = ("open", "saved", "walked", "ops", "marks", "fresh")

    def __init__(self) -> None:
        self.open = True
        self.saved: dict[int, tuple[Any, Any]] = {}
        """id → (container, its contents when the write first reached it)"""
        self.walked: dict[int, tuple[Any, ...]] = {}
        """the tuples walked through (kept alive, so that an id is never reused)"""
        self.ops: list[tuple[Any, Any, Any, bool]] = []
        """tracked-map changes in order: (map, key, old value or ``ABSENT``, deleted)"""
        self.marks: dict[int, tuple[Any, int]] = {}
        """the tracked maps this write deleted from, by id: (map, its order mark then)"""
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
            kind = kind_of(type(obj))
            if kind == TUPLE:
                if key not in walked:
                    walked[key] = cast(tuple[Any, ...], obj)
                    stack.extend(cast(tuple[Any, ...], obj))
                continue
            if kind != CONTAINER or key in saved:
                continue
            copy: Any
            items: Iterable[Any]
            if isinstance(obj, dict):
                copy = obj.copy()
                items = copy.values()
            elif isinstance(obj, set):
                copy, items = set(obj), ()  # hashable: nothing mutable inside
            elif isinstance(obj, bytearray):
                copy, items = bytes(obj), ()
            else:  # list, deque
                copy = items = list(cast(list[Any], obj))
            saved[key] = (obj, copy)
            for item in items:
                if kind_of(type(item)) != OTHER:
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

    def set_key(self, table: Any, key: Any) -> None:
        """A tracked map's ``key`` is about to be set."""
        self.ops.append((table, key, dict.get(table, key, ABSENT), False))

    def delete_key(self, table: Any, key: Any) -> None:
        """A tracked map's ``key`` (present) is about to be deleted."""
        if id(table) not in self.marks:
            self.marks[id(table)] = (table, table.order_mark())
        self.ops.append((table, key, dict.__getitem__(table, key), True))

    def undo(self) -> None:
        """Put back everything saved; the log is empty afterwards."""
        for table, key, old, deleted in reversed(self.ops):
            if deleted or old is not ABSENT:
                dict.__setitem__(table, key, old)
            else:
                dict.pop(table, key, None)
        for table, mark in self.marks.values():
            table.reorder(mark)  # a key put back goes back to its place
        for obj, copy in self.saved.values():
            _restore(obj, copy)
        self.forget()

    def forget(self) -> None:
        self.saved.clear()
        self.walked.clear()
        self.ops.clear()
        self.marks.clear()
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
"""writes open, in every thread"""
_INSTALLED = False
"""whether the tracked classes have the watching ``__getattribute__``"""
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
        kind = kind_of(type(value))
    if kind != OTHER:
        changes = ACTIVE.get()
        if changes is not None and changes.open and id(self) not in changes.fresh:
            changes.keep(value)  # what a fresh object holds is fresh, or was saved on its way
    return value


def _install(cls: type) -> None:
    cls.__getattribute__ = _watched  # type: ignore[assignment,method-assign]


def register(cls: type[T], *, mutable: bool = True) -> type[T]:
    """Track ``cls``'s instances (``@record`` calls this for every record class).
    ``mutable``: its attributes can be set (a frozen record's cannot)."""
    own = ("__getattribute__", "__setattr__", "__delattr__") if mutable else ("__getattribute__",)
    for name in own:
        if name in cls.__dict__:
            raise TypeError(f"{cls.__qualname__}: a tracked class cannot define {name}")
    if "__dict__" not in dir(cls) and cls.__dict__.get("__slots__") is not None:
        raise TypeError(f"{cls.__qualname__}: a tracked class keeps its attributes in __dict__")
    if mutable:
        cls.__setattr__ = _set_attribute  # type: ignore[method-assign]
        cls.__delattr__ = _delete_attribute  # type: ignore[method-assign]
    with _LOCK:
        _CLASSES.append(cls)
        if _INSTALLED:
            _install(cls)
    return cls


def tracked(cls: type[T]) -> type[T]:
    """Class decorator: a class (not a record) whose instances a state holds, such as a
    store. Its subclasses are tracked too."""
    return register(cls)


def is_tracked(cls: type) -> bool:
    """Whether instances of ``cls`` look after themselves (tracked classes, their
    subclasses and tracked maps)."""
    return getattr(cls, "__tracked_map__", False) or any(c in _CLASSES for c in cls.__mro__)


def watch() -> None:
    """A write begins: every tracked class gets the watching ``__getattribute__`` (unless it
    has it still: it stays after a write, so that writes in a row pay for it once)."""
    global _WATCHERS, _INSTALLED
    with _LOCK:
        _WATCHERS += 1
        if not _INSTALLED:
            _INSTALLED = True
            for cls in _CLASSES:
                _install(cls)


def unwatch() -> None:
    """A write ends (``settle`` takes the watching ``__getattribute__`` away)."""
    global _WATCHERS
    with _LOCK:
        _WATCHERS -= 1


def writing() -> bool:
    """Whether a write is open in any thread."""
    return _WATCHERS > 0


def settle() -> None:
    """Take the watching ``__getattribute__`` away when no write is open: reads at full
    speed again (called as a read request begins; outside writes the hook only costs)."""
    global _INSTALLED
    if not _INSTALLED:
        return
    with _LOCK:
        if _INSTALLED and not _WATCHERS:
            _INSTALLED = False
            for cls in _CLASSES:
                if "__getattribute__" in cls.__dict__:
                    del cls.__getattribute__


# -- what the log cannot see ------------------------------------------------------------------

IMMUTABLE: tuple[type, ...] = (
    str, bytes, int, float, bool, type(None), complex, range, re.Pattern, enum.Enum,
    datetime.date, datetime.time, datetime.timedelta, datetime.tzinfo, PurePath, type,
    types.ModuleType, types.FunctionType, types.BuiltinFunctionType, types.CodeType,
    frozenset,
)  # fmt: skip
"""values that never change (or are pickled by reference); ``untracked`` adds ``Decimal``
and ``Fraction`` (imported there: not at start-up)"""


def untracked(root: object, immutable: tuple[type, ...] = ()) -> list[object]:
    """The objects reachable from ``root`` that the undo log cannot see: neither immutable
    (``IMMUTABLE`` or ``immutable``), a plain container, a tuple, a tracked map, nor an
    instance of a tracked class; and plain containers held by a tracked map (they would
    escape it). Empty for a state the log covers whole (the tests check it)."""
    import decimal
    import fractions

    atoms = (*IMMUTABLE, decimal.Decimal, fractions.Fraction, *immutable)
    out: list[object] = []
    seen: set[int] = set()
    stack: list[object] = [root]
    while stack:
        obj = stack.pop()
        if isinstance(obj, atoms) or id(obj) in seen:
            continue
        seen.add(id(obj))
        cls = type(obj)
        if isinstance(obj, dict) and cls is dict:
            stack.extend(obj.values())
        elif cls in CONTAINERS or isinstance(obj, tuple):
            stack.extend(cast(list[object], obj))
        elif isinstance(obj, dict) and getattr(cls, "__tracked_map__", False):
            values = list(obj.values())
            out.extend(v for v in values if type(v) in CONTAINERS)
            stack.extend(values)
        elif isinstance(obj, types.MethodType):
            stack.append(obj.__self__)
        elif is_tracked(cls) and hasattr(obj, "__dict__"):
            stack.extend(vars(obj).values())
        else:
            out.append(obj)
    return out
