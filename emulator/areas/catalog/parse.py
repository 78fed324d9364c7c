"""Catalog request bodies (already read into dicts by ``tree.read_body``) → field changes.

Each ``parse_*`` returns only the fields the client sent, as a dict of entity attribute
names, so that a POST builds a new object from it and a PUT merges it into a copy of the
stored one (GeoServer's ``CatalogBuilder.update*`` are merges too). Values may come as XML
text or typed JSON; references as ``"sf"``, ``{"name": "sf"}`` or ``{"name": "ws:x"}``; lists
as ``{"string": [...]}``, a single item, or ``""`` when empty.
"""

from __future__ import annotations

from typing import Any

from ...core.errors import Invalid
from . import bindings
from .entities import (
    GROUP_MODES,
    PROJECTION_POLICIES,
    Attribute,
    CoverageDimension,
    StyleRef,
)
from .readers import (
    bbox,
    entries,
    enum,
    flag,
    integer,
    items,
    keywords,
    number,
    ref_name,
    strings,
    text,
)

Fields = dict[str, Any]


def _put(out: Fields, key: str, value: Any) -> None:
    if value is not None:
        out[key] = value


def _unset(d: dict[str, Any], out: Fields, pairs: tuple[tuple[str, str], ...]) -> None:
    """Optional fields sent as ``xsi:nil="true"`` (or JSON ``null``) are unset: None."""
    for key, attr in pairs:
        if key in d and d[key] is None:
            out[attr] = None


def _extras(d: dict[str, Any], table: str, out: Fields) -> None:
    """The generic fields of ``fields.TABLES[table]`` the body carries (None: unset)."""
    from .fields import TABLES
    from .generic import read_extras

    found = read_extras(d, TABLES[table])
    if found:
        out["extras"] = found


def apply_fields(obj: Any, fields: Fields, what: str) -> None:
    """Set parsed ``fields`` on ``obj``: generic ones merged into its ``extras`` (a PUT
    changes only what it sends), the others replaced; an unknown attribute is refused."""
    for key, value in fields.items():
        if key == "extras":
            from .generic import merge

            obj.extras = merge(obj.extras, value)
            continue
        if not hasattr(obj, key):
            raise Invalid(f"A {what} has no field {key}")
        setattr(obj, key, value)


def parse_workspace(d: dict[str, Any]) -> Fields:
    out: Fields = {}
    _put(out, "name", text(d, "name"))
    _put(out, "isolated", flag(d, "isolated"))
    _extras(d, "workspace", out)
    return out


def parse_namespace(d: dict[str, Any]) -> Fields:
    out: Fields = {}
    _put(out, "prefix", text(d, "prefix") or text(d, "name"))
    _put(out, "uri", text(d, "uri"))
    _put(out, "isolated", flag(d, "isolated"))
    _extras(d, "namespace", out)
    return out


def parse_store(d: dict[str, Any]) -> Fields:
    out: Fields = {}
    for key, attr in (
        ("name", "name"),
        ("description", "description"),
        ("type", "type"),
        ("url", "url"),
        ("capabilitiesURL", "capabilities_url"),
    ):
        _put(out, attr, text(d, key))
    _put(out, "enabled", flag(d, "enabled"))
    _put(out, "default", flag(d, "__default") if "__default" in d else flag(d, "_default"))
    _put(out, "disable_on_conn_failure", flag(d, "disableOnConnFailure"))
    _put(out, "workspace", ref_name(d, "workspace"))
    _put(out, "connection_parameters", entries(d, "connectionParameters"))
    _put(out, "metadata", entries(d, "metadata", structured=True))
    _unset(d, out, (("description", "description"), ("type", "type"), ("url", "url")))
    return out


RESOURCE_TEXT = (
    ("nativeName", "native_name"),
    ("title", "title"),
    ("abstract", "abstract"),
    ("description", "description"),
    ("srs", "srs"),
    ("nativeCoverageName", "native_coverage_name"),
    ("nativeFormat", "native_format"),
    ("defaultInterpolationMethod", "default_interpolation_method"),
)


def parse_resource(d: dict[str, Any], kind: str = "coverage") -> Fields:
    """Fields of a feature type or coverage (``kind``); ``store`` and ``namespace`` as given."""
    out: Fields = {}
    for key, attr in (("name", "name"), *RESOURCE_TEXT):
        _put(out, attr, text(d, key))
    _put(out, "native_crs", text(d, "nativeCRS"))
    policy = enum(d, "projectionPolicy", PROJECTION_POLICIES, "projection policy")
    _put(out, "projection_policy", policy)
    for key, attr in (("enabled", "enabled"), ("advertised", "advertised")):
        _put(out, attr, flag(d, key))
    for key, attr in (("maxFeatures", "max_features"), ("numDecimals", "num_decimals")):
        _put(out, attr, integer(d, key))
    _put(out, "keywords", keywords(d))
    for key, attr in (
        ("supportedFormats", "supported_formats"),
        ("interpolationMethods", "interpolation_methods"),
        ("requestSRS", "request_srs"),
        ("responseSRS", "response_srs"),
    ):
        if kind == "coverage":  # a feature type's responseSRS is one of its generic fields
            _put(out, attr, strings(d, key))
    if kind == "coverage":
        _put(out, "parameters", entries(d, "parameters"))
    srs = out.get("srs")
    _put(out, "native_bbox", bbox(d, "nativeBoundingBox", srs))
    _put(out, "latlon_bbox", bbox(d, "latLonBoundingBox", "EPSG:4326"))
    _put(out, "metadata", entries(d, "metadata", structured=True))
    _put(out, "store", ref_name(d, "store"))
    _put(out, "namespace", ref_name(d, "namespace"))
    if "attributes" in d:
        out["attributes"] = [_attribute(a) for a in items(d, "attributes", "attribute")]
    if "dimensions" in d:
        out["dimensions"] = [_dimension(x) for x in items(d, "dimensions", "coverageDimension")]
    _unset(
        d,
        out,
        (
            *RESOURCE_TEXT,
            ("nativeCRS", "native_crs"),
            ("projectionPolicy", "projection_policy"),
            ("nativeBoundingBox", "native_bbox"),
            ("latLonBoundingBox", "latlon_bbox"),
        ),
    )
    _extras(d, kind, out)
    return out


def _attribute(a: Any) -> Attribute:
    if not isinstance(a, dict) or not text(a, "name"):
        raise Invalid("An attribute needs a name")
    binding = text(a, "binding")
    nillable = flag(a, "nillable")
    return Attribute(
        text(a, "name") or "",
        integer(a, "minOccurs") or 0,
        1 if integer(a, "maxOccurs") is None else int(integer(a, "maxOccurs") or 0),
        True if nillable is None else nillable,
        bindings.java(binding) if binding else None,
        integer(a, "length"),
    )


def _dimension(x: Any) -> CoverageDimension:
    if not isinstance(x, dict):
        raise Invalid("Malformed coverage dimension")
    raw = x.get("range")
    rng: dict[str, Any] = raw if isinstance(raw, dict) else {}
    nulls = []
    for v in items(x, "nullValues", "double"):
        value = number({"v": v}, "v")
        if value is not None:
            nulls.append(value)
    return CoverageDimension(
        text(x, "name") or "",
        text(x, "description"),
        number(rng, "min"),
        number(rng, "max"),
        nulls,
        text(x, "unit") or None,
        ref_name(x, "dimensionType") or None,
    )


def style_ref(value: Any) -> StyleRef | None:
    """``{"name": "ws:x"}``, ``{"name": "x", "workspace": "ws"}`` or ``"x"``; ``""`` → None."""
    if value is None or value == "":
        return None
    if isinstance(value, dict):
        name, ws = text(value, "name"), text(value, "workspace")
    else:
        name, ws = str(value), None
    if not name:
        return None
    prefix, sep, local = name.rpartition(":")
    if sep:
        return StyleRef(prefix, local)
    return StyleRef(ws or None, name)


def parse_layer(d: dict[str, Any]) -> Fields:
    out: Fields = {}
    if "defaultStyle" in d:
        out["default_style"] = style_ref(d["defaultStyle"])
    if "styles" in d:
        out["styles"] = [s for s in (style_ref(v) for v in items(d, "styles", "style")) if s]
    for key, attr in (
        ("enabled", "enabled"),
        ("advertised", "advertised"),
        ("queryable", "queryable"),
        ("opaque", "opaque"),
    ):
        _put(out, attr, flag(d, key))
    _put(out, "path", text(d, "path"))
    _unset(d, out, (("path", "path"),))
    _extras(d, "layer", out)
    return out


def parse_layer_group(d: dict[str, Any]) -> Fields:
    """Members come back as (kind or None, name) pairs for the caller to resolve."""
    out: Fields = {}
    _put(out, "name", text(d, "name"))
    _put(out, "mode", enum(d, "mode", GROUP_MODES, "layer group mode"))
    _put(out, "title", text(d, "title"))
    _put(out, "abstract", text(d, "abstractTxt") or text(d, "abstract"))
    _put(out, "workspace", ref_name(d, "workspace"))
    members: list[tuple[str | None, str]] = []
    for p in items(d, "publishables", "published"):
        kind = text(p, "@type") if isinstance(p, dict) else None
        members.append((kind, ref_name({"p": p}, "p") or ""))
    for p in items(d, "layers", "layer"):
        members.append(("layer", ref_name({"p": p}, "p") or ""))
    if "publishables" in d or "layers" in d:
        out["members"] = members
    if "styles" in d:
        out["styles"] = [style_ref(s) for s in items(d, "styles", "style")]
    _put(out, "bounds", bbox(d, "bounds", None))
    _put(out, "keywords", keywords(d))
    for key in ("enabled", "advertised"):
        _put(out, key, flag(d, key))
    if "rootLayer" in d:
        out["root_layer"] = ref_name(d, "rootLayer") or None
    if "rootLayerStyle" in d:
        out["root_layer_style"] = style_ref(d["rootLayerStyle"])
    _unset(d, out, (("title", "title"), ("abstractTxt", "abstract")))
    _extras(d, "layerGroup", out)
    return out
