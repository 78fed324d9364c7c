"""SLD bodies: what makes one a style, what it is called, and SLD 1.0 ↔ 1.1 conversion.

GeoTools' SLD parser matches elements by local name, so SLD 1.0 (``sld:`` everywhere) and
SLD 1.1 (``sld:`` layers and styles, Symbology Encoding ``se:`` inside) are both read here
by local name. A body is a style when its root is ``StyledLayerDescriptor`` with at least one
``NamedLayer`` or ``UserLayer``; with a single layer, that layer must hold a ``UserStyle``
(GeoServer could not write it otherwise). Several layers make a style group, whose
``NamedLayer`` names the model checks against the catalog.

The style's name is GeoServer's ``Styles.style(sld).getName()``: the first ``UserStyle``'s
``Name``, or GeoTools' default ``Default Styler`` when that ``UserStyle`` has none.
"""

from __future__ import annotations

import copy
import re
from typing import Any

from ...core.errors import EmulatorError, Invalid, ServerError
from ...core.lazy import LazyModule
from ...core.record import record
from ...wire import xml as wxml
from .formats import V10, V11

etree: Any = LazyModule("lxml.etree")  # slow to import: on first use

SLD_NS = "http://www.opengis.net/sld"
SE_NS = "http://www.opengis.net/se"
OGC_NS = "http://www.opengis.net/ogc"
XLINK_NS = "http://www.w3.org/1999/xlink"
XSI_NS = "http://www.w3.org/2001/XMLSchema-instance"
DEFAULT_NAME = "Default Styler"
LAYERS = ("NamedLayer", "UserLayer")
SCHEMAS = {
    V10: "http://www.opengis.net/sld http://schemas.opengis.net/sld/1.0.0/StyledLayerDescriptor.xsd",
    V11: "http://www.opengis.net/sld http://schemas.opengis.net/sld/1.1.0/StyledLayerDescriptor.xsd",
}


@record(frozen=True)
class Summary:
    """What the REST layer needs to know about an SLD body."""

    version: str | None
    """the root's ``version`` attribute"""
    style_name: str | None
    """the first UserStyle's name (``Default Styler`` if unnamed); None without a UserStyle"""
    layer_count: int
    named_layers: tuple[str, ...]


def parse(body: bytes, charset: str = "utf-8") -> wxml.Element:
    """The document, or ``Invalid`` with the parser's reason. ``charset`` (from the
    ``Content-Type``) applies when the document has no XML declaration of its own."""
    source: bytes | str = body
    if charset.lower().replace("_", "-") not in ("utf-8", "utf8") and not body.lstrip().startswith(
        b"<?xml"
    ):
        try:
            source = body.decode(charset)
        except (UnicodeDecodeError, LookupError):
            raise Invalid(f"Malformed SLD: not valid {charset} text") from None
    _external_entity(body)
    try:
        return wxml.parse(source, "SLD")
    except EmulatorError as exc:
        raise Invalid(exc.message) from None


_EXTERNAL = re.compile(
    rb"<!ENTITY\s+%?\s*[^\s>]+\s+(?:SYSTEM|PUBLIC\s+(?:\"[^\"]*\"|'[^']*'))\s+"
    rb"(\"[^\"]{0,2048}\"|'[^']{0,2048}')",
    re.IGNORECASE,
)


def _external_entity(body: bytes) -> None:
    """An SLD declaring an external entity: GeoServer's entity resolver refuses to resolve
    it, and the style answers 500 ``Entity resolution disallowed for <uri>`` (a deliberate
    500: nothing is resolved nor stored). Internal entities are refused with 400 by the
    parser as any DOCTYPE is."""
    if b"<!" not in body[:65536]:
        return
    found = _EXTERNAL.search(body[:65536])
    if found is not None:
        uri = found.group(1)[1:-1].decode("utf-8", "replace")
        raise ServerError(f"Entity resolution disallowed for {uri}")


def inspect(body: bytes, charset: str = "utf-8") -> Summary:
    """Check that ``body`` is an SLD style; raises ``Invalid`` saying why not."""
    root = parse(body, charset)
    if wxml.local(root.tag) != "StyledLayerDescriptor":
        raise Invalid(
            f"Not a style: the root element is <{wxml.local(root.tag)}>, "
            "expected <StyledLayerDescriptor>"
        )
    version = root.get("version")
    if version is not None and version not in (V10, V11):
        raise Invalid(f"Unsupported SLD version {version}: use 1.0.0 or 1.1.0")
    layers = [c for c in root if wxml.local(c.tag) in LAYERS]
    if not layers:
        raise Invalid("Not a style: the StyledLayerDescriptor has no NamedLayer or UserLayer")
    styles = [s for layer in layers for s in wxml.children(layer, "UserStyle")]
    if len(layers) == 1 and not styles:
        raise Invalid("Not a style: the layer has no UserStyle")
    named = tuple(
        wxml.text(layer, "Name") or "" for layer in layers if wxml.local(layer.tag) == "NamedLayer"
    )
    name = None
    if styles:
        name = wxml.text(styles[0], "Name") or DEFAULT_NAME
    return Summary(version, name, len(layers), named)


def version_of(body: bytes) -> str | None:
    """The SLD version a body declares, None when it is not SLD (a raw upload may be anything)."""
    try:
        root = wxml.parse(body, "SLD")
    except EmulatorError:
        return None
    if wxml.local(root.tag) != "StyledLayerDescriptor":
        return None
    version = root.get("version")
    return version if version in (V10, V11) else V10


def icons(body: bytes) -> list[str]:
    """Relative file names of the external graphics a body uses (``gear.png``), in order."""
    try:
        root = wxml.parse(body, "SLD")
    except EmulatorError:
        return []
    out: list[str] = []
    for el in root.iter():
        if isinstance(el.tag, str) and wxml.local(el.tag) == "OnlineResource":
            href = el.get(f"{{{XLINK_NS}}}href") or ""
            if _local_file(href) and href not in out:
                out.append(href)
    return out


def _local_file(href: str) -> bool:
    """A file in the style's folder: relative, not a URL, not climbing out."""
    if not href or "://" in href or href.startswith(("/", "\\", "file:", "data:")):
        return False
    return ".." not in href.replace("\\", "/").split("/")


# -- conversion ----------------------------------------------------------------------------


def convert(body: bytes, version: str) -> bytes:
    """The body rewritten as SLD ``version`` (1.0.0 or 1.1.0)."""
    root = parse(body)
    nsmap = {None: SLD_NS, "ogc": OGC_NS, "xlink": XLINK_NS, "xsi": XSI_NS}
    if version == V11:
        nsmap["se"] = SE_NS
    for prefix, uri in root.nsmap.items():
        if uri not in (SLD_NS, SE_NS) and prefix is not None and prefix not in nsmap:
            nsmap[prefix] = uri
    out = etree.Element(f"{{{SLD_NS}}}StyledLayerDescriptor", nsmap=nsmap)
    for key, value in root.attrib.items():
        if key not in ("version", f"{{{XSI_NS}}}schemaLocation"):
            out.set(key, value)
    out.set("version", version)
    out.set(f"{{{XSI_NS}}}schemaLocation", SCHEMAS[version])
    out.text = root.text
    _copy_children(root, out, version, in_symbology=False)
    return _document(out)


def _document(root: wxml.Element) -> bytes:
    text: bytes = etree.tostring(root, encoding="UTF-8")
    return b'<?xml version="1.0" encoding="UTF-8"?>\n' + text


def _target_ns(local: str, source_ns: str | None, version: str, in_symbology: bool) -> str | None:
    if source_ns not in (SLD_NS, SE_NS, None):
        return source_ns  # ogc:, xlink:, vendor namespaces stay
    if version == V10:
        return SLD_NS
    if in_symbology or local in (
        "Name",
        "Title",
        "Abstract",
        "Description",
        "FeatureTypeStyle",
        "CoverageStyle",
        "FeatureTypeName",
        "OnlineResource",
    ):
        return SE_NS
    return SLD_NS


def _copy_children(
    source: wxml.Element, target: wxml.Element, version: str, in_symbology: bool
) -> None:
    pending_description: list[wxml.Element] = []
    for child in source:
        if not isinstance(child.tag, str):
            target.append(copy.deepcopy(child))  # comments, processing instructions
            continue
        local = wxml.local(child.tag)
        if version == V10 and local == "Description":
            _copy_children(child, target, version, in_symbology)  # SE Description → Title/Abstract
            continue
        if (
            version == V11
            and local in ("Title", "Abstract")
            and wxml.local(source.tag) != "Description"
        ):
            pending_description.append(child)
            continue
        _flush_description(pending_description, target, version, in_symbology)
        _copy_one(child, target, version, in_symbology)
    _flush_description(pending_description, target, version, in_symbology)


def _flush_description(
    pending: list[wxml.Element], target: wxml.Element, version: str, in_symbology: bool
) -> None:
    if not pending:
        return
    description = etree.SubElement(target, f"{{{SE_NS}}}Description")
    for item in pending:
        _copy_one(item, description, version, True)
    pending.clear()


def _copy_one(child: wxml.Element, target: wxml.Element, version: str, in_symbology: bool) -> None:
    qname = etree.QName(child.tag)
    local = qname.localname
    symbology = in_symbology or local in ("FeatureTypeStyle", "CoverageStyle")
    if local in ("CssParameter", "SvgParameter") and qname.namespace in (SLD_NS, SE_NS, None):
        local = "CssParameter" if version == V10 else "SvgParameter"
    ns = _target_ns(local, qname.namespace, version, symbology)
    el = etree.SubElement(target, f"{{{ns}}}{local}" if ns else local)
    for key, value in child.attrib.items():
        el.set(key, value)
    el.text, el.tail = child.text, child.tail
    _copy_children(child, el, version, symbology)


def css_shell(name: str, css: str, version: str) -> bytes:
    """An SLD standing in for a CSS style the emulator cannot translate: the style's name,
    no rules, and the CSS source in a comment."""
    root = etree.Element(
        f"{{{SLD_NS}}}StyledLayerDescriptor",
        nsmap={None: SLD_NS, "ogc": OGC_NS, "xlink": XLINK_NS, "xsi": XSI_NS},
    )
    root.set("version", V10)
    layer = etree.SubElement(root, f"{{{SLD_NS}}}NamedLayer")
    etree.SubElement(layer, f"{{{SLD_NS}}}Name").text = name
    style = etree.SubElement(layer, f"{{{SLD_NS}}}UserStyle")
    etree.SubElement(style, f"{{{SLD_NS}}}Name").text = name
    style.append(
        etree.Comment(
            " CSS source (not translated by the emulator):\n" + css.replace("--", "- -") + "\n"
        )
    )
    etree.SubElement(style, f"{{{SLD_NS}}}FeatureTypeStyle")
    body = _document(root)
    return body if version == V10 else convert(body, version)
