"""WMS 1.1.1 and 1.3.0 GetCapabilities, written as GeoServer's capabilities transformers
write them (element order, empty elements, number format, LegendURL links).

The document is derived from a ``model.View`` (what the caller may see), the WMS settings
and contact (``sources``) and the styles' descriptions (``styles``).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Mapping
from typing import Any

from ..catalog.entities import BBox, Layer, LayerGroup
from ..catalog.tree import java_number
from ..ows import crs, dimensions, published, sources
from ..ows.kvp import Call, url
from ..ows.model import WORLD, View
from ..ows.writer import XmlWriter
from .legend import sample_size
from .styles import body, text_of
from .styles import scale_range as styles_scale

V111, V130 = "1.1.1", "1.3.0"
VERSIONS = (V111, V130)

XLINK = "http://www.w3.org/1999/xlink"

GETMAP_FORMATS = (
    "image/png",
    "application/atom+xml",
    "application/json;type=geojson",
    "application/json;type=topojson",
    "application/json;type=utfgrid",
    "application/pdf",
    "application/rss+xml",
    "application/vnd.google-earth.kml+xml",
    "application/vnd.google-earth.kml+xml;mode=networklink",
    "application/vnd.google-earth.kmz",
    "image/geotiff",
    "image/geotiff8",
    "image/gif",
    "image/jpeg",
    "image/png; mode=8bit",
    "image/svg+xml",
    "image/tiff",
    "image/tiff8",
    "image/vnd.jpeg-png",
    "image/vnd.jpeg-png8",
    "text/html; subtype=openlayers",
    "text/html; subtype=openlayers2",
    "text/html; subtype=openlayers3",
)
"""GeoServer's map formats (png first, then sorted), as a stock install lists them"""

FEATURE_INFO_FORMATS = (
    "text/plain",
    "application/vnd.ogc.gml",
    "text/xml",
    "application/vnd.ogc.gml/3.1.1",
    "text/xml; subtype=gml/3.1.1",
    "text/html",
    "text/javascript",
    "application/json",
)
LEGEND_FORMATS = ("image/png", "image/jpeg", "application/json", "image/gif")
EXCEPTIONS_130 = ("XML", "INIMAGE", "BLANK", "JSON")
EXCEPTIONS_111 = (
    "application/vnd.ogc.se_xml",
    "application/vnd.ogc.se_inimage",
    "application/vnd.ogc.se_blank",
    "application/json",
)
AUTO_CODES = ("AUTO:42001", "AUTO:42002", "AUTO:42003", "AUTO:42004")
COMMON_CODES = (
    "EPSG:3035",
    "EPSG:3395",
    "EPSG:3857",
    "EPSG:4258",
    "EPSG:4269",
    "EPSG:4326",
    "EPSG:900913",
)
"""The emulator's stand-in for GeoServer's full EPSG list (thousands of codes) when the WMS
settings limit none: these plus every CRS the catalog's layers declare."""

NORTH_EAST = frozenset(
    {"EPSG:4326", "EPSG:4258", "EPSG:4269", "EPSG:4267", "EPSG:4283", "EPSG:4230", "EPSG:3035"}
)
"""CRSs whose 1.3.0 axis order is latitude/northing first (their bounding boxes are flipped)"""

DEFAULT_LEGEND = (20, 20, "image/png")


def content_type(version: str) -> str:
    if version == V111:
        return "application/vnd.ogc.wms_xml;charset=UTF-8"
    return "text/xml;charset=UTF-8"


def negotiate(requested: str | None, enabled: list[str]) -> str:
    """The version answered: the one asked for, else the highest lower one, else the lowest."""
    known = [v for v in VERSIONS if v in enabled] or list(VERSIONS)
    if not requested:
        return known[-1]
    if requested in known:
        return requested
    wanted = _version_key(requested)
    lower = [v for v in known if _version_key(v) < wanted]
    return lower[-1] if lower else known[0]


def _version_key(version: str) -> tuple[int, ...]:
    try:
        return tuple(int(p) for p in version.split("."))
    except ValueError:
        return (0,)


def _num(value: float) -> str:
    return java_number(float(value))


class Capabilities:
    """One capabilities document: ``write()`` returns its bytes."""

    def __init__(self, view: View, call: Call, version: str) -> None:
        self.view = view
        self.call = call
        self.version = version
        self.v13 = version == V130
        ws = view.workspace
        self.service = sources.service(view.state, sources.WMS, ws)
        self.contact = sources.contact(view.state, ws)
        self.w = XmlWriter(self._head())
        self.ows = call.service_base
        self.styles_seen: dict[Any, Any] = {}
        self.languages = published.wanted_languages(
            call.get("AcceptLanguages") or call.get("Language")
        )
        self.now = call.instant()

    @functools.cached_property
    def _listed(self) -> tuple[list[Layer], list[LayerGroup]]:
        """The layers and groups the caller sees, listed once per document (the
        ``AcceptLanguages`` check and the layer tree both read them)."""
        return self.view.layers(), self.view.groups()

    def _head(self) -> str:
        head = '<?xml version="1.0" encoding="UTF-8"?>'
        if self.v13:
            return head
        dtd = f"{self.call.base}/schemas/wms/1.1.1/WMS_MS_Capabilities.dtd"
        return f'{head}<!DOCTYPE WMT_MS_Capabilities SYSTEM "{dtd}">\n'

    # -- the document -----------------------------------------------------------------

    def write(self) -> bytes:
        if self.languages:
            layers, groups = self._listed
            resources = [self.view.resource(x) for x in layers]
            found = published.holders(self.service, [*layers, *groups], resources)
            published.check_languages(self.languages, found)
        seq = str(sources.update_sequence(self.view.state))
        if self.v13:
            location = (
                f"http://www.opengis.net/wms {self.call.base}/schemas/wms/1.3.0/"
                "capabilities_1_3_0.xsd"
            )
            self.w.start(
                "WMS_Capabilities",
                [
                    ("version", V130),
                    ("updateSequence", seq),
                    ("xmlns", "http://www.opengis.net/wms"),
                    ("xmlns:xlink", XLINK),
                    ("xmlns:xsi", "http://www.w3.org/2001/XMLSchema-instance"),
                    ("xsi:schemaLocation", location),
                ],
            )
        else:
            self.w.start("WMT_MS_Capabilities", [("version", V111), ("updateSequence", seq)])
        self._service()
        self._capability()
        self.w.end("WMS_Capabilities" if self.v13 else "WMT_MS_Capabilities")
        return self.w.done()

    def _link(self, href: str) -> list[tuple[str, str]]:
        if self.v13:
            return [("xlink:type", "simple"), ("xlink:href", href)]
        return [("xmlns:xlink", XLINK), ("xlink:type", "simple"), ("xlink:href", href)]

    def _service(self) -> None:
        w, s = self.w, self.service
        w.start("Service")
        w.element("Name", "WMS" if self.v13 else "OGC:WMS")
        w.element("Title", self._international("Title", s.get("title")))
        w.element("Abstract", self._international("Abstract", s.get("abstrct")))
        self._keywords(s.get("keywords") or [], vocabulary=self.v13)
        online = s.get("onlineResource") or f"{self.call.base}/"
        w.element("OnlineResource", None, self._link(online))
        self._contact(self.contact)
        w.element("Fees", s.get("fees") or "none")
        w.element("AccessConstraints", s.get("accessConstraints") or "none")
        w.end("Service")

    def _international(self, what: str, default: str | None) -> str | None:
        texts = self.service.get(f"international{what}") or {}
        return published.translated(texts, default, self.languages, nullable=what == "Abstract")

    def _keywords(self, keywords: list[Any], vocabulary: bool) -> None:
        self.w.start("KeywordList")
        for kw in published.filter_keywords(published.keywords(keywords), self.languages):
            attrs = [("vocabulary", kw.vocabulary)] if vocabulary and kw.vocabulary else None
            self.w.element("Keyword", kw.value, attrs)
        self.w.end("KeywordList")

    def _contact(self, c: Mapping[str, Any]) -> None:
        w = self.w
        w.start("ContactInformation")
        w.start("ContactPersonPrimary")
        w.element("ContactPerson", c.get("contactPerson"))
        w.element("ContactOrganization", c.get("contactOrganization"))
        w.end("ContactPersonPrimary")
        w.element("ContactPosition", c.get("contactPosition"))
        w.start("ContactAddress")
        w.element("AddressType", c.get("addressType"))
        w.element("Address", c.get("address"))
        w.element("City", c.get("addressCity"))
        w.element("StateOrProvince", c.get("addressState"))
        w.element("PostCode", c.get("addressPostalCode"))
        w.element("Country", c.get("addressCountry"))
        w.end("ContactAddress")
        w.element("ContactVoiceTelephone", c.get("contactVoice"))
        w.element("ContactFacsimileTelephone", c.get("contactFacsimile"))
        w.element("ContactElectronicMailAddress", c.get("contactEmail"))
        w.end("ContactInformation")

    # -- Capability --------------------------------------------------------------------

    def _capability(self) -> None:
        w = self.w
        w.start("Capability")
        w.start("Request")
        service_url = url(self.ows, "ows" if self.v13 else "wms", [("SERVICE", "WMS")]) + "&"
        w.start("GetCapabilities")
        if self.v13:
            w.element("Format", "text/xml")
        else:
            w.element("Format", "application/vnd.ogc.wms_xml")
            w.element("Format", "text/xml")
        self._dcp(service_url, service_url)
        w.end("GetCapabilities")
        w.start("GetMap")
        for fmt in self.service.get("getMapMimeTypes") or GETMAP_FORMATS:
            w.element("Format", fmt)
        self._dcp(service_url, None)
        w.end("GetMap")
        w.start("GetFeatureInfo")
        for fmt in self.service.get("getFeatureInfoMimeTypes") or FEATURE_INFO_FORMATS:
            w.element("Format", fmt)
        self._dcp(service_url, None if self.v13 else service_url)
        w.end("GetFeatureInfo")
        if not self.v13:
            w.start("DescribeLayer")
            w.element("Format", "application/vnd.ogc.wms_xml")
            self._dcp(service_url, None)
            w.end("DescribeLayer")
            w.start("GetLegendGraphic")
            for fmt in LEGEND_FORMATS:
                w.element("Format", fmt)
            self._dcp(service_url, None)
            w.end("GetLegendGraphic")
            w.start("GetStyles")
            w.element("Format", "application/vnd.ogc.sld+xml")
            self._dcp(service_url, None)
            w.end("GetStyles")
        w.end("Request")
        w.start("Exception")
        for fmt in EXCEPTIONS_130 if self.v13 else EXCEPTIONS_111:
            w.element("Format", fmt)
        w.end("Exception")
        if not self.v13:
            w.element(
                "UserDefinedSymbolization",
                None,
                [("SupportSLD", "1"), ("UserLayer", "1"), ("UserStyle", "1"), ("RemoteWFS", "1")],
            )
        self._layers()
        w.end("Capability")

    def _dcp(self, get: str | None, post: str | None) -> None:
        w = self.w
        w.start("DCPType")
        w.start("HTTP")
        if get is not None:
            w.start("Get")
            w.element("OnlineResource", None, self._link(get))
            w.end("Get")
        if post is not None:
            w.start("Post")
            w.element("OnlineResource", None, self._link(post))
            w.end("Post")
        w.end("HTTP")
        w.end("DCPType")

    # -- layers ------------------------------------------------------------------------

    def _layers(self) -> None:
        view, w = self.view, self.w
        namespace = self.call.get("NAMESPACE")
        layers, groups = self._listed
        if namespace:
            layers = [x for x in layers if x.workspace == namespace]
            groups = [g for g in groups if g.workspace == namespace]
        nested = view.nested_layers(groups)
        top_layers = [x for x in layers if (x.workspace, x.name) not in nested]
        top_groups = view.top_groups(groups)
        single = len(top_layers) + len(top_groups) == 1
        root_param = (self.call.get("ROOTLAYER") or "").lower()
        if single and root_param == "false":
            for group in top_groups:
                self._group(group, root=True)
            for layer in top_layers:
                self._layer(layer, root=True)
            return
        w.start("Layer")
        s = self.service
        w.element("Title", s.get("rootLayerTitle") or s.get("title"))
        w.element("Abstract", s.get("rootLayerAbstract") or s.get("abstrct"))
        self._root_crs()
        self._root_bbox(layers, groups)
        # the root layer's authority URLs and identifiers: the WMS settings' own
        self._authorities(
            published.authority_pairs(s.get("authorityURLs")),
            published.identifier_pairs(s.get("identifiers")),
        )
        for group in top_groups:
            self._group(group, root=False)
        for layer in top_layers:
            self._layer(layer, root=False)
        w.end("Layer")

    def _service_srs(self) -> list[str]:
        return [c if ":" in c else f"EPSG:{c}" for c in self.service.get("srs") or []]

    def _root_crs(self) -> None:
        tag = "CRS" if self.v13 else "SRS"
        codes = self._service_srs()
        if codes:
            self.w.comment("Limited list of EPSG projections:")
        else:
            self.w.comment("All supported EPSG projections:")
            codes = list(AUTO_CODES) + _epsg_sorted(
                set(COMMON_CODES)
                | {
                    r.srs
                    for r in self.view.catalog.resources.values()
                    if r.srs and r.srs.upper().startswith("EPSG:")
                }
            )
        for code in codes:
            self.w.element(tag, code)
        if self.v13:
            self.w.element("CRS", "CRS:84")

    def _root_bbox(self, layers: list[Layer], groups: list[LayerGroup]) -> None:
        box: BBox | None = None
        boxes = [self.view.latlon(x) for x in layers]
        if self.v13:
            boxes += [self.view.latlon(g) for g in groups]
        for b in boxes:
            if b is None:
                continue
            box = b if box is None else box.union(b)
            if _contains(box, WORLD):
                break
        if box is None:
            box = BBox(0.0, -1.0, 0.0, -1.0)
        self._latlon(box)
        if self.v13:
            self._bbox(box, "CRS:84")

    def _latlon(self, box: BBox) -> None:
        if self.v13:
            w = self.w
            w.start("EX_GeographicBoundingBox")
            w.element("westBoundLongitude", _num(box.minx))
            w.element("eastBoundLongitude", _num(box.maxx))
            w.element("southBoundLatitude", _num(box.miny))
            w.element("northBoundLatitude", _num(box.maxy))
            w.end("EX_GeographicBoundingBox")
        else:
            self.w.element(
                "LatLonBoundingBox",
                None,
                [
                    ("minx", _num(box.minx)),
                    ("miny", _num(box.miny)),
                    ("maxx", _num(box.maxx)),
                    ("maxy", _num(box.maxy)),
                ],
            )

    def _bbox(self, box: BBox, crs: str) -> None:
        minx, miny, maxx, maxy = box.minx, box.miny, box.maxx, box.maxy
        if self.v13 and crs.upper() in NORTH_EAST:
            minx, miny, maxx, maxy = miny, minx, maxy, maxx
        self.w.element(
            "BoundingBox",
            None,
            [
                ("CRS" if self.v13 else "SRS", crs),
                ("minx", _num(minx)),
                ("miny", _num(miny)),
                ("maxx", _num(maxx)),
                ("maxy", _num(maxy)),
            ],
        )

    def _bbox_for_each_crs(self, latlon: BBox, native: str) -> None:
        """``bboxForEachCRS``: a box per CRS the settings list, where the emulator can
        transform into it (geographic and spherical Mercator CRSs; others are left out)."""
        if not self.service.get("bboxForEachCRS"):
            return
        for code in self._service_srs():
            if code == native:
                continue
            to = crs.transform("EPSG:4326", code)
            if to is None:
                continue
            x0, y0 = to(latlon.minx, latlon.miny)
            x1, y1 = to(latlon.maxx, latlon.maxy)
            self._bbox(BBox(x0, x1, y0, y1, code), code)

    def _layer(self, layer: Layer, root: bool) -> None:
        view, w = self.view, self.w
        res = view.resource(layer)
        attrs = [
            ("queryable", "1" if layer.queryable else "0"),
            ("opaque", "1" if layer.opaque else "0"),
        ]
        w.start("Layer", attrs)
        name = view.name_of(layer)
        w.element("Name", name)
        w.element("Title", published.title(layer, res, self.languages))
        w.element("Abstract", published.abstract(layer, res, self.languages))
        self._keywords(res.keywords, vocabulary=self.v13)
        crs = res.srs or "EPSG:4326"
        if root:
            self._root_crs()
        elif self.v13:
            w.element("CRS", crs)
            w.element("CRS", "CRS:84")
        else:
            w.element("SRS", crs)
        latlon = res.latlon_bbox or WORLD
        self._latlon(latlon)
        if self.v13:
            self._bbox(latlon, "CRS:84")
        if res.native_bbox is not None:
            self._bbox(res.native_bbox, crs)
        self._bbox_for_each_crs(latlon, crs)
        self._dimensions(dimensions.dimensions(self.view.state, res, self.now))
        self._links(layer, [res])
        for link in published.data_links(res):
            w.start("DataURL")
            w.element("Format", link.format)
            w.element("OnlineResource", None, self._link(self.call.absolute(link.href)))
            w.end("DataURL")
        if layer.default_style is not None:
            self._style(name, layer.default_style, explicit=False)
        for ref in layer.styles:
            self._style(name, ref, explicit=True)
        refs = [*layer.styles, *([layer.default_style] if layer.default_style else [])]
        self._scale(refs)
        w.end("Layer")

    def _scale(self, refs: list[Any]) -> None:
        """1.3.0 ``Min``/``MaxScaleDenominator``, 1.1.1 ``ScaleHint`` (scale denominators,
        GeoServer's default units), from the rules of the styles; none without limits."""
        low, high = styles_scale(self.view.state, refs)
        if self.v13:
            if low != 0.0:
                self.w.element("MinScaleDenominator", _num(low))
            if high != math.inf:
                self.w.element("MaxScaleDenominator", _num(high))
        elif low != 0.0 or high != math.inf:
            top = "Infinity" if high == math.inf else _num(high)
            self.w.element("ScaleHint", None, [("min", _num(low)), ("max", top)])

    def _group_styles(self, group: LayerGroup) -> list[Any]:
        """The styles a group draws with: each member's (its group style, else its default),
        nested groups' recursively."""
        out: list[Any] = []
        for i, ref in enumerate(group.publishables):
            style = group.styles[i] if i < len(group.styles) else None
            if style is not None:
                out.append(style)
            elif ref.kind == "layer":
                layer = self.view.catalog.layers.get((ref.workspace, ref.name))
                if layer is not None and layer.default_style is not None:
                    out.append(layer.default_style)
            else:
                nested = self.view.catalog.layer_group(ref.workspace, ref.name)
                if nested is not None and nested is not group:
                    out.extend(self._group_styles(nested))
        return out

    def _eo_root(self, group: LayerGroup) -> Any:
        if group.mode != "EO" or group.root_layer is None:
            return None
        ref = group.root_layer
        layer = self.view.catalog.layers.get((ref.workspace, ref.name))
        return None if layer is None else self.view.resource(layer)

    def _dimensions(self, dims: list[dimensions.Dimension]) -> None:
        """Time and elevation: one ``Dimension`` each in 1.3.0; in 1.1.1 the declarations
        (``Dimension`` with units) first, then an ``Extent`` with the values."""
        w = self.w
        if not self.v13:
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

    def _links(self, item: Layer | LayerGroup, resources: list[Any]) -> None:
        """Attribution, authority URLs, identifiers and metadata URLs, in GeoServer's order."""
        w = self.w
        attribution = published.attribution(item)
        if attribution is not None:
            w.start("Attribution")
            if attribution.title is not None:
                w.element("Title", attribution.title)
            if attribution.href is not None:
                w.element("OnlineResource", None, self._xlink(attribution.href))
            if attribution.logo is not None:
                href, fmt, width, height = attribution.logo
                w.start("LogoURL", [("height", str(height)), ("width", str(width))])
                w.element("Format", fmt)
                w.element("OnlineResource", None, self._xlink(href))
                w.end("LogoURL")
            w.end("Attribution")
        self._authorities(published.authority_urls(item), published.identifiers(item))
        if isinstance(item, LayerGroup):
            links = published.group_metadata_links(item, resources)
        else:
            links = published.metadata_links(resources[0] if resources else None)
        for link in links:
            w.start("MetadataURL", [("type", link.metadata_type or "")])
            w.element("Format", link.format)
            w.element("OnlineResource", None, self._link(self.call.absolute(link.href)))
            w.end("MetadataURL")

    def _authorities(self, urls: list[tuple[str, str]], ids: list[tuple[str, str]]) -> None:
        """``AuthorityURL`` per (name, href), then ``Identifier`` per (authority, value)."""
        w = self.w
        for name, href in urls:
            w.start("AuthorityURL", [("name", name)])
            w.element("OnlineResource", None, self._link(href))
            w.end("AuthorityURL")
        for authority, ident in ids:
            w.element("Identifier", ident, [("authority", authority)])

    def _xlink(self, href: str) -> list[tuple[str, str]]:
        return [("xmlns:xlink", XLINK), ("xlink:type", "simple"), ("xlink:href", href)]

    def _style(self, layer_name: str, ref: Any, explicit: bool) -> None:
        w = self.w
        info = self.styles_seen.get(ref)
        if info is None:
            info = self.styles_seen[ref] = text_of(self.view.state, ref)
        w.start("Style")
        w.element("Name", info.name)
        w.element("Title", info.title if info.title is not None else info.name)
        if info.abstract is not None:
            w.element("Abstract", info.abstract)
        self._legend(layer_name, info.legend, ref.name if explicit else None, ref)
        w.end("Style")

    def _legend(self, layer_name: str, legend: Any, style: str | None, ref: Any = None) -> None:
        width, height, fmt = DEFAULT_LEGEND
        external = bool(legend and legend[0] and legend[1] and legend[2] and legend[3])
        if external:
            width, height, fmt = legend[0], legend[1], legend[2].replace(";charset=utf-8", "")
        elif ref is not None:
            data = body(self.view.state, ref)
            if data:
                width, height = sample_size(data)
        params = [
            ("service", "WMS"),
            ("request", "GetLegendGraphic"),
            ("format", fmt),
            ("width", str(width if external else DEFAULT_LEGEND[0])),
            ("height", str(height if external else DEFAULT_LEGEND[1])),
            ("layer", layer_name),
        ]
        if style is not None:
            params.append(("style", style))
        w = self.w
        w.start("LegendURL", [("width", str(width)), ("height", str(height))])
        w.element("Format", fmt)
        href = url(self.ows, "ows", params)
        w.element(
            "OnlineResource",
            None,
            [("xmlns:xlink", XLINK), ("xlink:type", "simple"), ("xlink:href", href)],
        )
        w.end("LegendURL")

    def _group(self, group: LayerGroup, root: bool) -> None:
        view, w = self.view, self.w
        name = view.name_of(group)
        queryable = any(m.queryable for m in view.member_layers(group))
        w.start("Layer", [("queryable", "1" if queryable else "0")])
        if group.mode != "CONTAINER":
            w.element("Name", name)
        w.element("Title", published.title(group, None, self.languages) or name)
        w.element(
            "Abstract",
            published.abstract(group, None, self.languages) or f"Layer-Group type layer: {name}",
        )
        self._keywords(group.keywords, vocabulary=self.v13)
        bounds = group.bounds or WORLD
        crs = bounds.crs or "EPSG:4326"
        if root:
            self._root_crs()
        else:
            w.element("CRS" if self.v13 else "SRS", crs)
        latlon = view.latlon(group) or WORLD
        self._latlon(latlon)
        if self.v13:
            self._bbox(latlon, "CRS:84")
        self._bbox(bounds, crs)
        self._bbox_for_each_crs(latlon, crs)
        root_layer = self._eo_root(group)
        if root_layer is not None:
            self._dimensions(dimensions.dimensions(self.view.state, root_layer, self.now))
        members = [view.resource(m) for m in group_layers(view, group)]
        self._links(group, members)
        if self.v13:
            w.start("Style")
            w.element("Name", "default-style")
            w.element("Title", f"{name} style")
            w.element("Abstract", f"Default style for {name} layer")
            self._legend(name, None, None)
            w.end("Style")
            self._scale(self._group_styles(group))
        if group.mode not in ("SINGLE", "OPAQUE_CONTAINER"):
            for item in view.members(group):
                if isinstance(item, LayerGroup):
                    self._group(item, root=False)
                else:
                    self._layer(item, root=False)
        if not self.v13:
            self._scale(self._group_styles(group))
        w.end("Layer")


def group_layers(view: View, group: LayerGroup) -> list[Layer]:
    """The layers directly in a group (not those of nested groups), whatever their
    visibility: GeoServer aggregates their metadata links."""
    out = []
    for ref in group.publishables:
        if ref.kind != "layer":
            continue
        layer = view.catalog.layers.get((ref.workspace, ref.name))
        if layer is not None:
            out.append(layer)
    return out


def _contains(outer: BBox, inner: BBox) -> bool:
    return (
        outer.minx <= inner.minx
        and outer.maxx >= inner.maxx
        and outer.miny <= inner.miny
        and outer.maxy >= inner.maxy
    )


def _epsg_sorted(codes: set[str]) -> list[str]:
    def key(code: str) -> tuple[int, str]:
        tail = code.partition(":")[2]
        return (int(tail), code) if tail.isdigit() else (1 << 31, code)

    return sorted(codes, key=key)


def write(view: View, call: Call, version: str) -> bytes:
    return Capabilities(view, call, version).write()
