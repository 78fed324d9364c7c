"""WMS 1.1.1 and 1.3.0 GetCapabilities, written as GeoServer's capabilities transformers
write them (element order, empty elements, number format, LegendURL links).

The document is derived from a ``model.View`` (what the caller may see), the WMS settings
and contact (``sources``) and the styles' descriptions (``styles``).
"""

from __future__ import annotations

import datetime
import functools
from collections.abc import Mapping
from typing import Any

from ..catalog.entities import BBox, Layer, LayerGroup
from ..ows import dimensions, published, sources
from ..ows.errors import OwsError
from ..ows.kvp import Call
from ..ows.model import WORLD, View
from ..ows.writer import XmlWriter
from . import layers
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


FORMATS_111 = ("application/vnd.ogc.wms_xml", "text/xml")
"""the media types of a 1.1.1 document (``FORMAT``; the first by default)"""


def content_type(version: str, requested: str | None = None) -> str:
    """The document's media type: 1.3.0 ``text/xml``; 1.1.1 the one ``FORMAT`` names
    (ignoring case; the default when empty), any other refused as GeoServer's response
    refuses it (a Java exception: no code)."""
    if version != V111:
        return "text/xml;charset=UTF-8"
    fmt = FORMATS_111[0]
    if requested:
        found = [f for f in FORMATS_111 if f.lower() == requested.lower()]
        if not found:
            raise OwsError(f"The request format '{requested}' is not supported.")
        fmt = found[0]
    return f"{fmt};charset=UTF-8"


def filename(version: str) -> str:
    """What GeoServer calls the document (``Content-Disposition``)."""
    return f"getcapabilities_{version}.xml"


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


class Capabilities:
    """One capabilities document: ``write()`` returns its bytes. Its sections are methods;
    a layer's element is ``layers.layer_fragment`` of its ``layers.LayerEntry``."""

    def __init__(self, view: View, call: Call, version: str) -> None:
        self.view = view
        self.call = call
        self.version = version
        self.v13 = version == V130
        ws = view.workspace
        self.service = sources.service(view.state, sources.WMS, ws)
        self.contact = sources.contact(view.state, ws)
        self.w = XmlWriter(self._head())
        self.styles_seen: dict[Any, Any] = {}
        self.languages = published.wanted_languages(
            call.get("AcceptLanguages") or call.get("Language")
        )
        self.ctx = layers.Context(
            version,
            self.service,
            tuple(self.languages),
            call.base,
            call.service_base,
            version == V130,
            call.language(),
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
            listed, groups = self._listed
            resources = [self.view.resource(x) for x in listed]
            found = published.holders(self.service, [*listed, *groups], resources)
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

    def _service(self) -> None:
        w, s = self.w, self.service
        w.start("Service")
        w.element("Name", "WMS" if self.v13 else "OGC:WMS")
        w.element("Title", self._international("Title", s.get("title")))
        w.element("Abstract", self._international("Abstract", s.get("abstrct")))
        layers.keywords(w, self.ctx, s.get("keywords") or [])
        online = self._online_resource()
        w.element("OnlineResource", None, layers.xlink(self.ctx, online))
        self._contact(self.contact)
        w.element("Fees", s.get("fees") or "none")
        w.element("AccessConstraints", s.get("accessConstraints") or "none")
        w.end("Service")

    def _online_resource(self) -> str:
        """The first non-blank of the service's, the contact's and the settings' online
        resource, else the service's own URL (with the requested language)."""
        settings = sources.global_settings(self.view.state, self.view.workspace)
        for found in (
            self.service.get("onlineResource"),
            self.contact.get("onlineResource"),
            settings.get("onlineResource"),
        ):
            if isinstance(found, str) and found.strip():
                return found
        return self.call.service_url("")

    def _international(self, what: str, default: str | None) -> str | None:
        texts = self.service.get(f"international{what}") or {}
        return published.translated(texts, default, self.languages, nullable=what == "Abstract")

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
        self._requests()
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

    def _requests(self) -> None:
        """``Request``: each operation's formats and DCP links."""
        w = self.w
        w.start("Request")
        path = "ows" if self.v13 else "wms"
        service_url = self.call.service_url(path, [("SERVICE", "WMS")]) + "&"
        w.start("GetCapabilities")
        formats = ("text/xml",) if self.v13 else ("application/vnd.ogc.wms_xml", "text/xml")
        for fmt in formats:
            w.element("Format", fmt)
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
            for op, fmts in (
                ("DescribeLayer", ("application/vnd.ogc.wms_xml",)),
                ("GetLegendGraphic", LEGEND_FORMATS),
                ("GetStyles", ("application/vnd.ogc.sld+xml",)),
            ):
                w.start(op)
                for fmt in fmts:
                    w.element("Format", fmt)
                self._dcp(service_url, None)
                w.end(op)
        w.end("Request")

    def _dcp(self, get: str | None, post: str | None) -> None:
        w = self.w
        w.start("DCPType")
        w.start("HTTP")
        if get is not None:
            w.start("Get")
            w.element("OnlineResource", None, layers.xlink(self.ctx, get))
            w.end("Get")
        if post is not None:
            w.start("Post")
            w.element("OnlineResource", None, layers.xlink(self.ctx, post))
            w.end("Post")
        w.end("HTTP")
        w.end("DCPType")

    # -- layers ------------------------------------------------------------------------

    def _layers(self) -> None:
        view, w = self.view, self.w
        namespace = self.call.get("NAMESPACE")
        listed, groups = self._listed
        if namespace:
            listed = [x for x in listed if x.workspace == namespace]
            groups = [g for g in groups if g.workspace == namespace]
        nested = view.nested_layers(groups)
        top_layers = [x for x in listed if (x.workspace, x.name) not in nested]
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
        layers.crs_list(w, self.ctx, self._root_codes())
        self._root_bbox(listed, groups)
        # the root layer's authority URLs and identifiers: the WMS settings' own
        layers.authorities(
            w,
            self.ctx,
            published.authority_pairs(s.get("authorityURLs")),
            published.identifier_pairs(s.get("identifiers")),
        )
        for group in top_groups:
            self._group(group, root=False)
        for layer in top_layers:
            self._layer(layer, root=False)
        w.end("Layer")

    def _root_codes(self) -> list[str]:
        """The root layer's CRSs: the settings' list; empty: the whole database
        (``layers.crs_list``)."""
        return self.ctx.srs_list()

    def _root_bbox(self, listed: list[Layer], groups: list[LayerGroup]) -> None:
        box: BBox | None = None
        boxes = [self.view.latlon(x) for x in listed]
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
        layers.latlon_box(self.w, self.ctx, box)
        if self.v13:
            layers.bbox(self.w, self.ctx, box, "CRS:84")

    def _layer(self, layer: Layer, root: bool) -> None:
        entry = layer_entry(self.view, layer, self.styles_seen, self.now)
        codes = self._root_codes() if root else None
        self.w.raw(layers.layer_fragment(self.ctx, entry, self.w.depth, codes))

    def _group_styles(self, group: LayerGroup) -> list[Any]:
        """The styles a group draws with: each member's (its group style, else its default),
        nested groups' recursively."""
        out: list[Any] = []
        for i, ref in enumerate(group.publishables):
            style = group.styles[i] if i < len(group.styles) else None
            if style is not None:
                out.append(style)
            elif ref.kind == "layer":
                layer = self.view.catalog.layers.get((ref.workspace or "", ref.name))
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
        layer = self.view.catalog.layers.get((ref.workspace or "", ref.name))
        return None if layer is None else self.view.resource(layer)

    def _group(self, group: LayerGroup, root: bool) -> None:
        view, w, ctx = self.view, self.w, self.ctx
        name = view.name_of(group)
        queryable = any(m.queryable for m in view.member_layers(group))
        w.start("Layer", [("queryable", "1" if queryable else "0")])
        self._group_head(group, name, root)
        root_layer = self._eo_root(group)
        if root_layer is not None:
            dims = dimensions.dimensions(self.view.state, root_layer, self.now)
            layers.dimensions(w, ctx, dims)
        members = [view.resource(m) for m in group_layers(view, group)]
        layers.links(w, ctx, group, published.group_metadata_links(group, members))
        limits = styles_scale(self.view.state, self._group_styles(group))
        if self.v13:
            w.start("Style")
            w.element("Name", "default-style")
            w.element("Title", f"{name} style")
            w.element("Abstract", f"Default style for {name} layer")
            layers.legend_url(w, ctx, name, (*layers.DEFAULT_LEGEND, False), None)
            w.end("Style")
            layers.scale(w, ctx, limits)
        if group.mode not in ("SINGLE", "OPAQUE_CONTAINER"):
            for item in view.members(group):
                if isinstance(item, LayerGroup):
                    self._group(item, root=False)
                else:
                    self._layer(item, root=False)
        if not self.v13:
            layers.scale(w, ctx, limits)
        w.end("Layer")

    def _group_head(self, group: LayerGroup, name: str, root: bool) -> None:
        """A group's name, title, abstract, keywords, CRS and boxes."""
        w, ctx = self.w, self.ctx
        if group.mode != "CONTAINER":
            w.element("Name", name)
        w.element("Title", published.title(group, None, self.languages) or name)
        abstract = published.abstract(group, None, self.languages)
        w.element("Abstract", abstract or f"Layer-Group type layer: {name}")
        layers.keywords(w, ctx, group.keywords)
        bounds = group.bounds or WORLD
        code = bounds.crs or "EPSG:4326"
        if root:
            layers.crs_list(w, ctx, self._root_codes())
        else:
            w.element("CRS" if self.v13 else "SRS", code)
        latlon = self.view.latlon(group) or WORLD
        layers.latlon_box(w, ctx, latlon)
        if self.v13:
            layers.bbox(w, ctx, latlon, "CRS:84")
        layers.bbox(w, ctx, bounds, code)
        layers.bbox_for_each_crs(w, ctx, bounds, code)


def layer_entry(
    view: View, layer: Layer, seen: dict[Any, Any], now: datetime.datetime
) -> layers.LayerEntry:
    """What ``layers.layer_fragment`` writes a layer from, read from the state (style
    descriptions read once per document: ``seen``)."""
    state = view.state
    res = view.resource(layer)
    styles = []
    if layer.default_style is not None:
        styles.append(layers.style_entry(state, layer.default_style, False, seen))
    styles += [layers.style_entry(state, ref, True, seen) for ref in layer.styles]
    refs = [*layer.styles, *([layer.default_style] if layer.default_style else [])]
    return layers.LayerEntry(
        layer,
        res,
        view.name_of(layer),
        tuple(styles),
        tuple(dimensions.dimensions(state, res, now)),
        styles_scale(state, refs),
    )


def group_layers(view: View, group: LayerGroup) -> list[Layer]:
    """The layers directly in a group (not those of nested groups), whatever their
    visibility: GeoServer aggregates their metadata links."""
    out = []
    for ref in group.publishables:
        if ref.kind != "layer":
            continue
        layer = view.catalog.layers.get((ref.workspace or "", ref.name))
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


def write(view: View, call: Call, version: str) -> bytes:
    return Capabilities(view, call, version).write()
