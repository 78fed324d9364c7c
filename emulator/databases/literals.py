"""Literals of a filter as the values of a column: what GeoTools' converters make of a
literal compared with an attribute of a binding (``NotSql`` when it does not convert: the
comparison then stays in Python), and ``Col``, what the SQL side knows of a column."""

from __future__ import annotations

import datetime
import decimal
from typing import Any

from ..core.lazy import LazyModule
from ..filters.converters import format_value, parse_instant

ast: Any = LazyModule("pygeofilter.ast")
values: Any = LazyModule("pygeofilter.values")

NUMBERS = {
    "java.lang.Byte": int,
    "java.lang.Short": int,
    "java.lang.Integer": int,
    "java.lang.Long": int,
    "java.math.BigInteger": int,
    "java.lang.Float": float,
    "java.lang.Double": float,
    "java.math.BigDecimal": float,
}
TEXT = "java.lang.String"
BOOLEAN = "java.lang.Boolean"
DATES = frozenset({"java.sql.Date", "java.sql.Timestamp", "java.util.Date"})


class Col:
    """What the compiler knows of a column: its binding, its PostgreSQL type, its SRID."""

    __slots__ = ("binding", "name", "srid", "typname")

    def __init__(self, name: str, binding: str, typname: str = "", srid: int | None = None):
        self.name = name
        self.binding = binding
        self.typname = typname
        self.srid = srid

    @property
    def is_geometry(self) -> bool:
        return self.typname in ("geometry", "geography") or "jts.geom." in self.binding


class NotSql(Exception):
    """This subtree cannot be SQL: it stays in Python."""


# -- values ----------------------------------------------------------------------------------


def literal(col: Col, value: Any) -> Any:
    """``value`` as the column's type, as GeoTools converts a literal to the attribute's
    binding (``NotSql`` when it does not convert)."""
    if isinstance(value, ast.Node) or value is None:
        raise NotSql
    binding = col.binding
    if binding in NUMBERS:
        return _number(value, NUMBERS[binding])
    if binding == TEXT:
        if isinstance(value, datetime.date | values.Geometry | values.Envelope):
            raise NotSql
        return value if isinstance(value, str) else format_value(value)
    if binding == BOOLEAN:
        if isinstance(value, bool):
            return value
        if isinstance(value, str) and value.strip().lower() in ("true", "false"):
            return value.strip().lower() == "true"
        raise NotSql
    if binding in DATES:
        return _instant(col, value)
    if binding == "java.util.UUID" and isinstance(value, str):
        import uuid

        try:
            return uuid.UUID(value)
        except ValueError:
            raise NotSql from None
    raise NotSql


def _number(value: Any, kind: type) -> Any:
    if isinstance(value, bool):
        raise NotSql
    if isinstance(value, int | float | decimal.Decimal):
        number: Any = value
    elif isinstance(value, str):
        try:
            number = float(value.strip())
        except ValueError:
            raise NotSql from None
    else:
        raise NotSql
    if number != number or number in (float("inf"), float("-inf")):
        raise NotSql
    if kind is int and float(number).is_integer():
        return int(number)
    return float(number)


def _instant(col: Col, value: Any) -> Any:
    """A date literal for a date or timestamp column (timestamps without a zone are UTC)."""
    if isinstance(value, datetime.datetime):
        moment = value
    elif isinstance(value, datetime.date):
        moment = datetime.datetime(value.year, value.month, value.day, tzinfo=datetime.UTC)
    elif isinstance(value, str):
        found = parse_instant(value)
        if found is None:
            raise NotSql
        moment = found
    else:
        raise NotSql
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=datetime.UTC)
    if col.typname == "timestamptz":
        return moment
    return moment.astimezone(datetime.UTC).replace(tzinfo=None)


def period(col: Col, interval: Any) -> tuple[Any, Any]:
    start, end = interval.start, interval.end
    if isinstance(start, datetime.timedelta):
        end_v = _instant(col, end)
        return end_v - start, end_v
    start_v = _instant(col, start)
    if isinstance(end, datetime.timedelta):
        return start_v, start_v + end
    return start_v, _instant(col, end)
