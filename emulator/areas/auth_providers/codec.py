"""XML and JSON of provider configurations, the provider list and the order body.

A provider in XML is an element named by its fully qualified configuration class, holding
one child per field; in JSON a plain object. Requests may also wrap it: XML in
``<authproviders>`` (the first child counts), JSON in ``{"authprovider": {…}}`` or
``{"authproviders": [one]}``. Fields of free-form classes may nest; they convert between
the formats as XStream's JSON does: child elements become keys, repeated ones a list,
attributes ``@name`` keys and the text beside them ``$``.
"""

from __future__ import annotations

import math
from collections.abc import Collection
from typing import Any

from ...core.errors import Invalid
from ...core.vendor import VendorNames
from ...wire import json as wjson
from ...wire import xml as wxml
from .classes import ProviderClass
from .model import ProviderConfig, ProviderDraft, config_fields

CORE = ("id", "name", "className")
MAX_DEPTH = 16

Item = tuple[ProviderConfig, ProviderClass]


def canonical_class(vendor: VendorNames, name: str, known: Collection[str]) -> str:
    """The canonical name of a class name as sent: any vendor prefix accepted where the
    rest is a class in ``known``."""
    canonical = vendor.canonical(name)
    if canonical.startswith("=") and canonical[1:] not in known:
        parts = name.strip().split(".")
        for i in range(1, len(parts)):
            tail = ".".join(parts[i:])
            if tail in known:
                return tail
    return canonical


def xml_safe(text: str) -> bool:
    """Whether ``text`` can be written in XML (a path name, say, before it is echoed)."""
    return wxml.xml_safe(text)


# -- one provider: parse -------------------------------------------------------------------


def parse_provider(body: bytes, fmt: str) -> ProviderDraft:
    return parse_provider_xml(body) if fmt == "xml" else parse_provider_json(body)


def parse_provider_json(body: bytes) -> ProviderDraft:
    if not body.strip():
        raise Invalid("Empty JSON payload")
    data = wjson.loads(body, "JSON payload")
    if data is None:
        raise Invalid("Empty JSON payload")
    if isinstance(data, dict) and "authprovider" in data:
        data = data["authprovider"]
    if (
        isinstance(data, dict)
        and isinstance(data.get("authproviders"), list)
        and len(data["authproviders"]) == 1
    ):
        data = data["authproviders"][0]
    if not isinstance(data, dict):
        raise Invalid("Malformed JSON payload")
    _check_json(data, "", 0)
    draft = ProviderDraft("JSON")
    draft.id, draft.name, draft.class_name = (_json_text(data.get(k), k) for k in CORE)
    draft.fields = {k: v for k, v in data.items() if k not in CORE}
    return draft


def parse_provider_xml(body: bytes) -> ProviderDraft:
    root = wxml.parse(body, "XML payload")
    if wxml.local(root.tag) == "authproviders":
        items = _elements(root)
        if not items:
            raise Invalid("Malformed XML payload")
        root = items[0]
    draft = ProviderDraft("XML", config_class=wxml.local(root.tag))
    fields: dict[str, Any] = {f"@{k}": v for k, v in root.attrib.items()}
    for el in _elements(root):
        key = wxml.local(el.tag)
        if key in CORE:
            if getattr(draft, _CORE_ATTR[key]) is not None:
                raise Invalid(f"Malformed XML payload: more than one {key}")
            setattr(draft, _CORE_ATTR[key], _leaf_text(el, key))
        else:
            _add(fields, key, _xml_value(el, 1))
    draft.fields = fields
    return draft


_CORE_ATTR = {"id": "id", "name": "name", "className": "class_name"}


# -- one provider and the list: dump -------------------------------------------------------


def dump_provider(
    cfg: ProviderConfig, pclass: ProviderClass, vendor: VendorNames, fmt: str
) -> bytes:
    if fmt == "xml":
        return dump_provider_xml(cfg, pclass, vendor)
    return dump_provider_json(cfg, pclass, vendor)


def dump_provider_xml(cfg: ProviderConfig, pclass: ProviderClass, vendor: VendorNames) -> bytes:
    return wxml.dump(_provider_element(cfg, pclass, vendor))


def dump_provider_json(cfg: ProviderConfig, pclass: ProviderClass, vendor: VendorNames) -> bytes:
    return wjson.dumps(_provider_object(cfg, pclass, vendor))


def dump_providers(items: list[Item], vendor: VendorNames, fmt: str) -> bytes:
    """The list: ``<authproviders>`` with one element per provider, or
    ``{"authproviders": [...]}``."""
    if fmt == "xml":
        root = wxml.element("authproviders")
        for cfg, pclass in items:
            root.append(_provider_element(cfg, pclass, vendor))
        return wxml.dump(root)
    return wjson.dumps({"authproviders": [_provider_object(c, p, vendor) for c, p in items]})


def _provider_object(
    cfg: ProviderConfig, pclass: ProviderClass, vendor: VendorNames
) -> dict[str, Any]:
    out: dict[str, Any] = {"id": cfg.id, "name": cfg.name, "className": vendor.emit(cfg.class_name)}
    out.update((k, v) for k, v in config_fields(cfg, pclass) if v is not None)
    return out


def _provider_element(
    cfg: ProviderConfig, pclass: ProviderClass, vendor: VendorNames
) -> wxml.Element:
    root = wxml.element(vendor.emit(cfg.config_class))
    wxml.fields(
        root, [("id", cfg.id), ("name", cfg.name), ("className", vendor.emit(cfg.class_name))]
    )
    for key, value in config_fields(cfg, pclass):
        if key.startswith("@"):
            root.set(key[1:], _scalar(value))
        else:
            _put(root, key, value)
    return root


# -- the order body ------------------------------------------------------------------------


def parse_order(body: bytes, fmt: str) -> list[str]:
    return parse_order_xml(body) if fmt == "xml" else parse_order_json(body)


def parse_order_xml(body: bytes) -> list[str]:
    """``<order><order>a</order>…</order>``."""
    root = wxml.parse(body, "XML payload")
    if wxml.local(root.tag) != "order":
        raise Invalid("`order` array required")
    return [_leaf_text(el, "order") for el in _elements(root) if wxml.local(el.tag) == "order"]


def parse_order_json(body: bytes) -> list[str]:
    """``{"order": ["a", …]}`` or a bare ``["a", …]``."""
    data = wjson.loads(body, "JSON payload") if body.strip() else None
    if isinstance(data, dict) and "order" in data:
        data = data["order"]
    if not isinstance(data, list):
        raise Invalid("`order` array required")
    _check_json(data, "order", 0)
    names = []
    for item in data:
        if isinstance(item, bool) or not isinstance(item, str | int | float):
            raise Invalid("`order` entries must be provider names")
        names.append(str(item))
    return names


def dump_order(names: list[str], fmt: str) -> bytes:
    if fmt == "xml":
        root = wxml.element("order")
        for n in names:
            wxml.sub(root, "order", n)
        return wxml.dump(root)
    return wjson.dumps({"order": names})


# -- helpers -------------------------------------------------------------------------------


def _elements(el: wxml.Element) -> list[wxml.Element]:
    return [c for c in el if isinstance(c.tag, str)]


def _leaf_text(el: wxml.Element, what: str) -> str:
    if _elements(el):
        raise Invalid(f"Malformed XML payload: {what} must be text")
    return el.text or ""


def _xml_value(el: wxml.Element, depth: int) -> Any:
    """An element as a JSON-like value: text, or a dict of attributes and children."""
    if depth > MAX_DEPTH:
        raise Invalid("Malformed XML payload: nested too deeply")
    attrs = {f"@{k}": v for k, v in el.attrib.items()}
    kids = _elements(el)
    if not kids:
        return {**attrs, "$": el.text or ""} if attrs else el.text or ""
    out: dict[str, Any] = attrs
    for kid in kids:
        _add(out, wxml.local(kid.tag), _xml_value(kid, depth + 1))
    return out


def _add(target: dict[str, Any], key: str, value: Any) -> None:
    """Set ``key``; a repeated key collects its values in a list."""
    if key not in target:
        target[key] = value
    elif isinstance(target[key], list):
        target[key].append(value)
    else:
        target[key] = [target[key], value]


def _put(parent: wxml.Element, key: str, value: Any) -> None:
    """Append ``value`` under ``parent`` as element(s) named ``key``."""
    if value is None:
        return
    if isinstance(value, list):
        for item in value:
            _put(parent, key, item)
        return
    el = wxml.sub(parent, key)
    if not isinstance(value, dict):
        el.text = _scalar(value) or None
        return
    for k, v in value.items():
        if k.startswith("@"):
            el.set(k[1:], _scalar(v))
        elif k == "$":
            el.text = _scalar(v) or None
        else:
            _put(el, k, v)


def _scalar(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return "" if value is None else str(value)


def _json_text(value: Any, key: str) -> str | None:
    """A core field from JSON: a string (scalars read as text, as Jackson does) or None."""
    if value is None or isinstance(value, str):
        return value
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return str(value)
    raise Invalid(f"Invalid value for field '{key}': expected a string")


def _check_json(value: Any, key: str, depth: int) -> None:
    """Refuse what could not be written back as XML: bad names, control characters,
    non-finite numbers, structures nested past ``MAX_DEPTH``."""
    if depth > MAX_DEPTH:
        raise Invalid("Malformed JSON payload: nested too deeply")
    if isinstance(value, str):
        if not wxml.xml_safe(value):
            raise Invalid(f"Invalid value for field '{key}': characters not allowed in XML")
    elif isinstance(value, float) and not math.isfinite(value):
        raise Invalid(f"Invalid value for field '{key}': not a finite number")
    elif isinstance(value, list):
        for item in value:
            _check_json(item, key, depth + 1)
    elif isinstance(value, dict):
        for k, v in value.items():
            _check_key(k, depth)
            if (k.startswith("@") or k == "$") and isinstance(v, dict | list):
                raise Invalid(f"Invalid value for field '{k}': expected a plain value")
            _check_json(v, k, depth + 1)


def _check_key(key: str, depth: int) -> None:
    name = key[1:] if key.startswith("@") else key
    if key == "$" and depth > 0:
        return
    try:
        wxml.check_name(name)
    except ValueError:
        raise Invalid(f"Invalid field name '{key}'") from None
