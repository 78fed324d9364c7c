"""The WFS operations: GetCapabilities, DescribeFeatureType, GetFeature (GML 2, 3.1, 3.2
and GeoJSON), ListStoredQueries and DescribeStoredQueries."""

from __future__ import annotations

from typing import Any

from starlette.responses import Response

from ...core.errors import EmulatorError
from ...filters import ogc_xml
from ...wire.json import dumps
from ..catalog.entities import FeatureType
from ..ows import gml, sources
from ..ows.errors import INVALID, MISSING, NOT_SUPPORTED, OwsError
from ..ows.kvp import Call, bbox_numbers
from ..ows.model import View
from ..ows.writer import XmlWriter, attr
from . import capabilities as wfs_capabilities
from . import query as wfs_query

V100, V110, V200 = wfs_capabilities.VERSIONS

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
WFS_NS = {
    V100: "http://www.opengis.net/wfs",
    V110: "http://www.opengis.net/wfs",
    V200: "http://www.opengis.net/wfs/2.0",
}
JSON_FORMATS = ("application/json", "json", "application/geo+json", "text/javascript")
GML_FORMATS = {
    "gml2": "gml2",
    "text/xml; subtype=gml/2.1.2": "gml2",
    "gml3": "gml31",
    "text/xml; subtype=gml/3.1.1": "gml31",
    "gml32": "gml32",
    "text/xml; subtype=gml/3.2": "gml32",
    "application/gml+xml; version=3.2": "gml32",
}
CONTENT_TYPES = {
    "gml2": "text/xml; subtype=gml/2.1.2",
    "gml31": "text/xml; subtype=gml/3.1.1",
    "gml32": "application/gml+xml; version=3.2",
}
STORED_QUERY = "urn:ogc:def:query:OGC-WFS::GetFeatureById"


def _version(view: View, call: Call) -> str:
    settings = sources.service(view.state, sources.WFS, view.workspace)
    enabled = list(settings.get("versions") or wfs_capabilities.VERSIONS)
    asked = call.version
    if call.request == "GetCapabilities":
        return wfs_capabilities.negotiate(call.get("ACCEPTVERSIONS") or asked, enabled)
    if not asked:
        return V110 if call.request != "ListStoredQueries" else V200
    if asked not in wfs_capabilities.VERSIONS:
        raise OwsError(f"Invalid version: {asked}", INVALID, "version")
    return asked


def get_capabilities(view: View, call: Call) -> Response:
    version = _version(view, call)
    call.version = version
    return Response(wfs_capabilities.write(view, call, version), 200, media_type="text/xml")


# -- DescribeFeatureType ------------------------------------------------------------------


def _types(view: View, call: Call, required: bool) -> list[FeatureType]:
    names = call.get("TYPENAMES") or call.get("TYPENAME")
    if not names:
        if required:
            raise OwsError(
                "The query should specify either typeName, featureId filter or a stored query id",
                MISSING,
                "typeName",
            )
        return wfs_capabilities.feature_types(view)
    return wfs_query.resolve_types(view, names, "typeName")


def describe_feature_type(view: View, call: Call) -> Response:
    version = _version(view, call)
    call.version = version
    types = _types(view, call, required=False)
    fmt = call.get("OUTPUTFORMAT")
    if fmt in ("application/json", "json"):
        return Response(dumps(_describe_json(view, types)), 200, media_type="application/json")
    prefixes = sorted({t.workspace for t in types})
    w = XmlWriter()
    gml_ns = GML_NS[version]
    if len(prefixes) > 1 or not prefixes:
        w.start("xsd:schema", [("xmlns:xsd", "http://www.w3.org/2001/XMLSchema")])
        for prefix in prefixes:
            ns = view.catalog.namespaces[prefix].uri
            names = [f"{prefix}:{t.name}" for t in types if t.workspace == prefix]
            href = wfs_capabilities.describe_href(call, version, names)
            w.element("xsd:import", None, [("namespace", ns), ("schemaLocation", href)])
        w.end("xsd:schema")
        return Response(w.done(), 200, media_type=_schema_type(version))
    prefix = prefixes[0]
    uri = view.catalog.namespaces[prefix].uri
    location = {
        V100: "gml/2.1.2/feature.xsd",
        V110: "gml/3.1.1/base/gml.xsd",
        V200: "gml/3.2.1/gml.xsd",
    }[version]
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
    w.element(
        "xsd:import",
        None,
        [("namespace", gml_ns), ("schemaLocation", f"{call.base}/schemas/{location}")],
    )
    geometry_types = GEOMETRY_TYPES_2 if version == V100 else GEOMETRY_TYPES_3
    for ft in types:
        attrs, _ = wfs_query.schema(view, ft)
        w.start("xsd:complexType", [("name", f"{ft.name}Type")])
        w.start("xsd:complexContent")
        w.start("xsd:extension", [("base", "gml:AbstractFeatureType")])
        w.start("xsd:sequence")
        for name, binding, nillable in attrs:
            local = binding.rsplit(".", 1)[-1]
            if binding.startswith(("org.locationtech.jts.geom.", "com.vividsolutions.jts.geom.")):
                xsd = geometry_types.get(local, "gml:GeometryPropertyType")
            else:
                xsd = XSD_TYPES.get(binding, "xsd:string")
            w.element(
                "xsd:element",
                None,
                [
                    ("maxOccurs", "1"),
                    ("minOccurs", "0"),
                    ("name", name),
                    ("nillable", "true" if nillable else "false"),
                    ("type", xsd),
                ],
            )
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
    w.end("xsd:schema")
    return Response(w.done(), 200, media_type=_schema_type(version))


def _schema_type(version: str) -> str:
    return {
        V100: "text/xml",
        V110: "text/xml; subtype=gml/3.1.1",
        V200: "application/gml+xml; version=3.2",
    }[version]


def _describe_json(view: View, types: list[FeatureType]) -> dict[str, Any]:
    out = []
    for ft in types:
        attrs, _ = wfs_query.schema(view, ft)
        props = []
        for name, binding, nillable in attrs:
            local = binding.rsplit(".", 1)[-1]
            if binding.startswith(("org.locationtech.jts.geom.", "com.vividsolutions.jts.geom.")):
                kind, local_type = f"gml:{local}", local
            else:
                kind = XSD_TYPES.get(binding, "xsd:string")
                local_type = kind.split(":")[1]
            props.append(
                {
                    "name": name,
                    "maxOccurs": 1,
                    "minOccurs": 0,
                    "nillable": nillable,
                    "type": kind,
                    "localType": local_type,
                }
            )
        out.append({"typeName": ft.name, "properties": props})
    prefix = types[0].workspace if types else None
    return {
        "elementFormDefault": "qualified",
        "targetNamespace": view.catalog.namespaces[prefix].uri if prefix else None,
        "targetPrefix": prefix,
        "featureTypes": out,
    }


# -- GetFeature ---------------------------------------------------------------------------


def _query(view: View, call: Call, version: str) -> wfs_query.Query:
    q = wfs_query.Query()
    fids = call.get("FEATUREID") or call.get("RESOURCEID")
    if fids:
        q.fids = [f.strip() for f in fids.split(",") if f.strip()]
    bbox = call.get("BBOX")
    if bbox:
        minx, miny, maxx, maxy = bbox_numbers(bbox)
        parts = bbox.split(",")
        crs = parts[4] if len(parts) > 4 else None
        if (
            version != V100
            and (crs is None or crs.lower().startswith("urn:"))
            and (crs or "EPSG:4326").endswith("4326")
        ):
            minx, miny, maxx, maxy = miny, minx, maxy, maxx
        q.bbox = (minx, miny, maxx, maxy)
    cql = call.get("CQL_FILTER")
    xml_filter = call.get("FILTER")
    if cql and xml_filter:
        raise OwsError("CQL_FILTER and FILTER are mutually exclusive", INVALID, "filter")
    if xml_filter:
        q.cql = _filter_to_cql(xml_filter)
    elif cql:
        q.cql = cql
    props = call.get("PROPERTYNAME")
    if props and props.strip("() ") != "*":
        q.properties = [p.strip() for p in props.strip("()").split(",") if p.strip()]
    sort = call.get("SORTBY")
    if sort:
        for part in sort.split(","):
            bits = part.replace("+", " ").split()
            if not bits:
                continue
            desc = len(bits) > 1 and bits[1].upper() in ("D", "DESC")
            q.sort.append((bits[0], desc))
    q.start = call.integer("STARTINDEX", 0) or 0
    if q.start < 0:
        raise OwsError("startIndex must be non-negative", INVALID, "startIndex")
    count = call.integer("COUNT") if version == V200 else None
    if count is None:
        count = call.integer("MAXFEATURES")
    limit = int(sources.service(view.state, sources.WFS, view.workspace).get("maxFeatures") or 0)
    if count is not None and count < 0:
        raise OwsError("count must be non-negative", INVALID, "count")
    if limit > 0:
        count = limit if count is None else min(count, limit)
    q.count = count
    return q


def _filter_to_cql(text: str) -> str:
    from ...wire import xml as wxml

    try:
        root = wxml.parse(text.encode(), "filter", names=False)
    except EmulatorError:  # the client's malformed filter
        raise OwsError("Could not parse the FILTER parameter", INVALID, "filter") from None
    first = next((c for c in root if isinstance(c.tag, str)), None)
    if wxml.local(root.tag) != "Filter":
        first = root
    if first is None:
        return "INCLUDE"
    if wxml.local(first.tag) in ogc_xml.ID_ELEMENTS:
        ids = [ogc_xml.id_of(c) for c in root if isinstance(c.tag, str)]
        return "IN (" + ", ".join(f"'{i}'" for i in ids if i) + ")"
    return ogc_xml.filter_cql(first) or "INCLUDE"


def get_feature(view: View, call: Call) -> Response:
    version = _version(view, call)
    call.version = version
    stored = call.get("STOREDQUERY_ID")
    if stored:
        if stored != STORED_QUERY:
            raise OwsError(f"No such stored query: {stored}", INVALID, "STOREDQUERY_ID")
        ident = call.require("ID")
        types = [t for t in wfs_capabilities.feature_types(view) if ident.split(".")[0] == t.name]
        call.params["FEATUREID"] = ident
    else:
        types = _types(view, call, required=not call.get("FEATUREID"))
        if not types:
            fid_types = {f.split(".")[0] for f in (call.get("FEATUREID") or "").split(",")}
            types = [t for t in wfs_capabilities.feature_types(view) if t.name in fid_types]
    for ft in types:
        layer = view.catalog.layer(ft.workspace, ft.name)
        if layer is not None and not view.readable(layer):
            view.find(f"{ft.workspace}:{ft.name}", "typeName")  # hidden or a challenge
    q = _query(view, call, version)
    results = []
    remaining = q.count
    for ft in types:
        sub = wfs_query.Query(q.fids, q.bbox, q.cql, q.properties, q.sort, q.start, remaining)
        r = wfs_query.run(view, ft, sub)
        results.append(r)
        if remaining is not None:
            remaining = max(0, remaining - len(r.rows))
    hits = (call.get("RESULTTYPE") or "results").lower() == "hits"
    fmt = call.get("OUTPUTFORMAT")
    decimals = int(sources.global_settings(view.state, view.workspace).get("numDecimals") or 8)
    if fmt in JSON_FORMATS:
        return _geojson(view, call, results, hits, decimals)
    if fmt is None:
        dialect = {V100: "gml2", V110: "gml31", V200: "gml32"}[version]
    elif fmt in GML_FORMATS:
        dialect = GML_FORMATS[fmt]
    else:
        raise OwsError(f"Unknown output format: {fmt}", INVALID, "outputFormat")
    body = gml_collection(view, call, results, version, dialect, hits, decimals)
    return Response(body, 200, media_type=CONTENT_TYPES[dialect])


def gml_collection(
    view: View,
    call: Call,
    results: list[wfs_query.Result],
    version: str,
    dialect: str,
    hits: bool,
    decimals: int,
) -> bytes:
    matched = sum(r.matched for r in results)
    returned = sum(len(r.rows) for r in results)
    wfs_ns = WFS_NS[version]
    gml_ns = (
        "http://www.opengis.net/gml/3.2" if dialect == "gml32" else "http://www.opengis.net/gml"
    )
    prefixes = sorted({r.type.workspace for r in results})
    ns_attrs = "".join(f' xmlns:{p}="{attr(view.catalog.namespaces[p].uri)}"' for p in prefixes)
    names = [f"{r.type.workspace}:{r.type.name}" for r in results]
    describe = wfs_capabilities.describe_href(call, version, names)
    wfs_xsd = {V100: "wfs/1.0.0/WFS-basic.xsd", V110: "wfs/1.1.0/wfs.xsd", V200: "wfs/2.0/wfs.xsd"}[
        version
    ]
    locations = f"{wfs_ns} {call.base}/schemas/{wfs_xsd}"
    if version == V200:
        locations += f" {gml_ns} {call.base}/schemas/gml/3.2.1/gml.xsd"
    for p in prefixes:
        locations += f" {view.catalog.namespaces[p].uri} {describe}"
    if version == V200:
        shown = 0 if hits else returned
        counts = f' numberMatched="{matched}" numberReturned="{shown}" timeStamp="{call.now}"'
    elif version == V110:
        counts = f' numberOfFeatures="{matched if hits else returned}" timeStamp="{call.now}"'
    else:
        counts = ""
    head = (
        '<?xml version="1.0" encoding="UTF-8"?>'
        f'<wfs:FeatureCollection xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:wfs="{wfs_ns}"'
        f' xmlns:gml="{gml_ns}"{ns_attrs} xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"'
        f'{counts} xsi:schemaLocation="{attr(locations)}">'
    )
    parts = [head]
    if hits:
        parts.append("</wfs:FeatureCollection>")
        return "".join(parts).encode("utf-8")
    if version == V100:
        parts.append("<gml:boundedBy><gml:null>unknown</gml:null></gml:boundedBy>")
    elif version == V110 and returned:
        parts.append("<gml:featureMembers>")
    for r in results:
        ft = r.type
        prefix = ft.workspace
        code = (ft.srs or "EPSG:4326").partition(":")[2]
        srs = {
            "gml2": f"http://www.opengis.net/gml/srs/epsg.xml#{code}",
            "gml31": f"urn:x-ogc:def:crs:EPSG:{code}",
            "gml32": f"urn:ogc:def:crs:EPSG::{code}",
        }[dialect]
        flip = dialect != "gml2" and wfs_query.flips(ft, version)
        geo = gml.GeometryWriter(dialect, srs, decimals, flip)
        for row in r.rows:
            if dialect == "gml2":
                open_tag = f'<{prefix}:{ft.name} fid="{attr(row.fid)}">'
            else:
                open_tag = f'<{prefix}:{ft.name} gml:id="{attr(row.fid)}">'
            if version == V200:
                parts.append("<wfs:member>")
            elif version == V100:
                parts.append("<gml:featureMember>")
            parts.append(open_tag)
            for name, _binding in r.attributes:
                value = row.properties.get(name)
                if value is None:
                    continue
                if name == r.geometry or hasattr(value, "geom_type"):
                    body = geo.write(value, f"{row.fid}.{name}")
                else:
                    body = gml.value_text(value)
                parts.append(f"<{prefix}:{name}>{body}</{prefix}:{name}>")
            parts.append(f"</{prefix}:{ft.name}>")
            if version == V200:
                parts.append("</wfs:member>")
            elif version == V100:
                parts.append("</gml:featureMember>")
    if version == V110 and returned:
        parts.append("</gml:featureMembers>")
    parts.append("</wfs:FeatureCollection>")
    return "".join(parts).encode("utf-8")


def _geojson(
    view: View, call: Call, results: list[wfs_query.Result], hits: bool, decimals: int
) -> Response:
    matched = sum(r.matched for r in results)
    features = []
    if not hits:
        for r in results:
            for row in r.rows:
                geometry = row.properties.get(r.geometry) if r.geometry else None
                props = {
                    n: gml.json_value(row.properties.get(n))
                    for n, _ in r.attributes
                    if n != r.geometry
                }
                feature: dict[str, Any] = {
                    "type": "Feature",
                    "id": row.fid,
                    "geometry": gml.geojson(geometry, decimals) if geometry is not None else None,
                }
                if r.geometry:
                    feature["geometry_name"] = r.geometry
                feature["properties"] = props
                features.append(feature)
    doc: dict[str, Any] = {
        "type": "FeatureCollection",
        "features": features,
        "totalFeatures": matched,
        "numberMatched": matched,
        "numberReturned": len(features),
        "timeStamp": call.now,
    }
    if results:
        code = (results[0].type.srs or "EPSG:4326").partition(":")[2]
        doc["crs"] = {"type": "name", "properties": {"name": f"urn:ogc:def:crs:EPSG::{code}"}}
    return Response(dumps(doc), 200, media_type="application/json;charset=UTF-8")


# -- stored queries -----------------------------------------------------------------------


def list_stored_queries(view: View, call: Call) -> Response:
    version = _version(view, call)
    if version != V200:
        raise OwsError(
            f"ListStoredQueries is not a WFS {version} operation", NOT_SUPPORTED, "request"
        )
    types = wfs_capabilities.feature_types(view)
    w = XmlWriter()
    w.start(
        "wfs:ListStoredQueriesResponse",
        [
            ("xmlns:wfs", WFS_NS[V200]),
            *[
                (f"xmlns:{p}", view.catalog.namespaces[p].uri)
                for p in sorted({t.workspace for t in types})
            ],
        ],
    )
    w.start("wfs:StoredQuery", [("id", STORED_QUERY)])
    w.element("wfs:Title", "Get feature by identifier")
    for ft in types:
        w.element("wfs:ReturnFeatureType", f"{ft.workspace}:{ft.name}")
    w.end("wfs:StoredQuery")
    w.end("wfs:ListStoredQueriesResponse")
    return Response(w.done(), 200, media_type="application/xml")


def describe_stored_queries(view: View, call: Call) -> Response:
    version = _version(view, call)
    if version != V200:
        raise OwsError(
            f"DescribeStoredQueries is not a WFS {version} operation", NOT_SUPPORTED, "request"
        )
    wanted = call.get("STOREDQUERY_ID")
    if wanted and any(q != STORED_QUERY for q in wanted.split(",")):
        raise OwsError(f"No such stored query: {wanted}", INVALID, "STOREDQUERY_ID")
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
    return Response(w.done(), 200, media_type="application/xml")


def transaction(view: View, call: Call) -> Response:
    from . import transaction as wfs_transaction

    if call.document is None:
        raise OwsError("Transaction requests must be POSTed as XML", NOT_SUPPORTED, "request")
    version = call.version if call.version in wfs_capabilities.VERSIONS else V110
    tx = wfs_transaction.run(view, call.document, version)
    return Response(wfs_transaction.response(tx, version), 200, media_type="text/xml")


HANDLERS = {
    "GetCapabilities": get_capabilities,
    "DescribeFeatureType": describe_feature_type,
    "GetFeature": get_feature,
    "ListStoredQueries": list_stored_queries,
    "DescribeStoredQueries": describe_stored_queries,
    "Transaction": transaction,
}
