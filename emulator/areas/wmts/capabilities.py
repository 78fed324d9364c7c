"""WMTS 1.0.0 GetCapabilities as GeoWebCache writes it, section by section: the OWS common
identification, provider and operations, a ``Layer`` per tile layer, a ``TileMatrixSet``
per gridset used, and the service metadata URLs.

A tile layer's ``Layer`` is a pure function of its ``Entry`` (what the catalog and the tile
layer say of it) and the service's URL.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

from ..catalog.entities import BBox
from ..ows import capabilities as caps
from ..ows.kvp import url
from ..ows.writer import XmlWriter
from ..seeding.gridsets import GridSet

V100 = "1.0.0"
INFO_FORMATS = ("text/plain", "text/html", "application/vnd.ogc.gml", "application/json")
OPERATIONS = ("GetCapabilities", "GetTile", "GetFeatureInfo")
_num = caps.decimal


class Entry(NamedTuple):
    """What a tile layer's ``Layer`` says."""

    identifier: str
    """its name in the virtual service called (unqualified in a workspace's)"""
    name: str
    """the tile layer's (and catalog item's) full name, as the legend link names it"""
    title: str | None
    abstract: str | None
    keywords: list[str]
    box: BBox | None
    """WGS84"""
    default_style: str
    """the catalog layer's default style, prefixed (``ws:style``), as GeoServer's style
    parameter filter names it; empty for a group"""
    formats: Sequence[str]
    dimensions: Sequence[tuple[str, str, Sequence[str]]]
    """(key, default, values) per parameter filter shown as a dimension"""
    gridsets: Sequence[str]
    """the gridsets it uses that exist, by name"""


class Context(NamedTuple):
    base: str
    """the virtual service's base (``…/geoserver``, ``…/geoserver/ws``, ``…/ws/layer``)"""
    service: Mapping[str, Any]
    contact: Mapping[str, Any]

    @property
    def href(self) -> str:
        return f"{self.base}/gwc/service/wmts"


def write(ctx: Context, entries: list[Entry], gridsets: Mapping[str, GridSet]) -> bytes:
    w = XmlWriter()
    w.start(
        "Capabilities",
        [
            ("xmlns", "http://www.opengis.net/wmts/1.0"),
            ("xmlns:ows", "http://www.opengis.net/ows/1.1"),
            ("xmlns:xlink", "http://www.w3.org/1999/xlink"),
            ("xmlns:xsi", "http://www.w3.org/2001/XMLSchema-instance"),
            ("xmlns:gml", "http://www.opengis.net/gml"),
            (
                "xsi:schemaLocation",
                "http://www.opengis.net/wmts/1.0 "
                "http://schemas.opengis.net/wmts/1.0/wmtsGetCapabilities_response.xsd",
            ),
            ("version", V100),
        ],
    )
    caps.identification(w, _identification(ctx.service))
    caps.provider(w, ctx.contact)
    w.start("ows:OperationsMetadata")
    for op in OPERATIONS:
        caps.operation(w, op, f"{ctx.href}?", get_encoding="KVP")
    w.end("ows:OperationsMetadata")
    w.start("Contents")
    for entry in entries:
        layer(w, ctx.base, entry)
    for name in sorted({g for e in entries for g in e.gridsets}):
        matrix_set(w, name, gridsets[name])
    w.end("Contents")
    w.element(
        "ServiceMetadataURL",
        None,
        [("xlink:href", f"{ctx.href}?SERVICE=wmts&REQUEST=getcapabilities&VERSION=1.0.0")],
    )
    w.element("ServiceMetadataURL", None, [("xlink:href", f"{ctx.href}/rest/WMTSCapabilities.xml")])
    w.end("Capabilities")
    return w.done()


def _identification(s: Mapping[str, Any]) -> caps.Identification:
    raw = s.get("keywords") or []
    keywords = [kw.get("value") if isinstance(kw, dict) else str(kw) for kw in raw]
    return caps.Identification(
        s.get("title"),
        s.get("abstrct"),
        keywords,
        [("ows:ServiceType", "OGC WMTS", None), ("ows:ServiceTypeVersion", V100, None)],
        s.get("fees"),
        s.get("accessConstraints"),
    )


def layer(w: XmlWriter, base: str, e: Entry) -> None:
    """One tile layer's ``Layer``."""
    href = f"{base}/gwc/service/wmts"
    w.start("Layer")
    w.element("ows:Title", e.title)
    w.element("ows:Abstract", e.abstract)
    caps.keywords(w, e.keywords)
    caps.wgs84_box(w, e.box, _num)
    w.element("ows:Identifier", e.identifier)
    _style(w, base, e)
    for fmt in e.formats:
        w.element("Format", fmt)
    for fmt in INFO_FORMATS:
        w.element("InfoFormat", fmt)
    for key, default, values in e.dimensions:
        w.start("Dimension")
        w.element("ows:Identifier", key)
        w.element("Default", default)
        for value in values:
            w.element("Value", value)
        w.end("Dimension")
    for gs_name in e.gridsets:
        w.start("TileMatrixSetLink")
        w.element("TileMatrixSet", gs_name)
        w.end("TileMatrixSetLink")
    placeholders = "".join(f"&{key}={{{key}}}" for key, _, _ in e.dimensions)
    for fmt in e.formats:
        template = (
            f"{href}/rest/{e.identifier}/{{style}}/{{TileMatrixSet}}/{{TileMatrix}}/{{TileRow}}/"
            f"{{TileCol}}?format={fmt}{placeholders}"
        )
        attrs = [("format", fmt), ("resourceType", "tile"), ("template", template)]
        w.element("ResourceURL", None, attrs)
    w.end("Layer")


def _style(w: XmlWriter, base: str, e: Entry) -> None:
    w.start("Style", [("isDefault", "true")])
    w.element("ows:Identifier", e.default_style)
    legend = url(
        base,
        "ows",
        [("service", "WMS"), ("request", "GetLegendGraphic"), ("version", "1.1.0"),
         ("format", "image/png"), ("width", "20"), ("height", "20"), ("layer", e.name)],
    )  # fmt: skip
    w.element(
        "LegendURL",
        None,
        [("format", "image/png"), ("xlink:href", legend), ("width", "20"), ("height", "20")],
    )
    w.end("Style")


def top(gs: GridSet, z: int) -> float:
    """The y of the top edge of level ``z``'s tile grid."""
    ox, oy = gs.origin()
    if gs.align_top_left:
        return oy
    return oy + gs.tiles_high[z] * gs.tile_height * gs.resolutions[z]


def matrix_set(w: XmlWriter, name: str, gs: GridSet) -> None:
    """A gridset's ``TileMatrixSet``: a ``TileMatrix`` per level."""
    w.start("TileMatrixSet")
    w.element("ows:Identifier", name)
    w.element("ows:SupportedCRS", f"urn:ogc:def:crs:EPSG::{gs.srs}")
    for z in range(gs.levels):
        w.start("TileMatrix")
        w.element("ows:Identifier", f"{name}:{z}")
        scale = gs.resolutions[z] * gs.meters_per_unit / gs.pixel_size
        w.element("ScaleDenominator", _num(scale))
        left, upper = gs.extent[0], top(gs, z)
        first, second = (upper, left) if gs.y_coordinate_first else (left, upper)
        corner = f"{_num(first)} {_num(second)}"  # GWC's getOrderedTopLeftCorner
        w.element("TopLeftCorner", corner)
        w.element("TileWidth", str(gs.tile_width))
        w.element("TileHeight", str(gs.tile_height))
        w.element("MatrixWidth", str(gs.tiles_wide[z]))
        w.element("MatrixHeight", str(gs.tiles_high[z]))
        w.end("TileMatrix")
    w.end("TileMatrixSet")
