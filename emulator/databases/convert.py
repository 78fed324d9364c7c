"""Values between PostgreSQL and the features model.

Read: geometries arrive as WKB (``ST_AsBinary``) and become shapely geometries, converted
column by column in one vectorised call; a timestamp without a zone is read as UTC (the
emulator's sessions run in UTC) and becomes an aware instant; ``numeric`` becomes an ``int``
or a ``float`` (what the encoders write as a JSON number); ``uuid`` its text; ``bytea``
``bytes``. Written: shapely geometries go as WKB in the column's SRID (a single geometry
into a multi-geometry column made a collection of one); instants as they are.
"""

from __future__ import annotations

import datetime
import decimal
import uuid
from collections.abc import Callable, Sequence
from typing import Any

from ..core.lazy import LazyModule
from .literals import Col

shapely: Any = LazyModule("shapely")
numpy: Any = LazyModule("numpy")

MULTI = {"Polygon": "MultiPolygon", "LineString": "MultiLineString", "Point": "MultiPoint"}


def value_from_db(value: Any) -> Any:
    """A non-geometry value as the features model holds it."""
    if value is None or isinstance(value, str | int | float | bool):
        return value
    if isinstance(value, datetime.datetime):
        return value.replace(tzinfo=datetime.UTC) if value.tzinfo is None else value
    if isinstance(value, decimal.Decimal):
        if value == value.to_integral_value() and abs(value) < 2**63:
            return int(value)
        return float(value)
    if isinstance(value, uuid.UUID):
        return str(value)
    if isinstance(value, memoryview):
        return bytes(value)
    return value


PLAIN = frozenset(
    {"int2", "int4", "int8", "float4", "float8", "bool", "varchar", "text", "bpchar", "name",
     "char", "json", "jsonb", "oid", "date", "time", "timetz"}
)  # fmt: skip
"""column types whose values psycopg already gives as the features model holds them"""


def reader(col: Col) -> Callable[[Any], Any] | None:
    """What a column's values need on reading (None: nothing, they are kept as read)."""
    return None if col.typname in PLAIN else value_from_db


def geometries_from_db(raw: Sequence[Any]) -> list[Any]:
    """WKB values (or None) as shapely geometries, in one call."""
    if not raw:
        return []
    data = numpy.array([None if v is None else bytes(v) for v in raw], dtype=object)
    return list(shapely.from_wkb(data))


def geometry_to_db(col: Col, value: Any) -> bytes | None:
    """A shapely geometry as the WKB a column takes (a single geometry into a multi column
    becomes a collection of one, as the column requires)."""
    if value is None:
        return None
    declared = col.binding.rpartition(".")[2]
    kind = value.geom_type
    if MULTI.get(kind) == declared:
        value = getattr(shapely.geometry, declared)([value])
    return bytes(shapely.to_wkb(value))


def value_to_db(col: Col, value: Any) -> Any:
    """A non-geometry value as a query parameter for the column."""
    if value is None:
        return None
    if isinstance(value, datetime.datetime) and col.typname == "timestamp":
        if value.tzinfo is not None:
            value = value.astimezone(datetime.UTC).replace(tzinfo=None)
        return value
    if col.typname == "uuid" and isinstance(value, str):
        try:
            return uuid.UUID(value)
        except ValueError:
            return value
    return value
