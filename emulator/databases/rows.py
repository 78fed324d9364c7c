"""Rows of a table or SQL view: select, count, bounds, and writes in the caller's
transaction. What the OGC readers and writers build on (with ``where`` for the filters).

A ``Source`` is a table (or database view) of a schema, or an SQL view expanded with the
request's parameters (``virtual.expand``: validated, or refused before any SQL runs) and
wrapped as GeoTools wraps it, ``(sql) AS "vtable"``. Geometries come back as shapely
geometries (read from WKB) and go in as WKB with the column's SRID.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from ..core.record import field, record
from . import bindings
from .dialect import Column
from .virtual import VirtualTable, expand
from .where import Where, true

if TYPE_CHECKING:
    import psycopg

VTABLE = "vtable"


@record(frozen=True)
class Source:
    """A table or view ``schema.table``, or an SQL view ``view`` with parameter ``values``."""

    schema: str
    table: str | None = None
    view: VirtualTable | None = None
    values: Mapping[str, str] = field(default_factory=dict)

    def relation(self) -> Any:
        from psycopg import sql

        if self.view is None:
            return sql.Identifier(self.schema, self.table or "")
        text = expand(self.view, self.values).replace("%", "%%")  # queries carry parameters
        return sql.SQL("({}) AS {}").format(sql.SQL(text), sql.Identifier(VTABLE))


def source_for(
    schema: str, native: str, metadata: Mapping[str, Any], values: Mapping[str, str] | None = None
) -> Source:
    """The source of a feature type: its SQL view (``JDBC_VIRTUAL_TABLE``) with ``values``
    (one layer's ``viewparams``), else its table ``schema.native``."""
    from .virtual import from_metadata

    view = from_metadata(metadata)
    if view is not None:
        return Source(schema, view=view, values=dict(values or {}))
    return Source(schema, table=native)


@record
class Row:
    """One row: its primary key values (in key order) and its attribute values."""

    key: list[Any]
    values: dict[str, Any] = field(default_factory=dict)


def view_columns(conn: psycopg.Connection[Any], source: Source) -> list[Column]:
    """The attributes of an SQL view, from its query run with no rows (its parameters'
    defaults unless ``source.values`` says otherwise); geometry types and SRIDs from the
    view's declarations; the key columns are not attributes."""
    from psycopg import sql

    assert source.view is not None
    cur = conn.execute(sql.SQL("SELECT * FROM {} LIMIT 0").format(source.relation()), ())
    described = cur.description or []
    names = {
        int(oid): str(name)
        for oid, name in conn.execute(
            "SELECT oid, typname FROM pg_catalog.pg_type WHERE oid = ANY(%s)",
            ([d.type_code for d in described],),
        ).fetchall()
    }
    out: list[Column] = []
    for d in described:
        if d.name in source.view.key_columns:
            continue
        typname = names.get(d.type_code, "")
        declared = source.view.geometry(d.name)
        if declared is not None or typname in ("geometry", "geography"):
            kind = declared.type if declared is not None else "Geometry"
            srid = declared.srid if declared is not None and declared.srid >= 0 else None
            out.append(Column(d.name, bindings.JTS + kind, True, None, srid))
        elif typname in bindings.BINDINGS:
            out.append(Column(d.name, bindings.BINDINGS[typname]))
    return out


def _select_list(columns: Sequence[Column]) -> Any:
    from psycopg import sql

    items: list[Any] = []
    for col in columns:
        ident = sql.Identifier(col.name)
        if col.is_geometry:
            items.append(sql.SQL("ST_AsBinary({}::geometry) AS {}").format(ident, ident))
        else:
            items.append(ident)
    return items


def select(
    conn: psycopg.Connection[Any],
    source: Source,
    columns: Sequence[Column],
    key: Sequence[str] = (),
    where: Where | None = None,
    order: Sequence[tuple[str, bool]] = (),
    limit: int | None = None,
    offset: int = 0,
) -> list[Row]:
    """The matching rows: ``key`` columns then ``columns`` (geometries as shapely), sorted by
    ``order`` ((column, ascending) pairs; then by the key, for a stable order), paged."""
    from psycopg import sql

    cond = where or true()
    picked = [sql.Identifier(k) for k in key] + _select_list(columns)
    sort = [
        sql.SQL("{} {}").format(sql.Identifier(c), sql.SQL("ASC" if asc else "DESC"))
        for c, asc in order
    ] + [sql.Identifier(k) for k in key]
    query = sql.SQL("SELECT {} FROM {} WHERE {}").format(
        sql.SQL(", ").join(picked) if picked else sql.SQL("1"), source.relation(), cond.sql
    )
    if sort:
        query += sql.SQL(" ORDER BY {}").format(sql.SQL(", ").join(sort))
    params: tuple[Any, ...] = cond.params
    if limit is not None:
        query += sql.SQL(" LIMIT %s")
        params += (max(0, int(limit)),)
    if offset:
        query += sql.SQL(" OFFSET %s")
        params += (max(0, int(offset)),)
    out = []
    for raw in conn.execute(query, params).fetchall():
        values = dict(zip((c.name for c in columns), raw[len(key) :], strict=True))
        for col in columns:
            if col.is_geometry and values.get(col.name) is not None:
                values[col.name] = _geometry(values[col.name])
        out.append(Row(list(raw[: len(key)]), values))
    return out


def count(conn: psycopg.Connection[Any], source: Source, where: Where | None = None) -> int:
    from psycopg import sql

    cond = where or true()
    row = conn.execute(
        sql.SQL("SELECT count(*) FROM {} WHERE {}").format(source.relation(), cond.sql),
        cond.params,
    ).fetchone()
    return int(row[0]) if row else 0


def bounds(
    conn: psycopg.Connection[Any],
    source: Source,
    column: str,
    where: Where | None = None,
    estimated: bool = False,
) -> tuple[float, float, float, float] | None:
    """(minx, miny, maxx, maxy) of ``column``: ``ST_EstimatedExtent`` first when the store
    asks for estimated extents (a table with statistics), else ``ST_Extent`` of the data;
    None when no row has a geometry."""
    from psycopg import sql

    if estimated and source.view is None and where is None:
        try:
            with conn.transaction():
                row = conn.execute(
                    "SELECT ST_XMin(e), ST_YMin(e), ST_XMax(e), ST_YMax(e)"
                    " FROM ST_EstimatedExtent(%s, %s, %s) AS e",
                    (source.schema, source.table, column),
                ).fetchone()
            if row and row[0] is not None:
                return (float(row[0]), float(row[1]), float(row[2]), float(row[3]))
        except Exception as exc:  # no statistics yet: fall back on the data, as GeoTools
            from psycopg import Error

            if not isinstance(exc, Error):
                raise
    cond = where or true()
    row = conn.execute(
        sql.SQL(
            "SELECT ST_XMin(e), ST_YMin(e), ST_XMax(e), ST_YMax(e) FROM"
            " (SELECT ST_Extent({}::geometry) AS e FROM {} WHERE {}) AS x"
        ).format(sql.Identifier(column), source.relation(), cond.sql),
        cond.params,
    ).fetchone()
    if not row or row[0] is None:
        return None
    return (float(row[0]), float(row[1]), float(row[2]), float(row[3]))


def insert(
    conn: psycopg.Connection[Any],
    schema: str,
    table: str,
    columns: Sequence[Column],
    rows: Sequence[Mapping[str, Any]],
    key: Sequence[str] = (),
) -> list[list[Any]]:
    """Insert rows (values by column name; geometries as shapely) in ``conn``'s transaction;
    the new rows' key values (generated ones included), in order."""
    from psycopg import sql

    out: list[list[Any]] = []
    for values in rows:
        used = [c for c in columns if c.name in values]
        names = [sql.Identifier(c.name) for c in used]
        slots = [_slot(c) for c in used]
        query = sql.SQL("INSERT INTO {} ").format(sql.Identifier(schema, table))
        if used:
            query += sql.SQL("({}) VALUES ({})").format(
                sql.SQL(", ").join(names), sql.SQL(", ").join(slots)
            )
        else:
            query += sql.SQL("DEFAULT VALUES")
        if key:
            query += sql.SQL(" RETURNING {}").format(
                sql.SQL(", ").join(sql.Identifier(k) for k in key)
            )
        cur = conn.execute(query, tuple(_param(c, values[c.name]) for c in used))
        row = cur.fetchone() if key else None
        out.append(list(row) if row else [])
    return out


def update(
    conn: psycopg.Connection[Any],
    schema: str,
    table: str,
    columns: Sequence[Column],
    values: Mapping[str, Any],
    where: Where,
) -> int:
    """Set ``values`` on the matching rows (in ``conn``'s transaction); how many changed."""
    from psycopg import sql

    used = [c for c in columns if c.name in values]
    if not used:
        return 0
    sets = sql.SQL(", ").join(
        sql.SQL("{} = {}").format(sql.Identifier(c.name), _slot(c)) for c in used
    )
    cur = conn.execute(
        sql.SQL("UPDATE {} SET {} WHERE {}").format(sql.Identifier(schema, table), sets, where.sql),
        tuple(_param(c, values[c.name]) for c in used) + where.params,
    )
    return int(cur.rowcount)


def delete(conn: psycopg.Connection[Any], schema: str, table: str, where: Where) -> int:
    """Delete the matching rows (in ``conn``'s transaction); how many went."""
    from psycopg import sql

    cur = conn.execute(
        sql.SQL("DELETE FROM {} WHERE {}").format(sql.Identifier(schema, table), where.sql),
        where.params,
    )
    return int(cur.rowcount)


def _slot(col: Column) -> Any:
    from psycopg import sql

    if col.is_geometry:
        return sql.SQL("ST_GeomFromWKB(%s, {})").format(sql.Literal(max(col.srid or 0, 0)))
    return sql.SQL("%s")


def _param(col: Column, value: Any) -> Any:
    if col.is_geometry and value is not None:
        import shapely

        return shapely.to_wkb(value)
    return value


def _geometry(raw: Any) -> Any:
    import shapely

    return shapely.from_wkb(bytes(raw))
