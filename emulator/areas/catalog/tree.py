"""One description of a catalog document, written as XML or JSON the way GeoServer's XStream
(XML) and Jettison (JSON, "mapped" convention) write it, and read back from either.

    Node("dataStore", children=[Node("name", "sf"), Node("enabled", True),
                                Node("workspace", children=[Node("name", "sf")], link=url)])

XML: elements, attributes, ``<atom:link rel="alternate" href type>`` for links. JSON: a leaf
is its typed value; attributes are ``@name`` keys and the text ``$``; repeated children (or
children named in ``arrays``) become a list; a link is an ``href`` key; a *collection link*
(``<dataStores><atom:link/></dataStores>``) is the bare URL; an empty element is ``""``.

Reading turns both formats into the same nested dicts (the JSON shape), so that one parser
per resource serves XML and JSON bodies alike.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from ...core.errors import Invalid
from ...wire import xml as wxml
from ...wire.geoserver.html import esc, page
from ...wire.geoserver.java import number_text as java_number
from ...wire.geoserver.jettison import number as json_number

Scalar = str | int | float | bool


class Node:
    """One element: ``tag``, a leaf ``value`` or ``children``, XML ``attrs``, a ``link`` (an
    Atom link; with ``collection_link`` the element is only that link), and ``arrays``: the
    child tags written as JSON lists even with one item (list endpoints).

    A plain class rather than a dataclass: documents build many nodes, and a dataclass would
    compile its methods at import."""

    __slots__ = (
        "tag", "value", "children", "attrs", "link", "link_type", "collection_link", "arrays"
    )  # fmt: skip

    def __init__(
        self,
        tag: str,
        value: Scalar | None = None,
        children: list[Node] | None = None,
        attrs: dict[str, str] | None = None,
        link: str | None = None,
        link_type: str = "application/xml",
        collection_link: bool = False,
        arrays: frozenset[str] = frozenset(),
    ) -> None:
        self.tag = tag
        self.value = value
        self.children: list[Node] = [] if children is None else children
        self.attrs: dict[str, str] = {} if attrs is None else attrs
        self.link = link
        self.link_type = link_type
        self.collection_link = collection_link
        self.arrays = arrays

    def _fields(self) -> tuple[Any, ...]:
        return tuple(getattr(self, name) for name in Node.__slots__)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Node):
            return NotImplemented
        return self._fields() == other._fields()

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        inner = ", ".join(f"{n}={getattr(self, n)!r}" for n in Node.__slots__)
        return f"Node({inner})"

    def add(self, tag: str, value: Scalar | None, **kw: Any) -> Node:
        """Append a leaf unless ``value`` is None; returns self for chaining."""
        if value is not None:
            self.children.append(Node(tag, value, **kw))
        return self

    def child(self, node: Node | None) -> Node:
        if node is not None:
            self.children.append(node)
        return self


def _text(value: Scalar) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return java_number(value)
    return value


# -- writing ----------------------------------------------------------------------------


def to_xml(node: Node) -> wxml.Element:
    el = wxml.element(node.tag, None, node.attrs)
    _fill_xml(el, node)
    return el


def _fill_xml(el: wxml.Element, node: Node) -> None:
    if node.value is not None:
        el.text = _text(node.value)
    for c in node.children:
        sub = wxml.sub(el, c.tag, None, c.attrs)
        _fill_xml(sub, c)
    if node.link is not None:
        wxml.atom_link(el, node.link, node.link_type)


def dump_xml(node: Node) -> bytes:
    return wxml.dump(to_xml(node))


def to_json(node: Node) -> Any:
    """The JSON value of ``node`` (without its tag)."""
    if node.collection_link:
        return node.link
    if not node.children and node.link is None and not node.attrs:
        if node.value is None:
            return ""
        return json_number(node.value) if type(node.value) is float else node.value
    out: dict[str, Any] = {f"@{k}": v for k, v in node.attrs.items()}
    if node.value is not None and not node.children:
        out["$"] = _text(node.value)
    groups: dict[str, list[Any]] = {}
    for c in node.children:
        groups.setdefault(c.tag, []).append(to_json(c))
    for tag, values in groups.items():
        out[tag] = values if (len(values) > 1 or tag in node.arrays) else values[0]
    if node.link is not None:
        out["href"] = node.link
    return out


def dump_json_doc(node: Node) -> dict[str, Any]:
    return {node.tag: to_json(node)}


def to_html(node: Node, title: str) -> str:
    """A small readable page: GeoServer offers HTML for every catalog resource."""
    return page(f"<h2>{esc(title)}</h2>{_html_items(node)}")


def _html_items(node: Node) -> str:
    items = []
    for c in node.children:
        label = esc(c.tag)
        if c.children:
            inner = _html_items(c)
            name = next((x.value for x in c.children if x.tag == "name"), None)
            if c.link and name is not None:
                inner = f'<a href="{esc(c.link)}">{esc(str(name))}</a>'
            elif c.link:  # a collection listed in full, after its own link
                inner = f'<a href="{esc(c.link)}">{esc(c.link)}</a>{inner}'
            items.append(f"<li>{label}: {inner}</li>")
        elif c.link is not None:
            items.append(f'<li>{label}: <a href="{esc(c.link)}">{esc(c.link)}</a></li>')
        else:
            value = "" if c.value is None else esc(_text(c.value))
            items.append(f"<li>{label}: {value}</li>")
    return "<ul>" + "".join(items) + "</ul>"


# -- reading ----------------------------------------------------------------------------

XSI = "http://www.w3.org/2001/XMLSchema-instance"
_XSI_NIL = f"{{{XSI}}}nil"
_ROOT_TAG = re.compile(rb"<([A-Za-z_][\w.:-]*)")


def declare_xsi(body: bytes) -> bytes:
    """``body`` with the ``xsi`` prefix declared on its root when it uses the prefix without
    declaring it (XStream reads such documents; a namespace-aware parser refuses them)."""
    if b"xsi:" not in body or b"xmlns:xsi" in body:
        return body
    pos = 0
    while True:
        found = _ROOT_TAG.search(body, pos)
        if found is None:
            return body
        before = body[: found.start()]
        if before.count(b"<!--") > before.count(b"-->"):
            pos = found.end()
            continue
        at = found.end()
        return body[:at] + b' xmlns:xsi="' + XSI.encode() + b'"' + body[at:]


def xml_to_dict(el: wxml.Element) -> Any:
    """An element as the JSON shape: text, or a dict of children (repeats → lists); an
    element marked ``xsi:nil="true"`` is None, as a JSON ``null`` is (the field is unset)."""
    if el.get(_XSI_NIL, "").strip().lower() in ("true", "1"):
        return None
    kids = [c for c in el if isinstance(c.tag, str) and wxml.local(c.tag) != "link"]
    attrs = {f"@{k}": v for k, v in el.attrib.items() if not k.startswith("{")}
    if not kids:
        text = el.text or ""
        text = text if text.strip() else ""
        if attrs:
            return {**attrs, "$": text} if text else attrs
        return text
    out: dict[str, Any] = dict(attrs)
    for c in kids:
        key, value = wxml.local(c.tag), xml_to_dict(c)
        if key in out:
            out[key] = out[key] if isinstance(out[key], list) else [out[key]]
            out[key].append(value)
        else:
            out[key] = value
    return out


def read_body(body: bytes, fmt: str, root: str | Iterable[str]) -> tuple[str, dict[str, Any]]:
    """Parse a request body whose root is ``root`` (or one of several): (root, fields)."""
    roots = (root,) if isinstance(root, str) else tuple(root)
    if fmt == "xml":
        el = wxml.parse(declare_xsi(body))
        tag = wxml.local(getattr(el, "tag", ""))
        if tag not in roots:
            raise Invalid(f"Expected a <{roots[0]}> document, got <{tag}>")
        value = xml_to_dict(el)
        return tag, value if isinstance(value, dict) else {}
    from ...wire import json as wjson

    data = wjson.as_object(wjson.loads(body), roots[0])
    for tag in roots:
        if tag in data:
            inner = data[tag]
            return tag, inner if isinstance(inner, dict) else {}
    raise Invalid(f"Expected a JSON object with the key {roots[0]}")


def entries_node(tag: str, values: dict[str, Any]) -> Node:
    """A map as XStream writes it: ``<entry key="k">v</entry>``; a structured value (a dict
    in the JSON shape) becomes the entry's child elements."""
    node = Node(tag)
    for k, v in values.items():
        if isinstance(v, dict):
            node.children.append(shape_node("entry", {"@key": k, **v}))
        else:
            node.children.append(Node("entry", v, attrs={"key": k}))
    return node


def shape_node(tag: str, value: Any) -> Node:
    """A value in the JSON shape (``@attr`` keys, ``$`` text, lists for repeats) as a Node."""
    if not isinstance(value, dict):
        return Node(tag, "" if value is None else value)
    node = Node(tag, attrs={k[1:]: str(v) for k, v in value.items() if k.startswith("@")})
    if "$" in value and len(value) == len(node.attrs) + 1:
        node.value = value["$"]
    for k, v in value.items():
        if k.startswith("@") or k == "$":
            continue
        for item in v if isinstance(v, list) else [v]:
            node.children.append(shape_node(k, item))
    return node
