"""Filter chains in XML and JSON as ``AuthenticationFilterChainRestController`` writes and
reads them: a chain is ``<filters name= class= path= disabled= allowSessionCreation= ssl=
matchHTTPMethod= interceptorName= exceptionTranslationName= roleFilterName=>`` with one
``<filter>`` per filter; JSON ``{"filters": {"@name": …, "filter": [...]}}``. The list is
``<filterchain>`` holding the chains; an order is ``{"order": [...]}`` or
``<order><order>name</order>…</order>``."""

from __future__ import annotations

from typing import Any

from ...core.errors import Invalid
from ...core.vendor import VendorNames
from ...wire import json as wjson
from ...wire import xml as wxml
from .model import FilterChain

ATTRIBUTES = (
    ("name", "name"),
    ("class", "cls"),
    ("path", "patterns"),
    ("disabled", "disabled"),
    ("allowSessionCreation", "allow_session_creation"),
    ("ssl", "require_ssl"),
    ("matchHTTPMethod", "match_http_method"),
    ("interceptorName", "interceptor_name"),
    ("exceptionTranslationName", "exception_translation_name"),
    ("roleFilterName", "role_filter_name"),
)
BOOLEANS = frozenset({"disabled", "allowSessionCreation", "ssl", "matchHTTPMethod"})


def _attributes(chain: FilterChain, vendor: VendorNames) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    for wire, attr in ATTRIBUTES:
        value: Any = getattr(chain, attr)
        if value is None:
            continue
        if attr == "cls":
            value = vendor.emit(value)
        elif attr == "patterns":
            value = ",".join(value)
        elif isinstance(value, bool):
            value = "true" if value else "false"
        out.append((wire, value))
    return out


def _chain_xml(parent: Any, chain: FilterChain, vendor: VendorNames) -> Any:
    el = wxml.sub(parent, "filters") if parent is not None else wxml.element("filters")
    for key, value in _attributes(chain, vendor):
        el.set(key, value)
    for name in chain.filters:
        wxml.sub(el, "filter", name)
    return el


def dump_chain(chain: FilterChain, fmt: str, vendor: VendorNames) -> bytes:
    if fmt == "xml":
        return wxml.dump(_chain_xml(None, chain, vendor))
    return wjson.dumps({"filters": _chain_json(chain, vendor)})


def _chain_json(chain: FilterChain, vendor: VendorNames) -> dict[str, Any]:
    body: dict[str, Any] = {f"@{k}": v for k, v in _attributes(chain, vendor)}
    body["filter"] = list(chain.filters)
    return body


def dump_list(chains: list[FilterChain], fmt: str, vendor: VendorNames) -> bytes:
    if fmt == "xml":
        root = wxml.element("filterchain")
        for chain in chains:
            _chain_xml(root, chain, vendor)
        return wxml.dump(root)
    return wjson.dumps({"filterchain": {"filters": [_chain_json(c, vendor) for c in chains]}})


def parse_chain(body: bytes, fmt: str, vendor: VendorNames) -> FilterChain:
    if fmt == "json":
        return _from_json(wjson.loads(body), vendor)
    root = wxml.parse(body, "a filter chain")
    tag = wxml.local(root.tag)
    if tag == "filterchain":
        items = wxml.children(root, "filters")
        if len(items) != 1:
            raise Invalid("Malformed payload: expected a single <filters> element")
        root = items[0]
    elif tag != "filters":
        raise Invalid("Malformed payload: expected a single <filters> element")
    values: dict[str, Any] = dict(root.attrib)
    for key in ATTRIBUTES:
        child = wxml.child(root, key[0])
        if child is not None and key[0] not in values:
            values[key[0]] = child.text or ""
    values["filter"] = [el.text or "" for el in wxml.children(root, "filter")]
    return _chain(values, vendor)


def _from_json(doc: Any, vendor: VendorNames) -> FilterChain:
    node = doc
    if isinstance(doc, dict) and isinstance(doc.get("filters"), dict):
        node = doc["filters"]
    elif isinstance(doc, dict) and isinstance(doc.get("filterchain"), dict):
        items = doc["filterchain"].get("filters")
        if isinstance(items, list) and len(items) == 1:
            node = items[0]
    if not isinstance(node, dict):
        raise Invalid("Malformed payload: expected a single filter chain object")
    values = {k.lstrip("@"): v for k, v in node.items()}
    values.setdefault("class", values.get("clazz"))
    filters = values.get("filter", [])
    values["filter"] = filters if isinstance(filters, list) else [filters]
    return _chain(values, vendor)


def _text(values: dict[str, Any], key: str) -> str | None:
    value = values.get(key)
    if value is None:
        return None
    if isinstance(value, dict | list):
        raise Invalid(f"Malformed payload: {key} must be a text")
    return str(value).lower() if isinstance(value, bool) else str(value)


def _chain(values: dict[str, Any], vendor: VendorNames) -> FilterChain:
    cls = _text(values, "class") or ""
    path = _text(values, "path") or ""
    filters = [str(f) for f in values["filter"] if not isinstance(f, dict | list)]
    chain = FilterChain(
        _text(values, "name") or "",
        vendor.canonical(cls) if cls else "",
        [p for p in (s.strip() for s in path.split(",")) if p],
        filters,
    )
    for wire, attr in ATTRIBUTES[3:]:
        text = _text(values, wire)
        if text is None:
            continue
        if wire in BOOLEANS:
            setattr(chain, attr, text.strip().lower() == "true")
        else:
            setattr(chain, attr, text)
    if chain.cls.endswith(("HtmlLoginFilterChain", "ServiceLoginFilterChain")):
        chain.interceptor_name = chain.interceptor_name or "interceptor"
        chain.exception_translation_name = chain.exception_translation_name or "exception"
    return chain


def parse_order(body: bytes, fmt: str) -> list[str]:
    if fmt == "json":
        doc = wjson.loads(body)
        node = doc.get("order") if isinstance(doc, dict) else None
        if node is None and isinstance(doc, dict) and isinstance(doc.get("filterchain"), dict):
            node = doc["filterchain"].get("order")
        if not isinstance(node, list):
            raise Invalid("`order` array required")
        return [str(n) for n in node]
    root = wxml.parse(body, "an order")
    if wxml.local(root.tag) != "order":
        raise Invalid("`order` array required")
    names = [el.text or "" for el in wxml.children(root, "order")]
    if not names:
        raise Invalid("`order` array required")
    return names
