"""WCS DescribeCoverage documents as GeoServer's three transformers write them: 1.0.0
``CoverageOffering`` (envelope and ``RectifiedGrid`` in the native CRS, band axis,
request/response CRSs, the formats an encoder exists for, interpolations), 1.1.1
``CoverageDescription`` (WGS84 and native boxes, ``GridCRS``, the ``contents`` field and its
``Bands`` axis, CRSs as URN and code, formats as media types) and 2.0.1
``CoverageDescription`` (GML 3.2 coverage: bounds, grid function, ``RectifiedGrid``, range
type, the native format).

The grid is the coverage's own (the catalog's ``grid``, as GeoServer keeps it): its size and
its grid-to-world transform at pixel centres.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

from ...wire.geoserver.java import double_text
from ..catalog.entities import Coverage, CoverageStore, Store, is_projected
from ..ows import crs, published
from ..ows.kvp import Call
from ..ows.results import Document
from ..ows.writer import XmlWriter
from . import codec

WCS10, WCS11, WCS20 = (
    "http://www.opengis.net/wcs",
    "http://www.opengis.net/wcs/1.1.1",
    "http://www.opengis.net/wcs/2.0",
)
XSI = "http://www.w3.org/2001/XMLSchema-instance"
CRS84 = "urn:ogc:def:crs:OGC:1.3:CRS84"

ENCODERS: dict[str, str] = {
    # GeoServer's GeoTIFF, image and debug coverage encoders: format name -> media type
    **dict.fromkeys(
        ("tif", "tiff", "geotiff", "TIFF", "GEOTIFF", "GeoTIFF", "image/geotiff"), "image/tiff"
    ),
    "image/tiff;application=geotiff": "image/tiff",
    "image/tiff": "image/tiff",
    **dict.fromkeys(("png", "PNG", "image/png"), "image/png"),
    **dict.fromkeys(("jpeg", "JPEG", "image/jpeg"), "image/jpeg"),
    **dict.fromkeys(("DEBUG", "text/debug"), "text/plain"),
}
"""the output formats a coverage may list that GeoServer has an encoder for (matched with
case), and the media type each is answered in"""
INTERPOLATIONS_11 = {"nearest neighbor": "nearest", "bilinear": "linear", "bicubic": "cubic"}


class Grid(NamedTuple):
    """A coverage's grid: its cell range (high inclusive) and grid-to-world transform."""

    low: tuple[int, int]
    high: tuple[int, int]
    scale_x: float
    shear_x: float
    shear_y: float
    scale_y: float
    translate_x: float
    translate_y: float


def grid(cov: Coverage) -> Grid | None:
    """The grid GeoServer keeps for ``cov`` (``<grid>``: the range's high is exclusive
    there); the one the catalog writes by default when it holds none; None without bounds."""
    from ..catalog.codec import default_grid

    found = cov.extras.get("grid")
    if not isinstance(found, Mapping):
        found = default_grid(cov)
    if not isinstance(found, Mapping):
        return None
    try:
        rng: Mapping[str, Any] = found.get("range") or {}
        low = [int(v) for v in str(rng.get("low", "0 0")).split()]
        high = [int(v) for v in str(rng.get("high", "1 1")).split()]
        t: Mapping[str, Any] = found.get("transform") or {}
        sx, shx, shy, sy, tx, ty = (
            float(t.get(k) or 0.0)
            for k in ("scaleX", "shearX", "shearY", "scaleY", "translateX", "translateY")
        )
    except (TypeError, ValueError):
        return None
    if len(low) < 2 or len(high) < 2:
        return None
    return Grid((low[0], low[1]), (high[0] - 1, high[1] - 1), sx, shx, shy, sy, tx, ty)


def encodable(cov: Coverage) -> list[str]:
    """The coverage's formats an encoder exists for, as listed."""
    return [f for f in cov.supported_formats if f in ENCODERS]


def urn(code: str) -> str:
    """``urn:ogc:def:crs:EPSG::4326`` of ``EPSG:4326``."""
    authority, _, number = code.partition(":")
    return f"urn:ogc:def:crs:{authority}::{number}"


def _n(value: float) -> str:
    return double_text(float(value))


# -- 1.0.0 ------------------------------------------------------------------------------------


def describe_10(call: Call, found: list[tuple[Coverage, str]]) -> Document:
    w = XmlWriter()
    schema = f"{WCS10} {call.base}/schemas/wcs/1.0.0/describeCoverage.xsd"
    w.start(
        "wcs:CoverageDescription",
        [
            ("xmlns:wcs", WCS10),
            ("xmlns:xlink", codec.XLINK),
            ("xmlns:ogc", "http://www.opengis.net/ogc"),
            ("xmlns:ows", codec.OWS11),
            ("xmlns:gml", "http://www.opengis.net/gml"),
            ("xmlns:xsi", XSI),
            ("xsi:schemaLocation", schema),
            ("version", "1.0.0"),
        ],
    )
    for cov, ident in found:
        w.start("wcs:CoverageOffering")
        codec.brief_10(w, call, cov, ident, offering=True)
        _domain_10(w, cov)
        _range_10(w, cov)
        _supported_10(w, cov)
        w.end("wcs:CoverageOffering")
    w.end("wcs:CoverageDescription")
    return Document(w.done(), "text/xml")


def _domain_10(w: XmlWriter, cov: Coverage) -> None:
    srs = cov.srs or "EPSG:4326"
    w.start("wcs:domainSet")
    w.start("wcs:spatialDomain")
    box = cov.native_bbox
    if box is not None:
        w.start("gml:Envelope", [("srsName", srs)])
        w.element("gml:pos", f"{_n(box.minx)} {_n(box.miny)}")
        w.element("gml:pos", f"{_n(box.maxx)} {_n(box.maxy)}")
        w.end("gml:Envelope")
    g = grid(cov)
    if g is not None:
        w.start("gml:RectifiedGrid", [("dimension", "2"), ("srsName", srs)])
        w.start("gml:limits")
        w.start("gml:GridEnvelope")
        w.element("gml:low", f"{g.low[0]} {g.low[1]}")
        w.element("gml:high", f"{g.high[0]} {g.high[1]}")
        w.end("gml:GridEnvelope")
        w.end("gml:limits")
        for axis in ("x", "y") if not is_projected(srs) else ("E", "N"):
            w.element("gml:axisName", axis)
        w.start("gml:origin")
        w.element("gml:pos", f"{_n(g.translate_x)} {_n(g.translate_y)}")
        w.end("gml:origin")
        w.element("gml:offsetVector", f"{_n(g.scale_x)} {_n(g.shear_x)}")
        w.element("gml:offsetVector", f"{_n(g.shear_y)} {_n(g.scale_y)}")
        w.end("gml:RectifiedGrid")
    w.end("wcs:spatialDomain")
    w.end("wcs:domainSet")


def _range_10(w: XmlWriter, cov: Coverage) -> None:
    w.start("wcs:rangeSet")
    w.start("wcs:RangeSet")
    w.element("wcs:name", cov.name)
    w.element("wcs:label", cov.title)
    w.start("wcs:axisDescription")
    w.start("wcs:AxisDescription")
    w.element("wcs:name", "Band")
    w.element("wcs:label", "Band")
    w.start("wcs:values")
    if len(cov.dimensions) > 1:
        w.start("wcs:interval")
        w.element("wcs:min", "1")
        w.element("wcs:max", str(len(cov.dimensions)))
        w.end("wcs:interval")
    else:
        w.element("wcs:singleValue", "1")
    w.end("wcs:values")
    w.end("wcs:AxisDescription")
    w.end("wcs:axisDescription")
    w.end("wcs:RangeSet")
    w.end("wcs:rangeSet")


def _supported_10(w: XmlWriter, cov: Coverage) -> None:
    w.start("wcs:supportedCRSs")
    for code in dict.fromkeys([*cov.request_srs, *cov.response_srs]):
        w.element("wcs:requestResponseCRSs", crs.normalise(code))
    w.end("wcs:supportedCRSs")
    native = cov.native_format or ""
    native = "GeoTIFF" if native.upper() == "GEOTIFF" else native
    w.start("wcs:supportedFormats", [("nativeFormat", native)])
    for fmt in sorted(set(encodable(cov))):
        w.element("wcs:formats", "GeoTIFF" if fmt.upper() == "GEOTIFF" else fmt)
    w.end("wcs:supportedFormats")
    default = cov.default_interpolation_method
    w.start("wcs:supportedInterpolations", [("default", default)] if default else [])
    for method in cov.interpolation_methods:
        w.element("wcs:interpolationMethod", method)
    w.end("wcs:supportedInterpolations")


# -- 1.1.1 ------------------------------------------------------------------------------------


def describe_111(call: Call, found: list[tuple[Coverage, str]]) -> Document:
    w = XmlWriter()
    schema = f"{WCS11} {call.base}/schemas/wcs/1.1.1/wcsDescribeCoverage.xsd"
    w.start(
        "wcs:CoverageDescriptions",
        [
            ("xmlns:wcs", WCS11),
            ("xmlns:xlink", codec.XLINK),
            ("xmlns:ogc", "http://www.opengis.net/ogc"),
            ("xmlns:ows", codec.OWS11),
            ("xmlns:gml", "http://www.opengis.net/gml"),
            ("xmlns:xsi", XSI),
            ("xsi:schemaLocation", schema),
        ],
    )
    for cov, ident in found:
        w.start("wcs:CoverageDescription")
        w.element("ows:Title", cov.title)
        w.element("ows:Abstract", cov.description or cov.abstract)
        w.start("ows:Keywords")
        for kw in published.keyword_values(cov.keywords):
            w.element("ows:Keyword", kw)
        w.end("ows:Keywords")
        w.element("wcs:Identifier", ident)
        _metadata_11(w, call, cov)
        _domain_11(w, cov)
        _range_11(w, cov)
        for code in dict.fromkeys([*cov.request_srs, *cov.response_srs]):
            w.element("wcs:SupportedCRS", urn(crs.normalise(code)))
            w.element("wcs:SupportedCRS", code)
        for media in dict.fromkeys(ENCODERS[f] for f in encodable(cov)):
            w.element("wcs:SupportedFormat", media)
        w.end("wcs:CoverageDescription")
    w.end("wcs:CoverageDescriptions")
    return Document(w.done(), "text/xml")


def _metadata_11(w: XmlWriter, call: Call, cov: Coverage) -> None:
    for link in published.metadata_links(cov):
        attrs = [("about", link.about)] if link.about else []
        if link.metadata_type:
            attrs.append(("metadataType", link.metadata_type))
        attrs += [("xlink:type", "simple"), ("xlink:href", call.absolute(link.href))]
        w.element("ows:Metadata", None, attrs)


def _box_11(w: XmlWriter, code: str, corners: tuple[float, float, float, float]) -> None:
    minx, miny, maxx, maxy = corners
    w.start("ows:BoundingBox", [("crs", code), ("dimensions", "2")])
    w.element("ows:LowerCorner", f"{_n(minx)} {_n(miny)}")
    w.element("ows:UpperCorner", f"{_n(maxx)} {_n(maxy)}")
    w.end("ows:BoundingBox")


def _domain_11(w: XmlWriter, cov: Coverage) -> None:
    srs = crs.normalise(cov.srs or "EPSG:4326")
    w.start("wcs:Domain")
    w.start("wcs:SpatialDomain")
    if cov.latlon_bbox is not None:
        b = cov.latlon_bbox
        _box_11(w, CRS84, (b.minx, b.miny, b.maxx, b.maxy))
    if cov.native_bbox is not None:
        b = cov.native_bbox
        flip = crs.is_geographic(srs)  # the URN's axis order: latitude first
        corners = (b.miny, b.minx, b.maxy, b.maxx) if flip else (b.minx, b.miny, b.maxx, b.maxy)
        _box_11(w, urn(srs), corners)
    g = grid(cov)
    if g is not None:
        w.start("wcs:GridCRS")
        w.element("wcs:GridBaseCRS", urn(srs))
        w.element("wcs:GridType", "urn:ogc:def:method:WCS:1.1:2dGridIn2dCrs")
        w.element("wcs:GridOrigin", f"{_n(g.translate_x)} {_n(g.translate_y)}")
        offsets = (g.scale_x, g.shear_x, g.shear_y, g.scale_y)
        w.element("wcs:GridOffsets", " ".join(_n(v) for v in offsets))
        w.element("wcs:GridCS", "urn:ogc:def:cs:OGC:0.0:Grid2dSquareCS")
        w.end("wcs:GridCRS")
    w.end("wcs:SpatialDomain")
    w.end("wcs:Domain")


def _range_11(w: XmlWriter, cov: Coverage) -> None:
    dims = cov.dimensions
    w.start("wcs:Range")
    w.start("wcs:Field")
    w.element("wcs:Identifier", "contents")
    w.start("wcs:Definition")
    ranges = [(d.range_min, d.range_max) for d in dims]
    if not dims or any(lo is None or hi is None for lo, hi in ranges):
        w.element("ows:AnyValue", "")
    else:
        w.start("ows:AllowedValues")
        w.start("ows:Range")
        w.element("ows:MinimumValue", _n(min(float(lo or 0) for lo, _ in ranges)))
        w.element("ows:MaximumValue", _n(max(float(hi or 0) for _, hi in ranges)))
        w.end("ows:Range")
        w.end("ows:AllowedValues")
    w.end("wcs:Definition")
    for dim in dims:
        nulls = list(dim.null_values or [])
        if len(nulls) == 1:
            w.element("wcs:NullValue", _n(nulls[0]))
    w.start("wcs:InterpolationMethods")
    for method in cov.interpolation_methods:
        if method in INTERPOLATIONS_11:
            w.element("wcs:InterpolationMethod", INTERPOLATIONS_11[method])
    if (cov.default_interpolation_method or "").strip():
        w.element("wcs:Default", cov.default_interpolation_method)
    w.end("wcs:InterpolationMethods")
    w.start("wcs:Axis", [("identifier", "Bands")])
    w.start("wcs:AvailableKeys")
    for dim in dims:
        w.element("wcs:Key", dim.name.replace(" ", "_"))
    w.end("wcs:AvailableKeys")
    w.end("wcs:Axis")
    w.end("wcs:Field")
    w.end("wcs:Range")


# -- 2.0.1 ------------------------------------------------------------------------------------


def native_format_20(cov: Coverage, store: Store | None) -> str:
    """GeoServer's WCS 2.0 native format: what an image reader says of the store's file
    when an encoder exists for it and it is lossless (a PNG world image: ``image/png``),
    else GeoTIFF's ``image/tiff`` (GeoTIFF, ArcGrid, mosaics, JPEG, GIF...)."""
    url = (store.url if isinstance(store, CoverageStore) else None) or ""
    url = url.lower()
    if store is not None and store.type == "WorldImage" and url.endswith(".png"):
        return "image/png"
    return "image/tiff"


def describe_201(found: list[tuple[Coverage, str, str]]) -> Document:
    """``found``: each coverage, its id and its native format."""
    w = XmlWriter()
    w.start(
        "wcs:CoverageDescriptions",
        [
            ("xmlns:wcs", WCS20),
            ("xmlns:gml", "http://www.opengis.net/gml/3.2"),
            ("xmlns:gmlcov", "http://www.opengis.net/gmlcov/1.0"),
            ("xmlns:swe", "http://www.opengis.net/swe/2.0"),
            ("xmlns:ows", codec.OWS20),
        ],
    )
    for cov, ident, native in found:
        srs = crs.normalise(cov.srs or "EPSG:4326")
        swap = crs.is_geographic(srs)
        w.start("wcs:CoverageDescription", [("gml:id", ident)])
        if cov.description or cov.abstract:
            w.element("gml:description", cov.description or cov.abstract)
        if cov.title:
            w.element("gml:name", cov.title)
        codec.bounded_by_201(w, cov)
        w.element("wcs:CoverageId", ident)
        g = grid(cov)
        if g is not None:
            _grid_function(w, g, swap)
            _domain_set_20(w, g, ident, srs, swap)
        codec.range_type_201(w, cov)
        w.start("wcs:ServiceParameters")
        w.element("wcs:CoverageSubtype", "RectifiedGridCoverage")
        w.element("wcs:nativeFormat", native)
        w.end("wcs:ServiceParameters")
        w.end("wcs:CoverageDescription")
    w.end("wcs:CoverageDescriptions")
    return Document(w.done(), "application/xml")


def _grid_function(w: XmlWriter, g: Grid, swap: bool) -> None:
    w.start("gml:coverageFunction")
    w.start("gml:GridFunction")
    w.element("gml:sequenceRule", "Linear", [("axisOrder", "+2 +1" if swap else "+1 +2")])
    w.element("gml:startPoint", f"{g.low[0]} {g.low[1]}")
    w.end("gml:GridFunction")
    w.end("gml:coverageFunction")


def _domain_set_20(w: XmlWriter, g: Grid, ident: str, srs: str, swap: bool) -> None:
    srs_name = f"http://www.opengis.net/def/crs/EPSG/0/{srs.partition(':')[2]}"
    w.start("gml:domainSet")
    w.start("gml:RectifiedGrid", [("gml:id", f"grid00__{ident}"), ("dimension", "2")])
    w.start("gml:limits")
    w.start("gml:GridEnvelope")
    w.element("gml:low", f"{g.low[0]} {g.low[1]}")
    w.element("gml:high", f"{g.high[0]} {g.high[1]}")
    w.end("gml:GridEnvelope")
    w.end("gml:limits")
    w.element("gml:axisLabels", "i j")
    w.start("gml:origin")
    w.start("gml:Point", [("gml:id", f"p00_{ident}"), ("srsName", srs_name)])
    tx, ty = (g.translate_y, g.translate_x) if swap else (g.translate_x, g.translate_y)
    w.element("gml:pos", f"{_n(tx)} {_n(ty)}")
    w.end("gml:Point")
    w.end("gml:origin")
    first = (g.shear_x, g.scale_x) if swap else (g.scale_x, g.shear_x)
    second = (g.scale_y, g.shear_y) if swap else (g.shear_y, g.scale_y)
    for a, b in (first, second):
        w.element("gml:offsetVector", f"{_n(a)} {_n(b)}", [("srsName", srs_name)])
    w.end("gml:RectifiedGrid")
    w.end("gml:domainSet")
