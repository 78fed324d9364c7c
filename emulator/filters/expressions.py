"""Expressions inside filters, and how GeoTools compares their values.

Attributes read from the feature (an unknown one is empty), literals, arithmetic (empty if
either side is empty or not a number), a few string functions, and ``compare``: two values
made comparable the way GeoTools converts a literal to the attribute's type.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from datetime import UTC, date, datetime
from functools import cache
from typing import Any

from ..core.errors import Invalid
from ..core.lazy import LazyModule
from .converters import format_value, parse_instant

shapely = LazyModule("shapely")
"""imported by the first spatial expression (with numpy, a third of a second)"""
ast = LazyModule("pygeofilter.ast")
values = LazyModule("pygeofilter.values")
"""pygeofilter's tree, imported by the first filter the grammar reads (``ecql_quick``'s
filters are compiled without it)"""

Feature = Mapping[str, Any]
"""what a filter reads: attribute values by name (a feature's properties, a granule's values)"""
Expr = Callable[[Feature], Any]

BOX_FIELDS = ("minx", "miny", "maxx", "maxy")
"""a named tuple with these fields (the mosaics' ``geo.Envelope``) reads as a rectangle"""


def expression(node: Any) -> Expr:
    if isinstance(node, ast.Attribute):
        return attribute(str(node.name))
    if isinstance(node, ast.Arithmetic):
        lhs, rhs, op = expression(node.lhs), expression(node.rhs), arithmetic()[type(node)]
        return lambda f: _arithmetic(lhs(f), rhs(f), op)
    if isinstance(node, ast.Function):
        return _function(node)
    if isinstance(node, ast.Node):
        raise Invalid(f"Invalid cql syntax: unsupported expression {type(node).__name__}")
    return constant(node)


def attribute(name: str) -> Expr:
    """An attribute's value (a qualified name falls back to its local part); None if absent."""
    local = name.rsplit(":", 1)[-1]
    if local == name:
        return lambda f: f.get(name)
    return lambda f: f.get(name, f.get(local))


def constant(value: Any) -> Expr:
    return lambda f: value


@cache
def arithmetic() -> dict[type, Callable[[float, float], float]]:
    return {
        ast.Add: lambda a, b: a + b,
        ast.Sub: lambda a, b: a - b,
        ast.Mul: lambda a, b: a * b,
        ast.Div: lambda a, b: a / b,
    }


def _arithmetic(a: Any, b: Any, op: Callable[[float, float], float]) -> Any:
    x, y = number(a), number(b)
    if x is None or y is None:
        return None
    try:
        return op(x, y)
    except ZeroDivisionError:
        return math.copysign(math.inf, x) if x else math.nan


FUNCTIONS: dict[str, Callable[..., Any]] = {
    "strtolowercase": lambda s: None if s is None else as_text(s).lower(),
    "strtouppercase": lambda s: None if s is None else as_text(s).upper(),
    "strlength": lambda s: None if s is None else len(as_text(s)),
    "strtrim": lambda s: None if s is None else as_text(s).strip(),
    "strconcat": lambda a, b: None if a is None or b is None else as_text(a) + as_text(b),
    "strstartswith": lambda s, p: (
        None if s is None or p is None else as_text(s).startswith(as_text(p))
    ),
    "strendswith": lambda s, p: None if s is None or p is None else as_text(s).endswith(as_text(p)),
    "abs": lambda x: None if number(x) is None else abs(number(x) or 0),
    "accenti": lambda s: None if s is None else _without_accents(as_text(s)),
}
"""by lower-case name; ``accenti`` is CQL2's ``ACCENTI`` (``filters/cql2.py``)"""


def _without_accents(text: str) -> str:
    """``text`` with its combining marks removed (``é`` → ``e``), for ``ACCENTI``."""
    import unicodedata

    return "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))


def _function(node: Any) -> Expr:
    fn = FUNCTIONS.get(str(node.name).lower())
    if fn is None:
        raise Invalid(f"Invalid cql syntax: Function not found: {node.name}")
    args = [expression(a) for a in node.arguments]
    arity = fn.__code__.co_argcount

    if len(args) != arity:
        raise Invalid(f"Invalid cql syntax: {node.name} takes {arity} argument(s)")
    return lambda f: fn(*(a(f) for a in args))


# -- values ---------------------------------------------------------------------------------


def compare(a: Any, b: Any, op: Callable[[Any, Any], bool]) -> bool:
    pair = coerce(a, b)
    if pair is None:
        return False
    try:
        return op(*pair)
    except TypeError:
        return False


def coerce(a: Any, b: Any) -> tuple[Any, Any] | None:
    """Two values made comparable as GeoTools converts a literal to the attribute's type;
    None when they cannot be compared (or one is empty)."""
    if a is None or b is None:
        return None
    if isinstance(a, bool) or isinstance(b, bool):
        return (as_text(a), as_text(b)) if isinstance(a, bool) != isinstance(b, bool) else (a, b)
    if isinstance(a, datetime | date) or isinstance(b, datetime | date):
        t, u = instant(a), instant(b)
        return None if t is None or u is None else (t, u)
    if isinstance(a, int | float) or isinstance(b, int | float):
        x, y = number(a), number(b)
        return (x, y) if x is not None and y is not None else (as_text(a), as_text(b))
    if isinstance(a, str) and isinstance(b, str):
        return a, b
    return None


def instant(value: Any) -> datetime | None:
    if isinstance(value, datetime):
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)
    if isinstance(value, date):
        return datetime(value.year, value.month, value.day, tzinfo=UTC)
    if isinstance(value, str):
        return parse_instant(value)
    return None


def number(value: Any) -> float | None:
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, int | float):
        return value
    try:
        return float(str(value).strip())
    except ValueError:
        return None


def as_text(value: Any) -> str:
    return format_value(value)


def shape(value: Any) -> Any:
    if isinstance(value, tuple) and getattr(value, "_fields", None) == BOX_FIELDS:
        return shapely.geometry.box(*value)
    if isinstance(value, values.Envelope):
        return shapely.geometry.box(value.x1, value.y1, value.x2, value.y2)
    if isinstance(value, values.Geometry):
        try:
            return shapely.geometry.shape(value.geometry)
        except (ValueError, TypeError, shapely.errors.GEOSException):
            return None
    return None
