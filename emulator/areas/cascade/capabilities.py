"""Reading a remote server's capabilities document: WMS 1.1.1, WMS 1.3.0 and WMTS 1.0.0.

What a cascaded layer takes from it is what GeoServer's ``CatalogBuilder.buildWMSLayer`` and
``buildWMTSLayer`` take through GeoTools: the named layers (every ``Layer`` with a ``Name``
in the WMS tree, in document order; every ``Contents/Layer`` of a WMTS), their title,
abstract and keywords, bounding boxes and WGS84 box, and styles with their legends; and the
image formats the server draws in.

A WMS layer inherits from its parents what the WMS specification says it inherits: bounding
boxes and the geographic box when it declares none, and its parents' styles before its own.
Boxes are kept east/north: a WMS 1.3.0 ``BoundingBox`` in a geographic EPSG code and a WMTS
box in a URN code come north/east and are swapped back, as GeoTools does. CRS names become
``EPSG:n`` (``urn:ogc:def:crs:EPSG::n``, ``http://www.opengis.net/def/crs/EPSG/0/n``);
``CRS:84`` stays as written.

The parser is the project's hardened one (``wire/xml.py``); a DOCTYPE without an internal
subset (WMS 1.1.1 documents carry one pointing at their DTD) is dropped first, as nothing
is ever loaded from it; one with an internal subset or entities is refused.
"""

from __future__ import annotations

import re
from typing import Any

from ...core.errors import Invalid
from ...wire import xml as wxml
from ..catalog.entities import GEOGRAPHIC_CODES, BBox
from .entities import Capabilities, RemoteLayer, RemoteStyle

XLINK_HREF = "{http://www.w3.org/1999/xlink}href"
_DOCTYPE = re.compile(rb"<!DOCTYPE[^\[\]<>]{0,2000}>", re.IGNORECASE)
_EPSG = re.compile(
    r"(?:urn:(?:x-)?ogc:def:crs:EPSG:(?:[0-9.]*:)+|http://www\.opengis\.net/def/crs/EPSG/0/)(\d+)"
)
NORTH_EAST = frozenset(GEOGRAPHIC_CODES - {"CRS:84"})
"""geographic EPSG codes whose axis order is latitude first"""


_ROOTS = re.compile(rb"<(?:[\w.-]+:)?(?:WMT_MS_Capabilities|WMS_Capabilities|Capabilities)[\s>/]")


def looks_like_capabilities(data: bytes) -> bool:
    """Whether a body's first element is a capabilities document's root (WMS 1.1.1, WMS 1.3.0
    or WMTS): the control plane keeps such a body as a remote server's capabilities, any
    other as plain content."""
    head = data[:4096].lstrip(b"\xef\xbb\xbf \t\r\n")
    element = re.search(rb"<(?![?!])", head)
    return element is not None and _ROOTS.match(head, element.start()) is not None


def parse(document: bytes | str) -> Capabilities:
    """A capabilities document, or ``Invalid`` saying why it is not one."""
    data = document.encode("utf-8") if isinstance(document, str) else document
    root = wxml.parse(_DOCTYPE.sub(b"", data, count=1), "capabilities document", names=False)
    tag = wxml.local(root.tag)
    version = root.get("version") or ""
    if tag in ("WMT_MS_Capabilities", "WMS_Capabilities"):
        return _wms(root, version or ("1.3.0" if tag == "WMS_Capabilities" else "1.1.1"))
    if tag == "Capabilities" and wxml.child(root, "Contents") is not None:
        return _wmts(root, version or "1.0.0")
    raise Invalid(
        f"Not a WMS 1.1.1/1.3.0 or WMTS 1.0.0 capabilities document: root element <{tag}>"
    )


def crs_code(name: str | None) -> str | None:
    """``EPSG:n`` for the URN and URL forms of an EPSG code; other names as written."""
    if name is None:
        return None
    name = name.strip()
    found = _EPSG.fullmatch(name)
    if found:
        return f"EPSG:{found.group(1)}"
    if name.upper().endswith((":CRS84", "/CRS84")):
        return "CRS:84"
    return name.upper() if name.lower().startswith(("epsg:", "crs:")) else name


# -- WMS ----------------------------------------------------------------------------------


def _wms(root: Any, version: str) -> Capabilities:
    capability = wxml.child(root, "Capability")
    if capability is None:
        raise Invalid("Not a WMS capabilities document: no <Capability> element")
    request = wxml.child(capability, "Request")
    get_map = wxml.child(capability if request is None else request, "GetMap")
    formats = (
        tuple(f for f in (wxml.text(e) for e in wxml.children(get_map, "Format")) if f)
        if get_map is not None
        else ()
    )
    layers: list[RemoteLayer] = []
    flipped = version.startswith("1.3")
    for top in wxml.children(capability, "Layer"):
        _walk(top, (), None, (), flipped, layers)
    return Capabilities("WMS", version, tuple(layers), formats)


def _walk(
    el: Any,
    boxes: tuple[BBox, ...],
    latlon: BBox | None,
    styles: tuple[RemoteStyle, ...],
    flipped: bool,
    out: list[RemoteLayer],
) -> None:
    own_boxes = tuple(
        b for b in (_wms_box(e, flipped) for e in wxml.children(el, "BoundingBox")) if b
    )
    boxes = own_boxes or boxes
    latlon = _wms_latlon(el) or latlon
    styles = styles + tuple(_style(e) for e in wxml.children(el, "Style") if wxml.text(e, "Name"))
    name = wxml.text(el, "Name")
    if name:
        keywords = wxml.child(el, "KeywordList")
        words = (
            tuple(w for w in (wxml.text(k) for k in wxml.children(keywords, "Keyword")) if w)
            if keywords is not None
            else ()
        )
        out.append(
            RemoteLayer(
                name,
                wxml.text(el, "Title"),
                wxml.text(el, "Abstract"),
                words,
                boxes,
                latlon,
                _unique_styles(styles),
            )
        )
    for sub in wxml.children(el, "Layer"):
        _walk(sub, boxes, latlon, styles, flipped, out)


def _unique_styles(styles: tuple[RemoteStyle, ...]) -> tuple[RemoteStyle, ...]:
    """Each name once, the layer's own definition over an inherited one of the same name."""
    found: dict[str, RemoteStyle] = {}
    for s in styles:
        found.pop(s.name, None)
        found[s.name] = s
    return tuple(found.values())


def _number(value: str | None) -> float | None:
    try:
        return float(value) if value is not None else None
    except ValueError:
        return None


def _box(minx: Any, miny: Any, maxx: Any, maxy: Any, crs: str | None) -> BBox | None:
    coords = [_number(v) for v in (minx, miny, maxx, maxy)]
    if any(c is None for c in coords):
        return None
    x0, y0, x1, y1 = (float(c) for c in coords if c is not None)
    return BBox(x0, x1, y0, y1, crs)


def _wms_box(el: Any, flipped: bool) -> BBox | None:
    crs = crs_code(el.get("CRS") or el.get("SRS"))
    box = _box(el.get("minx"), el.get("miny"), el.get("maxx"), el.get("maxy"), crs)
    if box is not None and flipped and crs in NORTH_EAST:
        box = BBox(box.miny, box.maxy, box.minx, box.maxx, crs)
    return box


def _wms_latlon(el: Any) -> BBox | None:
    old = wxml.child(el, "LatLonBoundingBox")
    if old is not None:
        return _box(old.get("minx"), old.get("miny"), old.get("maxx"), old.get("maxy"), "EPSG:4326")
    new = wxml.child(el, "EX_GeographicBoundingBox")
    if new is not None:
        return _box(
            wxml.text(new, "westBoundLongitude"),
            wxml.text(new, "southBoundLatitude"),
            wxml.text(new, "eastBoundLongitude"),
            wxml.text(new, "northBoundLatitude"),
            "EPSG:4326",
        )
    return None


def _int(value: str | None) -> int | None:
    number = _number(value)
    return int(number) if number is not None and number.is_integer() else None


def _style(el: Any) -> RemoteStyle:
    name = wxml.text(el, "Name") or wxml.text(el, "Identifier") or ""
    legend = wxml.child(el, "LegendURL")
    if legend is None:
        return RemoteStyle(name)
    online = wxml.child(legend, "OnlineResource")
    href = online.get(XLINK_HREF) if online is not None else legend.get(XLINK_HREF)
    fmt = wxml.text(legend, "Format") or legend.get("format")
    return RemoteStyle(name, href, fmt, _int(legend.get("width")), _int(legend.get("height")))


# -- WMTS ---------------------------------------------------------------------------------


def _wmts(root: Any, version: str) -> Capabilities:
    contents = wxml.child(root, "Contents")
    assert contents is not None
    layers: list[RemoteLayer] = []
    formats: list[str] = []
    for el in wxml.children(contents, "Layer"):
        name = wxml.text(el, "Identifier")
        if not name:
            continue
        for f in wxml.children(el, "Format"):
            value = wxml.text(f)
            if value and value not in formats:
                formats.append(value)
        keywords = wxml.child(el, "Keywords")
        words = (
            tuple(w for w in (wxml.text(k) for k in wxml.children(keywords, "Keyword")) if w)
            if keywords is not None
            else ()
        )
        boxes = tuple(b for b in (_ows_box(e) for e in wxml.children(el, "BoundingBox")) if b)
        wgs84 = wxml.child(el, "WGS84BoundingBox")
        latlon = _ows_box(wgs84, "EPSG:4326") if wgs84 is not None else None
        styles = tuple(_style(s) for s in wxml.children(el, "Style") if wxml.text(s, "Identifier"))
        layers.append(
            RemoteLayer(
                name,
                wxml.text(el, "Title"),
                wxml.text(el, "Abstract"),
                words,
                boxes,
                latlon,
                styles,
            )
        )
    return Capabilities("WMTS", version, tuple(layers), tuple(formats))


def _ows_box(el: Any, crs: str | None = None) -> BBox | None:
    given = el.get("crs")
    code = crs or crs_code(given)
    lower = (wxml.text(el, "LowerCorner") or "").split()
    upper = (wxml.text(el, "UpperCorner") or "").split()
    if len(lower) != 2 or len(upper) != 2:
        return None
    box = _box(lower[0], lower[1], upper[0], upper[1], code)
    if box is not None and crs is None and given and given.lower().startswith(("urn:", "http")):
        if code in NORTH_EAST:
            box = BBox(box.miny, box.maxy, box.minx, box.maxx, code)
    return box
