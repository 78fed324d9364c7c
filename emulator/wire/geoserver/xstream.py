"""XStream's name-and-link lists, the shape of every REST collection GeoServer lists by name.

XML: ``<workspaces><workspace><name>topp</name><atom:link rel="alternate" href="…"
type="…"/></workspace>…</workspaces>``; an empty list is the bare collection element.
JSON: ``{"workspaces":{"workspace":[{"name":"topp","href":"…"}]}}``; an empty list is
``{"workspaces":""}`` (Jettison writes the empty element as an empty string).

GeoWebCache writes its lists with XStream's pretty printer instead (two-space indent, the
Atom namespace declared on each link): ``names_xml_pretty``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from .. import json as wjson
from .. import xml as wxml
from .xmltext import escape_attribute

ATOM_LIST = "application/atom+xml"
"""the link type of most REST lists (``XStreamListAliasWrapper``'s)"""

Entry = tuple[str, str]
"""a listed object's name and the absolute link to it"""


def names_xml(
    collection: str, item: str, entries: Iterable[Entry], link_type: str = ATOM_LIST
) -> bytes:
    """``<collection><item><name/><atom:link/></item>…</collection>``, compact."""
    root = wxml.element(collection)
    for name, href in entries:
        element = wxml.sub(root, item)
        wxml.sub(element, "name", name)
        wxml.atom_link(element, href, link_type)
    return wxml.dump(root)


def names_json(
    collection: str,
    item: str,
    entries: Iterable[Entry],
    *,
    name: Callable[[str], object] | None = None,
    empty: object = "",
) -> bytes:
    """``{collection: {item: [{"name", "href"}…]}}``; an empty list is ``{collection:
    empty}`` (``empty=None``: an empty array). ``name`` types the name as the caller's JSON
    writer does (Jettison's ``leaf`` where GeoServer's JSON goes through it); without it
    names are strings, written without a dict per entry (a list of ten thousand layers is
    one request of many)."""
    listed = list(entries)
    if not listed and empty is not None:
        return wjson.dumps({collection: empty})
    if name is not None:
        objects = [{"name": name(n), "href": h} for n, h in listed]
        return wjson.dumps({collection: {item: objects}})
    text = wjson.string
    body = ",".join(['{"name":' + text(n) + ',"href":' + text(h) + "}" for n, h in listed])
    return wjson.joined("{" + text(collection) + ":{" + text(item) + ":[", body, "]}}")


def names_xml_pretty(
    collection: str,
    item: str,
    entries: Iterable[Entry],
    link_type: str = "text/xml",
    declaration: bool = False,
) -> bytes:
    """The same list as XStream's pretty printer writes it (GeoWebCache's REST lists)."""
    head = ['<?xml version="1.0" encoding="UTF-8"?>'] if declaration else []
    listed = list(entries)
    if not listed:
        return "\n".join([*head, f"<{collection}/>"]).encode("utf-8")
    lines = [*head, f"<{collection}>"]
    for name, href in listed:
        lines.append(f"  <{item}>")
        lines.append(f"    <name>{escape_attribute(name)}</name>")
        lines.append(
            f'    <atom:link xmlns:atom="{wxml.ATOM_NS}" rel="alternate"'
            f' href="{escape_attribute(href)}" type="{link_type}"/>'
        )
        lines.append(f"  </{item}>")
    lines.append(f"</{collection}>")
    return "\n".join(lines).encode("utf-8")
