"""The WFS wire formats besides capabilities and feature collections: the DescribeFeatureType
schemas (XML Schema, GeoServer's JSON), the stored-query documents, the Transaction
responses and the exception reports (WFS 1.0.0's ``ServiceExceptionReport``, OWS common for
1.1.0 and 2.0.0)."""

from __future__ import annotations

from typing import Any

from ...wire.json import dumps
from ..catalog.entities import FeatureType
from ..ows import exceptions
from ..ows.collections import WFS_NS
from ..ows.errors import OwsError
from ..ows.exceptions import code_attrs
from ..ows.kvp import Call
from ..ows.results import Document, Report
from ..ows.writer import XmlWriter, text

V100, V110, V200 = "1.0.0", "1.1.0", "2.0.0"
STORED_QUERY = "urn:ogc:def:query:OGC-WFS::GetFeatureById"

XSD_TYPES = {
    "java.lang.String": "xsd:string",
    "java.lang.Integer": "xsd:int",
    "java.lang.Long": "xsd:long",
    "java.lang.Short": "xsd:short",
    "java.lang.Byte": "xsd:byte",
    "java.lang.Double": "xsd:double",
    "java.lang.Float": "xsd:float",
    "java.lang.Boolean": "xsd:boolean",
    "java.math.BigDecimal": "xsd:decimal",
    "java.math.BigInteger": "xsd:integer",
    "java.util.Date": "xsd:dateTime",
    "java.sql.Timestamp": "xsd:dateTime",
    "java.sql.Date": "xsd:date",
    "java.sql.Time": "xsd:time",
}
GEOMETRY_TYPES_3 = {
    "Point": "gml:PointPropertyType",
    "LineString": "gml:LineStringPropertyType",
    "Polygon": "gml:PolygonPropertyType",
    "MultiPoint": "gml:MultiPointPropertyType",
    "MultiLineString": "gml:MultiCurvePropertyType",
    "MultiPolygon": "gml:MultiSurfacePropertyType",
    "Geometry": "gml:GeometryPropertyType",
    "GeometryCollection": "gml:MultiGeometryPropertyType",
}
GEOMETRY_TYPES_2 = {
    **{k: f"gml:{k}PropertyType" for k in ("Point", "LineString", "Polygon", "MultiPoint")},
    "MultiLineString": "gml:MultiLineStringPropertyType",
    "MultiPolygon": "gml:MultiPolygonPropertyType",
    "Geometry": "gml:GeometryPropertyType",
    "GeometryCollection": "gml:GeometryCollectionPropertyType",
}
GML_NS = {
    V100: "http://www.opengis.net/gml",
    V110: "http://www.opengis.net/gml",
    V200: "http://www.opengis.net/gml/3.2",
}
_GML_SCHEMA = {
    V100: "gml/2.1.2/feature.xsd",
    V110: "gml/3.1.1/base/gml.xsd",
    V200: "gml/3.2.1/gml.xsd",
}
_SCHEMA_TYPES = {
    V100: "text/xml",
    V110: "text/xml; subtype=gml/3.1.1",
    V200: "application/gml+xml; version=3.2",
}
_GEOMETRY_PACKAGES = ("org.locationtech.jts.geom.", "com.vividsolutions.jts.geom.")

Described = list[tuple[FeatureType, list[tuple[str, str, bool]]]]
"""each feature type with its (name, binding, nillable) attributes"""


# -- DescribeFeatureType ---------------------------------------------------------------------


def schema_imports(imports: list[tuple[str, str]], version: str) -> Document:
    """A schema importing one schema per namespace: (namespace URI, schema location)."""
    w = XmlWriter()
    w.start("xsd:schema", [("xmlns:xsd", "http://www.w3.org/2001/XMLSchema")])
    for ns, href in imports:
        w.element("xsd:import", None, [("namespace", ns), ("schemaLocation", href)])
    w.end("xsd:schema")
    return Document(w.done(), _SCHEMA_TYPES[version])


def schema_document(
    version: str, prefix: str, uri: str, base: str, described: Described
) -> Document:
    """The XML Schema of feature types of one namespace."""
    gml_ns = GML_NS[version]
    w = XmlWriter()
    w.start(
        "xsd:schema",
        [
            ("xmlns:gml", gml_ns),
            (f"xmlns:{prefix}", uri),
            ("xmlns:xsd", "http://www.w3.org/2001/XMLSchema"),
            ("elementFormDefault", "qualified"),
            ("targetNamespace", uri),
        ],
    )
    location = f"{base}/schemas/{_GML_SCHEMA[version]}"
    w.element("xsd:import", None, [("namespace", gml_ns), ("schemaLocation", location)])
    for ft, attrs in described:
        _complex_type(w, version, prefix, ft, attrs)
    w.end("xsd:schema")
    return Document(w.done(), _SCHEMA_TYPES[version])


def _complex_type(
    w: XmlWriter, version: str, prefix: str, ft: FeatureType, attrs: list[tuple[str, str, bool]]
) -> None:
    geometry_types = GEOMETRY_TYPES_2 if version == V100 else GEOMETRY_TYPES_3
    w.start("xsd:complexType", [("name", f"{ft.name}Type")])
    w.start("xsd:complexContent")
    w.start("xsd:extension", [("base", "gml:AbstractFeatureType")])
    w.start("xsd:sequence")
    for name, binding, nillable in attrs:
        local = binding.rsplit(".", 1)[-1]
        if binding.startswith(_GEOMETRY_PACKAGES):
            xsd = geometry_types.get(local, "gml:GeometryPropertyType")
        else:
            xsd = XSD_TYPES.get(binding, "xsd:string")
        element = [("maxOccurs", "1"), ("minOccurs", "0"), ("name", name)]
        element += [("nillable", "true" if nillable else "false"), ("type", xsd)]
        w.element("xsd:element", None, element)
    w.end("xsd:sequence")
    w.end("xsd:extension")
    w.end("xsd:complexContent")
    w.end("xsd:complexType")
    group = "gml:AbstractFeature" if version == V200 else "gml:_Feature"
    w.element(
        "xsd:element",
        None,
        [("name", ft.name), ("substitutionGroup", group), ("type", f"{prefix}:{ft.name}Type")],
    )


def schema_json(uri: str | None, described: Described) -> Document:
    """GeoServer's JSON description of feature types (the first one's namespace)."""
    out = []
    for ft, attrs in described:
        props = []
        for name, binding, nillable in attrs:
            local = binding.rsplit(".", 1)[-1]
            if binding.startswith(_GEOMETRY_PACKAGES):
                kind, local_type = f"gml:{local}", local
            else:
                kind = XSD_TYPES.get(binding, "xsd:string")
                local_type = kind.split(":")[1]
            prop: dict[str, Any] = {"name": name, "maxOccurs": 1, "minOccurs": 0}
            prop |= {"nillable": nillable, "type": kind, "localType": local_type}
            props.append(prop)
        out.append({"typeName": ft.name, "properties": props})
    doc = {
        "elementFormDefault": "qualified",
        "targetNamespace": uri,
        "targetPrefix": described[0][0].workspace if described else None,
        "featureTypes": out,
    }
    return Document(dumps(doc), "application/json")


# -- stored queries --------------------------------------------------------------------------


def stored_queries(namespaces: dict[str, str], type_names: list[str]) -> Document:
    """ListStoredQueries: GeoServer's one built-in stored query, for ``type_names``."""
    w = XmlWriter()
    ns_attrs = [(f"xmlns:{p}", uri) for p, uri in namespaces.items()]
    w.start("wfs:ListStoredQueriesResponse", [("xmlns:wfs", WFS_NS[V200]), *ns_attrs])
    w.start("wfs:StoredQuery", [("id", STORED_QUERY)])
    w.element("wfs:Title", "Get feature by identifier")
    for name in type_names:
        w.element("wfs:ReturnFeatureType", name)
    w.end("wfs:StoredQuery")
    w.end("wfs:ListStoredQueriesResponse")
    return Document(w.done(), "application/xml")


def stored_query_description() -> Document:
    """DescribeStoredQueries: the built-in ``GetFeatureById``."""
    w = XmlWriter()
    w.start(
        "wfs:DescribeStoredQueriesResponse",
        [("xmlns:wfs", WFS_NS[V200]), ("xmlns:xs", "http://www.w3.org/2001/XMLSchema")],
    )
    w.start("wfs:StoredQueryDescription", [("id", STORED_QUERY)])
    w.element("wfs:Title", "Get feature by identifier")
    w.element(
        "wfs:Abstract",
        "Returns the single feature whose value is equal to the specified value of the ID argument",
    )
    w.start("wfs:Parameter", [("name", "ID"), ("type", "xs:string")])
    w.end("wfs:Parameter")
    w.start(
        "wfs:QueryExpressionText",
        [
            ("isPrivate", "true"),
            ("language", "urn:ogc:def:queryLanguage:OGC-WFS::WFS_QueryExpression"),
            ("returnFeatureTypes", ""),
        ],
    )
    w.end("wfs:QueryExpressionText")
    w.end("wfs:StoredQueryDescription")
    w.end("wfs:DescribeStoredQueriesResponse")
    return Document(w.done(), "application/xml")


# -- Transaction ------------------------------------------------------------------------------


def transaction_response(inserted: list[str], updated: int, deleted: int, version: str) -> Document:
    """The response of a Transaction that succeeded, in ``version``'s form."""
    if version == V100:
        return _transaction_10(inserted)
    w = XmlWriter()
    v2 = version == V200
    w.start(
        "wfs:TransactionResponse",
        [
            ("xmlns:wfs", WFS_NS[version]),
            (
                "xmlns:fes" if v2 else "xmlns:ogc",
                "http://www.opengis.net/fes/2.0" if v2 else "http://www.opengis.net/ogc",
            ),
            ("version", version),
        ],
    )
    w.start("wfs:TransactionSummary")
    w.element("wfs:totalInserted", str(len(inserted)))
    w.element("wfs:totalUpdated", str(updated))
    w.element("wfs:totalDeleted", str(deleted))
    w.end("wfs:TransactionSummary")
    if not v2:
        w.element("wfs:TransactionResults")
    if inserted:
        w.start("wfs:InsertResults")
        for fid in inserted:
            w.start("wfs:Feature")
            if v2:
                w.element("fes:ResourceId", None, [("rid", fid)])
            else:
                w.element("ogc:FeatureId", None, [("fid", fid)])
            w.end("wfs:Feature")
        w.end("wfs:InsertResults")
    w.end("wfs:TransactionResponse")
    return Document(w.done(), "text/xml")


def _transaction_10(inserted: list[str]) -> Document:
    w = XmlWriter()
    w.start(
        "wfs:WFS_TransactionResponse",
        [
            ("version", V100),
            ("xmlns:wfs", WFS_NS[V100]),
            ("xmlns:ogc", "http://www.opengis.net/ogc"),
        ],
    )
    if inserted:
        w.start("wfs:InsertResult")
        for fid in inserted:
            w.element("ogc:FeatureId", None, [("fid", fid)])
        w.end("wfs:InsertResult")
    w.start("wfs:TransactionResult")
    w.start("wfs:Status")
    w.element("wfs:SUCCESS")
    w.end("wfs:Status")
    w.end("wfs:TransactionResult")
    w.end("wfs:WFS_TransactionResponse")
    return Document(w.done(), "text/xml")


# -- exceptions -------------------------------------------------------------------------------


def report(err: OwsError, call: Call) -> Report:
    """WFS 1.0.0's ``ServiceExceptionReport``; OWS common for 1.1.0 and 2.0.0."""
    version = err.version or "1.0.0"
    if version.startswith("1.0"):
        return report_10(err, call.base)
    return exceptions.report(err, "wfs", version, call.base)


def report_10(err: OwsError, base: str) -> Report:
    doc = (
        '<?xml version="1.0" ?>\n<ServiceExceptionReport\n   version="1.2.0"\n'
        '   xmlns="http://www.opengis.net/ogc"\n'
        '   xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"\n'
        '   xsi:schemaLocation="http://www.opengis.net/ogc '
        f'{base}/schemas/wfs/1.0.0/OGC-exception.xsd">\n'
        f"   <ServiceException{code_attrs(err)}>\n{text(err.message)}\n"
        "</ServiceException></ServiceExceptionReport>"
    )
    return Report(doc.encode("utf-8"), "text/xml", 200)
