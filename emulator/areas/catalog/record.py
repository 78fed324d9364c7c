"""``Record``: a data class whose methods are shared, not generated per class.

``@dataclass`` compiles an ``__init__``, ``__repr__`` and ``__eq__`` (and more when frozen)
for each class as its module is imported, about half a millisecond apiece; the catalog's
entities are a dozen such classes on the import path of ``emulator``. A ``Record`` subclass
declares its fields as a dataclass does (annotations in order, defaults,
``field(default=...)`` or ``field(default_factory=...)``, subclasses adding fields after
the inherited ones or giving them new defaults) and gets
the same constructor, ``repr``, equality and, with ``frozen=True``, immutability and hash,
from generic methods that read the field table built once per class. Type checkers see a
dataclass (``dataclass_transform``).

    class Point(Record, frozen=True):
        x: float
        y: float = 0.0
        tags: list[str] = field(default_factory=list)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import MISSING, Field, FrozenInstanceError, field
from typing import Any, ClassVar, dataclass_transform

__all__ = ["Record", "field"]

_NO_DEFAULT = object()


@dataclass_transform(field_specifiers=(field,))
class Record:
    """Base of the catalog's entities; see the module docstring."""

    _fields: ClassVar[tuple[str, ...]] = ()
    _defaults: ClassVar[dict[str, Any]] = {}
    """per field with a default: the value, or a ``Field`` whose factory makes one"""
    _frozen: ClassVar[bool] = False

    def __init_subclass__(cls, frozen: bool = False, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        names = list(cls._fields)
        defaults = dict(cls._defaults)
        for name, annotation in cls.__dict__.get("__annotations__", {}).items():
            if str(annotation).startswith(("ClassVar", "typing.ClassVar")):
                continue
            if name not in names:
                names.append(name)
            value = cls.__dict__.get(name, _NO_DEFAULT)
            if isinstance(value, Field):
                delattr(cls, name)
                if value.default_factory is not MISSING:
                    defaults[name] = value
                    continue
                value = _NO_DEFAULT if value.default is MISSING else value.default
                if value is not _NO_DEFAULT:
                    setattr(cls, name, value)
            if value is _NO_DEFAULT:
                if any(n in defaults for n in names if n != name):
                    raise TypeError(f"non-default argument {name!r} follows default argument")
                defaults.pop(name, None)
            else:
                defaults[name] = value
        cls._fields, cls._defaults = tuple(names), defaults
        cls._frozen = frozen or cls._frozen
        methods: dict[str, Any] = {"__hash__": None}  # unhashable, as a mutable dataclass
        if cls._frozen:
            methods = {
                "__hash__": Record._hash,
                "__setattr__": Record._refuse_set,
                "__delattr__": Record._refuse_delete,
            }
        for name, method in methods.items():
            setattr(cls, name, method)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        cls = type(self)
        names = cls._fields
        if len(args) > len(names):
            raise TypeError(
                f"{cls.__name__}.__init__() takes {len(names) + 1} positional arguments "
                f"but {len(args) + 1} were given"
            )
        values = self.__dict__
        for name, value in zip(names, args, strict=False):
            if name in kwargs:
                raise TypeError(f"{cls.__name__}.__init__() got multiple values for {name!r}")
            values[name] = value
        for name in names[len(args) :]:
            if name in kwargs:
                values[name] = kwargs.pop(name)
            elif name in cls._defaults:
                default = cls._defaults[name]
                if isinstance(default, Field):
                    factory: Callable[[], Any] = default.default_factory  # type: ignore[assignment]
                    default = factory()
                values[name] = default
            else:
                raise TypeError(
                    f"{cls.__name__}.__init__() missing 1 required positional argument: {name!r}"
                )
        if kwargs:
            unexpected = next(iter(kwargs))
            raise TypeError(
                f"{cls.__name__}.__init__() got an unexpected keyword argument {unexpected!r}"
            )

    def _values(self) -> tuple[Any, ...]:
        values = self.__dict__
        return tuple(values[name] for name in type(self)._fields)

    def __repr__(self) -> str:
        values = self.__dict__
        inner = ", ".join(f"{name}={values[name]!r}" for name in type(self)._fields)
        return f"{type(self).__qualname__}({inner})"

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self._values() == other._values()

    def _hash(self) -> int:
        return hash(self._values())

    def _refuse_set(self, name: str, value: Any) -> None:
        raise FrozenInstanceError(f"cannot assign to field {name!r}")

    def _refuse_delete(self, name: str) -> None:
        raise FrozenInstanceError(f"cannot delete field {name!r}")
