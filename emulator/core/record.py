"""``@record``: a data class whose methods are shared, not compiled per class.

``@dataclass`` compiles an ``__init__``, ``__repr__`` and ``__eq__`` (and more when frozen)
for every class as its module is imported, about half a millisecond apiece on a slow
machine; the models of the eleven areas are some ninety such classes, most of them on the
import path of ``emulator``. A class decorated with ``@record`` (or ``@record(frozen=True)``)
is declared exactly as a dataclass is (annotations in order, plain defaults,
``field(default=...)`` and ``field(default_factory=...)``, a ``__post_init__``, subclasses
adding fields after the inherited ones or giving them new defaults) and behaves as one:
the same constructor and its errors, ``repr``, equality, ``__match_args__``, and with
``frozen=True`` immutability and a hash. The methods are generic ones that read the field
table built once per class. Type checkers see a dataclass (``dataclass_transform``).

    @record(frozen=True)
    class Point:
        x: float
        y: float = 0.0
        tags: list[str] = field(default_factory=list)

``fields(obj)`` gives the field names and ``replace(obj, **changes)`` a changed copy, as
their namesakes in ``dataclasses`` do.

Every record class is tracked (``core/tracking.py``): during a write, setting an attribute
saves the record first, and the containers its attributes hand out are saved as they are
handed out, so that a refused write can be undone in place.
"""

from __future__ import annotations

import reprlib
from collections.abc import Callable
from dataclasses import MISSING, Field, FrozenInstanceError, field
from typing import Any, TypeVar, dataclass_transform, overload

from .tracking import made, register

__all__ = ["field", "fields", "record", "replace"]

T = TypeVar("T")

_NO_DEFAULT = object()
_FIELDS = "__record_fields__"
_DEFAULTS = "__record_defaults__"


@overload
def record(cls: type[T], /) -> type[T]: ...
@overload
def record(*, frozen: bool = False) -> Callable[[type[T]], type[T]]: ...


@dataclass_transform(field_specifiers=(field,))
def record(cls: type[Any] | None = None, /, *, frozen: bool = False) -> Any:
    """Make ``cls`` a record (see the module docstring); ``frozen`` forbids assignment."""
    if cls is None:
        return lambda c: _build(c, frozen)
    return _build(cls, frozen)


def fields(obj: object) -> tuple[str, ...]:
    """The field names of a record class or instance, in declaration order."""
    names = getattr(obj, _FIELDS, None)
    if names is None:
        raise TypeError(f"{obj!r}: not a record")
    return names


def replace(obj: T, /, **changes: Any) -> T:
    """A new record like ``obj`` with ``changes`` applied (the constructor checks them)."""
    values = {name: obj.__dict__[name] for name in fields(obj)}
    values.update(changes)
    return type(obj)(**values)


def _build(cls: type[Any], frozen: bool) -> type[Any]:
    names: list[str] = []
    defaults: dict[str, Any] = {}
    for base in reversed(cls.__mro__[1:]):
        for name in base.__dict__.get(_FIELDS, ()):
            if name not in names:
                names.append(name)
        defaults.update(base.__dict__.get(_DEFAULTS, {}))
    for name, annotation in cls.__dict__.get("__annotations__", {}).items():
        if str(annotation).startswith(("ClassVar", "typing.ClassVar")):
            continue
        if name not in names:
            names.append(name)
        value = cls.__dict__.get(name, _NO_DEFAULT)
        if isinstance(value, Field):
            if value.default_factory is not MISSING:
                delattr(cls, name)
                defaults[name] = value
                continue
            if value.default is MISSING:
                delattr(cls, name)
                value = _NO_DEFAULT
            else:
                value = value.default
                setattr(cls, name, value)
        if value is _NO_DEFAULT:
            defaults.pop(name, None)
        else:
            defaults[name] = value
    seen_default = False
    for name in names:
        if name in defaults:
            seen_default = True
        elif seen_default:
            raise TypeError(f"non-default argument {name!r} follows default argument")
    setattr(cls, _FIELDS, tuple(names))
    setattr(cls, _DEFAULTS, defaults)
    own = cls.__dict__
    if "__match_args__" not in own:
        cls.__match_args__ = tuple(names)
    for name, method in (("__init__", _init), ("__repr__", _repr), ("__eq__", _eq)):
        if name not in own:
            setattr(cls, name, method)
    class_hash = own.get("__hash__", MISSING)
    explicit_hash = not (class_hash is MISSING or (class_hash is None and "__eq__" in own))
    if frozen:
        for name in ("__setattr__", "__delattr__"):
            if name in own:
                raise TypeError(f"cannot overwrite attribute {name} in class {cls.__name__}")
        cls.__setattr__ = _refuse_set
        cls.__delattr__ = _refuse_delete
        if not explicit_hash:
            cls.__hash__ = _hash
    elif not explicit_hash:
        cls.__hash__ = None  # type: ignore[assignment]  # mutable and comparable
    return register(cls, mutable=not frozen)


def _init(self: Any, *args: Any, **kwargs: Any) -> None:
    cls = type(self)
    names: tuple[str, ...] = getattr(cls, _FIELDS)
    made(self)
    if not kwargs and len(args) == len(names):  # every field given in order: the quick path
        self.__dict__.update(zip(names, args, strict=False))  # lengths equal
        post = getattr(self, "__post_init__", None)
        if post is not None:
            post()
        return
    if len(args) > len(names):
        raise TypeError(
            f"{cls.__qualname__}.__init__() takes {len(names) + 1} positional arguments "
            f"but {len(args) + 1} were given"
        )
    values = self.__dict__
    for name, value in zip(names, args, strict=False):
        if name in kwargs:
            raise TypeError(f"{cls.__qualname__}.__init__() got multiple values for {name!r}")
        values[name] = value
    if kwargs or len(args) < len(names):
        defaults: dict[str, Any] = getattr(cls, _DEFAULTS)
        for name in names[len(args) :]:
            if name in kwargs:
                values[name] = kwargs.pop(name)
            elif name in defaults:
                default = defaults[name]
                if isinstance(default, Field):
                    factory: Callable[[], Any] = default.default_factory  # type: ignore[assignment]
                    default = factory()
                values[name] = default
            else:
                missing = [
                    repr(n)
                    for n in names[len(args) :]
                    if n not in values and n not in kwargs and n not in defaults
                ]
                raise TypeError(f"{cls.__qualname__}.__init__() {_missing(missing)}")
        if kwargs:
            raise TypeError(
                f"{cls.__qualname__}.__init__() got an unexpected keyword argument"
                f" {next(iter(kwargs))!r}"
            )
    post_init = getattr(self, "__post_init__", None)
    if post_init is not None:
        post_init()


def _missing(names: list[str]) -> str:
    """``missing 2 required positional arguments: 'a' and 'b'``, as Python words it."""
    if len(names) == 1:
        return f"missing 1 required positional argument: {names[0]}"
    listed = ", ".join(names[:-1]) + f" and {names[-1]}"
    return f"missing {len(names)} required positional arguments: {listed}"


def _values(self: Any) -> tuple[Any, ...]:
    values = self.__dict__
    return tuple(values[name] for name in getattr(type(self), _FIELDS))


@reprlib.recursive_repr()
def _repr(self: Any) -> str:
    values = self.__dict__
    inner = ", ".join(f"{name}={values[name]!r}" for name in getattr(type(self), _FIELDS))
    return f"{type(self).__qualname__}({inner})"


def _eq(self: Any, other: object) -> bool:
    if other.__class__ is not self.__class__:
        return NotImplemented
    return _values(self) == _values(other)


def _hash(self: Any) -> int:
    return hash(_values(self))


def _refuse_set(self: Any, name: str, value: Any) -> None:
    raise FrozenInstanceError(f"cannot assign to field {name!r}")


def _refuse_delete(self: Any, name: str) -> None:
    raise FrozenInstanceError(f"cannot delete field {name!r}")
