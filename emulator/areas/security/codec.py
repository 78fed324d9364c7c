"""XML and JSON of the security settings: keystore password, catalog mode, access rules.

Keystore password and catalog mode travel as flat maps: XML ``<masterPassword>`` or
``<catalog>`` whose child elements are the entries, JSON a flat object. Rules travel as XML
``<rules><rule resource="KEY">ROLES</rule>...</rules>`` or a JSON object of key → roles.
"""

from __future__ import annotations

from typing import Any

from ...core.errors import Invalid
from ...wire import json as wjson
from ...wire import xml as wxml

MASTER_PASSWORD_ROOT = "masterPassword"
CURRENT_KEY = "oldMasterPassword"
NEW_KEY = "newMasterPassword"
CATALOG_ROOT = "catalog"
MODE_KEY = "mode"
RULES_ROOT = "rules"
RULE = "rule"
RESOURCE = "resource"


# -- flat maps (keystore password, catalog mode) -------------------------------------------


def parse_map(body: bytes, fmt: str) -> dict[str, Any]:
    """A flat map from a request body.

    XML: the root (any name) must have child elements; each becomes an entry whose value is
    its text, None when empty, or a nested map. JSON: an object, JSON null read as None.
    """
    if fmt == "json":
        return wjson.as_object(wjson.loads(body), "the request body")
    root = wxml.parse(body)
    if not _elements(root):
        raise Invalid(f"Malformed XML: <{wxml.local(root.tag)}> has no child elements")
    value = _xml_value(root)
    assert isinstance(value, dict)
    return value


def _elements(el: wxml.Element) -> list[wxml.Element]:
    return [c for c in el if isinstance(c.tag, str)]


def _xml_value(el: wxml.Element) -> Any:
    kids = _elements(el)
    if kids:
        return {wxml.local(c.tag): _xml_value(c) for c in kids}
    text = el.text or ""
    return text if text or len(el) else None


def dump_map(root: str, values: dict[str, str], fmt: str) -> bytes:
    if fmt == "json":
        return wjson.dumps(values)
    el = wxml.element(root)
    wxml.fields(el, values.items())
    return wxml.dump(el)


def dump_keystore_password(password: str, fmt: str) -> bytes:
    """GeoServer names the current password ``oldMasterPassword`` in the GET reply."""
    return dump_map(MASTER_PASSWORD_ROOT, {CURRENT_KEY: password}, fmt)


def parse_keystore_change(body: bytes, fmt: str) -> tuple[object, object]:
    """(current, new) from a change request; either may be missing (None) or not a string."""
    values = parse_map(body, fmt)
    return values.get(CURRENT_KEY), values.get(NEW_KEY)


def dump_catalog_mode(mode: str, fmt: str) -> bytes:
    return dump_map(CATALOG_ROOT, {MODE_KEY: mode}, fmt)


def parse_catalog_mode(body: bytes, fmt: str) -> object:
    """The ``mode`` value of a request, None when the entry is missing or empty."""
    return parse_map(body, fmt).get(MODE_KEY)


# -- access rules --------------------------------------------------------------------------


def parse_rules(body: bytes, fmt: str) -> dict[str, str]:
    """Rule key → role list as written. A key given twice keeps its last value."""
    if fmt == "json":
        data = wjson.as_object(wjson.loads(body), "the rules")
        for key, value in data.items():
            if not isinstance(value, str):
                raise Invalid(f'Rule {key}: expected the roles as a string, e.g. "ROLE_A,ROLE_B"')
        return dict(data)
    root = wxml.parse(body)
    out: dict[str, str] = {}
    for item in _elements(root):
        key = item.get(RESOURCE)
        if key is None:
            raise Invalid(f"Malformed XML: <{wxml.local(item.tag)}> has no {RESOURCE} attribute")
        out[key] = _own_text(item).strip()
    return out


def _own_text(el: wxml.Element) -> str:
    """The text directly inside ``el`` (not inside its children)."""
    return (el.text or "") + "".join(c.tail or "" for c in el)


def dump_rules(rules: dict[str, list[str]], fmt: str) -> bytes:
    """An empty rule set is ``<rules/>`` or ``{}``."""
    if fmt == "json":
        return wjson.dumps({key: ",".join(roles) for key, roles in rules.items()})
    root = wxml.element(RULES_ROOT)
    for key, roles in rules.items():
        wxml.sub(root, RULE, ",".join(roles), {RESOURCE: key})
    return wxml.dump(root)
