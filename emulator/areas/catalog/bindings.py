"""Attribute bindings: short names used in scenario files and the Java classes GeoServer writes."""

from __future__ import annotations

GEOMETRY_PACKAGE = "org.locationtech.jts.geom"
GEOMETRIES = (
    "Geometry",
    "Point",
    "MultiPoint",
    "LineString",
    "MultiLineString",
    "LinearRing",
    "Polygon",
    "MultiPolygon",
    "GeometryCollection",
)
JAVA = {
    "String": "java.lang.String",
    "Integer": "java.lang.Integer",
    "Long": "java.lang.Long",
    "Short": "java.lang.Short",
    "Double": "java.lang.Double",
    "Float": "java.lang.Float",
    "Boolean": "java.lang.Boolean",
    "BigDecimal": "java.math.BigDecimal",
    "Date": "java.sql.Date",
    "Timestamp": "java.sql.Timestamp",
    "Time": "java.sql.Time",
    **{g: f"{GEOMETRY_PACKAGE}.{g}" for g in GEOMETRIES},
}


def java(binding: str) -> str:
    """The Java class for a short binding name; a dotted name is kept as given."""
    return binding if "." in binding else JAVA.get(binding, binding)
