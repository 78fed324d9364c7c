"""User/group service configurations in XML and JSON, as GeoServer's REST XStream writes a
``SecurityUserGroupServiceConfig``: the root (XML) or only key (JSON) is the configuration
class's name, then ``name`` and the class's fields as text. The list is a catalog list:
``<userGroupServices><userGroupService><name/><atom:link/></userGroupService>…``."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from ...core.errors import Invalid
from ...core.vendor import VendorNames
from ...wire import json as wjson
from ...wire import xml as wxml

_CLASS = re.compile(r"[A-Za-z_$][\w$]*(\.[A-Za-z_$][\w$]*)+\Z")


def dump_list_xml(items: Iterable[tuple[str, str]]) -> bytes:
    root = wxml.element("userGroupServices")
    for name, href in items:
        item = wxml.sub(root, "userGroupService")
        wxml.sub(item, "name", name)
        wxml.atom_link(item, href)
    return wxml.dump(root)


def dump_list_json(items: Iterable[tuple[str, str]]) -> bytes:
    entries = [{"name": name, "href": href} for name, href in items]
    return wjson.dumps({"userGroupServices": {"userGroupService": entries}})


def dump_xml(config_class: str, name: str, fields: dict[str, str]) -> bytes:
    root = wxml.element(config_class)
    wxml.fields(root, [("name", name), *fields.items()])
    return wxml.dump(root)


def dump_json(config_class: str, name: str, fields: dict[str, str]) -> bytes:
    body: dict[str, Any] = {"name": name}
    for key, value in fields.items():
        body[key] = _json_value(value)
    return wjson.dumps({config_class: body})


def _json_value(value: str) -> Any:
    if value in ("true", "false"):
        return value == "true"
    if re.fullmatch(r"-?\d{1,18}", value):
        return int(value)
    return value


def parse(body: bytes, fmt: str, vendor: VendorNames) -> tuple[str, str, dict[str, str]]:
    """(configuration class, name, other fields) of a posted configuration; ``Invalid``
    (400) when the body is not one."""
    if fmt == "json":
        doc = wjson.as_object(wjson.loads(body), "a user/group service configuration")
        if len(doc) != 1:
            raise Invalid("Expected one key, the configuration class, holding its fields")
        ((cls, inner),) = doc.items()
        values = wjson.as_object(inner, cls)
        pairs = [(k, v) for k, v in values.items()]
    else:
        root = wxml.parse(body, "a user/group service configuration")
        cls = wxml.local(root.tag)
        pairs = [(wxml.local(el.tag), el.text or "") for el in root]
    if not _CLASS.match(cls):
        raise Invalid(f"Expected a configuration class name as the root, not {cls!r}")
    fields: dict[str, str] = {}
    for key, value in pairs:
        if isinstance(value, dict | list):
            raise Invalid(f"Field {key} of {cls}: expected a value, not a structure")
        text = (
            "" if value is None else str(value).lower() if isinstance(value, bool) else str(value)
        )
        try:
            wxml.check_name(key)
        except ValueError:
            raise Invalid(f"Field name not usable in XML: {key!r}") from None
        fields[key] = text
    name = fields.pop("name", "")
    fields.pop("id", None)
    return vendor.canonical(cls), name, fields
