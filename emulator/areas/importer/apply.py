"""Applying a task's transforms to the features an indirect import copies
(``VectorTransformChain.inline``: first the schema, transform by transform, then each
feature; a transform reads the source feature's values, as GeoServer's do).

A failure (a date no form reads, a CRS PROJ cannot transform) is the task's error, with
GeoServer's message; nothing is copied then.
"""

from __future__ import annotations

import copy
from datetime import UTC, datetime
from typing import Any

from ...core.record import field, record
from ...features.model import Attribute, Feature, FeatureTable
from . import dates, geo
from .model import Transform
from .transforms import APPLIED

DATE = "java.util.Date"
POINT = "org.locationtech.jts.geom.Point"
DEFAULT_POINT_NAME = "location"


class TransformFailed(Exception):
    """A transform could not be applied; the message is the task's error."""


@record
class Copied:
    """The features as the target store receives them, and what the layer takes from the
    transforms."""

    table: FeatureTable
    srs: str | None = None
    """the CRS the features are in now, when a transform changed it"""
    metadata: dict[str, Any] = field(default_factory=dict)
    """resource metadata entries the transforms set (a ``time`` dimension)"""


def apply(table: FeatureTable, transforms: list[Transform]) -> Copied:
    """The copy of ``table`` the transforms make."""
    active = [t for t in transforms if t.type in APPLIED]
    schema = copy.deepcopy(table.attributes)
    geometry, srs = table.geometry, table.srs
    out = Copied(table)
    for t in active:
        geometry, srs = _retype(t, schema, geometry, srs, out)
    features = [_feature(f, table, schema, active) for f in table.features]
    out.table = FeatureTable(table.name, schema, geometry, srs, features)
    return out


def _find(schema: list[Attribute], name: str) -> Attribute:
    found = next((a for a in schema if a.name == name), None)
    if found is None:
        raise TransformFailed(f"No attribute named {name}")
    return found


def _retype(
    t: Transform, schema: list[Attribute], geometry: str | None, srs: str, out: Copied
) -> tuple[str | None, str]:
    f = t.fields
    if t.type in ("DateFormatTransform", "IntegerFieldToDateTransform"):
        _find(schema, f["field"]).binding = DATE
        if t.type == "DateFormatTransform" and "time" not in out.metadata:
            info: dict[str, Any] = {"enabled": True, "attribute": f["field"]}
            if f.get("enddate"):
                info["endAttribute"] = f["enddate"]
            info.update(presentation=f.get("presentation") or "LIST", units="ISO8601")
            out.metadata["time"] = {"dimensionInfo": info}
    elif t.type == "AttributeRemapTransform":
        _find(schema, f["field"]).binding = f["target"]
    elif t.type == "AttributesToPointGeometryTransform":
        lat, lng = f["latField"], f["lngField"]
        if not {lat, lng} <= {a.name for a in schema}:
            raise TransformFailed(
                f"FeatureType {out.table.name} does not have lat lng fields named "
                f"'{lat}' and '{lng}'"
            )
        drop = {lat, lng}
        if geometry is not None and not f.get("preserveGeometry"):
            drop.add(geometry)
        name = f.get("pointFieldName") or DEFAULT_POINT_NAME
        drop.add(name)
        schema[:] = [a for a in schema if a.name not in drop]
        schema.append(Attribute(name, POINT))
        geometry = name
    elif t.type == "ReprojectTransform":
        source = f.get("source") or srs
        target = f.get("target")
        if target is None or geo.transformer_for(source, target) is None:
            raise TransformFailed(f"Unable to reproject from {source} to {target}")
        srs = out.srs = target
    return geometry, srs


def _feature(
    feature: Feature, table: FeatureTable, schema: list[Attribute], active: list[Transform]
) -> Feature:
    old = feature.properties
    names = {a.name for a in schema}
    props = {k: v for k, v in old.items() if k in names}
    for t in active:
        _apply(t, old, props, table)
    return Feature(feature.fid, props)


def _apply(t: Transform, old: dict[str, Any], props: dict[str, Any], table: FeatureTable) -> None:
    f = t.fields
    if t.type == "DateFormatTransform":
        value = old.get(f["field"])
        if value is not None:
            parsed = _date(value, f.get("format"))
            props[f["field"]] = parsed
            if f.get("enddate") and f["enddate"] in props:
                props[f["enddate"]] = parsed
    elif t.type == "IntegerFieldToDateTransform":
        props[f["field"]] = _year(old.get(f["field"]))
    elif t.type == "AttributeRemapTransform":
        props[f["field"]] = convert(old.get(f["field"]), f["target"])
    elif t.type == "AttributesToPointGeometryTransform":
        name = f.get("pointFieldName") or DEFAULT_POINT_NAME
        props[name] = _point(old.get(f["latField"]), old.get(f["lngField"]))
    elif t.type == "ReprojectTransform":
        source = f.get("source") or table.srs
        transformer = geo.transformer_for(source, f["target"])
        for key, value in list(props.items()):
            if hasattr(value, "geom_type"):
                try:
                    props[key] = geo.reprojected(value, transformer)
                except Exception as exc:  # PROJ refuses a coordinate
                    raise TransformFailed(f"Unable to reproject: {exc}") from None


def _date(value: Any, pattern: str | None) -> datetime:
    if isinstance(value, datetime):
        return value
    parsed = dates.parse(str(value), pattern)
    if parsed is None:
        raise TransformFailed(f"Invalid date '{value}'")
    return parsed


def _year(value: Any) -> datetime | None:
    number = convert(value, "java.lang.Integer")
    if number is None or not 1 <= number <= 9999:
        return None
    return datetime(number, 1, 1, tzinfo=UTC)


def _point(lat: Any, lng: Any) -> Any:
    y, x = convert(lat, "java.lang.Double"), convert(lng, "java.lang.Double")
    if x is None or y is None:
        return None
    from shapely.geometry import Point

    return Point(x, y)


def convert(value: Any, target: str) -> Any:
    """GeoTools' ``Converters.convert`` for the common targets: None when it cannot."""
    if value is None:
        return None
    simple = target.rsplit(".", 1)[-1]
    try:
        if simple == "String":
            return value.isoformat() if isinstance(value, datetime) else str(value)
        if simple in ("Integer", "Long", "Short", "BigInteger"):
            if isinstance(value, bool):
                return None
            number = float(value) if not isinstance(value, int) else value
            return int(number) if float(number).is_integer() else None
        if simple in ("Double", "Float", "BigDecimal"):
            return None if isinstance(value, bool) else float(value)
        if simple == "Boolean":
            text = str(value).strip().lower()
            return {"true": True, "false": False, "1": True, "0": False, "yes": True,
                    "no": False}.get(text)  # fmt: skip
        if simple in ("Date", "Timestamp", "Time"):
            return _date(value, None)
    except (TypeError, ValueError, OverflowError, TransformFailed):
        return None
    return value
