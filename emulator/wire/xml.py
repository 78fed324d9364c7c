"""The hardened XML parser and small builders and readers used by area codecs.

``parse`` is the one entry point for every XML body the emulator reads. It never resolves
entities, never loads a DTD, never touches the network and refuses huge trees; a document
with a DOCTYPE or an entity declaration is refused with 400 (no legitimate REST payload has
one; GeoServer answers XXE attempts with 400 too), in whatever encoding it comes (UTF-8,
UTF-16, UTF-32, with or without a byte-order mark): the check reads the parsed document, not
the bytes. Before lxml runs, a linear pre-scan of the decoded text refuses a document of more
than ``MAX_ELEMENTS`` elements and an element with more than ``MAX_ATTRIBUTES`` attributes
(the codecs' attribute lookups are linear in them); libxml2 refuses nesting deeper than
``MAX_DEPTH``; a document longer than ``MAX_SIZE`` is refused with
413 (the request body cap, ``Emulator(max_body=…)``, usually applies first).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from ..core.errors import Invalid, PayloadTooLarge
from . import text as wtext
from .text import replace_unsafe, xml_safe

__all__ = ["Element", "replace_unsafe", "xml_safe"]  # re-exported: areas read them from here

if TYPE_CHECKING:
    from lxml import etree
    from lxml.etree import _Element as Element
else:
    Element = Any

ATOM_NS = "http://www.w3.org/2005/Atom"


def _etree() -> Any:
    """lxml's ``etree``, imported on first use (it is a fifth of the package's import time)."""
    from lxml import etree

    return etree


def _parser(remove_blank_text: bool = False) -> etree.XMLParser:
    etree = _etree()
    return etree.XMLParser(
        resolve_entities=False,
        no_network=True,
        load_dtd=False,
        dtd_validation=False,
        huge_tree=False,
        remove_blank_text=remove_blank_text,
        remove_comments=False,
    )


MAX_ATTRIBUTES = 256
"""the most attributes one element may carry"""
MAX_DEPTH = 256
"""the deepest nesting of elements accepted (libxml2's own limit without ``huge_tree``)"""
MAX_ELEMENTS = 100_000
"""the most elements one XML document may hold, counted on its text before it is parsed (as
its ``<`` that open neither an end tag, a comment, a CDATA section nor a processing
instruction; and no more than four times as many ``<`` in all): parsing and reading that many
takes a few hundredths of a second, which every other client of the live server waits; 400
beyond"""
TOOL_ELEMENTS = 10 * MAX_ELEMENTS
"""the bound for documents the command-line tools read (a live server's answers, cassettes),
which no client of a running emulator sends"""
MAX_SIZE = 64 * 1024 * 1024
"""the longest XML document parsed, in bytes (413 beyond); the request body cap applies first"""


def parse(
    body: bytes | str,
    what: str = "XML",
    names: bool = True,
    remove_blank_text: bool = False,
    max_elements: int = MAX_ELEMENTS,
) -> Element:
    """Parse a request body, or raise ``Invalid`` with a readable message.

    ``names``: hold the text of elements named as in ``text.NAME_KEYS`` to
    ``text.NAME_LIMIT`` (REST bodies; an OGC request's features carry data, not names).
    ``remove_blank_text``: drop whitespace-only text between elements (lxml's option).
    ``max_elements``: refuse a document with more elements (``MAX_ELEMENTS`` by default).
    """
    if isinstance(body, str):
        body = body.encode("utf-8")
    if len(body) > MAX_SIZE:
        raise PayloadTooLarge(f"{what} documents are limited to {MAX_SIZE} bytes")
    if not body.strip():
        raise Invalid(f"Empty {what} body")
    declined = f"{what} documents with a DOCTYPE or entity declarations are not accepted"
    if b"<!" in body:  # the common case, before parsing (no declaration without ``<!``)
        upper = body.upper()
        if b"<!DOCTYPE" in upper or b"<!ENTITY" in upper:
            raise Invalid(declined)
    text = _decoded(body, what)
    _count_elements(text, what, max_elements)
    _prescan(text, what)
    etree = _etree()
    try:
        root = etree.fromstring(body, parser=_parser(remove_blank_text))
    except etree.XMLSyntaxError as exc:
        raise Invalid(f"Malformed {what}: {exc.msg}") from None
    except ValueError as exc:
        raise Invalid(f"Malformed {what}: {exc}") from None
    tree = root.getroottree()
    if tree.docinfo.doctype or tree.docinfo.internalDTD is not None:
        raise Invalid(declined)  # in an encoding the byte check above cannot read
    if names:
        _check_names(root, what)
    return root


def _check_names(root: Element, what: str) -> None:
    """Hold the text of each element, and the value of each attribute, named as in
    ``text.NAME_KEYS`` to ``text.NAME_LIMIT``. The candidates (a text or value longer than
    the limit) are found by libxml2's XPath, not by a walk of every element in Python."""
    keys, limit = wtext.NAME_KEYS, wtext.NAME_LIMIT
    for el in root.xpath(f"descendant-or-self::*[string-length(text()) > {limit}]"):
        if el.text and len(el.text) > limit and local(el.tag) in keys:
            wtext.check_name(el.text.strip(), f"<{local(el.tag)}> of the {what}")
    for value in root.xpath(f"descendant-or-self::*/@*[string-length(.) > {limit}]"):
        if local(value.attrname) in keys:
            wtext.check_name(str(value), f"attribute {local(value.attrname)} of the {what}")


_BOMS = (
    (b"\x00\x00\xfe\xff", "utf-32-be"),
    (b"\xff\xfe\x00\x00", "utf-32-le"),
    (b"\xfe\xff", "utf-16-be"),
    (b"\xff\xfe", "utf-16-le"),
    (b"\x00\x00\x00<", "utf-32-be"),
    (b"<\x00\x00\x00", "utf-32-le"),
    (b"\x00<", "utf-16-be"),
    (b"<\x00", "utf-16-le"),
)
"""byte-order marks, then the first character ``<`` without one, of the wide encodings"""


def _decoded(body: bytes, what: str) -> str | bytes:
    """The body for the pre-scan: as text in a wide encoding (UTF-16, UTF-32) told by its
    byte-order mark or its first character, else the bytes themselves (UTF-8 and the
    single-byte encodings keep ``<``, ``>``, ``=`` and quotes as bytes of their own)."""
    for mark, codec in _BOMS:
        if body.startswith(mark):
            try:
                return body.decode(codec)
            except UnicodeDecodeError:
                raise Invalid(f"Malformed {what}: not valid {codec.upper()}") from None
    return body


_LONG_TAG = rf"<[^<>]{{{4 * MAX_ATTRIBUTES},}}>"
"""a start tag long enough to hold more than ``MAX_ATTRIBUTES`` attributes (`` a=""`` each)"""
_ATTRIBUTE = r"""\s[^\s=<>"']+\s*=\s*["']"""
_PATTERNS: dict[type, tuple[Any, Any]] = {
    str: (re.compile(_LONG_TAG), re.compile(_ATTRIBUTE)),
    bytes: (re.compile(_LONG_TAG.encode()), re.compile(_ATTRIBUTE.encode())),
}


def _prescan(text: str | bytes, what: str) -> None:
    """Refuse, in one linear pass, an element with more than ``MAX_ATTRIBUTES`` attributes:
    the codecs read attributes by name, and each lookup walks the element's attribute list,
    so tens of thousands of them cost seconds. (Depth needs no pre-scan: libxml2 stops at
    ``MAX_DEPTH`` as it reads.)"""
    long_tag, attribute = _PATTERNS[type(text)]
    for tag in long_tag.finditer(text):
        count = len(attribute.findall(text, tag.start(), tag.end()))
        if count > MAX_ATTRIBUTES:
            raise Invalid(
                f"Malformed {what}: an element has {count} attributes; at most"
                f" {MAX_ATTRIBUTES} are accepted"
            )


def _count_elements(text: str | bytes, what: str, limit: int) -> None:
    """Refuse a document with more than ``limit`` start tags (``<`` not opening an end tag,
    a comment, a CDATA section, a declaration or a processing instruction; a ``<`` inside a
    comment or a CDATA section counts too: an upper bound), or more than ``4 × limit`` ``<``
    in all, before lxml builds a node for each: a few passes of ``count`` over the text,
    milliseconds for the largest body."""
    lt, end, bang, query = ("<", "</", "<!", "<?") if isinstance(text, str) else _MARKS
    count = text.count(lt)  # type: ignore[arg-type]
    if limit < count <= 4 * limit:  # the slower counts of two characters take the others off
        count -= text.count(end) + text.count(bang) + text.count(query)  # type: ignore[arg-type]
    if count > limit:  # (past four times the limit, end tags and comments cannot explain it)
        raise Invalid(
            f"The {what} is too large: it holds more than {limit} elements; at most {limit}"
            " are accepted in one document"
        )


_MARKS = (b"<", b"</", b"<!", b"<?")


def local(tag: object) -> str:
    """The local part of an element tag (namespace dropped): ``{ns}name`` is ``name``, as
    lxml's ``QName(tag).localname`` has it (read from the string: the codecs call this for
    every element they read)."""
    if not isinstance(tag, str):
        return ""
    return tag.rpartition("}")[2] if tag.startswith("{") else tag


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
