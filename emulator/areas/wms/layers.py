"""A layer's ``Layer`` element of the WMS capabilities, as a pure function of explicit inputs,
and the pieces a group's element shares with it (keywords, boxes, dimensions, links,
styles and their legends, scale limits).

``layer_fragment(ctx, entry, depth, root_codes)`` is the text of one layer at one
indentation depth: what it writes depends only on ``ctx`` (the version, the WMS settings,
the requested languages and the virtual service) and ``entry`` (the layer, its resource,
its styles' descriptions and legend sizes, its dimensions and scale limits), which
``LayerEntry.of`` reads from the state. The same inputs give the same text, so a fragment
may be kept and reused while none of them changes.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

from ...core.errors import EmulatorError
from ...crs import axes, lists
from ...crs.transform import between
from ...wire.geoserver.java import number_text as java_number
from ..catalog.entities import BBox, Layer, LayerGroup, Resource, StyleRef
from ..ows import published
from ..ows.dimensions import Dimension
from ..ows.kvp import url
from ..ows.model import WORLD
from ..ows.writer import Attrs, XmlWriter
from .legend import sample_size
from .styles import body, text_of

if TYPE_CHECKING:
    from ...core.state import State

V111, V130 = "1.1.1", "1.3.0"
XLINK = "http://www.w3.org/1999/xlink"
DEFAULT_LEGEND = (20, 20, "image/png")


def _num(value: float) -> str:
    return java_number(float(value))


class Context(NamedTuple):
    """What every part of one capabilities document depends on besides its items."""

    version: str
    service: Mapping[str, Any]
    """the WMS settings (of the virtual service's workspace)"""
    languages: tuple[str, ...]
    """``AcceptLanguages`` / ``Language``, in order"""
    base: str
    """``scheme://host[:port]/context``: absolute links"""
    service_base: str
    """the virtual service's URL base (``base``, ``base/ws``, ``base/ws/layer``)"""
    v13: bool
    """``version`` is 1.3.0"""
    language: str | None = None
    """the language carried into service URLs (``Call.language``)"""

    def srs_list(self) -> list[str]:
        """The CRSs the settings limit the service to (``EPSG:`` added to bare codes)."""
        return [c if ":" in c else f"EPSG:{c}" for c in self.service.get("srs") or []]


class StyleEntry(NamedTuple):
    """A style as a layer's ``Style`` writes it."""

    name: str
    title: str
    abstract: str | None
    legend: tuple[int, int, str, bool]
    """(width, height, format, external): the legend's size and format; ``external``: the
    style's own legend graphic (its size is linked too)"""
    param: str | None
    """the ``style`` the LegendURL names (an explicit style), None for the default"""


def style_entry(state: State, ref: StyleRef, explicit: bool, seen: dict[Any, Any]) -> StyleEntry:
    """A style's entry (descriptions read once per document: ``seen``)."""
    info = seen.get(ref)
    if info is None:
        info = seen[ref] = text_of(state, ref)
    legend = info.legend
    width, height, fmt = DEFAULT_LEGEND
    external = False
    if legend is not None and legend[0] and legend[1] and legend[2] and legend[3]:
        external = True
        width, height, fmt = legend[0], legend[1], legend[2].replace(";charset=utf-8", "")
    else:
        data = body(state, ref)
        if data:
            width, height = sample_size(data)
    title = info.title if info.title is not None else info.name
    param = ref.name if explicit else None
    return StyleEntry(info.name, title, info.abstract, (width, height, fmt, external), param)


class LayerEntry(NamedTuple):
    """What a layer's ``Layer`` element is written from."""

    layer: Layer
    resource: Resource
    name: str
    """as the virtual service names it (``ws:name`` or ``name``)"""
    styles: tuple[StyleEntry, ...]
    """the default style first, then the layer's other styles"""
    dimensions: tuple[Dimension, ...]
    scale: tuple[float, float]
    """the min and max scale denominators of its styles' rules"""


def layer_fragment(
    ctx: Context, entry: LayerEntry, depth: int, root_codes: Sequence[str] | None = None
) -> str:
    """The ``Layer`` element of ``entry`` at indentation ``depth``; ``root_codes``: it is
    the document's only layer (``rootLayer=false``) and lists these CRSs."""
    w = XmlWriter.fragment(depth)
    layer, res = entry.layer, entry.resource
    attrs = [
        ("queryable", "1" if layer.queryable else "0"),
        ("opaque", "1" if layer.opaque else "0"),
    ]
    w.start("Layer", attrs)
    w.element("Name", entry.name)
    w.element("Title", published.title(layer, res, list(ctx.languages)))
    w.element("Abstract", published.abstract(layer, res, list(ctx.languages)))
    keywords(w, ctx, res.keywords)
    code = res.srs or "EPSG:4326"
    if root_codes is not None:
        crs_list(w, ctx, root_codes)
    elif ctx.v13:
        w.element("CRS", code)
        w.element("CRS", "CRS:84")
    else:
        w.element("SRS", code)
    latlon = res.latlon_bbox or WORLD
    latlon_box(w, ctx, latlon)
    if ctx.v13:
        bbox(w, ctx, latlon, "CRS:84")
    if res.native_bbox is not None:
        bbox(w, ctx, res.native_bbox, code)
        bbox_for_each_crs(w, ctx, res.native_bbox, code)
    dimensions(w, ctx, entry.dimensions)
    links(w, ctx, layer, published.metadata_links(res))
    for link in published.data_links(res):
        w.start("DataURL")
        w.element("Format", link.format)
        w.element("OnlineResource", None, xlink(ctx, ctx_absolute(ctx, link.href)))
        w.end("DataURL")
    for style in entry.styles:
        style_element(w, ctx, entry.name, style)
    scale(w, ctx, entry.scale)
    w.end("Layer")
    return w.text()


def ctx_absolute(ctx: Context, href: str) -> str:
    """A server-relative link made absolute, as GeoServer proxifies it."""
    return f"{ctx.base}{href}" if href.startswith("/") else href


def xlink(ctx: Context, href: str) -> list[tuple[str, str]]:
    """A simple xlink (1.1.1 declares the namespace on each)."""
    if ctx.v13:
        return [("xlink:type", "simple"), ("xlink:href", href)]
    return [("xmlns:xlink", XLINK), ("xlink:type", "simple"), ("xlink:href", href)]


def _declared_xlink(href: str) -> list[tuple[str, str]]:
    return [("xmlns:xlink", XLINK), ("xlink:type", "simple"), ("xlink:href", href)]


def keywords(w: XmlWriter, ctx: Context, raw: list[Any]) -> None:
    """``KeywordList`` in the requested languages (1.3.0: with vocabulary)."""
    w.start("KeywordList")
    found = published.filter_keywords(published.keywords(raw), list(ctx.languages))
    for kw in found:
        attrs = [("vocabulary", kw.vocabulary)] if ctx.v13 and kw.vocabulary else None
        w.element("Keyword", kw.value, attrs)
    w.end("KeywordList")


def crs_list(w: XmlWriter, ctx: Context, codes: Sequence[str]) -> None:
    """The root layer's CRS list, with the comment GeoServer writes before it: ``codes``
    (the settings' limited list; 1.3.0 adds ``CRS:84``), or, when empty, every CRS of the
    database (``crs.lists``, written once per process)."""
    tag = "CRS" if ctx.v13 else "SRS"
    if not codes:
        w.comment(
            "All supported Coordinate Reference Systems:"
            if ctx.v13
            else "All supported EPSG projections:"
        )
        w.raw(lists.block(lists.WMS_130 if ctx.v13 else lists.WMS_111, tag, w.depth, w.indent))
        return
    w.comment("Limited list of EPSG projections:")
    listed = list(dict.fromkeys(codes))
    if ctx.v13 and "CRS:84" not in listed:
        listed.append("CRS:84")
    for code in listed:
        w.element(tag, code)


def latlon_box(w: XmlWriter, ctx: Context, box: BBox) -> None:
    if ctx.v13:
        w.start("EX_GeographicBoundingBox")
        w.element("westBoundLongitude", _num(box.minx))
        w.element("eastBoundLongitude", _num(box.maxx))
        w.element("southBoundLatitude", _num(box.miny))
        w.element("northBoundLatitude", _num(box.maxy))
        w.end("EX_GeographicBoundingBox")
        return
    corners = [("minx", box.minx), ("miny", box.miny), ("maxx", box.maxx), ("maxy", box.maxy)]
    w.element("LatLonBoundingBox", None, [(k, _num(v)) for k, v in corners])


def bbox(w: XmlWriter, ctx: Context, box: BBox, code: str) -> None:
    """A ``BoundingBox`` in ``code``; 1.3.0 writes it in the EPSG database's axis order
    (``EPSG:n`` read as its URN, as ``WMS.toInternalSRS`` does; ``CRS:`` codes stay x/y)."""
    minx, miny, maxx, maxy = box.minx, box.miny, box.maxx, box.maxy
    if ctx.v13 and code.upper().startswith("EPSG:") and axes.database_north_first(code.upper()):
        minx, miny, maxx, maxy = miny, minx, maxy, maxx
    attrs: Attrs = [
        ("CRS" if ctx.v13 else "SRS", code),
        ("minx", _num(minx)),
        ("miny", _num(miny)),
        ("maxx", _num(maxx)),
        ("maxy", _num(maxy)),
    ]
    w.element("BoundingBox", None, attrs)


def bbox_for_each_crs(w: XmlWriter, ctx: Context, native: BBox, code: str) -> None:
    """``bboxForEachCRS``: the native box transformed into each CRS the settings list
    (its outline densified; a CRS without a transformation is left out, as GeoServer
    skips it with a warning)."""
    if not ctx.service.get("bboxForEachCRS"):
        return
    source = native.crs or code
    for target in dict.fromkeys(ctx.srs_list()):
        if target == code:
            continue
        try:
            out = between(source, target).bounds(
                (native.minx, native.miny, native.maxx, native.maxy)
            )
        except EmulatorError:
            continue
        if out is not None:
            bbox(w, ctx, BBox(out[0], out[2], out[1], out[3], target), target)


def dimensions(w: XmlWriter, ctx: Context, dims: Sequence[Dimension]) -> None:
    """Time and elevation: one ``Dimension`` each in 1.3.0; in 1.1.1 the declarations
    (``Dimension`` with units) first, then an ``Extent`` with the values."""
    if not ctx.v13:
        for d in dims:
            attrs = [("name", d.name), ("units", d.units)]
            if d.unit_symbol:
                attrs.append(("unitSymbol", d.unit_symbol))
            w.element("Dimension", None, attrs)
        for d in dims:
            if d.domain:
                w.element("Extent", d.values, [("name", d.name), ("default", d.default)])
        return
    for d in dims:
        if not d.domain:
            continue
        attrs = [("name", d.name), ("default", d.default), ("units", d.units)]
        if d.unit_symbol:
            attrs.append(("unitSymbol", d.unit_symbol))
        w.element("Dimension", d.values, attrs)


def links(
    w: XmlWriter, ctx: Context, item: Layer | LayerGroup, metadata: list[published.Link]
) -> None:
    """Attribution, authority URLs, identifiers and metadata URLs, in GeoServer's order."""
    attribution = published.attribution(item)
    if attribution is not None:
        w.start("Attribution")
        if attribution.title is not None:
            w.element("Title", attribution.title)
        if attribution.href is not None:
            w.element("OnlineResource", None, _declared_xlink(attribution.href))
        if attribution.logo is not None:
            href, fmt, width, height = attribution.logo
            w.start("LogoURL", [("height", str(height)), ("width", str(width))])
            w.element("Format", fmt)
            w.element("OnlineResource", None, _declared_xlink(href))
            w.end("LogoURL")
        w.end("Attribution")
    authorities(w, ctx, published.authority_urls(item), published.identifiers(item))
    for link in metadata:
        w.start("MetadataURL", [("type", link.metadata_type or "")])
        w.element("Format", link.format)
        w.element("OnlineResource", None, xlink(ctx, ctx_absolute(ctx, link.href)))
        w.end("MetadataURL")


def authorities(
    w: XmlWriter, ctx: Context, urls: list[tuple[str, str]], ids: list[tuple[str, str]]
) -> None:
    """``AuthorityURL`` per (name, href), then ``Identifier`` per (authority, value)."""
    for name, href in urls:
        w.start("AuthorityURL", [("name", name)])
        w.element("OnlineResource", None, xlink(ctx, href))
        w.end("AuthorityURL")
    for authority, ident in ids:
        w.element("Identifier", ident, [("authority", authority)])


def style_element(w: XmlWriter, ctx: Context, layer_name: str, style: StyleEntry) -> None:
    w.start("Style")
    w.element("Name", style.name)
    w.element("Title", style.title)
    if style.abstract is not None:
        w.element("Abstract", style.abstract)
    legend_url(w, ctx, layer_name, style.legend, style.param)
    w.end("Style")


def legend_url(
    w: XmlWriter,
    ctx: Context,
    layer_name: str,
    legend: tuple[int, int, str, bool],
    style: str | None,
) -> None:
    """``LegendURL`` of the legend's size and format, linking GetLegendGraphic on the
    virtual service called, as each version's transformer writes it (1.1.1 at ``wms``
    without ``service``, 1.3.0 at ``ows``), with the requested language."""
    width, height, fmt, external = legend
    if ctx.v13:
        params = [("service", "WMS"), ("version", V130), ("request", "GetLegendGraphic")]
    else:
        params = [("request", "GetLegendGraphic"), ("version", V111)]
    params += [
        ("format", fmt),
        ("width", str(width if external else DEFAULT_LEGEND[0])),
        ("height", str(height if external else DEFAULT_LEGEND[1])),
        ("layer", layer_name),
    ]
    if style is not None:
        params.append(("style", style))
    if ctx.language is not None:
        params.append(("Language", ctx.language))
    href = url(ctx.service_base, "ows" if ctx.v13 else "wms", params)
    w.start("LegendURL", [("width", str(width)), ("height", str(height))])
    w.element("Format", fmt)
    w.element("OnlineResource", None, _declared_xlink(href))
    w.end("LegendURL")


def scale(w: XmlWriter, ctx: Context, limits: tuple[float, float]) -> None:
    """1.3.0 ``Min``/``MaxScaleDenominator``, 1.1.1 ``ScaleHint`` (scale denominators,
    GeoServer's default units), from the rules of the styles; none without limits."""
    low, high = limits
    if ctx.v13:
        if low != 0.0:
            w.element("MinScaleDenominator", _num(low))
        if high != math.inf:
            w.element("MaxScaleDenominator", _num(high))
    elif low != 0.0 or high != math.inf:
        top = "Infinity" if high == math.inf else _num(high)
        w.element("ScaleHint", None, [("min", _num(low)), ("max", top)])
