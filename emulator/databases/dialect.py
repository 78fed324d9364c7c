"""The PostGIS dialect as GeoTools' ``JDBCDataStore`` with ``PostGISDialect`` uses it: create a
table for a feature type, describe an existing table or view, list a schema's tables and
views, and compute bounds.

Every identifier is quoted (``psycopg.sql.Identifier``) and every value is a parameter; no
user-supplied text is pasted into SQL. Functions take an open connection: the caller owns the
transaction (``createSchema`` is one transaction, committed when the REST answer is 2xx).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ..core.errors import Invalid
from ..core.record import field, record
from . import bindings

if TYPE_CHECKING:
    import psycopg

EXCLUDED = ("geometry_columns", "geography_columns", "raster_columns", "raster_overviews")
"""tables ``PostGISDialect.includeTable`` leaves out (and every ``spatial_ref_sys*``)"""

PK_NAMES = ("fid", "id", "gt_id", "ogc_fid")
PK_SUFFIXES = ("", "_1", "_2")


@record
class Column:
    """An attribute as GeoServer reports it: name, binding, nillable, text length."""

    name: str
    binding: str
    nillable: bool = True
    length: int | None = None
    srid: int | None = None
    """geometry columns: the SRID (None: unknown)"""

    @property
    def is_geometry(self) -> bool:
        return bindings.is_geometry(self.binding)


@record
class TableInfo:
    """What ``describe`` finds: the feature type's columns and primary key."""

    name: str
    columns: list[Column] = field(default_factory=list)
    primary_key: list[str] = field(default_factory=list)

    @property
    def geometry(self) -> Column | None:
        """The default geometry: the first geometry column."""
        return next((c for c in self.columns if c.is_geometry), None)


def srid_of(crs: str | None) -> int:
    """The EPSG code a CRS names (``EPSG:4326``, ``urn:…:EPSG::4326``, a WKT's last EPSG
    authority), -1 when it names none (GeoTools' ``CRS.lookupEpsgCode`` failing)."""
    if not crs:
        return -1
    text = crs.strip()
    found = re.fullmatch(r"(?i)(?:epsg:|urn:ogc:def:crs:epsg:[\d.]*:)(\d{1,9})", text)
    if found:
        return int(found.group(1))
    codes = re.findall(r'AUTHORITY\[\s*"EPSG"\s*,\s*"(\d{1,9})"\s*\]', text, re.I)
    return int(codes[-1]) if codes else -1


def primary_key_name(columns: Sequence[str]) -> str:
    """The generated key's column: the first of fid, fid_1, fid_2, id, … no attribute takes
    (case-insensitively), as ``JDBCDataStore.findPrimaryKeyColumnName``."""
    taken = {c.lower() for c in columns}
    for base in PK_NAMES:
        for suffix in PK_SUFFIXES:
            if base + suffix not in taken:
                return base + suffix
    return "fid"


def create_schema(
    conn: psycopg.Connection[Any], schema: str, table: str, columns: Sequence[Column], srid: int
) -> None:
    """``createSchema``: the table with a ``SERIAL PRIMARY KEY`` column, the columns in order
    (``NOT NULL`` for the non-nillable ones), each geometry column typed ``geometry(TYPE,
    SRID)`` and given a GiST index ``spatial_<table>_<column>``. Runs in ``conn``'s
    transaction."""
    from psycopg import sql

    if not columns:
        raise Invalid(
            "Trying to create new feature type inside the store, but no attributes were specified"
        )
    target = sql.Identifier(schema, table)
    parts = [
        sql.SQL("{} SERIAL PRIMARY KEY").format(
            sql.Identifier(primary_key_name([c.name for c in columns]))
        )
    ]
    for col in columns:
        kind = "geometry" if col.is_geometry else bindings.column_type(col.binding, col.length)
        if kind is None:
            raise Invalid(f"Unable to map {col.name}( {col.binding})")
        parts.append(
            sql.SQL("{} {}{}").format(
                sql.Identifier(col.name),
                sql.SQL(kind),
                sql.SQL("" if col.nillable else " NOT NULL"),
            )
        )
    conn.execute(sql.SQL("CREATE TABLE {} ({})").format(target, sql.SQL(", ").join(parts)))
    for col in columns:
        if not col.is_geometry:
            continue
        code = col.srid if col.srid is not None else srid
        kind = bindings.geometry_type(col.binding)
        conn.execute(
            sql.SQL("ALTER TABLE {} ALTER COLUMN {} TYPE geometry ({}, {})").format(
                target, sql.Identifier(col.name), sql.SQL(kind), sql.Literal(max(code, 0))
            )
        )
        conn.execute(
            sql.SQL("CREATE INDEX {} ON {} USING GIST ({})").format(
                sql.Identifier(f"spatial_{table}_{col.name.lower()}"),
                target,
                sql.Identifier(col.name),
            )
        )


def exists(conn: psycopg.Connection[Any], schema: str, name: str) -> bool:
    """Whether ``schema.name`` is a table or view."""
    row = conn.execute(
        "SELECT 1 FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n"
        " ON n.oid = c.relnamespace WHERE n.nspname = %s AND c.relname = %s"
        " AND c.relkind IN ('r', 'v', 'm', 'p', 'f')",
        (schema, name),
    ).fetchone()
    return row is not None


def list_types(conn: psycopg.Connection[Any], schema: str) -> list[tuple[str, bool]]:
    """The schema's tables and views as (name, has a geometry column), in the order the
    driver lists them (by kind, then name), less those GeoTools leaves out."""
    rows = conn.execute(
        "SELECT c.relname, EXISTS (SELECT 1 FROM pg_catalog.pg_attribute a"
        "   JOIN pg_catalog.pg_type t ON t.oid = a.atttypid"
        "   WHERE a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped"
        "   AND t.typname IN ('geometry', 'geography')),"
        " CASE c.relkind WHEN 'm' THEN 'MATERIALIZED VIEW' WHEN 'v' THEN 'VIEW'"
        "   WHEN 'f' THEN 'FOREIGN TABLE' ELSE 'TABLE' END AS kind"
        " FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace"
        " WHERE n.nspname = %s AND c.relkind IN ('r', 'v', 'm', 'p', 'f')"
        " AND NOT c.relispartition ORDER BY kind, c.relname",
        (schema,),
    ).fetchall()
    return [
        (name, bool(geom))
        for name, geom, _ in rows
        if name not in EXCLUDED and not name.startswith("spatial_ref_sys")
    ]


def describe(
    conn: psycopg.Connection[Any], schema: str, name: str, expose_primary_keys: bool = False
) -> TableInfo | None:
    """The columns of ``schema.name`` (None when there is no such table or view): bindings
    from the column types, geometry type and SRID from ``geometry_columns`` (the typmods),
    else from the first geometry; the primary key's columns are attributes only when the
    store exposes primary keys."""
    rows = conn.execute(
        "SELECT a.attname, t.typname, NOT a.attnotnull, a.atttypmod"
        " FROM pg_catalog.pg_attribute a"
        " JOIN pg_catalog.pg_class c ON c.oid = a.attrelid"
        " JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace"
        " JOIN pg_catalog.pg_type t ON t.oid = a.atttypid"
        " WHERE n.nspname = %s AND c.relname = %s AND a.attnum > 0 AND NOT a.attisdropped"
        " AND c.relkind IN ('r', 'v', 'm', 'p', 'f') ORDER BY a.attnum",
        (schema, name),
    ).fetchall()
    if not rows:
        return None if not exists(conn, schema, name) else TableInfo(name)
    keys = primary_key(conn, schema, name)
    geoms = _geometry_metadata(conn, schema, name)
    info = TableInfo(name, primary_key=keys)
    for column, typname, nillable, typmod in rows:
        if column in keys and not expose_primary_keys:
            continue
        if typname in ("geometry", "geography"):
            kind, code = geoms.get(column, ("GEOMETRY", 0))
            srid = code or first_srid(conn, schema, name, column)
            info.columns.append(
                Column(column, bindings.geometry_binding(kind), bool(nillable), None, srid)
            )
            continue
        binding = bindings.BINDINGS.get(typname)
        if binding is None:
            continue  # GeoTools leaves out a column it cannot map
        length = typmod - 4 if typname in ("varchar", "bpchar") and typmod > 4 else None
        info.columns.append(Column(column, binding, bool(nillable), length))
    return info


def primary_key(conn: psycopg.Connection[Any], schema: str, name: str) -> list[str]:
    rows = conn.execute(
        "SELECT a.attname FROM pg_catalog.pg_index i"
        " JOIN pg_catalog.pg_class c ON c.oid = i.indrelid"
        " JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace"
        " JOIN LATERAL unnest(i.indkey) WITH ORDINALITY AS k(attnum, pos) ON true"
        " JOIN pg_catalog.pg_attribute a ON a.attrelid = c.oid AND a.attnum = k.attnum"
        " WHERE n.nspname = %s AND c.relname = %s AND i.indisprimary ORDER BY k.pos",
        (schema, name),
    ).fetchall()
    return [r[0] for r in rows]


def _geometry_metadata(
    conn: psycopg.Connection[Any], schema: str, name: str
) -> dict[str, tuple[str, int]]:
    rows = conn.execute(
        "SELECT f_geometry_column, type, srid FROM geometry_columns"
        " WHERE f_table_schema = %s AND f_table_name = %s"
        " UNION ALL SELECT f_geography_column, type, srid FROM geography_columns"
        " WHERE f_table_schema = %s AND f_table_name = %s",
        (schema, name, schema, name),
    ).fetchall()
    return {str(col): (str(kind), int(srid or 0)) for col, kind, srid in rows}


def first_srid(conn: psycopg.Connection[Any], schema: str, name: str, column: str) -> int | None:
    """The SRID of the first non-null geometry (GeoTools' fallback), None without one."""
    from psycopg import sql

    row = conn.execute(
        sql.SQL("SELECT ST_SRID({}::geometry) FROM {} WHERE {} IS NOT NULL LIMIT 1").format(
            sql.Identifier(column), sql.Identifier(schema, name), sql.Identifier(column)
        )
    ).fetchone()
    return int(row[0]) if row and row[0] else None
