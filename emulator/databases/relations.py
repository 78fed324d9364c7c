"""What a feature source must know of the table or SQL view behind a feature type, and the
feature ids GeoServer's JDBC store makes of its rows.

``describe_relation`` reads a table's columns, types, SRIDs, defaults and primary key in one
round trip (an SQL view's from its query, run with no rows, and its declared key columns).
Feature ids are GeoTools' (``JDBCDataStore.encodeFID``): ``<type>.<key>`` with the primary
key's value, the values of a key of several columns joined by ``.``; a table without a
primary key (or a view without key columns) gets GeoTools' default id, ``fid-`` and a
unique text, which the emulator makes from the row's content (``fid-`` and 16 hex digits) so
that the same row has the same id in every response (GeoTools' are random).
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ..core.record import field, record
from . import bindings
from .dialect import first_srid
from .literals import Col, NotSql, literal
from .rows import Source, view_columns

if TYPE_CHECKING:
    import psycopg

WRITABLE_KINDS = frozenset({"r", "p"})
"""tables (plain and partitioned): GeoTools writes to them; views and SQL views are read-only"""


@record
class Relation:
    """A table or SQL view as a feature source uses it."""

    source: Source
    columns: dict[str, Col] = field(default_factory=dict)
    """every column, primary key included, in table order"""
    key: list[str] = field(default_factory=list)
    """the primary key's columns (an SQL view's key columns), in key order"""
    generated: set[str] = field(default_factory=set)
    """key columns the database fills (a sequence, an identity, a default)"""
    writable: bool = False

    @property
    def table(self) -> str:
        return self.source.table or ""

    def geometry_columns(self) -> list[Col]:
        return [c for c in self.columns.values() if c.is_geometry]


_COLUMNS = """
SELECT a.attname, t.typname, NOT a.attnotnull, a.atttypmod,
       a.atthasdef OR a.attidentity <> '', c.relkind,
       (SELECT k.pos FROM pg_catalog.pg_index i,
               unnest(i.indkey) WITH ORDINALITY AS k(attnum, pos)
         WHERE i.indrelid = c.oid AND i.indisprimary AND k.attnum = a.attnum),
       CASE WHEN t.typname IN ('geometry', 'geography') AND a.atttypmod >= 0
            THEN postgis_typmod_srid(a.atttypmod) END,
       CASE WHEN t.typname IN ('geometry', 'geography') AND a.atttypmod >= 0
            THEN postgis_typmod_type(a.atttypmod) END
  FROM pg_catalog.pg_attribute a
  JOIN pg_catalog.pg_class c ON c.oid = a.attrelid
  JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
  JOIN pg_catalog.pg_type t ON t.oid = a.atttypid
 WHERE n.nspname = %s AND c.relname = %s AND a.attnum > 0 AND NOT a.attisdropped
   AND c.relkind IN ('r', 'v', 'm', 'p', 'f')
 ORDER BY a.attnum
"""


def describe_relation(conn: psycopg.Connection[Any], source: Source) -> Relation | None:
    """The relation behind ``source`` (None: no such table or view)."""
    if source.view is not None:
        return _describe_view(conn, source)
    rows = conn.execute(_COLUMNS, (source.schema, source.table)).fetchall()
    if not rows:
        return None
    rel = Relation(source, writable=rows[0][5] in WRITABLE_KINDS)
    keyed: list[tuple[int, str]] = []
    for name, typname, _nullable, _typmod, has_default, _kind, pos, srid, kind in rows:
        name, typname = str(name), str(typname)
        binding = bindings.geometry_binding(kind) if kind else _binding(typname)
        if binding is None:
            continue  # GeoTools leaves out a column it cannot map
        code = int(srid) if srid else None
        if typname in ("geometry", "geography") and not code:
            code = first_srid(conn, source.schema, rel.table, name)
        rel.columns[name] = Col(name, binding, typname, code)
        if pos is not None:
            keyed.append((int(pos), name))
            if has_default:
                rel.generated.add(name)
    rel.key = [name for _, name in sorted(keyed)]
    return rel


def _describe_view(conn: psycopg.Connection[Any], source: Source) -> Relation:
    assert source.view is not None
    rel = Relation(source)
    from psycopg import sql

    cur = conn.execute(sql.SQL("SELECT * FROM {} LIMIT 0").format(source.relation()), ())
    types = {
        int(oid): str(name)
        for oid, name in conn.execute(
            "SELECT oid, typname FROM pg_catalog.pg_type WHERE oid = ANY(%s)",
            ([d.type_code for d in cur.description or []],),
        ).fetchall()
    }
    described = {c.name: c for c in view_columns(conn, source)}
    for d in cur.description or []:
        typname = types.get(d.type_code, "")
        found = described.get(d.name)
        if found is not None:
            rel.columns[d.name] = Col(d.name, found.binding, typname, found.srid)
        elif d.name in source.view.key_columns:
            binding = _binding(typname) or "java.lang.String"
            rel.columns[d.name] = Col(d.name, binding, typname)
    rel.key = [k for k in source.view.key_columns if k in rel.columns]
    return rel


def _binding(typname: str) -> str | None:
    if typname in ("geometry", "geography"):
        return bindings.JTS + "Geometry"
    return bindings.BINDINGS.get(typname)


# -- feature ids ------------------------------------------------------------------------------


def encode_fid(type_name: str, key: Sequence[Any]) -> str:
    """``<type>.<key>`` (the values of a key of several columns joined by ``.``)."""
    if len(key) == 1:
        value = key[0]
        return f"{type_name}.{value if type(value) is int else _key_text(value)}"
    return type_name + "." + ".".join(_key_text(v) for v in key)


def row_fid(type_name: str, raw: Sequence[Any]) -> str:
    """The id of a row without a key: ``<type>.fid-`` and a digest of its values."""
    digest = hashlib.sha1(repr(tuple(_stable(v) for v in raw)).encode()).hexdigest()[:16]
    return f"{type_name}.fid-{digest}"


def decode_fid(names: Sequence[str], rel: Relation, fid: str) -> list[Any] | None:
    """The key values a feature id names (the type name's ``<name>.`` stripped, as GeoTools'
    ``decodeFID`` strips it), converted to the key columns' types; None when it names no
    row this relation can have."""
    text = fid
    for name in names:
        if name and text.startswith(name + "."):
            text = text[len(name) + 1 :]
            break
    if not rel.key:
        return None
    parts = [text] if len(rel.key) == 1 else text.split(".")
    if len(parts) != len(rel.key):
        return None
    out = []
    for part, column in zip(parts, rel.key, strict=True):
        try:
            out.append(literal(rel.columns[column], part))
        except NotSql:
            return None
    return out


def _key_text(value: Any) -> str:
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def _stable(value: Any) -> Any:
    if isinstance(value, memoryview):
        return bytes(value)
    return value
