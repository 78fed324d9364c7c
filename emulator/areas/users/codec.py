"""Wire forms of users, groups and roles (GeoServer's ``JaxbUser`` and list classes).

Reading goes through XStream in GeoServer, which aliases ``user`` to ``JaxbUser``: the XML
root and the JSON wrapper key are ``user`` (or the class's full name). Writing goes through
JAXB (XML) and Jackson (JSON), hence the different shapes::

    <users><user><userName>admin</userName><enabled>true</enabled></user></users>
    {"users":[{"userName":"admin","password":null,"enabled":true}]}
    <groups><group>g</group></groups>      {"groups":["g"]}
    <roles><role>ADMIN</role></roles>      {"roles":["ADMIN"]}

Passwords are never written.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ...core.errors import Invalid
from ...core.vendor import VendorNames
from ...wire import json as wjson
from ...wire import xml as wxml
from .model import User, UserChange

JAXB_USER = "rest.security.xml.JaxbUser"
USER_FIELDS = ("userName", "password", "enabled")
XML_DECLARATION = b'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'


def _is_user_root(name: str, vendor: VendorNames) -> bool:
    return name == "user" or vendor.canonical(name) == JAXB_USER


# -- users: parse --------------------------------------------------------------------------


def parse_user_xml(body: bytes, vendor: VendorNames) -> UserChange:
    root = wxml.parse(body, "user XML")
    if not _is_user_root(wxml.local(root.tag), vendor):
        raise Invalid(f"Expected a <user> document, got <{wxml.local(root.tag)}>")
    values: dict[str, str] = {}
    for el in root:
        if not isinstance(el.tag, str):
            continue  # comments, processing instructions
        name = wxml.local(el.tag)
        if name not in USER_FIELDS:
            raise Invalid(f"Unknown user field: {name}")
        if name in values:
            raise Invalid(f"Duplicate user field: {name}")
        values[name] = (el.text or "").strip() if name != "password" else el.text or ""
    return UserChange(
        name=values.get("userName"),
        password=values.get("password"),
        enabled=wxml.to_bool(values.get("enabled"), "enabled"),
    )


def parse_user_json(body: bytes, vendor: VendorNames) -> UserChange:
    doc = wjson.as_object(wjson.loads(body, "user JSON"), "the user")
    if len(doc) != 1 or not _is_user_root(next(iter(doc)), vendor):
        raise Invalid('Expected {"user": {"userName": …, "password": …, "enabled": …}}')
    fields = wjson.as_object(next(iter(doc.values())), "user")
    unknown = sorted(set(fields) - set(USER_FIELDS))
    if unknown:
        raise Invalid(f"Unknown user field: {unknown[0]}")
    return UserChange(
        name=_json_text(fields.get("userName"), "userName"),
        password=_json_text(fields.get("password"), "password"),
        enabled=_json_bool(fields.get("enabled")),
    )


def _json_text(value: Any, what: str) -> str | None:
    """A string field; numbers are taken as their text, as XStream's JSON reader does."""
    if value is None or isinstance(value, str):
        return value
    if isinstance(value, int | float) and not isinstance(value, bool):
        return str(value)
    raise Invalid(f"Invalid {what}: expected a string")


def _json_bool(value: Any) -> bool | None:
    if value is None or isinstance(value, bool):
        return value
    if isinstance(value, str):
        return wxml.to_bool(value, "enabled")
    raise Invalid("Invalid enabled: expected true or false")


def parse_user(body: bytes, fmt: str, vendor: VendorNames) -> UserChange:
    return parse_user_xml(body, vendor) if fmt == "xml" else parse_user_json(body, vendor)


# -- users: dump ---------------------------------------------------------------------------


def dump_users_xml(users: Iterable[User]) -> bytes:
    root = wxml.element("users")
    for user in users:
        wxml.fields(wxml.sub(root, "user"), [("userName", user.name), ("enabled", user.enabled)])
    return XML_DECLARATION + wxml.dump(root)


def dump_users_json(users: Iterable[User]) -> bytes:
    return wjson.dumps(
        {"users": [{"userName": u.name, "password": None, "enabled": u.enabled} for u in users]}
    )


def dump_users(users: Iterable[User], fmt: str) -> bytes:
    return dump_users_xml(users) if fmt == "xml" else dump_users_json(users)


# -- name lists (groups, roles) ------------------------------------------------------------


def dump_names_xml(root_tag: str, item_tag: str, names: Iterable[str]) -> bytes:
    root = wxml.element(root_tag)
    for name in names:
        wxml.sub(root, item_tag, name)
    return XML_DECLARATION + wxml.dump(root)


def dump_names_json(key: str, names: Iterable[str]) -> bytes:
    return wjson.dumps({key: list(names)})


def dump_groups(names: Iterable[str], fmt: str) -> bytes:
    return (
        dump_names_xml("groups", "group", names)
        if fmt == "xml"
        else dump_names_json("groups", names)
    )


def dump_roles(names: Iterable[str], fmt: str) -> bytes:
    return (
        dump_names_xml("roles", "role", names) if fmt == "xml" else dump_names_json("roles", names)
    )


def parse_names_xml(body: bytes, root_tag: str, item_tag: str) -> list[str]:
    """The inverse of ``dump_names_xml`` (used by tests and round trips)."""
    root = wxml.parse(body)
    if wxml.local(root.tag) != root_tag:
        raise Invalid(f"Expected <{root_tag}>")
    return [el.text or "" for el in wxml.children(root, item_tag)]


# -- self password -------------------------------------------------------------------------


def parse_new_password(body: bytes, fmt: str) -> str | None:
    """``newPassword`` from ``<userPassword><newPassword>…`` or ``{"newPassword": …}``."""
    if fmt == "xml":
        root = wxml.parse(body, "password XML")
        values = {wxml.local(el.tag): el.text or "" for el in root if isinstance(el.tag, str)}
        return values.get("newPassword")
    doc = wjson.as_object(wjson.loads(body, "password JSON"), "the password change")
    value = doc.get("newPassword")
    if value is not None and not isinstance(value, str):
        raise Invalid("Invalid newPassword: expected a string")
    return value
