"""The WCS DescribeCoverage documents (1.0.0 ``CoverageOffering``, 1.1.1 and 2.0.1
``CoverageDescription``) and the pieces the 1.0.0 capabilities share with them.

Each coverage comes with its identifier as the version writes it (``Described``) and, for
1.0.0, the grid the uploads area read from its file (``Grid``).
"""

from __future__ import annotations

from ..catalog.entities import BBox, Coverage
from ..ows import capabilities as caps
from ..ows import published
from ..ows.kvp import Call
from ..ows.results import Document
from ..ows.writer import XmlWriter

XLINK = "http://www.w3.org/1999/xlink"
OWS11 = "http://www.opengis.net/ows/1.1"
OWS20 = "http://www.opengis.net/ows/2.0"

Grid = tuple[int, int, tuple[float, float, float, float]]
"""(width, height, (minx, miny, maxx, maxy)) of an uploaded coverage's grid"""
Described = tuple[Coverage, str, "Grid | None"]
"""a coverage, its identifier in the version's form, its grid (1.0.0)"""


_num = caps.decimal


# -- what 1.0.0 capabilities and descriptions share -----------------------------------------


def brief_10(w: XmlWriter, call: Call, cov: Coverage, ident: str, offering: bool) -> None:
    """The head a 1.0.0 ``CoverageOfferingBrief`` and ``CoverageOffering`` share: metadata
    links, description, name, label, WGS84 envelope and keywords."""
    _metadata_link_10(w, call, cov, offering)
    w.element("wcs:description", cov.description or cov.abstract)
    w.element("wcs:name", ident)
    w.element("wcs:label", cov.title)
    _lonlat(w, cov.latlon_bbox)
    w.start("wcs:keywords")
    for kw in published.keyword_values(cov.keywords):
        w.element("wcs:keyword", kw)
    w.end("wcs:keywords")


def metadata_links_ows(w: XmlWriter, call: Call, cov: Coverage) -> None:
    """``ows:Metadata`` per metadata link with content (``about`` when set, a simple xlink
    to the proxified link), as GeoServer writes them in 1.1.1 and 2.0.1 summaries."""
    for link in published.metadata_links(cov):
        attrs = [("about", link.about)] if link.about else []
        href = call.absolute(link.href)
        w.element("ows:Metadata", None, [*attrs, ("xlink:type", "simple"), ("xlink:href", href)])


def _metadata_link_10(w: XmlWriter, call: Call, cov: Coverage, offering: bool) -> None:
    """WCS 1.0.0 ``metadataLink`` s (the capabilities and DescribeCoverage write their
    attributes in different orders, as GeoServer's two transformers do)."""
    for link in published.metadata_links(cov):
        about = [("about", link.about)] if link.about else []
        kind = [("metadataType", link.metadata_type)] if link.metadata_type else []
        simple = [("xlink:type", "simple")]
        middle = [*kind, *simple] if offering else [*simple, *kind]
        href = [("xlink:href", call.absolute(link.href))]
        w.element("wcs:metadataLink", None, [*about, *middle, *href])


def _lonlat(w: XmlWriter, box: BBox | None) -> None:
    if box is None:
        return
    w.start("wcs:lonLatEnvelope", [("srsName", "urn:ogc:def:crs:OGC:1.3:CRS84")])
    w.element("gml:pos", f"{_num(box.minx)} {_num(box.miny)}")
    w.element("gml:pos", f"{_num(box.maxx)} {_num(box.maxy)}")
    w.end("wcs:lonLatEnvelope")


# -- 1.0.0 ------------------------------------------------------------------------------------


def describe_10(call: Call, found: list[Described]) -> Document:
    w = XmlWriter()
    w.start(
        "wcs:CoverageDescription",
        [
            ("version", "1.0.0"),
            ("xmlns:wcs", "http://www.opengis.net/wcs"),
            ("xmlns:gml", "http://www.opengis.net/gml"),
            ("xmlns:xlink", XLINK),
        ],
    )
    for cov, ident, grid in found:
        w.start("wcs:CoverageOffering")
        brief_10(w, call, cov, ident, offering=True)
        _domain_10(w, cov, grid)
        _range_10(w, cov)
        _supported_10(w, cov)
        w.end("wcs:CoverageOffering")
    w.end("wcs:CoverageDescription")
    return Document(w.done(), "text/xml")


def _domain_10(w: XmlWriter, cov: Coverage, grid: Grid | None) -> None:
    w.start("wcs:domainSet")
    w.start("wcs:spatialDomain")
    box = cov.native_bbox or cov.latlon_bbox
    if box is not None:
        w.start("gml:Envelope", [("srsName", cov.srs or "EPSG:4326")])
        w.element("gml:pos", f"{_num(box.minx)} {_num(box.miny)}")
        w.element("gml:pos", f"{_num(box.maxx)} {_num(box.maxy)}")
        w.end("gml:Envelope")
    if grid is not None:
        _rectified_grid(w, cov, grid)
    w.end("wcs:spatialDomain")
    w.end("wcs:domainSet")


def _rectified_grid(w: XmlWriter, cov: Coverage, grid: Grid) -> None:
    """The grid of an uploaded coverage: its size, origin at the upper-left pixel centre
    and offset vectors."""
    width, height, (minx, miny, maxx, maxy) = grid
    sx, sy = (maxx - minx) / width, -(maxy - miny) / height
    w.start("gml:RectifiedGrid", [("dimension", "2"), ("srsName", cov.srs or "EPSG:4326")])
    w.start("gml:limits")
    w.start("gml:GridEnvelope")
    w.element("gml:low", "0 0")
    w.element("gml:high", f"{width - 1} {height - 1}")
    w.end("gml:GridEnvelope")
    w.end("gml:limits")
    w.element("gml:axisName", "x")
    w.element("gml:axisName", "y")
    w.start("gml:origin")
    w.element("gml:pos", f"{_num(minx + sx / 2)} {_num(maxy + sy / 2)}")
    w.end("gml:origin")
    w.element("gml:offsetVector", f"{_num(sx)} 0.0")
    w.element("gml:offsetVector", f"0.0 {_num(sy)}")
    w.end("gml:RectifiedGrid")


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
    w.start("wcs:interval")
    w.element("wcs:min", "1")
    w.element("wcs:max", str(max(1, len(cov.dimensions))))
    w.end("wcs:interval")
    w.end("wcs:values")
    w.end("wcs:AxisDescription")
    w.end("wcs:axisDescription")
    w.end("wcs:RangeSet")
    w.end("wcs:rangeSet")


def _supported_10(w: XmlWriter, cov: Coverage) -> None:
    w.start("wcs:supportedCRSs")
    for code in cov.request_srs or [cov.srs or "EPSG:4326"]:
        w.element("wcs:requestResponseCRSs", code)
    w.end("wcs:supportedCRSs")
    w.start("wcs:supportedFormats", [("nativeFormat", cov.native_format or "")])
    for fmt in cov.supported_formats:
        w.element("wcs:formats", fmt)
    w.end("wcs:supportedFormats")
    default = cov.default_interpolation_method or "nearest neighbor"
    w.start("wcs:supportedInterpolations", [("default", default)])
    for method in cov.interpolation_methods or [default]:
        w.element("wcs:interpolationMethod", method)
    w.end("wcs:supportedInterpolations")


# -- 1.1.1 ------------------------------------------------------------------------------------


def describe_111(found: list[Described]) -> Document:
    w = XmlWriter()
    w.start(
        "wcs:CoverageDescriptions",
        [
            ("xmlns:wcs", "http://www.opengis.net/wcs/1.1.1"),
            ("xmlns:ows", OWS11),
            ("xmlns:gml", "http://www.opengis.net/gml"),
        ],
    )
    for cov, ident, _ in found:
        w.start("wcs:CoverageDescription")
        w.element("ows:Title", cov.title)
        w.element("ows:Abstract", cov.description or cov.abstract)
        w.element("wcs:Identifier", ident)
        w.start("wcs:Domain")
        w.start("wcs:SpatialDomain")
        caps.wgs84_box(w, cov.latlon_bbox, caps.decimal)
        w.end("wcs:SpatialDomain")
        w.end("wcs:Domain")
        w.start("wcs:Range")
        w.start("wcs:Field")
        w.element("wcs:Identifier", "contents")
        w.element("wcs:InterpolationMethods")
        w.end("wcs:Field")
        w.end("wcs:Range")
        for code in cov.response_srs or [cov.srs or "EPSG:4326"]:
            w.element("wcs:SupportedCRS", f"urn:ogc:def:crs:{code.replace(':', '::')}")
        for fmt in ("image/tiff", "image/png", "image/jpeg", "image/gif"):
            w.element("wcs:SupportedFormat", fmt)
        w.end("wcs:CoverageDescription")
    w.end("wcs:CoverageDescriptions")
    return Document(w.done(), "text/xml")


# -- 2.0.1 ------------------------------------------------------------------------------------


def describe_201(found: list[Described]) -> Document:
    w = XmlWriter()
    w.start(
        "wcs:CoverageDescriptions",
        [
            ("xmlns:wcs", "http://www.opengis.net/wcs/2.0"),
            ("xmlns:gml", "http://www.opengis.net/gml/3.2"),
            ("xmlns:gmlcov", "http://www.opengis.net/gmlcov/1.0"),
            ("xmlns:swe", "http://www.opengis.net/swe/2.0"),
            ("xmlns:ows", OWS20),
        ],
    )
    for cov, ident, _ in found:
        w.start("wcs:CoverageDescription", [("gml:id", ident)])
        _bounded_by_201(w, cov)
        w.element("wcs:CoverageId", ident)
        _range_type_201(w, cov)
        w.start("wcs:ServiceParameters")
        w.element("wcs:CoverageSubtype", "RectifiedGridCoverage")
        w.element("wcs:nativeFormat", "image/tiff")
        w.end("wcs:ServiceParameters")
        w.end("wcs:CoverageDescription")
    w.end("wcs:CoverageDescriptions")
    return Document(w.done(), "application/xml")


def _bounded_by_201(w: XmlWriter, cov: Coverage) -> None:
    """The envelope in the native CRS, latitude first for EPSG:4326."""
    box = cov.native_bbox or cov.latlon_bbox
    if box is None:
        return
    code = (cov.srs or "EPSG:4326").partition(":")[2]
    geographic = cov.srs in (None, "EPSG:4326")
    w.start("gml:boundedBy")
    w.start(
        "gml:Envelope",
        [
            ("srsName", f"http://www.opengis.net/def/crs/EPSG/0/{code}"),
            ("axisLabels", "Lat Long" if geographic else "E N"),
            ("uomLabels", "Deg Deg" if geographic else "m m"),
            ("srsDimension", "2"),
        ],
    )
    lower = (box.miny, box.minx) if geographic else (box.minx, box.miny)
    upper = (box.maxy, box.maxx) if geographic else (box.maxx, box.maxy)
    w.element("gml:lowerCorner", f"{_num(lower[0])} {_num(lower[1])}")
    w.element("gml:upperCorner", f"{_num(upper[0])} {_num(upper[1])}")
    w.end("gml:Envelope")
    w.end("gml:boundedBy")


def _range_type_201(w: XmlWriter, cov: Coverage) -> None:
    w.start("gmlcov:rangeType")
    w.start("swe:DataRecord")
    for dim in cov.dimensions:
        w.start("swe:field", [("name", dim.name)])
        w.start("swe:Quantity")
        w.element("swe:description", dim.description)
        if dim.range_min is not None and dim.range_max is not None:
            w.start("swe:constraint")
            w.start("swe:AllowedValues")
            w.element("swe:interval", f"{_num(dim.range_min)} {_num(dim.range_max)}")
            w.end("swe:AllowedValues")
            w.end("swe:constraint")
        w.end("swe:Quantity")
        w.end("swe:field")
    w.end("swe:DataRecord")
    w.end("gmlcov:rangeType")
