"""Attribute bindings (Java class names) and PostgreSQL column types, both ways, as GeoTools'
``PostGISDialect`` maps them (``registerClassToSqlMappings``, the driver's type names with
the dialect's overrides, ``registerSqlTypeNameToClassMappings``)."""

from __future__ import annotations

JTS = "org.locationtech.jts.geom."
GEOMETRY_TYPES = {
    "Geometry": "GEOMETRY",
    "Point": "POINT",
    "LineString": "LINESTRING",
    "Polygon": "POLYGON",
    "MultiPoint": "MULTIPOINT",
    "MultiLineString": "MULTILINESTRING",
    "MultiPolygon": "MULTIPOLYGON",
    "GeometryCollection": "GEOMETRYCOLLECTION",
}
"""JTS class (simple name) → PostGIS geometry type (``CLASS_TO_TYPE_MAP``)"""

TYPE_TO_CLASS = {v: k for k, v in GEOMETRY_TYPES.items()}

COLUMN_TYPES = {
    "java.lang.String": "VARCHAR",
    "java.lang.Boolean": "BOOL",
    "boolean": "BOOL",
    "java.lang.Byte": "INT2",
    "java.lang.Short": "INT2",
    "java.lang.Integer": "INT4",
    "java.lang.Long": "INT8",
    "java.lang.Float": "FLOAT4",
    "java.lang.Double": "FLOAT8",
    "java.math.BigDecimal": "NUMERIC",
    "java.math.BigInteger": "NUMERIC",
    "java.sql.Date": "DATE",
    "java.sql.Time": "TIME",
    "java.sql.Timestamp": "TIMESTAMP",
    "java.util.Date": "TIMESTAMP",
    "java.util.UUID": "UUID",
    "[B": "BYTEA",
}
"""binding → the column type ``createSchema`` writes (geometries: see ``geometry_column``)"""

BINDINGS = {
    "varchar": "java.lang.String",
    "text": "java.lang.String",
    "bpchar": "java.lang.String",
    "char": "java.lang.String",
    "name": "java.lang.String",
    "json": "java.lang.String",
    "jsonb": "java.lang.String",
    "bool": "java.lang.Boolean",
    "int2": "java.lang.Short",
    "int4": "java.lang.Integer",
    "int8": "java.lang.Long",
    "oid": "java.lang.Long",
    "float4": "java.lang.Float",
    "float8": "java.lang.Double",
    "numeric": "java.math.BigDecimal",
    "date": "java.sql.Date",
    "time": "java.sql.Time",
    "timetz": "java.sql.Time",
    "timestamp": "java.sql.Timestamp",
    "timestamptz": "java.sql.Timestamp",
    "uuid": "java.util.UUID",
    "bytea": "[B",
}
"""PostgreSQL type name → binding (``geometry``/``geography`` are read from the geometry
metadata); a column of another type is left out, as GeoTools leaves out what it cannot map"""


def simple_name(binding: str) -> str:
    return binding.rpartition(".")[2]


def is_geometry(binding: str | None) -> bool:
    return (
        bool(binding)
        and str(binding).startswith((JTS, "com.vividsolutions.jts.geom."))
        and simple_name(str(binding)) in GEOMETRY_TYPES
    )


def geometry_binding(pg_type: str | None) -> str:
    """The JTS binding of a PostGIS geometry type (``POINT``, ``MultiPolygon``, ``POINTZ``…)."""
    name = (pg_type or "GEOMETRY").upper()
    for suffix in ("ZM", "M", "Z"):
        if name.endswith(suffix) and name[: -len(suffix)] in TYPE_TO_CLASS:
            name = name[: -len(suffix)]
            break
    return JTS + TYPE_TO_CLASS.get(name, "Geometry")


def geometry_type(binding: str) -> str:
    """The PostGIS geometry type of a JTS binding (``GEOMETRY`` when it is not a known one)."""
    return GEOMETRY_TYPES.get(simple_name(binding), "GEOMETRY")


def column_type(binding: str, length: int | None) -> str | None:
    """The column type ``createSchema`` writes for a non-geometry binding (None: unmapped);
    a text attribute with a length is ``VARCHAR(length)``."""
    found = COLUMN_TYPES.get(binding)
    if found == "VARCHAR" and length is not None and length > 0:
        return f"VARCHAR({int(length)})"
    return found
