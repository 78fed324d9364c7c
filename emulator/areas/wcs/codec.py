"""The WCS wire pieces shared by its documents: what 1.0.0 capabilities and descriptions
share, metadata links, 2.0.1 bounds and range type (``describe.py`` writes the
DescribeCoverage documents), and 1.0.0's exception report."""

from __future__ import annotations

from ..catalog.entities import BBox, Coverage
from ..ows import capabilities as caps
from ..ows import published
from ..ows.errors import OwsError
from ..ows.exceptions import code_attrs
from ..ows.kvp import Call
from ..ows.results import Report
from ..ows.writer import XmlWriter, text

XLINK = "http://www.w3.org/1999/xlink"
OWS11 = "http://www.opengis.net/ows/1.1"
OWS20 = "http://www.opengis.net/ows/2.0"

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


# -- 2.0.1 pieces ----------------------------------------------------------------------------


def bounded_by_201(w: XmlWriter, cov: Coverage) -> None:
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


def range_type_201(w: XmlWriter, cov: Coverage) -> None:
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


def legacy_report(err: OwsError) -> Report:
    """WCS 1.0.0's exception report, as GeoServer's ``LegacyServiceExceptionHandler``
    writes it (version 1.2.0, no namespace, ``application/vnd.ogc.se_xml``, HTTP 200)."""
    doc = (
        '<?xml version="1.0" encoding="UTF-8"?><ServiceExceptionReport version="1.2.0" >'
        f"   <ServiceException{code_attrs(err)}>\n      {text(err.message)}\n"
        "</ServiceException></ServiceExceptionReport>"
    )
    return Report(doc.encode("utf-8"), "application/vnd.ogc.se_xml;charset=UTF-8")
