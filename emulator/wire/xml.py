"""The hardened XML parser and small builders and readers used by area codecs.

Parsing never resolves entities, never loads a DTD, never touches the network and refuses
huge trees; a document with a DOCTYPE is rejected outright (no legitimate REST payload has
one), which is also what GeoServer answers to XXE attempts: 400.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from functools import cache
from typing import TYPE_CHECKING, Any

from ..core.errors import Invalid

if TYPE_CHECKING:
    from lxml import etree  # type: ignore[import-untyped]
    from lxml.etree import _Element as Element  # type: ignore[import-untyped]
else:
    Element = Any

ATOM_NS = "http://www.w3.org/2005/Atom"


def _etree() -> Any:
    """lxml's ``etree``, imported on first use (it is a fifth of the package's import time)."""
    from lxml import etree

    return etree


def _parser() -> etree.XMLParser:
    etree = _etree()
    return etree.XMLParser(
        resolve_entities=False,
        no_network=True,
        load_dtd=False,
        dtd_validation=False,
        huge_tree=False,
        remove_blank_text=False,
        remove_comments=False,
    )


def parse(body: bytes | str, what: str = "XML") -> Element:
    """Parse a request body, or raise ``Invalid`` with a readable message."""
    if isinstance(body, str):
        body = body.encode("utf-8")
    if not body.strip():
        raise Invalid(f"Empty {what} body")
    if b"<!DOCTYPE" in body.upper() or b"<!ENTITY" in body.upper():
        raise Invalid(f"{what} documents with a DOCTYPE or entity declarations are not accepted")
    etree = _etree()
    try:
        root = etree.fromstring(body, parser=_parser())
    except etree.XMLSyntaxError as exc:
        raise Invalid(f"Malformed {what}: {exc.msg}") from None
    except ValueError as exc:
        raise Invalid(f"Malformed {what}: {exc}") from None
    return root


def local(tag: object) -> str:
    """The local part of an element tag (namespace dropped)."""
    return _etree().QName(tag).localname if isinstance(tag, str) else ""


def child(el: Element, name: str) -> Element | None:
    for c in el:
        if local(c.tag) == name:
            return c
    return None


def children(el: Element, name: str) -> list[Element]:
    return [c for c in el if local(c.tag) == name]


def text(el: Element | None, name: str | None = None, default: str | None = None) -> str | None:
    """Text of ``el`` (or of its first child called ``name``), stripped; ``default`` if absent."""
    if el is None:
        return default
    target = el if name is None else child(el, name)
    if target is None:
        return default
    return (target.text or "").strip()


@cache
def _not_xml() -> re.Pattern[str]:
    """Any one character outside XML 1.0's ``Char`` (``#x9 | #xA | #xD | [#x20-#xD7FF] |
    [#xE000-#xFFFD] | [#x10000-#x10FFFF]``), written as the complement's few ranges: the
    negated class of those ranges takes tens of milliseconds to compile."""
    return re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def xml_safe(text: str) -> bool:
    """Whether ``text`` holds only characters XML 1.0 allows."""
    return (text.isascii() and text.isprintable()) or _not_xml().search(text) is None


def replace_unsafe(text: str, by: str = "\ufffd") -> str:
    """``text`` with each character XML 1.0 cannot hold replaced by ``by``."""
    return text if text.isascii() and text.isprintable() else _not_xml().sub(by, text)


def check_name(name: str) -> None:
    """Raise ``ValueError`` when lxml would refuse ``name`` as an element's tag. Plain
    names (ASCII letters, digits, ``._-``, not starting with a digit, dot or dash: Java
    class and field names) are valid without asking lxml, which spares its import."""
    if re.fullmatch(r"[A-Za-z_][A-Za-z0-9._-]*", name) is None:
        element(name)


def element(tag: str, text: str | None = None, attrib: Mapping[str, str] | None = None) -> Element:
    el = _etree().Element(tag, attrib=dict(attrib or {}))
    if text is not None:
        el.text = text
    return el


def sub(
    parent: Element, tag: str, text: str | None = None, attrib: Mapping[str, str] | None = None
) -> Element:
    el = _etree().SubElement(parent, tag, attrib=dict(attrib or {}))
    if text is not None:
        el.text = text
    return el


def atom_link(
    parent: Element, href: str, type_: str = "application/xml", rel: str = "alternate"
) -> Element:
    """Append ``<atom:link rel href type>`` as GeoServer writes it."""
    return _etree().SubElement(
        parent,
        f"{{{ATOM_NS}}}link",
        attrib={"rel": rel, "href": href, "type": type_},
        nsmap={"atom": ATOM_NS},
    )


def fields(parent: Element, values: Iterable[tuple[str, object]]) -> Element:
    """Append one child per (name, value); None is skipped, booleans are written lower-case."""
    for name, value in values:
        if value is None:
            continue
        if isinstance(value, bool):
            value = "true" if value else "false"
        sub(parent, name, str(value))
    return parent


def dump(el: Element, declaration: bool = False) -> bytes:
    data: bytes = _etree().tostring(el, encoding="UTF-8", xml_declaration=declaration)
    return data


def to_bool(value: str | None, what: str = "value") -> bool | None:
    if value is None:
        return None
    v = value.strip().lower()
    if v == "true":
        return True
    if v == "false":
        return False
    raise Invalid(f"Invalid boolean for {what}: {value!r}")
