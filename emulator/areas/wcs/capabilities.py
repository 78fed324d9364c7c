"""WCS GetCapabilities: 1.0.0 ``WCS_Capabilities`` (Service, Capability, ContentMetadata)
and the OWS common documents of 1.1.1 and 2.0.1 (identification, provider, operations,
2.0.1 service metadata, a ``CoverageSummary`` per coverage), section by section.

``Context`` holds what every section reads; a coverage's summary is a function of the
coverage, its identifier, the version, the languages and the call's base URL.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

from ...crs import lists
from ..catalog.entities import Coverage
from ..ows import capabilities as caps
from ..ows import published
from ..ows.errors import OwsError
from ..ows.kvp import Call, appendable
from ..ows.writer import XmlWriter
from . import codec

V100, V111, V201 = "1.0.0", "1.1.1", "2.0.1"
XLINK = codec.XLINK
FORMATS_20 = ("application/gml+xml", "image/tiff", "image/png", "image/jpeg", "text/plain")
OPERATIONS = ("GetCapabilities", "DescribeCoverage", "GetCoverage")


class Context(NamedTuple):
    call: Call
    version: str
    service: Mapping[str, Any]
    """the WCS settings"""
    contact: Mapping[str, Any]
    sequence: str
    languages: list[str]
    """the ``AcceptLanguages`` asked for (2.0.1)"""
    sections: frozenset[str] | None = None
    """the sections written (``sections``); None: all"""

    @property
    def href(self) -> str:
        """The service's URL, appendable (``?`` or ``&`` last), with the requested
        language, as GeoServer writes each operation's links."""
        return appendable(self.call.service_url("wcs"))

    def wants(self, section: str) -> bool:
        return self.sections is None or section in self.sections


SECTIONS_10 = {
    "/": None,
    "/WCS_Capabilities/Service": "Service",
    "/WCS_Capabilities/Capability": "Capability",
    "/WCS_Capabilities/ContentMetadata": "ContentMetadata",
}
"""1.0.0 ``SECTION`` values and the element each names (``/``: the whole document)"""
SECTIONS_OWS = {
    V111: ("ServiceIdentification", "ServiceProvider", "OperationsMetadata", "Contents"),
    V201: (
        "ServiceIdentification",
        "ServiceProvider",
        "OperationsMetadata",
        "ServiceMetadata",
        "Contents",
        "Languages",
    ),
}


def sections(call: Call, version: str) -> frozenset[str] | None:
    """The sections a GetCapabilities asks for (None: all), refused as GeoServer refuses an
    unknown one: 1.0.0's ``SECTION`` by its key-value parser (whatever the version),
    1.1.1's and 2.0.1's ``SECTIONS`` by the capabilities transformer."""
    one = call.get("SECTION")
    if one is not None and one not in SECTIONS_10:
        raise OwsError(f"Could not find section '{one}'", "InvalidParameterValue", "section")
    if version == V100:
        found = SECTIONS_10.get(one or "/")
        return None if found is None else frozenset({found})
    listed = call.get("SECTIONS")
    if listed is None:
        return None
    names = listed.split(",")
    for name in names:
        if name != "All" and name not in SECTIONS_OWS[version]:
            raise OwsError(f"Unknown section {name}", "InvalidParameterValue", "Sections")
    return None if "All" in names else frozenset(names)


Listed = list[tuple[Coverage, str]]
"""each coverage with its identifier in the version's form"""


def write(ctx: Context, covs: Listed) -> bytes:
    w = XmlWriter()
    if ctx.version == V100:
        _v100(w, ctx, covs)
    else:
        _ows(w, ctx, covs)
    return w.done()


# -- 1.0.0 ------------------------------------------------------------------------------------


def _v100(w: XmlWriter, ctx: Context, covs: Listed) -> None:
    schema = f"http://www.opengis.net/wcs {ctx.call.base}/schemas/wcs/1.0.0/wcsCapabilities.xsd"
    w.start(
        "wcs:WCS_Capabilities",
        [
            ("version", V100),
            ("updateSequence", ctx.sequence),
            ("xmlns:wcs", "http://www.opengis.net/wcs"),
            ("xmlns:xlink", XLINK),
            ("xmlns:gml", "http://www.opengis.net/gml"),
            ("xmlns:xsi", "http://www.w3.org/2001/XMLSchema-instance"),
            ("xsi:schemaLocation", schema),
        ],
    )
    if ctx.wants("Service"):
        _service_10(w, ctx)
    if ctx.wants("Capability"):
        _capability_10(w, ctx)
    if ctx.wants("ContentMetadata"):
        w.start("wcs:ContentMetadata")
        for cov, ident in covs:
            w.start("wcs:CoverageOfferingBrief")
            codec.brief_10(w, ctx.call, cov, ident, offering=False)
            w.end("wcs:CoverageOfferingBrief")
        w.end("wcs:ContentMetadata")
    w.end("wcs:WCS_Capabilities")


def _service_10(w: XmlWriter, ctx: Context) -> None:
    s, contact = ctx.service, ctx.contact
    w.start("wcs:Service")
    w.element("wcs:description", s.get("abstrct"))
    w.element("wcs:name", "WCS")
    w.element("wcs:label", s.get("title"))
    w.start("wcs:keywords")
    for kw in published.keyword_values(s.get("keywords") or []):
        w.element("wcs:keyword", kw)
    w.end("wcs:keywords")
    w.start("wcs:responsibleParty")
    w.element("wcs:individualName", contact.get("contactPerson"))
    w.element("wcs:organisationName", contact.get("contactOrganization"))
    w.element("wcs:positionName", contact.get("contactPosition"))
    w.end("wcs:responsibleParty")
    w.element("wcs:fees", s.get("fees"))
    w.element("wcs:accessConstraints", s.get("accessConstraints"))
    w.end("wcs:Service")


def _capability_10(w: XmlWriter, ctx: Context) -> None:
    w.start("wcs:Capability")
    w.start("wcs:Request")
    for op in OPERATIONS:
        w.start(f"wcs:{op}")
        for method, href in (("Get", ctx.href), ("Post", ctx.href)):
            w.start("wcs:DCPType")
            w.start("wcs:HTTP")
            w.start(f"wcs:{method}")
            w.element("wcs:OnlineResource", None, [("xlink:href", href)])
            w.end(f"wcs:{method}")
            w.end("wcs:HTTP")
            w.end("wcs:DCPType")
        w.end(f"wcs:{op}")
    w.end("wcs:Request")
    w.start("wcs:Exception")
    w.element("wcs:Format", "application/vnd.ogc.se_xml")
    w.end("wcs:Exception")
    w.end("wcs:Capability")


# -- 1.1.1 and 2.0.1 (OWS common) -----------------------------------------------------------


def _ows(w: XmlWriter, ctx: Context, covs: Listed) -> None:
    v2 = ctx.version == V201
    wcs_ns = "http://www.opengis.net/wcs/2.0" if v2 else "http://www.opengis.net/wcs/1.1.1"
    schema = "2.0/wcsAll.xsd" if v2 else "1.1.1/wcsGetCapabilities.xsd"
    w.start(
        "wcs:Capabilities",
        [
            ("version", ctx.version),
            ("updateSequence", ctx.sequence),
            ("xmlns:wcs", wcs_ns),
            ("xmlns:ows", codec.OWS20 if v2 else codec.OWS11),
            ("xmlns:xlink", XLINK),
            ("xmlns:gml", "http://www.opengis.net/gml/3.2" if v2 else "http://www.opengis.net/gml"),
            *([("xmlns:int", INT_NS), ("xmlns:crs", CRS_NS)] if v2 else []),
            ("xmlns:xsi", "http://www.w3.org/2001/XMLSchema-instance"),
            ("xsi:schemaLocation", f"{wcs_ns} {ctx.call.base}/schemas/wcs/{schema}"),
        ],
    )
    if ctx.wants("ServiceIdentification"):
        caps.identification(w, _identification(ctx))
    if ctx.wants("ServiceProvider"):
        caps.provider(w, ctx.contact)
    if ctx.wants("OperationsMetadata"):
        w.start("ows:OperationsMetadata")
        for op in OPERATIONS:
            caps.operation(w, op, ctx.href, ctx.href)
        w.end("ows:OperationsMetadata")
    if v2 and ctx.wants("ServiceMetadata"):
        w.start("wcs:ServiceMetadata")
        for fmt in FORMATS_20:
            w.element("wcs:formatSupported", fmt)
        _extension(w, ctx.service.get("srs") or [])
        w.end("wcs:ServiceMetadata")
    if ctx.wants("Contents"):
        w.start("wcs:Contents")
        for cov, ident in covs:
            coverage_summary(w, ctx.call, cov, ident, ctx.version, ctx.languages)
        w.end("wcs:Contents")
    w.end("wcs:Capabilities")


INT_NS = "https://www.opengis.net/wcs/interpolation/1.0"
CRS_NS = "http://www.opengis.net/wcs/crs/1.0"
INTERPOLATIONS = ("nearest-neighbor", "linear", "cubic")


def _extension(w: XmlWriter, limited: list[str]) -> None:
    """2.0.1's service extensions: the CRS extension's supported CRSs (the WCS settings'
    ``srs`` list, else the whole database, as ``http://www.opengis.net/def/crs/EPSG/0/n``)
    and the interpolation extension's methods."""
    w.start("wcs:Extension")
    w.start("crs:CrsMetadata")
    if limited:
        for code in limited:
            authority, _, number = code.rpartition(":")
            url = f"http://www.opengis.net/def/crs/{authority or 'EPSG'}/0/{number}"
            w.element("crs:crsSupported", url)
    else:
        w.raw(lists.block(lists.WCS_20, "crs:crsSupported", w.depth, w.indent))
    w.end("crs:CrsMetadata")
    w.start("int:InterpolationMetadata")
    for method in INTERPOLATIONS:
        w.element(
            "int:InterpolationSupported", f"http://www.opengis.net/def/interpolation/OGC/1/{method}"
        )
    w.end("int:InterpolationMetadata")
    w.end("wcs:Extension")


def _identification(ctx: Context) -> caps.Identification:
    s, langs, v2 = ctx.service, ctx.languages, ctx.version == V201
    types: list[tuple[str, str, Any]]
    if v2:
        types = [("ows:ServiceType", "urn:ogc:service:wcs", [("codeSpace", "OGC")])]
        types += [("ows:ServiceTypeVersion", v, None) for v in (V201, V111, "1.1.0")]
        types += [
            ("ows:Profile", "http://www.opengis.net/spec/WCS/2.0/conf/core", None),
            ("ows:Profile", "http://www.opengis.net/spec/WCS_protocol-binding_get-kvp/1.0.1", None),
        ]
    else:
        types = [("ows:ServiceType", "WCS", None)]
        types += [("ows:ServiceTypeVersion", v, None) for v in ("1.1.0", V111)]
    return caps.Identification(
        published.text_for(langs, s, "internationalTitle", s.get("title")),
        published.text_for(langs, s, "internationalAbstract", s.get("abstrct")),
        published.keyword_values(s.get("keywords") or [], langs),
        types,
        s.get("fees"),
        s.get("accessConstraints"),
        keywords_always=not v2,
    )


def coverage_summary(
    w: XmlWriter, call: Call, cov: Coverage, ident: str, version: str, languages: list[str]
) -> None:
    """One ``wcs:CoverageSummary`` (1.1.1 or 2.0.1). GeoServer leaves an empty title or
    abstract out (and 2.0.1 an empty keyword list)."""
    v2 = version == V201
    w.start("wcs:CoverageSummary")
    title = published.text_for(languages, cov, "internationalTitle", cov.title)
    if title:
        w.element("ows:Title", title)
    abstract = published.text_for(
        languages, cov, "internationalAbstract", cov.description or cov.abstract
    )
    if abstract:
        w.element("ows:Abstract", abstract)
    caps.keywords(w, published.keyword_values(cov.keywords, languages), always=not v2)
    if v2:
        w.element("wcs:CoverageId", ident)
        w.element("wcs:CoverageSubtype", "RectifiedGridCoverage")
        caps.wgs84_box(w, cov.latlon_bbox, caps.decimal)
        codec.metadata_links_ows(w, call, cov)
    else:
        codec.metadata_links_ows(w, call, cov)
        caps.wgs84_box(w, cov.latlon_bbox, caps.decimal)
        w.element("wcs:Identifier", ident)
    w.end("wcs:CoverageSummary")
