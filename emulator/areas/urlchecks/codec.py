"""URL checks on the wire: ``regexUrlCheck`` in XML and JSON, the lists, the HTML pages.

Parsing yields a ``CheckInput`` (absent fields are ``None``); the root must be
``regexUrlCheck`` (the newest GeoServer's alias; any other root is refused with 400).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ...core.errors import Invalid
from ...wire import json as wjson
from ...wire import xml as wxml
from ...wire.geoserver.html import esc
from ...wire.geoserver.html import page as html_page
from ...wire.geoserver.java import url_encode
from ...wire.geoserver.jettison import leaf
from ...wire.geoserver.xstream import names_json, names_xml
from ...wire.xml import xml_safe
from .model import CheckInput, UrlCheck

ROOT = "regexUrlCheck"
FIELDS = ("name", "description", "enabled", "regex")


def _bool(value: Any, what: str = "enabled") -> bool | None:
    if value is None or isinstance(value, bool):
        return value
    if isinstance(value, str):
        return wxml.to_bool(value, what)
    raise Invalid(f"Invalid boolean for {what}: {value!r}")


def _text(value: Any, key: str) -> str | None:
    if isinstance(value, str) and not xml_safe(value):
        raise Invalid(f"Field {key} of {ROOT} holds characters that XML cannot carry")
    if value is None or isinstance(value, str):
        return value
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return str(value)
    raise Invalid(f"Field {key} of {ROOT} must be a string")


# -- parse ---------------------------------------------------------------------------------


def parse_check_xml(body: bytes) -> CheckInput:
    root = wxml.parse(body, "URL check XML")
    if wxml.local(root.tag) != ROOT:
        raise Invalid(f"Expected a {ROOT} document, got <{wxml.local(root.tag)}>")
    values: dict[str, str] = {}
    for child in root:
        name = wxml.local(child.tag)
        if not name:
            continue  # comments, processing instructions
        if name not in FIELDS:
            raise Invalid(f"Unknown field {name} in {ROOT}")
        values[name] = child.text or ""
    return CheckInput(
        name=values.get("name"),
        description=values.get("description"),
        enabled=wxml.to_bool(values["enabled"], "enabled") if "enabled" in values else None,
        regex=values.get("regex"),
    )


def parse_check_json(body: bytes) -> CheckInput:
    doc = wjson.as_object(wjson.loads(body, "URL check JSON"), "a URL check")
    if list(doc) != [ROOT]:
        raise Invalid(f"Expected a JSON object with the single key {ROOT}")
    inner = doc[ROOT]
    if inner == "" or inner is None:
        inner = {}
    obj = wjson.as_object(inner, ROOT)
    unknown = sorted(set(obj) - set(FIELDS))
    if unknown:
        raise Invalid(f"Unknown field {unknown[0]} in {ROOT}")
    return CheckInput(
        name=_text(obj.get("name"), "name"),
        description=_text(obj.get("description"), "description"),
        enabled=_bool(obj.get("enabled")),
        regex=_text(obj.get("regex"), "regex"),
    )


# -- dump: one check -----------------------------------------------------------------------


def _fields(check: UrlCheck) -> list[tuple[str, str | bool | None]]:
    return [
        ("name", check.name),
        ("description", check.description),
        ("enabled", check.enabled),
        ("regex", check.regex),
    ]


def dump_check_xml(check: UrlCheck) -> bytes:
    return wxml.dump(wxml.fields(wxml.element(ROOT), _fields(check)))


def dump_check_json(check: UrlCheck) -> bytes:
    body = {key: leaf(value) for key, value in _fields(check) if value is not None}
    return wjson.dumps({ROOT: body})


def dump_check_html(check: UrlCheck) -> str:
    enabled = "true" if check.enabled else "false"
    return html_page(
        f'Url check "{esc(check.name)}"\n\n<ul>\n'
        f"  <li>Name: {esc(check.name)}</li>\n"
        f"  <li>Description: {esc(check.description or '')}</li>\n"
        f"  <li>Configuration: {esc(check.regex)}</li>\n"
        f"  <li>Enabled: {enabled}</li>\n</ul>"
    )


# -- dump: the list ------------------------------------------------------------------------


def dump_list_xml(checks: Sequence[UrlCheck], base: str) -> bytes:
    """``<urlChecks><urlCheck><name/><atom:link/></urlCheck>…`` with links under ``base``."""
    entries = [(c.name, f"{base}/{url_encode(c.name)}.xml") for c in checks]
    return names_xml("urlChecks", "urlCheck", entries)


def dump_list_json(checks: Sequence[UrlCheck], base: str, keys: tuple[str, str]) -> bytes:
    """``{collection: {item: [{name, href}]}}``; an empty list is ``{collection: ""}``."""
    entries = [(c.name, f"{base}/{url_encode(c.name)}.json") for c in checks]
    return names_json(*keys, entries, name=leaf)


def dump_list_html(checks: Sequence[UrlCheck], base: str) -> str:
    items = "".join(
        f'  <li><a href="{esc(f"{base}/{c.name}.html")}">{esc(c.name)}</a></li>\n' for c in checks
    )
    return html_page(f"<ul>\n{items}</ul>")
