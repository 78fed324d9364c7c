"""Index attribute types: the Java classes GeoServer names, and the Python values behind them.

An index schema is declared as GeoTools' ``DataUtilities.createType`` spec
(``*the_geom:Polygon,location:String,time:java.util.Date``). The index store then decides
what it really holds: a shapefile (the default) turns polygons into multipolygons, strings
into 254-character fields and every number into a DBF field with its width; a database
(``datastore.properties``) keeps the declared types, dates becoming timestamps.

Python values: ``str``, ``int``, ``float``, ``bool``, aware UTC ``datetime``, or None.
"""

from __future__ import annotations

import re
from datetime import datetime
from typing import Any

from ...core.record import record
from ...filters.converters import format_value as format_value
from ...filters.converters import instant_of
from ...filters.converters import iso_instant as iso_instant
from ...filters.converters import java_double as java_double
from ...filters.converters import parse_instant as parse_instant
from ...wire.geoserver.dates import geojson_instant as geojson_instant
from ..catalog.bindings import GEOMETRIES, GEOMETRY_PACKAGE

JTS = GEOMETRY_PACKAGE + "."
SHORT_NAMES = {
    "String": "java.lang.String",
    "string": "java.lang.String",
    "Integer": "java.lang.Integer",
    "int": "java.lang.Integer",
    "Short": "java.lang.Short",
    "short": "java.lang.Short",
    "Byte": "java.lang.Byte",
    "byte": "java.lang.Byte",
    "Long": "java.lang.Long",
    "long": "java.lang.Long",
    "Float": "java.lang.Float",
    "float": "java.lang.Float",
    "Double": "java.lang.Double",
    "double": "java.lang.Double",
    "BigDecimal": "java.math.BigDecimal",
    "BigInteger": "java.math.BigInteger",
    "Boolean": "java.lang.Boolean",
    "boolean": "java.lang.Boolean",
    "Date": "java.util.Date",
    "Timestamp": "java.sql.Timestamp",
    "Time": "java.sql.Time",
    "UUID": "java.util.UUID",
    **{g: JTS + g for g in GEOMETRIES},
}
KNOWN = frozenset(SHORT_NAMES.values()) | {"java.sql.Date"}
INTEGERS = frozenset(
    {
        "java.lang.Integer",
        "java.lang.Short",
        "java.lang.Byte",
        "java.lang.Long",
        "java.math.BigInteger",
    }
)
REALS = frozenset({"java.lang.Double", "java.lang.Float", "java.math.BigDecimal"})
TEMPORALS = frozenset({"java.util.Date", "java.sql.Timestamp", "java.sql.Date", "java.sql.Time"})

SHAPEFILE = "shapefile"
DATABASE = "database"


class SchemaError(ValueError):
    """A schema spec GeoTools would not accept."""


@record(frozen=True)
class IndexAttribute:
    """One attribute of a granule index, as the index store holds it."""

    name: str
    binding: str
    length: int | None = None

    @property
    def is_geometry(self) -> bool:
        return self.binding.startswith(JTS)

    @property
    def kind(self) -> str:
        """``geometry``, ``int``, ``real``, ``time``, ``bool`` or ``string``."""
        return kind(self.binding)


def kind(binding: str) -> str:
    if binding.startswith(JTS):
        return "geometry"
    if binding in INTEGERS:
        return "int"
    if binding in REALS:
        return "real"
    if binding in TEMPORALS:
        return "time"
    if binding == "java.lang.Boolean":
        return "bool"
    return "string"


def java_class(type_name: str) -> str:
    """The Java class a spec type names (short name or full class name)."""
    name = type_name.strip()
    if name.startswith("com.vividsolutions.jts.geom."):
        name = JTS + name.rsplit(".", 1)[1]
    if name in SHORT_NAMES:
        return SHORT_NAMES[name]
    if name in KNOWN:
        return name
    raise SchemaError(f"Unknown type {type_name!r}")


def parse_spec(spec: str) -> list[tuple[str, str]]:
    """``"*the_geom:Polygon,location:String"`` → [(name, declared Java class)], in order."""
    out: list[tuple[str, str]] = []
    for part in (p.strip() for p in spec.split(",")):
        if not part:
            continue
        name, sep, rest = part.lstrip("*").partition(":")
        if not sep or not name.strip():
            raise SchemaError(f"Attribute spec {part!r} is not name:Type")
        out.append((name.strip(), java_class(rest.split(":", 1)[0])))
    if not out:
        raise SchemaError("The schema spec declares no attribute")
    names = [n for n, _ in out]
    if len(set(names)) != len(names):
        raise SchemaError("The schema spec declares an attribute twice")
    return out


def stored(name: str, declared: str, store: str) -> IndexAttribute:
    """The attribute as an index store of kind ``store`` holds a declared one."""
    if store == SHAPEFILE:
        return _shapefile(name, declared)
    if declared == "java.util.Date":
        return IndexAttribute(name, "java.sql.Timestamp")
    if declared == "java.lang.Byte":
        return IndexAttribute(name, "java.lang.Short")
    return IndexAttribute(name, declared)


def _shapefile(name: str, declared: str) -> IndexAttribute:
    if declared.startswith(JTS):
        return IndexAttribute(name, JTS + "MultiPolygon")
    if declared in ("java.lang.Integer", "java.lang.Short", "java.lang.Byte"):
        return IndexAttribute(name, "java.lang.Integer", 9)
    if declared in ("java.lang.Long", "java.math.BigInteger"):
        return IndexAttribute(name, "java.lang.Long", 19)
    if declared in REALS:
        return IndexAttribute(name, "java.lang.Double", 33)
    if declared == "java.lang.Boolean":
        return IndexAttribute(name, declared, 1)
    if declared in ("java.sql.Timestamp", "java.sql.Time"):
        return IndexAttribute(name, "java.sql.Timestamp", 8)
    if declared in TEMPORALS:
        return IndexAttribute(name, "java.util.Date", 8)
    return IndexAttribute(name, "java.lang.String", 254)


# -- values ---------------------------------------------------------------------------------


def convert(value: Any, binding: str) -> Any:
    """``value`` as the attribute type holds it, or None when it does not convert."""
    if value is None:
        return None
    k = kind(binding)
    try:
        if k == "int":
            if isinstance(value, bool):
                return None
            if isinstance(value, float):
                return int(value) if value.is_integer() else None
            return int(str(value).strip()) if not isinstance(value, int) else value
        if k == "real":
            if isinstance(value, bool):
                return None
            return float(value)
        if k == "bool":
            if isinstance(value, bool):
                return value
            return {"true": True, "false": False}.get(str(value).strip().lower())
        if k == "time":
            return value if isinstance(value, datetime) else parse_instant(str(value))
    except (ValueError, OverflowError):
        return None
    if k == "string":
        return value if isinstance(value, str) else format_value(value)
    return None


_SIMPLE_DATE_TOKENS = {
    "yyyy": r"(?P<y>\d{4})",
    "yy": r"(?P<yy>\d{2})",
    "MM": r"(?P<mo>\d{2})",
    "dd": r"(?P<d>\d{2})",
    "HH": r"(?P<h>\d{2})",
    "mm": r"(?P<mi>\d{2})",
    "ss": r"(?P<s>\d{2})",
    "SSS": r"(?P<f>\d{3})",
}


def simple_date_parser(fmt: str) -> re.Pattern[str]:
    """A regular expression for a ``SimpleDateFormat`` pattern (the common fields only)."""
    out: list[str] = []
    i = 0
    while i < len(fmt):
        if fmt[i] == "'":
            end = fmt.find("'", i + 1)
            end = len(fmt) if end == -1 else end
            out.append(re.escape(fmt[i + 1 : end] or "'"))
            i = end + 1
            continue
        for token, regex in _SIMPLE_DATE_TOKENS.items():
            if fmt.startswith(token, i):
                out.append(regex)
                i += len(token)
                break
        else:
            if fmt[i].isalpha():
                raise SchemaError(f"Unsupported date format letter {fmt[i]!r} in {fmt!r}")
            out.append(re.escape(fmt[i]))
            i += 1
    return re.compile("".join(out))


def parse_with_format(text: str, pattern: re.Pattern[str]) -> datetime | None:
    match = pattern.fullmatch(text.strip())
    if match is None:
        return None
    groups = match.groupdict()
    if groups.get("yy") is not None:
        groups["y"] = str(2000 + int(groups["yy"] or 0))
    return instant_of(groups)
