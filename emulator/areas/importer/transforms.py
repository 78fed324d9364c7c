"""Import transforms: read (``ImportJSONReader.transform``), written (``ImportJSONWriter.
transform``) and applied to the features an indirect import copies.

Applied, as GeoServer applies them while copying features into a target store:
``AttributeRemapTransform`` (a field converted to another type), ``DateFormatTransform`` (a
text field read as a date, with a pattern or GeoServer's usual date forms; the layer gets a
``time`` dimension), ``IntegerFieldToDateTransform`` (a year as the first of January),
``AttributesToPointGeometryTransform`` (a point, ``location`` unless named, from two fields
that go; the data's own geometry goes too unless ``preserveGeometry``) and ``ReprojectTransform``
(the features and the layer in another CRS). A direct import (no target store) copies
nothing, so there, as in GeoServer, they change nothing.

Stored only (read, listed, written, no effect): ``CreateIndexTransform`` (the emulator's
tables have no indexes), ``AttributeComputeTransform``, ``PostScriptTransform`` and the GDAL
raster transforms (the emulated server has neither scripts nor GDAL).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ...core.errors import Invalid
from .model import Transform

Fields = dict[str, Any]

REMAP_TARGETS = {
    "java.lang.String": "java.lang.String", "java.lang.Integer": "java.lang.Integer",
    "java.lang.Long": "java.lang.Long", "java.lang.Short": "java.lang.Short",
    "java.lang.Double": "java.lang.Double", "java.lang.Float": "java.lang.Float",
    "java.lang.Boolean": "java.lang.Boolean", "java.math.BigDecimal": "java.math.BigDecimal",
    "java.math.BigInteger": "java.math.BigInteger", "java.util.Date": "java.util.Date",
    "java.sql.Date": "java.sql.Date", "java.sql.Timestamp": "java.sql.Timestamp",
    "java.sql.Time": "java.sql.Time",
}  # fmt: skip
"""the Java classes a remap may name (others: ``unable to locate target class``)"""
GEOMETRY_CLASSES = frozenset(
    f"org.locationtech.jts.geom.{n}"
    for n in ("Geometry", "Point", "LineString", "Polygon", "MultiPoint", "MultiLineString",
              "MultiPolygon", "GeometryCollection")
)  # fmt: skip
PRESENTATIONS = ("LIST", "DISCRETE_INTERVAL", "CONTINUOUS_INTERVAL")


def _text(json: Fields, key: str) -> str:
    if key not in json or json[key] is None:
        raise Invalid(f'JSONObject["{key}"] not found.')
    value = json[key]
    return value if isinstance(value, str) else _java(value)


def _java(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _optional(json: Fields, key: str) -> str | None:
    value = json.get(key)
    return None if value is None else (value if isinstance(value, str) else _java(value))


def _options(json: Fields) -> list[str]:
    raw = json.get("options", [])
    if not isinstance(raw, list):
        raise Invalid('JSONObject["options"] is not a JSONArray.')
    return [v if isinstance(v, str) else _java(v) for v in raw]


def read(json: Any) -> Transform:
    """A transform from its JSON; ``Invalid`` with GeoServer's words for a bad one."""
    if not isinstance(json, dict):
        raise Invalid("A transform must be a JSON object")
    kind = _text(json, "type")
    for name, reader in READERS.items():
        if name.lower() == kind.lower():
            return Transform(name, reader(json))
    raise Invalid(f"Invalid transform type '{kind}'")


def _date_format(json: Fields) -> Fields:
    pattern = _optional(json, "format")
    if pattern is not None:
        from . import dates

        dates.check_pattern(pattern)
    presentation = _optional(json, "presentation") or "LIST"
    if presentation not in PRESENTATIONS:
        raise Invalid(
            f"No enum constant org.geoserver.catalog.DimensionPresentation.{presentation}"
        )
    return {"field": _text(json, "field"), "format": pattern,
            "enddate": _optional(json, "enddate"), "presentation": presentation}  # fmt: skip


def _field(json: Fields) -> Fields:
    return {"field": _text(json, "field")}


def _remap(json: Fields) -> Fields:
    target = _text(json, "target")
    if target not in REMAP_TARGETS and target not in GEOMETRY_CLASSES:
        raise Invalid(f"unable to locate target class {target}")
    return {"field": _text(json, "field"), "target": target}


def _compute(json: Fields) -> Fields:
    kind = _text(json, "fieldType")
    if kind not in REMAP_TARGETS and kind not in GEOMETRY_CLASSES:
        raise Invalid(f"unable to locate target class {_text(json, 'type')}")
    return {"field": _text(json, "field"), "fieldType": kind, "cql": _text(json, "cql")}


def _to_point(json: Fields) -> Fields:
    preserve = _optional(json, "preserveGeometry")
    return {
        "latField": _text(json, "latField"),
        "lngField": _text(json, "lngField"),
        "pointFieldName": _optional(json, "pointFieldName"),
        "preserveGeometry": (preserve or "").lower() == "true",
    }


def _reproject(json: Fields) -> Fields:
    from . import geo

    out: Fields = {}
    for key in ("source", "target"):
        srs = _optional(json, key)
        if srs is not None and not geo.known(srs):
            raise Invalid(f"Failing parsing srs: {srs}")
        out[key] = srs
    return out


def _gdal(json: Fields) -> Fields:
    return {"options": _options(json)}


def _addo(json: Fields) -> Fields:
    levels = json.get("levels")
    if not isinstance(levels, list) or not all(
        isinstance(v, int) and not isinstance(v, bool) and -(2**31) <= v < 2**31 for v in levels
    ):
        raise Invalid('JSONObject["levels"] is not a JSONArray of integers.')
    return {"options": _options(json), "levels": list(levels)}


def _script(json: Fields) -> Fields:
    return {"name": _text(json, "name"), "options": _options(json)}


READERS: dict[str, Callable[[Fields], Fields]] = {
    "DateFormatTransform": _date_format,
    "IntegerFieldToDateTransform": _field,
    "CreateIndexTransform": _field,
    "AttributeRemapTransform": _remap,
    "AttributeComputeTransform": _compute,
    "AttributesToPointGeometryTransform": _to_point,
    "ReprojectTransform": _reproject,
    "GdalTranslateTransform": _gdal,
    "GdalWarpTransform": _gdal,
    "GdalAddoTransform": _addo,
    "PostScriptTransform": _script,
}
"""every transform type GeoServer's reader knows, with its fields' reader"""

APPLIED = frozenset({
    "DateFormatTransform", "IntegerFieldToDateTransform", "AttributeRemapTransform",
    "AttributesToPointGeometryTransform", "ReprojectTransform",
})  # fmt: skip
"""the transforms that change the data an indirect import copies"""


def dump(transform: Transform, href: str, expand: int) -> Fields:
    """``{"type", "href"}`` and, expanded, the fields GeoServer's writer writes."""
    out: Fields = {"type": transform.type, "href": href}
    if expand <= 0:
        return out
    f = transform.fields
    kind = transform.type
    if kind == "DateFormatTransform":
        out["field"] = f["field"]
        if f.get("format") is not None:
            out["format"] = f["format"]
    elif kind in ("IntegerFieldToDateTransform", "CreateIndexTransform"):
        out["field"] = f["field"]
    elif kind == "AttributeRemapTransform":
        out.update(field=f["field"], target=f["target"])
    elif kind == "AttributeComputeTransform":
        out.update(field=f["field"], fieldType=f["fieldType"], cql=f["cql"])
    elif kind == "AttributesToPointGeometryTransform":
        out.update(latField=f["latField"], lngField=f["lngField"])
    elif kind == "ReprojectTransform":
        out.update(source=f.get("source"), target=f.get("target"))
    elif kind == "PostScriptTransform":
        out.update(name=f["name"], options=list(f["options"]))
    else:
        out["options"] = list(f["options"])
        if kind == "GdalAddoTransform":
            out["levels"] = list(f["levels"])
    return out


def update(current: Transform, json: Any) -> Transform:
    """``PUT`` of a transform: the fields given replace the current ones (``OwsUtils.copy``
    of the properties the body sets); the type stays."""
    if not isinstance(json, dict):
        raise Invalid("A transform must be a JSON object")
    merged = {**current.fields, **{k: v for k, v in json.items() if k != "type"}}
    merged["type"] = current.type
    if current.type == "ReprojectTransform":
        merged = {k: merged.get(k) for k in ("type", "source", "target")}
    fresh = read(merged)
    return Transform(current.type, fresh.fields)
