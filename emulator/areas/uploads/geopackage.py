"""GeoPackages read with the standard ``sqlite3`` module: their feature tables.

The file is checked (SQLite header, ``PRAGMA quick_check``, the ``gpkg_contents`` table)
and opened in memory, never written. Each ``features`` row of ``gpkg_contents`` is a type,
in table-name order; its geometry column comes from ``gpkg_geometry_columns``, its CRS
from ``gpkg_spatial_ref_sys``; the primary key is not an attribute (GeoTools hides it) and
makes the fids ``<table>.<key>``. Column types bind as GeoTools' GeoPackage dialect binds
them; geometries are GeoPackage binary (``GP`` header, then WKB).
"""

from __future__ import annotations

import re
import sqlite3
import struct
from contextlib import closing
from datetime import date, datetime
from typing import Any

from ...features.model import Attribute, Feature, FeatureTable
from .crs import NO_CRS, srs_of_wkt
from .readers import MAX_FEATURES, OverBudget, TypeRead, Unreadable

JTS = "org.locationtech.jts.geom."
MAGIC = b"SQLite format 3\x00"
GEOMETRY_TYPES = {
    "GEOMETRY": "Geometry", "POINT": "Point", "LINESTRING": "LineString",
    "POLYGON": "Polygon", "MULTIPOINT": "MultiPoint", "MULTILINESTRING": "MultiLineString",
    "MULTIPOLYGON": "MultiPolygon", "GEOMETRYCOLLECTION": "GeometryCollection",
}  # fmt: skip
COLUMN_TYPES = {
    "BOOLEAN": "java.lang.Boolean", "TINYINT": "java.lang.Byte", "SMALLINT": "java.lang.Short",
    "MEDIUMINT": "java.lang.Integer", "INT": "java.lang.Integer", "INTEGER": "java.lang.Integer",
    "BIGINT": "java.lang.Long", "FLOAT": "java.lang.Float", "DOUBLE": "java.lang.Double",
    "REAL": "java.lang.Double", "NUMERIC": "java.lang.Double", "TEXT": "java.lang.String",
    "VARCHAR": "java.lang.String", "CHAR": "java.lang.String", "CLOB": "java.lang.String",
    "BLOB": "[B", "DATE": "java.sql.Date", "DATETIME": "java.sql.Timestamp",
    "TIMESTAMP": "java.sql.Timestamp",
}  # fmt: skip
_ENVELOPE_DOUBLES = {0: 0, 1: 4, 2: 6, 3: 6, 4: 8}


def _open(data: bytes, label: str) -> sqlite3.Connection:
    if len(data) < 100 or not data.startswith(MAGIC):
        raise Unreadable(f"GeoPackage {label} is not an SQLite database")
    page = struct.unpack(">H", data[16:18])[0]
    page = 65536 if page == 1 else page
    pages = struct.unpack(">I", data[28:32])[0]
    if page < 512 or (pages and pages * page > len(data)):
        raise Unreadable(
            f"GeoPackage {label} is truncated: it declares {pages * page} bytes, "
            f"{len(data)} are present"
        )
    conn = sqlite3.connect(":memory:")
    try:
        conn.deserialize(data)
        if conn.execute("PRAGMA quick_check").fetchone()[0] != "ok":
            raise Unreadable(f"GeoPackage {label} is corrupt (the integrity check failed)")
        names = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    except sqlite3.DatabaseError as exc:
        conn.close()
        raise Unreadable(f"GeoPackage {label} cannot be read: {exc}") from None
    except Unreadable:
        conn.close()
        raise
    if "gpkg_contents" not in names:
        conn.close()
        raise Unreadable(f"GeoPackage {label} has no gpkg_contents table")
    return conn


def type_names(data: bytes, label: str) -> list[str]:
    with closing(_open(data, label)) as conn:
        return _features(conn, label)


def _features(conn: sqlite3.Connection, label: str) -> list[str]:
    try:
        rows = conn.execute(
            "SELECT table_name FROM gpkg_contents WHERE lower(data_type)='features' "
            "ORDER BY table_name"
        ).fetchall()
    except sqlite3.DatabaseError as exc:
        raise Unreadable(f"GeoPackage {label} cannot be read: {exc}") from None
    return [str(r[0]) for r in rows]


def read_all(data: bytes, label: str) -> list[TypeRead]:
    """Every feature table of the GeoPackage ``data`` (``label`` names it in messages)."""
    with closing(_open(data, label)) as conn:
        try:
            names = _features(conn, label)
            total = sum(_count(conn, n) for n in names)
            if total > MAX_FEATURES:
                raise OverBudget(
                    f"GeoPackage {label} holds {total} features; at most {MAX_FEATURES} are"
                    " accepted in one upload"
                )
            return [_read(conn, label, name) for name in names]
        except sqlite3.DatabaseError as exc:
            raise Unreadable(f"GeoPackage {label} cannot be read: {exc}") from None


def _count(conn: sqlite3.Connection, table: str) -> int:
    """The rows of ``table``, 0 when it is missing (``_read`` then says so)."""
    try:
        return int(conn.execute(f"SELECT count(*) FROM {_quote(table)}").fetchone()[0])
    except sqlite3.DatabaseError:
        return 0


def _quote(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def _read(conn: sqlite3.Connection, label: str, table: str) -> TypeRead:
    geom_row = conn.execute(
        "SELECT column_name, geometry_type_name, srs_id FROM gpkg_geometry_columns "
        "WHERE table_name=?",
        (table,),
    ).fetchone()
    geom_col = str(geom_row[0]) if geom_row else None
    srs, wkt = _srs(conn, geom_row[2] if geom_row else None)
    columns = conn.execute(f"PRAGMA table_info({_quote(table)})").fetchall()
    if not columns:
        raise Unreadable(f"GeoPackage {label}: table {table} is missing")
    pk = next((str(c[1]) for c in columns if c[5]), None)
    attributes: list[Attribute] = []
    for _, cname, ctype, notnull, _, is_pk in columns:
        if is_pk:
            continue
        if cname == geom_col:
            kind = GEOMETRY_TYPES.get(str(geom_row[1]).upper(), "Geometry")  # type: ignore[index]
            attributes.append(Attribute(str(cname), JTS + kind, not notnull))
        else:
            attributes.append(_column(str(cname), str(ctype or ""), bool(notnull)))
    count = conn.execute(f"SELECT count(*) FROM {_quote(table)}").fetchone()[0]
    if count > MAX_FEATURES:
        raise OverBudget(
            f"GeoPackage {label}: table {table} holds more than {MAX_FEATURES} features"
        )
    names = [a.name for a in attributes]
    select = ", ".join(_quote(c) for c in ([pk] if pk else []) + names) or "1"
    order = f" ORDER BY {_quote(pk)}" if pk else " ORDER BY rowid"
    features = []
    for n, row in enumerate(conn.execute(f"SELECT {select} FROM {_quote(table)}{order}"), 1):
        key = row[0] if pk else n
        values = row[1:] if pk else row
        props = {
            a.name: _value(v, a, label, table) for a, v in zip(attributes, values, strict=True)
        }
        features.append(Feature(f"{table}.{key}", props))
    out = FeatureTable(table, attributes, geom_col, srs or wkt or NO_CRS, features)
    return TypeRead(out, wkt or srs)


def _column(name: str, ctype: str, notnull: bool) -> Attribute:
    base = re.match(r"\s*([A-Za-z]+)\s*(?:\(\s*(\d+)\s*\))?", ctype)
    kind = base.group(1).upper() if base else ""
    binding = COLUMN_TYPES.get(kind, "java.lang.String" if not kind else "java.lang.Object")
    length = (
        int(base.group(2)) if base and base.group(2) and binding == "java.lang.String" else None
    )
    return Attribute(name, binding, not notnull, length)


def _srs(conn: sqlite3.Connection, srs_id: Any) -> tuple[str | None, str | None]:
    if srs_id is None:
        return None, None
    row = conn.execute(
        "SELECT organization, organization_coordsys_id, definition FROM gpkg_spatial_ref_sys "
        "WHERE srs_id=?",
        (srs_id,),
    ).fetchone()
    if row is None:
        return None, None
    org, code, definition = row
    wkt = str(definition) if definition and str(definition).strip() != "undefined" else None
    if str(org or "").upper() == "EPSG" and isinstance(code, int) and code > 0:
        return f"EPSG:{code}", wkt
    return (srs_of_wkt(wkt) if wkt else None), wkt


def _value(value: Any, attr: Attribute, label: str, table: str) -> Any:
    if value is None:
        return None
    if attr.binding.startswith(JTS):
        return geometry(value, f"GeoPackage {label}: table {table}")
    if attr.binding == "java.lang.Boolean":
        return bool(value)
    if attr.binding == "java.sql.Date" and isinstance(value, str):
        try:
            return date.fromisoformat(value[:10])
        except ValueError:
            return value
    if attr.binding == "java.sql.Timestamp" and isinstance(value, str):
        try:
            return datetime.fromisoformat(value.replace("Z", "+00:00"))
        except ValueError:
            return value
    return value


def geometry(blob: Any, where: str) -> Any:
    """A GeoPackage binary geometry as a shapely geometry (None when empty)."""
    if not isinstance(blob, bytes | bytearray) or len(blob) < 8 or blob[:2] != b"GP":
        raise Unreadable(f"{where}: a geometry is not GeoPackage binary")
    flags = blob[3]
    envelope = (flags >> 1) & 0x07
    if envelope not in _ENVELOPE_DOUBLES:
        raise Unreadable(f"{where}: a geometry has an invalid envelope code {envelope}")
    if flags & 0x10:
        return None
    start = 8 + 8 * _ENVELOPE_DOUBLES[envelope]
    from shapely import wkb

    try:
        return wkb.loads(bytes(blob[start:]))
    except Exception as exc:  # shapely raises its own kinds for broken WKB
        raise Unreadable(f"{where}: a geometry cannot be read ({exc})") from None
