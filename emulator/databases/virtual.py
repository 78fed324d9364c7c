"""SQL views: the ``JDBC_VIRTUAL_TABLE`` metadata entry of a feature type (GeoTools'
``VirtualTable``, ``VirtualTableParameter``, ``RegexpValidator``).

GeoServer keeps it as ``<virtualTable>`` with ``name``, ``sql``, ``escapeSql``, repeated
``keyColumn``, repeated ``geometry`` (``name``, ``type`` as a JTS class's simple name,
``srid``) and repeated ``parameter`` (``name``, ``defaultValue``, ``regexpValidator``); the
REST JSON has the same fields. ``parse`` reads that shape (as ``tree.xml_to_dict`` or a JSON
body gives it) and ``dump`` writes it back.

``expand`` substitutes ``%name%`` with a request's values, GeoTools' way: a missing value
takes the default (or nothing); a given value must fully match its validator, else
``Invalid value for parameter NAME`` and nothing reaches SQL; with ``escapeSql`` quotes and
backslashes are doubled. Unlike GeoTools, a parameter without a validator is checked
against the default validator GeoServer's SQL view editor proposes (``^[\\w\\d\\s]+$``): a
value is never pasted into SQL unchecked. Matches run under a time limit (``regex``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..core.budget import MATCH_SECONDS, MAX_REGEX_WEIGHT, regex_weight
from ..core.errors import Invalid
from ..core.lazy import LazyModule
from ..core.record import field, record
from . import bindings

regex: Any = LazyModule("regex")

KEY = "JDBC_VIRTUAL_TABLE"
"""the feature type metadata key"""
DEFAULT_VALIDATOR = r"^[\w\d\s]+$"
MAX_SQL = 1 << 20
MAX_PATTERN = 2048


@record
class Geometry:
    name: str
    type: str = "Geometry"
    """a JTS class's simple name (``Point``, ``MultiPolygon``, ``Geometry``…)"""
    srid: int = -1


@record
class Parameter:
    name: str
    default: str | None = None
    validator: str | None = None


@record
class VirtualTable:
    name: str
    sql: str
    escape_sql: bool = False
    key_columns: list[str] = field(default_factory=list)
    geometries: list[Geometry] = field(default_factory=list)
    parameters: list[Parameter] = field(default_factory=list)

    def geometry(self, column: str) -> Geometry | None:
        return next((g for g in self.geometries if g.name == column), None)


class InvalidParameter(Invalid):
    """A view parameter's value its validator refuses (GeoTools' ``SQLException`` text)."""


def _items(value: Any) -> list[Any]:
    if value is None or value == "":
        return []
    return value if isinstance(value, list) else [value]


def _text(d: Mapping[str, Any], key: str) -> str | None:
    value = d.get(key)
    if value is None or isinstance(value, dict | list):
        return None
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def parse(value: Any) -> VirtualTable:
    """A ``virtualTable`` (the dict under the metadata entry, or the entry holding it)."""
    if isinstance(value, dict) and "virtualTable" in value:
        value = value["virtualTable"]
    if not isinstance(value, dict):
        raise Invalid("Malformed virtualTable: expected name, sql and the optional fields")
    name, sql = _text(value, "name"), _text(value, "sql")
    if not name or not sql or not sql.strip():
        raise Invalid("Malformed virtualTable: the name and the sql are required")
    if len(sql) > MAX_SQL:
        raise Invalid(f"Malformed virtualTable: the sql is longer than {MAX_SQL} characters")
    vt = VirtualTable(name, sql, (_text(value, "escapeSql") or "").lower() == "true")
    vt.key_columns = [str(k) for k in _items(value.get("keyColumn")) if str(k)]
    for g in _items(value.get("geometry")):
        if not isinstance(g, dict) or not _text(g, "name"):
            raise Invalid("Malformed virtualTable: a geometry needs a name")
        kind = _text(g, "type") or "Geometry"
        if kind not in bindings.GEOMETRY_TYPES:
            raise Invalid(f"Malformed virtualTable: unknown geometry type {kind}")
        srid = _text(g, "srid") or "-1"
        if not srid.lstrip("-").isdigit() or len(srid) > 10:
            raise Invalid(f"Malformed virtualTable: the srid {srid} is not a number")
        vt.geometries.append(Geometry(str(_text(g, "name")), kind, int(srid)))
    for p in _items(value.get("parameter")):
        if not isinstance(p, dict) or not _text(p, "name"):
            raise Invalid("Malformed virtualTable: a parameter needs a name")
        validator = _text(p, "regexpValidator")
        if validator is not None:
            _compile(validator)
        vt.parameters.append(Parameter(str(_text(p, "name")), _text(p, "defaultValue"), validator))
    return vt


def dump(vt: VirtualTable) -> dict[str, Any]:
    """The JSON shape GeoServer writes (one geometry or parameter as an object, more as a
    list, as the catalog's XML-to-JSON reading gives them)."""
    out: dict[str, Any] = {"name": vt.name, "sql": vt.sql, "escapeSql": vt.escape_sql}
    if vt.key_columns:
        out["keyColumn"] = vt.key_columns[0] if len(vt.key_columns) == 1 else vt.key_columns
    geoms = [{"name": g.name, "type": g.type, "srid": g.srid} for g in vt.geometries]
    if geoms:
        out["geometry"] = geoms[0] if len(geoms) == 1 else geoms
    params = []
    for p in vt.parameters:
        item: dict[str, Any] = {"name": p.name}
        if p.default is not None:
            item["defaultValue"] = p.default
        if p.validator is not None:
            item["regexpValidator"] = p.validator
        params.append(item)
    if params:
        out["parameter"] = params[0] if len(params) == 1 else params
    return out


def from_metadata(metadata: Mapping[str, Any]) -> VirtualTable | None:
    """The SQL view of a feature type's metadata, None when it has none."""
    value = metadata.get(KEY)
    return None if value is None else parse(value)


def expand(vt: VirtualTable, values: Mapping[str, str] | None = None) -> str:
    """The view's SQL with its parameters substituted (see the module docstring)."""
    given = values or {}
    sql = vt.sql
    for p in vt.parameters:
        value = given.get(p.name)
        if value is None:
            value = p.default or ""
        else:
            if not _matches(p.validator or DEFAULT_VALIDATOR, value):
                raise InvalidParameter(f"Invalid value for parameter {p.name}")
            if vt.escape_sql:
                value = value.replace("'", "''").replace('"', '""').replace("\\", "\\\\")
        sql = sql.replace(f"%{p.name}%", value)
    return sql


def _compile(pattern: str) -> Any:
    if len(pattern) > MAX_PATTERN or regex_weight(pattern) > MAX_REGEX_WEIGHT:
        raise Invalid(f"Malformed virtualTable: the validator {pattern!r} is too large")
    try:
        return regex.compile(pattern)
    except (regex.error, RecursionError) as exc:
        raise Invalid(f"Malformed virtualTable: invalid validator {pattern!r}: {exc}") from None


def _matches(pattern: str, value: str) -> bool:
    """Java's ``matches``: the whole value, under the time limit (running out: refused)."""
    try:
        return _compile(pattern).fullmatch(value, timeout=MATCH_SECONDS) is not None
    except TimeoutError:
        return False


def parse_viewparams(text: str) -> list[dict[str, str]]:
    """A ``viewparams`` request value: one ``name:value;name:value`` map per layer, layers
    separated by commas; a backslash escapes the next character (``\\,`` ``\\;`` ``\\:``); a
    name without a value is ``true``, as GeoServer's format-options reader has it."""
    layers: list[dict[str, str]] = []
    current: dict[str, str] = {}
    token, key, escaped = "", None, False
    for ch in text + ",":
        if escaped:
            token, escaped = token + ch, False
        elif ch == "\\":
            escaped = True
        elif ch == ":" and key is None:
            key, token = token, ""
        elif ch in ";,":
            if key is not None and key.strip():
                current[key.strip()] = token
            elif key is None and token.strip():
                current[token.strip()] = "true"  # a name alone (GeoServer's format options)
            token, key = "", None
            if ch == ",":
                layers.append(current)
                current = {}
        else:
            token += ch
    return layers
