"""WHERE clauses built from safe pieces: quoted identifiers and parameters, never pasted text.

Each function returns a ``Where``: a ``psycopg.sql`` fragment with ``%s`` placeholders and
its parameters in order. Combine them with ``all_of``, ``any_of`` and ``negate``; give the
result to ``rows.select``, ``count``, ``update`` or ``delete``. Operators come from fixed
lists; a value of any type travels as a parameter.

    where.all_of(where.compare("name", "=", "x"), where.bbox("geom", 0, 0, 10, 10, 4326))
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from ..core.errors import Invalid
from ..core.record import record

OPERATORS = frozenset({"=", "<>", "<", "<=", ">", ">="})


@record(frozen=True)
class Where:
    """A fragment of SQL (``psycopg.sql.Composable``) and its parameters."""

    sql: Any
    params: tuple[Any, ...] = ()


def _sql() -> Any:
    from psycopg import sql

    return sql


def true() -> Where:
    return Where(_sql().SQL("TRUE"))


def compare(column: str, op: str, value: Any) -> Where:
    """``column op value``, ``op`` one of ``OPERATORS``."""
    if op not in OPERATORS:
        raise Invalid(f"Unsupported comparison operator {op!r}")
    sql = _sql()
    return Where(sql.SQL("{} {} %s").format(sql.Identifier(column), sql.SQL(op)), (value,))


def is_null(column: str) -> Where:
    sql = _sql()
    return Where(sql.SQL("{} IS NULL").format(sql.Identifier(column)))


def like(column: str, pattern: str, nocase: bool = False) -> Where:
    """``column LIKE pattern`` (SQL wildcards ``%`` and ``_`` in the parameter)."""
    sql = _sql()
    op = "ILIKE" if nocase else "LIKE"
    return Where(sql.SQL("{}::text {} %s").format(sql.Identifier(column), sql.SQL(op)), (pattern,))


def in_(column: str, values: Sequence[Any]) -> Where:
    """``column = ANY(values)`` (an empty list matches nothing)."""
    sql = _sql()
    return Where(sql.SQL("{} = ANY(%s)").format(sql.Identifier(column)), (list(values),))


def bbox(
    column: str,
    minx: float,
    miny: float,
    maxx: float,
    maxy: float,
    srid: int,
    loose: bool = True,
) -> Where:
    """Geometries whose envelope meets the box (``Loose bbox``: the index's ``&&`` only),
    else that intersect it."""
    sql = _sql()
    box = "ST_MakeEnvelope(%s, %s, %s, %s, %s)"
    template = "{} && " + box if loose else "ST_Intersects({}, " + box + ")"
    return Where(
        sql.SQL(template).format(sql.Identifier(column)),
        (float(minx), float(miny), float(maxx), float(maxy), max(int(srid), 0)),
    )


def _join(parts: Iterable[Where], glue: str, empty: str) -> Where:
    sql = _sql()
    items = list(parts)
    if not items:
        return Where(sql.SQL(empty))
    params: tuple[Any, ...] = ()
    for w in items:
        params += w.params
    joined = sql.SQL(f" {glue} ").join(sql.SQL("({})").format(w.sql) for w in items)
    return Where(joined, params)


def all_of(*parts: Where) -> Where:
    return _join(parts, "AND", "TRUE")


def any_of(*parts: Where) -> Where:
    return _join(parts, "OR", "FALSE")


def negate(part: Where) -> Where:
    sql = _sql()
    return Where(sql.SQL("NOT ({})").format(part.sql), part.params)
