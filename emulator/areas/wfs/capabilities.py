"""WFS 1.0.0, 1.1.0 and 2.0.0 GetCapabilities, as GeoServer's WFS capabilities
transformers write them (the parts a client parses: service identification and provider,
operations with their parameters, the feature type list, filter capabilities)."""

from __future__ import annotations

from ...crs import syntax
from ...wire.geoserver.java import number_text as java_number
from ..catalog.entities import FeatureType
from ..ows import capabilities as caps
from ..ows import published, sources
from ..ows.kvp import Call
from ..ows.model import View
from ..ows.writer import XmlWriter

V100, V110, V200 = "1.0.0", "1.1.0", "2.0.0"
VERSIONS = (V100, V110, V200)

GETFEATURE_FORMATS_20 = (
    "application/gml+xml; version=3.2",
    "GML2",
    "KML",
    "SHAPE-ZIP",
    "application/json",
    "application/vnd.google-earth.kml xml",
    "application/vnd.google-earth.kml+xml",
    "csv",
    "gml3",
    "gml32",
    "json",
    "text/csv",
    "text/xml; subtype=gml/2.1.2",
    "text/xml; subtype=gml/3.1.1",
    "text/xml; subtype=gml/3.2",
)
GETFEATURE_FORMATS_11 = (
    "text/xml; subtype=gml/3.1.1",
    "GML2",
    "KML",
    "SHAPE-ZIP",
    "application/gml+xml; version=3.2",
    "application/json",
    "application/vnd.google-earth.kml xml",
    "application/vnd.google-earth.kml+xml",
    "csv",
    "gml3",
    "gml32",
    "json",
    "text/csv",
    "text/xml; subtype=gml/2.1.2",
    "text/xml; subtype=gml/3.2",
)
COMPARISONS = (
    "PropertyIsEqualTo",
    "PropertyIsNotEqualTo",
    "PropertyIsLessThan",
    "PropertyIsGreaterThan",
    "PropertyIsLessThanOrEqualTo",
    "PropertyIsGreaterThanOrEqualTo",
    "PropertyIsLike",
    "PropertyIsNull",
    "PropertyIsBetween",
)
SPATIAL = (
    "BBOX",
    "Equals",
    "Disjoint",
    "Intersects",
    "Touches",
    "Crosses",
    "Within",
    "Contains",
    "Overlaps",
    "Beyond",
    "DWithin",
)


OWS_NAMESPACES = {
    V200: [
        ("xmlns:wfs", "http://www.opengis.net/wfs/2.0"),
        ("xmlns", "http://www.opengis.net/wfs/2.0"),
        ("xmlns:ows", "http://www.opengis.net/ows/1.1"),
        ("xmlns:gml", "http://www.opengis.net/gml/3.2"),
        ("xmlns:fes", "http://www.opengis.net/fes/2.0"),
        ("xmlns:xlink", "http://www.w3.org/1999/xlink"),
        ("xmlns:xs", "http://www.w3.org/2001/XMLSchema"),
        ("xmlns:xsi", "http://www.w3.org/2001/XMLSchema-instance"),
    ],
    V110: [
        ("xmlns", "http://www.opengis.net/wfs"),
        ("xmlns:wfs", "http://www.opengis.net/wfs"),
        ("xmlns:ows", "http://www.opengis.net/ows"),
        ("xmlns:gml", "http://www.opengis.net/gml"),
        ("xmlns:ogc", "http://www.opengis.net/ogc"),
        ("xmlns:xlink", "http://www.w3.org/1999/xlink"),
        ("xmlns:xsi", "http://www.w3.org/2001/XMLSchema-instance"),
    ],
}
"""the namespaces of the OWS common documents, in GeoServer's order"""
SCHEMAS = {V110: "wfs/1.1.0/wfs.xsd", V200: "wfs/2.0/wfs.xsd"}


def ns_wfs(version: str) -> str:
    return "http://www.opengis.net/wfs/2.0" if version == V200 else "http://www.opengis.net/wfs"


WFS11_LINK_TYPES = frozenset({"TC211", "FGDC", "19115", "13139"})
WFS11_LINK_FORMATS = frozenset({"text/xml", "text/html", "text/sgml", "text/plain"})


def negotiate(requested: str | None, enabled: list[str]) -> str:
    known = [v for v in VERSIONS if v in enabled] or list(VERSIONS)
    if not requested:
        return known[-1]
    for candidate in [v.strip() for v in requested.split(",")]:
        if candidate in known:
            return candidate
    return known[-1]


def feature_types(view: View) -> list[FeatureType]:
    """The feature types a WFS caller sees, by prefixed name."""
    out = []
    for layer in view.layers(maps=False):
        res = view.resource(layer)
        if isinstance(res, FeatureType):
            out.append(res)
    return sorted(out, key=lambda r: (r.workspace, r.name))


class WfsCapabilities:
    def __init__(self, view: View, call: Call, version: str) -> None:
        self.view, self.call, self.version = view, call, version
        self.service = sources.service(view.state, sources.WFS, view.workspace)
        self.contact = sources.contact(view.state, view.workspace)
        namespace = call.get("NAMESPACE")
        self.types = [t for t in feature_types(view) if not namespace or t.workspace == namespace]
        """the feature types listed: all, or those of the prefix ``NAMESPACE`` names"""
        self.w = XmlWriter()
        self.href = call.service_url("wfs")
        accept = call.get("AcceptLanguages") if version == V200 else None
        self.languages = published.wanted_languages(accept)

    def _ns_attrs(self) -> list[tuple[str, str]]:
        prefixes = sorted({t.workspace for t in self.types})
        out = []
        for prefix in prefixes:
            ns = self.view.catalog.namespaces.get(prefix)
            if ns is not None:
                out.append((f"xmlns:{prefix}", ns.uri))
        return out

    def write(self) -> bytes:
        if self.languages:
            found = published.holders(self.service, [], list(self.types))
            published.check_languages(self.languages, found)
        seq = str(sources.update_sequence(self.view.state))
        if self.version == V100:
            self._v100(seq)
        else:
            self._ows(seq)
        return self.w.done()

    # -- 1.0.0 -------------------------------------------------------------------------

    def _v100(self, seq: str) -> None:
        w, base = self.w, self.call.base
        w.start(
            "WFS_Capabilities",
            [
                ("version", V100),
                ("xmlns", "http://www.opengis.net/wfs"),
                *self._ns_attrs(),
                ("xmlns:ogc", "http://www.opengis.net/ogc"),
                ("xmlns:xsi", "http://www.w3.org/2001/XMLSchema-instance"),
                (
                    "xsi:schemaLocation",
                    f"http://www.opengis.net/wfs {base}/schemas/wfs/1.0.0/WFS-capabilities.xsd",
                ),
                ("updateSequence", seq),
            ],
        )
        self._service_10()
        self._capability_10()
        self._types_10()
        self._filter_10()
        w.end("WFS_Capabilities")

    def _service_10(self) -> None:
        w, s, base = self.w, self.service, self.call.base
        w.start("Service")
        w.element("Name", "WFS")
        w.element("Title", s.get("title"))
        w.element("Abstract", s.get("abstrct"))
        w.element("Keywords", ", ".join(published.keyword_values(s.get("keywords") or [])))
        w.element("OnlineResource", s.get("onlineResource") or base)
        w.element("Fees", s.get("fees"))
        w.element("AccessConstraints", s.get("accessConstraints"))
        w.end("Service")

    def _capability_10(self) -> None:
        w = self.w
        w.start("Capability")
        w.start("Request")
        for op in ("GetCapabilities", "DescribeFeatureType", "GetFeature"):
            w.start(op)
            if op == "DescribeFeatureType":
                w.start("SchemaDescriptionLanguage")
                w.element("XMLSCHEMA")
                w.end("SchemaDescriptionLanguage")
            if op == "GetFeature":
                w.start("ResultFormat")
                for fmt in ("GML2", "GML3", "SHAPE-ZIP", "CSV", "JSON", "KML"):
                    w.element(fmt)
                w.end("ResultFormat")
            get = self.call.service_url("wfs", [("request", op)])
            for method, target in (("Get", get), ("Post", self.href)):
                w.start("DCPType")
                w.start("HTTP")
                w.element(method, None, [("onlineResource", target)])
                w.end("HTTP")
                w.end("DCPType")
            w.end(op)
        w.end("Request")
        w.end("Capability")

    def _types_10(self) -> None:
        w = self.w
        w.start("FeatureTypeList")
        w.start("Operations")
        for op in ("Query", "Insert", "Update", "Delete", "Lock"):
            w.element(op)
        w.end("Operations")
        for ft in self.types:
            w.start("FeatureType")
            w.element("Name", self._name(ft))
            w.element("Title", ft.title)
            w.element("Abstract", ft.abstract)
            w.element("Keywords", ", ".join(published.keyword_values(ft.keywords)))
            w.element("SRS", ft.srs)
            box = ft.latlon_bbox
            if box is not None:
                w.element(
                    "LatLongBoundingBox",
                    None,
                    [
                        ("minx", java_number(box.minx)),
                        ("miny", java_number(box.miny)),
                        ("maxx", java_number(box.maxx)),
                        ("maxy", java_number(box.maxy)),
                    ],
                )
            w.end("FeatureType")
        w.end("FeatureTypeList")

    def _filter_10(self) -> None:
        w = self.w
        w.start("ogc:Filter_Capabilities")
        w.start("ogc:Spatial_Capabilities")
        w.start("ogc:Spatial_Operators")
        for op in (
            "Disjoint",
            "Equals",
            "DWithin",
            "Beyond",
            "Intersect",
            "Touches",
            "Crosses",
            "Within",
            "Contains",
            "Overlaps",
            "BBOX",
        ):
            w.element(f"ogc:{op}")
        w.end("ogc:Spatial_Operators")
        w.end("ogc:Spatial_Capabilities")
        w.start("ogc:Scalar_Capabilities")
        w.element("ogc:Logical_Operators")
        w.start("ogc:Comparison_Operators")
        for op in ("Simple_Comparisons", "Between", "Like", "NullCheck"):
            w.element(f"ogc:{op}")
        w.end("ogc:Comparison_Operators")
        w.start("ogc:Arithmetic_Operators")
        w.element("ogc:Simple_Arithmetic")
        w.end("ogc:Arithmetic_Operators")
        w.end("ogc:Scalar_Capabilities")
        w.end("ogc:Filter_Capabilities")

    # -- 1.1.0 and 2.0.0 (OWS common) -----------------------------------------------------

    def _ows(self, seq: str) -> None:
        w, base = self.w, self.call.base
        v2 = self.version == V200
        ns = OWS_NAMESPACES[self.version] + [
            ("xsi:schemaLocation", f"{ns_wfs(self.version)} {base}/schemas/{SCHEMAS[self.version]}")
        ]
        w.start(
            "wfs:WFS_Capabilities",
            [("version", self.version), *ns, *self._ns_attrs(), ("updateSequence", seq)],
        )
        self._identification()
        caps.provider(w, self.contact, full=True)
        self._operations(v2)
        w.start("FeatureTypeList")
        if not v2:
            w.start("Operations")
            for op in ("Query", "Insert", "Update", "Delete", "Lock"):
                w.element("Operation", op)
            w.end("Operations")
        for ft in self.types:
            self._feature_type(ft, v2)
        w.end("FeatureTypeList")
        if v2:
            self._filter_20()
        else:
            self._filter_11()
        w.end("wfs:WFS_Capabilities")

    def _feature_type(self, ft: FeatureType, v2: bool) -> None:
        """One ``FeatureType`` of the 1.1.0 or 2.0.0 list."""
        w, langs = self.w, self.languages
        w.start("FeatureType")
        w.element("Name", self._name(ft))
        w.element("Title", published.text_for(langs, ft, "internationalTitle", ft.title))
        w.element("Abstract", published.text_for(langs, ft, "internationalAbstract", ft.abstract))
        caps.keywords(w, published.keyword_values(ft.keywords, langs))
        version = "2.0.0" if v2 else "1.1.0"
        style = syntax.style_of(self.service.get("gml"), version)
        default = syntax.spell(ft.srs or "EPSG:4326", style)
        w.element("DefaultCRS" if v2 else "DefaultSRS", default)
        for other in self._other_srs(ft):
            spelled = syntax.spell(other, style)
            if spelled != default:
                w.element("OtherCRS" if v2 else "OtherSRS", spelled)
        w.start("OutputFormats")
        w.element(
            "Format", "application/gml+xml; version=3.2" if v2 else "text/xml; subtype=gml/3.1.1"
        )
        w.end("OutputFormats")
        caps.wgs84_box(w, ft.latlon_bbox)
        self._metadata_urls(ft, v2)
        w.end("FeatureType")

    def _other_srs(self, ft: FeatureType) -> list[str]:
        """The type's other CRSs: its own ``responseSRS`` when it overrides the service's
        (``overridingServiceSRS``), else the WFS settings' ``srs`` list."""
        if ft.extras.get("overridingServiceSRS") in (True, "true"):
            found = ft.extras.get("responseSRS")
        else:
            found = self.service.get("srs")
        return [str(c) for c in found or [] if c]

    def _metadata_urls(self, ft: FeatureType, v2: bool) -> None:
        """1.1.0: ``MetadataURL`` with ``type`` and ``format``, only for the types and formats
        the 1.1 schema allows (``ISO19115:2003`` written ``19115``); 2.0.0: an xlink."""
        for link in published.metadata_links(ft):
            href = self.call.absolute(link.href)
            if v2:
                self.w.element("MetadataURL", None, [("xlink:href", href)])
                continue
            kind = "19115" if link.metadata_type == "ISO19115:2003" else link.metadata_type
            if link.format not in WFS11_LINK_FORMATS or kind not in WFS11_LINK_TYPES:
                continue
            self.w.element("MetadataURL", href, [("type", kind), ("format", link.format)])

    def _name(self, ft: FeatureType) -> str:
        return ft.name if self.view.workspace is not None else f"{ft.workspace}:{ft.name}"

    def _identification(self) -> None:
        s, langs = self.service, self.languages
        ident = caps.Identification(
            published.text_for(langs, s, "internationalTitle", s.get("title")),
            published.text_for(langs, s, "internationalAbstract", s.get("abstrct")),
            published.keyword_values(s.get("keywords") or [], langs),
            [("ows:ServiceType", "WFS", None), ("ows:ServiceTypeVersion", self.version, None)],
            s.get("fees"),
            s.get("accessConstraints"),
        )
        caps.identification(self.w, ident)

    def _operation(
        self, name: str, params: list[tuple[str, tuple[str, ...]]], post: bool = True
    ) -> None:
        href = self.href
        v2 = self.version == V200
        caps.operation(self.w, name, href, href if post else None, params, allowed_values=v2)

    def _operations(self, v2: bool) -> None:
        w = self.w
        enabled = [v for v in VERSIONS if v in (self.service.get("versions") or VERSIONS)]
        gml = "application/gml+xml; version=3.2" if v2 else "text/xml; subtype=gml/3.1.1"
        w.start("ows:OperationsMetadata")
        self._operation(
            "GetCapabilities",
            [
                ("AcceptVersions", tuple(enabled)),
                ("AcceptFormats", ("text/xml",)),
                (
                    "Sections",
                    (
                        "ServiceIdentification",
                        "ServiceProvider",
                        "OperationsMetadata",
                        "FeatureTypeList",
                        "Filter_Capabilities",
                    ),
                ),
            ],
        )
        self._operation("DescribeFeatureType", [("outputFormat", (gml,))])
        formats = GETFEATURE_FORMATS_20 if v2 else GETFEATURE_FORMATS_11
        self._operation(
            "GetFeature", [("resultType", ("results", "hits")), ("outputFormat", formats)]
        )
        if v2:
            self._operation(
                "GetPropertyValue", [("resolve", ("none", "local")), ("outputFormat", (gml,))]
            )
            self._operation("ListStoredQueries", [])
            self._operation("DescribeStoredQueries", [])
            self._operation(
                "CreateStoredQuery",
                [("language", ("urn:ogc:def:queryLanguage:OGC-WFS::WFSQueryExpression",))],
            )
            self._operation("DropStoredQuery", [])
        else:
            self._operation("GetGmlObject", [])
        self._operation("LockFeature", [("releaseAction", ("ALL", "SOME"))])
        self._operation("GetFeatureWithLock", [("releaseAction", ("ALL", "SOME"))])
        self._operation(
            "Transaction",
            [
                ("inputFormat", (gml,)),
                ("idgen", ("GenerateNew", "UseExisting", "ReplaceDuplicate")),
                ("releaseAction", ("ALL", "SOME")),
            ],
        )
        if v2:
            for name, value in (
                ("ImplementsBasicWFS", "TRUE"),
                ("ImplementsTransactionalWFS", "TRUE"),
                ("ImplementsLockingWFS", "TRUE"),
                ("KVPEncoding", "TRUE"),
                ("XMLEncoding", "TRUE"),
                ("SOAPEncoding", "TRUE"),
                ("ImplementsInheritance", "FALSE"),
                ("ImplementsRemoteResolve", "FALSE"),
                ("ImplementsResultPaging", "TRUE"),
                ("ImplementsStandardJoins", "TRUE"),
                ("ImplementsSpatialJoins", "TRUE"),
                ("ImplementsTemporalJoins", "TRUE"),
                ("ImplementsFeatureVersioning", "FALSE"),
                ("ManageStoredQueries", "TRUE"),
            ):
                caps.constraint(w, "ows:Constraint", name, value)
            count = str(self.service.get("maxFeatures") or 1000000)
            caps.constraint(w, "ows:Constraint", "CountDefault", count)
        w.end("ows:OperationsMetadata")

    def _filter_11(self) -> None:
        w = self.w
        w.start("ogc:Filter_Capabilities")
        w.start("ogc:Spatial_Capabilities")
        w.start("ogc:GeometryOperands")
        for g in ("gml:Envelope", "gml:Point", "gml:LineString", "gml:Polygon"):
            w.element("ogc:GeometryOperand", g)
        w.end("ogc:GeometryOperands")
        w.start("ogc:SpatialOperators")
        for op in SPATIAL:
            w.element("ogc:SpatialOperator", None, [("name", op)])
        w.end("ogc:SpatialOperators")
        w.end("ogc:Spatial_Capabilities")
        w.start("ogc:Scalar_Capabilities")
        w.element("ogc:LogicalOperators")
        w.start("ogc:ComparisonOperators")
        for op in (
            "LessThan",
            "GreaterThan",
            "LessThanEqualTo",
            "GreaterThanEqualTo",
            "EqualTo",
            "NotEqualTo",
            "Like",
            "Between",
            "NullCheck",
        ):
            w.element("ogc:ComparisonOperator", op)
        w.end("ogc:ComparisonOperators")
        w.start("ogc:ArithmeticOperators")
        w.element("ogc:SimpleArithmetic")
        w.end("ogc:ArithmeticOperators")
        w.end("ogc:Scalar_Capabilities")
        w.start("ogc:Id_Capabilities")
        w.element("ogc:FID")
        w.element("ogc:EID")
        w.end("ogc:Id_Capabilities")
        w.end("ogc:Filter_Capabilities")

    def _filter_20(self) -> None:
        w = self.w
        w.start("fes:Filter_Capabilities")
        w.start("fes:Conformance")
        for name, value in (
            ("ImplementsQuery", "TRUE"),
            ("ImplementsAdHocQuery", "TRUE"),
            ("ImplementsFunctions", "TRUE"),
            ("ImplementsResourceId", "TRUE"),
            ("ImplementsMinStandardFilter", "TRUE"),
            ("ImplementsStandardFilter", "TRUE"),
            ("ImplementsMinSpatialFilter", "TRUE"),
            ("ImplementsSpatialFilter", "TRUE"),
            ("ImplementsMinTemporalFilter", "TRUE"),
            ("ImplementsTemporalFilter", "TRUE"),
            ("ImplementsVersionNav", "FALSE"),
            ("ImplementsSorting", "TRUE"),
            ("ImplementsExtendedOperators", "FALSE"),
            ("ImplementsMinimumXPath", "TRUE"),
            ("ImplementsSchemaElementFunc", "FALSE"),
        ):
            caps.constraint(w, "fes:Constraint", name, value)
        w.end("fes:Conformance")
        w.start("fes:Id_Capabilities")
        w.element("fes:ResourceIdentifier", None, [("name", "fes:ResourceId")])
        w.end("fes:Id_Capabilities")
        w.start("fes:Scalar_Capabilities")
        w.element("fes:LogicalOperators")
        w.start("fes:ComparisonOperators")
        for op in COMPARISONS:
            w.element("fes:ComparisonOperator", None, [("name", op)])
        w.end("fes:ComparisonOperators")
        w.end("fes:Scalar_Capabilities")
        w.start("fes:Spatial_Capabilities")
        w.start("fes:GeometryOperands")
        for g in (
            "gml:Envelope",
            "gml:Point",
            "gml:MultiPoint",
            "gml:LineString",
            "gml:MultiLineString",
            "gml:Polygon",
            "gml:MultiPolygon",
            "gml:MultiGeometry",
        ):
            w.element("fes:GeometryOperand", None, [("name", g)])
        w.end("fes:GeometryOperands")
        w.start("fes:SpatialOperators")
        for op in SPATIAL:
            w.element("fes:SpatialOperator", None, [("name", op)])
        w.end("fes:SpatialOperators")
        w.end("fes:Spatial_Capabilities")
        w.end("fes:Filter_Capabilities")


def write(view: View, call: Call, version: str) -> bytes:
    return WfsCapabilities(view, call, version).write()
