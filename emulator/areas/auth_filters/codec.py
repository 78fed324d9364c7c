"""Filter configurations and the filter list in XML and JSON, as GeoServer's XStream writes them.

XML: the root element is the config class name; ``id``, ``name``, ``className``, then the
class's fields; a polymorphic field (``roleSource``) is an element with a ``class`` attribute
and the value as text. JSON: ``{"<config class>": {"id", "name", "@class", "className", …}}``,
a polymorphic field is ``{"@class": …, "$": …}``. Class names are read with any known vendor
prefix and written with the configured one (``core.vendor``); the spec also spells the
``GeoServer…`` implementation classes ``Service…``, which is read as the same class and
written that way when the configured prefix is ``org.service``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from ...core.errors import Invalid
from ...core.vendor import VendorNames
from ...wire import json as wjson
from ...wire import xml as wxml
from ...wire.geoserver.xstream import names_json, names_xml
from .model import FilterConfig, draft
from .schema import KNOWN_IMPLEMENTATIONS

SPEC_PREFIX = "org.service"
_CLASS_NAME = re.compile(r"[A-Za-z_$][\w$]*(\.[A-Za-z_$][\w$]*)+\Z")
_RESERVED = ("id", "name", "className", "@class")

# -- class names ---------------------------------------------------------------------------


def read_class(vendor: VendorNames, wire: str) -> str:
    """The canonical name of a class as a client wrote it ("" for a blank one)."""
    if not wire.strip():
        return ""
    canonical = vendor.canonical(wire)
    package, _, simple = canonical.rpartition(".")
    if simple.startswith("Service"):
        spelled = f"{package}.GeoServer{simple[len('Service') :]}"
        if spelled in KNOWN_IMPLEMENTATIONS:
            return spelled
    return canonical


def write_class(vendor: VendorNames, canonical: str) -> str:
    """The wire name of a canonical class for the configured vendor prefix."""
    if not canonical:
        return ""
    wire = vendor.emit(canonical)
    if vendor.prefix == SPEC_PREFIX and canonical in KNOWN_IMPLEMENTATIONS:
        package, _, simple = wire.rpartition(".")
        if simple.startswith("GeoServer"):
            wire = f"{package}.Service{simple[len('GeoServer') :]}"
    return wire


def _config_class(vendor: VendorNames, name: str) -> str:
    if not _CLASS_NAME.match(name):
        raise Invalid(
            f"Expected a filter configuration class name as the root, not {name!r} "
            "(for example org.geoserver.security.config.AnonymousAuthenticationFilterConfig)"
        )
    return read_class(vendor, name)


# -- XML -----------------------------------------------------------------------------------


def parse_filter_xml(body: bytes, vendor: VendorNames) -> FilterConfig:
    """A filter configuration from XML (not yet validated; ``id`` is ignored)."""
    root = wxml.parse(body, "filter configuration")
    config_class = _config_class(vendor, wxml.local(root.tag))
    common: dict[str, str] = {}
    raw: dict[str, Any] = {}
    for el in _elements(root):
        key = wxml.local(el.tag)
        if key in ("name", "className"):
            if key in common:
                raise Invalid(f"Element {key} given twice")
            common[key] = _leaf_text(el, key)
        elif key != "id":
            _add(raw, key, _xml_value(el, vendor))
    class_name = read_class(vendor, common.get("className", ""))
    return draft(common.get("name", ""), class_name, config_class, raw)


def _elements(el: wxml.Element) -> list[wxml.Element]:
    return [c for c in el if isinstance(c.tag, str)]


def _leaf_text(el: wxml.Element, key: str) -> str:
    if _elements(el):
        raise Invalid(f"Element {key} must hold text only")
    return "".join(el.itertext())


def _add(obj: dict[str, Any], key: str, value: Any) -> None:
    """Add a child value; a repeated element becomes a list."""
    if key not in obj:
        obj[key] = value
    elif isinstance(obj[key], list):
        obj[key].append(value)
    else:
        obj[key] = [obj[key], value]


def _xml_value(el: wxml.Element, vendor: VendorNames) -> Any:
    kids = _elements(el)
    if not el.attrib and not kids:
        return "".join(el.itertext())
    obj: dict[str, Any] = {}
    for key, value in el.attrib.items():
        attr = wxml.local(key)
        obj["@" + attr] = read_class(vendor, value) if attr == "class" else value
    if kids:
        for kid in kids:
            _add(obj, wxml.local(kid.tag), _xml_value(kid, vendor))
    else:
        obj["$"] = "".join(el.itertext())
    return obj


def dump_filter_xml(cfg: FilterConfig, vendor: VendorNames) -> bytes:
    root = wxml.element(write_class(vendor, cfg.config_class))
    wxml.sub(root, "id", cfg.id)
    wxml.sub(root, "name", cfg.name)
    if cfg.class_name:
        wxml.sub(root, "className", write_class(vendor, cfg.class_name))
    for key, value in cfg.fields.items():
        _xml_put(root, key, value, vendor)
    return wxml.dump(root)


def _xml_put(parent: wxml.Element, key: str, value: Any, vendor: VendorNames) -> None:
    if value is None:
        return
    if isinstance(value, list):
        for item in value:
            _xml_put(parent, key, item, vendor)
        return
    el = wxml.sub(parent, key)
    if not isinstance(value, dict):
        el.text = _scalar_text(value)
        return
    for k, v in value.items():
        if k == "@class":
            el.set("class", write_class(vendor, v))
        elif k.startswith("@"):
            el.set(k[1:], _scalar_text(v))
        elif k == "$":
            el.text = _scalar_text(v)
        else:
            _xml_put(el, k, v, vendor)


def _scalar_text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return "" if value is None else str(value)


# -- JSON ----------------------------------------------------------------------------------


def parse_filter_json(body: bytes, vendor: VendorNames) -> FilterConfig:
    """A filter configuration from ``{"<config class>": {...}}`` (``id`` is ignored)."""
    doc = wjson.loads(body, "filter configuration")
    if not isinstance(doc, dict) or len(doc) != 1:
        raise Invalid("Expected a JSON object with one key, the filter configuration class name")
    ((key, inner),) = doc.items()
    config_class = _config_class(vendor, key)
    inner = wjson.as_object(inner, key)
    declared = inner.get("@class")
    if declared is not None and (
        not isinstance(declared, str) or read_class(vendor, declared) != config_class
    ):
        raise Invalid(f"@class {declared!r} does not match the key {key}")
    name, class_name = _json_text(inner, "name"), _json_text(inner, "className")
    raw: dict[str, Any] = {}
    for k, v in inner.items():
        if k in _RESERVED:
            continue
        if k.startswith("@") or k == "$":
            raise Invalid(f"Unexpected key {k!r} in {key}")
        _check_key(key, k)
        raw[k] = _json_value(k, v, vendor)
    return draft(name, read_class(vendor, class_name or ""), config_class, raw)


def _json_text(obj: dict[str, Any], key: str) -> str:
    value = obj.get(key)
    if value is None:
        return ""
    if not isinstance(value, str):
        raise Invalid(f"{key} must be a string")
    _check_text(key, value)
    return value


def _json_value(path: str, value: Any, vendor: VendorNames) -> Any:
    """A JSON field value, checked to be writable as XML, class names made canonical."""
    if isinstance(value, str):
        _check_text(path, value)
        return value
    if isinstance(value, list):
        return [_json_value(path, v, vendor) for v in value]
    if not isinstance(value, dict):
        return value
    out: dict[str, Any] = {}
    for k, v in value.items():
        _check_key(path, k)
        if k == "@class":
            if not isinstance(v, str):
                raise Invalid(f"{path}.@class must be a class name")
            out[k] = read_class(vendor, v)
        elif k.startswith("@") or k == "$":
            if isinstance(v, dict | list):
                raise Invalid(f"{path}.{k} must be a plain value")
            out[k] = _json_value(f"{path}.{k}", v, vendor)
        else:
            out[k] = _json_value(f"{path}.{k}", v, vendor)
    return out


def _check_key(path: str, key: str) -> None:
    name = key[1:] if key.startswith("@") else key
    if key == "$":
        return
    if key.startswith("@") and name.lower().startswith("xml"):
        raise Invalid(f"{path}: {key!r} is a reserved XML attribute name")
    try:
        wxml.check_name(name)
    except ValueError:
        raise Invalid(f"{path}: {key!r} is not a valid field name") from None


def _check_text(path: str, value: str) -> None:
    if not wxml.xml_safe(value):
        raise Invalid(f"{path}: the value holds characters that XML cannot carry")


def dump_filter_json(cfg: FilterConfig, vendor: VendorNames) -> bytes:
    wire = write_class(vendor, cfg.config_class)
    inner: dict[str, Any] = {"id": cfg.id, "name": cfg.name, "@class": wire}
    if cfg.class_name:
        inner["className"] = write_class(vendor, cfg.class_name)
    for key, value in cfg.fields.items():
        inner[key] = _json_out(value, vendor)
    return wjson.dumps({wire: inner})


def _json_out(value: Any, vendor: VendorNames) -> Any:
    if isinstance(value, list):
        return [_json_out(v, vendor) for v in value]
    if isinstance(value, dict):
        return {
            k: write_class(vendor, v) if k == "@class" else _json_out(v, vendor)
            for k, v in value.items()
        }
    return value


def fields_from_json(obj: dict[str, Any], vendor: VendorNames) -> dict[str, Any]:
    """Raw fields from a JSON object (a scenario's ``fields``), class names canonical."""
    raw: dict[str, Any] = {}
    for k, v in obj.items():
        _check_key("fields", k)
        raw[k] = _json_value(k, v, vendor)
    return raw


def fields_to_json(fields: dict[str, Any], vendor: VendorNames) -> dict[str, Any]:
    return {k: _json_out(v, vendor) for k, v in fields.items()}


# -- list and the missing filter -----------------------------------------------------------


def dump_list_xml(items: Iterable[tuple[str, str]]) -> bytes:
    """``<authfilters>`` with one ``<authfilter>`` (name, Atom link) per (name, href)."""
    return names_xml("authfilters", "authfilter", items, "application/xml")


def dump_list_json(items: Iterable[tuple[str, str]]) -> bytes:
    """An empty list stays an empty array (``{"authfilters":{"authfilter":[]}}``)."""
    return names_json("authfilters", "authfilter", items, empty=None)


def dump_missing(fmt: str) -> bytes:
    """GeoServer's answer to a GET of a missing filter (geoserver profile): a null object."""
    return b"<null/>" if fmt == "xml" else b"{}"
