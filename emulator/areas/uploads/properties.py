"""Property files (GeoTools' property data store): one feature type per ``.properties`` file.

    _=name:String,geom:Point:srid=4326
    fid1=zero|POINT(0 0)

The first line (``_=``) is the schema in GeoTools' ``DataUtilities.createType`` notation:
``name:Type`` pairs, ``*`` marking the default geometry, an optional ``:srid=N`` and
``:nillable``; each other line is a feature id, ``=``, and the values separated by ``|``
(``\\|`` is a bar inside a value, ``\\n`` a line break, ``<null>`` or an empty value null).
Geometries are WKT. The type name is the file's name without ``.properties``.
"""

from __future__ import annotations

import re
from datetime import date, datetime
from typing import Any

from ...features.model import Attribute, Feature, FeatureTable
from .crs import NO_CRS
from .readers import MAX_FEATURES, OverBudget, TypeRead, Unreadable

JTS = "org.locationtech.jts.geom."
GEOMETRIES = (
    "Geometry", "Point", "LineString", "Polygon", "MultiPoint", "MultiLineString",
    "MultiPolygon", "GeometryCollection", "LinearRing",
)  # fmt: skip
TYPES = {
    **{g.lower(): JTS + g for g in GEOMETRIES},
    "string": "java.lang.String",
    "integer": "java.lang.Integer",
    "int": "java.lang.Integer",
    "long": "java.lang.Long",
    "short": "java.lang.Short",
    "byte": "java.lang.Byte",
    "double": "java.lang.Double",
    "float": "java.lang.Float",
    "boolean": "java.lang.Boolean",
    "date": "java.util.Date",
    "timestamp": "java.sql.Timestamp",
    "time": "java.sql.Time",
    "uuid": "java.util.UUID",
    "bigdecimal": "java.math.BigDecimal",
    "biginteger": "java.math.BigInteger",
}
_JAVA = re.compile(r"^(java|org\.locationtech\.jts|com\.vividsolutions\.jts)\.[\w.]+$")


def type_names(files: dict[str, bytes], folder: str = "") -> list[str]:
    """The property files directly in ``folder`` (relative to the upload), sorted."""
    prefix = folder + "/" if folder else ""
    out = []
    for path in files:
        rest = path[len(prefix) :] if path.startswith(prefix) else None
        if rest and "/" not in rest and rest.lower().endswith(".properties"):
            out.append(rest[: -len(".properties")])
    return sorted(out)


def read(
    files: dict[str, bytes], name: str, folder: str = "", limit: int = MAX_FEATURES
) -> TypeRead:
    """Read the property file ``name``; more than ``limit`` features is refused as they are
    read."""
    path = f"{folder}/{name}.properties" if folder else f"{name}.properties"
    data = files.get(path)
    if data is None:
        raise Unreadable(f"Property file {name}.properties is missing")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        text = data.decode("latin-1")
    lines = _logical_lines(text)
    if not lines or not lines[0].startswith("_="):
        raise Unreadable(
            f"Property file {name}.properties has no schema line (it must start with _=)"
        )
    attributes, geometry, srs = _schema(name, lines[0][2:])
    features = []
    for number, line in enumerate(lines[1:], start=2):
        if len(features) >= limit:
            raise OverBudget(
                f"Property file {name}.properties holds more than {limit} features"
                f" (at most {MAX_FEATURES} in one upload)"
            )
        fid, sep, rest = line.partition("=")
        if not sep or not fid.strip():
            raise Unreadable(f"Property file {name}.properties: line {number} has no feature id")
        values = _split(rest)
        props = {
            attr.name: _value(values[i] if i < len(values) else None, attr, name, number)
            for i, attr in enumerate(attributes)
        }
        features.append(Feature(fid.strip(), props))
    table = FeatureTable(name, attributes, geometry, srs or NO_CRS, features)
    return TypeRead(table, srs, [path])


def _logical_lines(text: str) -> list[str]:
    """Lines with comments and blanks dropped, a trailing backslash joining the next."""
    out: list[str] = []
    pending = ""
    for raw in text.splitlines():
        line = pending + raw.strip() if pending else raw.strip()
        if line.endswith("\\") and not line.endswith("\\\\"):
            pending = line[:-1]
            continue
        pending = ""
        if line and not line.startswith(("#", "!")):
            out.append(line)
    if pending:
        out.append(pending)
    return out


def _schema(name: str, spec: str) -> tuple[list[Attribute], str | None, str | None]:
    attributes: list[Attribute] = []
    geometry: str | None = None
    srs: str | None = None
    for part in [p.strip() for p in spec.split(",") if p.strip()]:
        bits = part.split(":")
        if len(bits) < 2 or not bits[0].strip("*"):
            raise Unreadable(f"Property file {name}.properties: bad attribute {part!r}")
        attr_name = bits[0].strip()
        default = attr_name.startswith("*")
        attr_name = attr_name.lstrip("*")
        kind = bits[1].strip()
        binding = TYPES.get(kind.lower()) or (kind if _JAVA.match(kind) else None)
        if binding is None:
            raise Unreadable(f"Property file {name}.properties: unknown type {kind}")
        nillable = True
        for hint in bits[2:]:
            key, _, value = hint.partition("=")
            if key.strip().lower() == "srid" and value.strip().isdigit():
                if binding.startswith(JTS):
                    srs = srs or f"EPSG:{int(value)}"
            elif key.strip().lower() == "nillable":
                nillable = value.strip().lower() != "false" if value else True
        attributes.append(Attribute(attr_name, binding, nillable))
        if binding.startswith(JTS) and (geometry is None or default):
            geometry = attr_name
    return attributes, geometry, srs


def _split(rest: str) -> list[str]:
    out, current, escaped = [], [], False
    for ch in rest:
        if escaped:
            current.append({"n": "\n", "r": "\r", "t": "\t"}.get(ch, ch))
            escaped = False
        elif ch == "\\":
            escaped = True
        elif ch == "|":
            out.append("".join(current))
            current = []
        else:
            current.append(ch)
    out.append("".join(current))
    return out


def _value(raw: str | None, attr: Attribute, name: str, line: int) -> Any:
    if raw is None or raw == "<null>":
        return None
    binding = attr.binding
    if binding == "java.lang.String":
        return raw
    text = raw.strip()
    if text == "":
        return None
    try:
        if binding.startswith(JTS):
            from shapely import wkt

            return wkt.loads(text)
        if binding in ("java.lang.Integer", "java.lang.Long", "java.lang.Short", "java.lang.Byte",
                       "java.math.BigInteger"):  # fmt: skip
            return int(text)
        if binding in ("java.lang.Double", "java.lang.Float", "java.math.BigDecimal"):
            return float(text)
        if binding == "java.lang.Boolean":
            return text.lower() in ("true", "1", "yes")
        if binding == "java.util.Date":
            return _date(text)
        if binding == "java.sql.Timestamp":
            return datetime.fromisoformat(text.replace("Z", "+00:00"))
    except Exception as exc:  # shapely and the parsers raise various kinds
        raise Unreadable(
            f"Property file {name}.properties: line {line}, {attr.name}: "
            f"cannot read {text!r} ({type(exc).__name__})"
        ) from None
    return text


def _date(text: str) -> date:
    if len(text) == 10:
        return date.fromisoformat(text)
    return datetime.fromisoformat(text.replace("Z", "+00:00"))
