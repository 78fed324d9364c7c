"""Reading rows of a table or SQL view (``relations.Relation``): one statement with the key
columns, the wanted columns (geometries as WKB), a ``where``, GeoTools' order and a page;
values converted as the features model holds them (``convert.py``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from .convert import geometries_from_db, reader
from .relations import Relation
from .where import Where

if TYPE_CHECKING:
    import psycopg

Raw = tuple[list[Any], dict[str, Any], tuple[Any, ...]]
"""a row read: its key values, its attribute values, the raw row (for a keyless id)"""


def order_of(rel: Relation, sort: Sequence[tuple[str, bool]]) -> list[tuple[str, bool]]:
    """The sort keys the relation has (as (column, descending)), then its key ascending."""
    out = [(name, desc) for name, desc in sort if name in rel.columns]
    seen = {name for name, _ in out}
    return out + [(k, False) for k in rel.key if k not in seen]


def fetch(
    conn: psycopg.Connection[Any],
    rel: Relation,
    names: Sequence[str],
    where: Where,
    order: Sequence[tuple[str, bool]] = (),
    limit: int | None = None,
    offset: int = 0,
) -> list[Raw]:
    """The rows: key values, the ``names`` columns' values (geometries as shapely) and the
    raw row; sorted (ascending with empty values last, descending first), paged."""
    from psycopg import sql

    picked = select_list(rel, names)
    query = sql.SQL("SELECT {} FROM {} WHERE {}").format(
        sql.SQL(", ").join(picked) if picked else sql.SQL("1"), rel.source.relation(), where.sql
    )
    if order:
        query += sql.SQL(" ORDER BY {}").format(
            sql.SQL(", ").join(
                sql.SQL("{} DESC NULLS FIRST" if desc else "{} ASC NULLS LAST").format(
                    sql.Identifier(name)
                )
                for name, desc in order
            )
        )
    params: tuple[Any, ...] = where.params
    if limit is not None:
        query += sql.SQL(" LIMIT %s")
        params += (max(0, int(limit)),)
    if offset:
        query += sql.SQL(" OFFSET %s")
        params += (max(0, int(offset)),)
    found = conn.execute(query, params).fetchall()
    return converted(rel, names, found)


def select_list(rel: Relation, names: Sequence[str]) -> list[Any]:
    """The key columns, then the ``names`` columns (geometries as WKB)."""
    from psycopg import sql

    picked: list[Any] = [sql.Identifier(k) for k in rel.key]
    for name in names:
        ident = sql.Identifier(name)
        if rel.columns[name].is_geometry:
            picked.append(sql.SQL("ST_AsBinary({}::geometry)").format(ident))
        else:
            picked.append(ident)
    return picked


def converted(rel: Relation, names: Sequence[str], found: list[tuple[Any, ...]]) -> list[Raw]:
    """The rows read (key columns, then ``names``) as (key, values, raw row); each column
    converted once, as a whole (``convert.py``)."""
    width = len(rel.key)
    columns: list[list[Any]] = []
    for i, name in enumerate(names):
        raw = [row[width + i] for row in found]
        col = rel.columns[name]
        if col.is_geometry:
            columns.append(geometries_from_db(raw))
        else:
            read = reader(col)
            columns.append(raw if read is None else [read(v) for v in raw])
    keys: list[list[Any]] = [[] for _ in found]
    for k, name in enumerate(rel.key):
        read = reader(rel.columns[name])
        for n, row in enumerate(found):
            keys[n].append(row[k] if read is None else read(row[k]))
    named = list(names)
    values = [dict(zip(named, vals, strict=True)) for vals in zip(*columns, strict=True)]
    if not named:
        values = [{} for _ in found]
    return [(keys[n], values[n], tuple(row)) for n, row in enumerate(found)]
