"""The WFS operations: GetCapabilities, DescribeFeatureType, GetFeature (GML 2, 3.1, 3.2
and GeoJSON), ListStoredQueries, DescribeStoredQueries and Transaction. Each handler takes
the caller's ``View`` and the ``Call`` and returns its result; ``SERVICE`` is the table."""

from __future__ import annotations

import re

from ...core.errors import EmulatorError
from ...core.record import replace
from ...crs import names, syntax
from ...filters import ogc_xml
from ..catalog.entities import FeatureType
from ..ows import collections, sources, viewparams
from ..ows import crs as ows_crs
from ..ows.collections import FeatureCollection
from ..ows.dispatch import CANNED, NOT_EMULATED, Operation, Service
from ..ows.errors import INVALID, MISSING, NOT_SUPPORTED, OwsError
from ..ows.kvp import Call, bbox_numbers
from ..ows.model import View
from ..ows.results import Document
from . import capabilities as wfs_capabilities
from . import codec
from . import query as wfs_query

V100, V110, V200 = wfs_capabilities.VERSIONS

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
STORED_QUERY = codec.STORED_QUERY


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


def get_capabilities(view: View, call: Call) -> Document:
    version = _version(view, call)
    call.version = version
    return Document(wfs_capabilities.write(view, call, version), capabilities_type(call))


def capabilities_type(call: Call) -> str:
    """GeoServer's capabilities media type: the first of ``AcceptFormats`` that ends in
    ``/xml``, else ``application/xml`` (every version)."""
    for fmt in (call.get("ACCEPTFORMATS") or "").split(","):
        if fmt.strip().endswith("/xml") and MEDIA_TYPE.fullmatch(fmt.strip()):
            return fmt.strip()
    return "application/xml"


MEDIA_TYPE = re.compile(r"[!#$%&'*+.^_`|~0-9A-Za-z-]+/[!#$%&'*+.^_`|~0-9A-Za-z-]+")
"""a media type a header can carry (a requested one that is not is ignored)"""


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


def describe_feature_type(view: View, call: Call) -> Document:
    version = _version(view, call)
    call.version = version
    types = _types(view, call, required=False)
    doc = _schema(view, call, version, types)
    # GeoServer's file name: the one type's ``ws-name.xsd``, else ``schema.xsd``
    name = f"{types[0].workspace}-{types[0].name}.xsd" if len(types) == 1 else "schema.xsd"
    return doc._replace(filename=name)


def _schema(view: View, call: Call, version: str, types: list[FeatureType]) -> Document:
    fmt = call.get("OUTPUTFORMAT")
    described = [(ft, collections.schema(view, ft)[0]) for ft in types]
    if fmt in ("application/json", "json"):
        uri = view.catalog.namespaces[types[0].workspace].uri if types else None
        return codec.schema_json(uri, described)
    namespaces = {p: view.catalog.namespaces[p].uri for p in sorted({t.workspace for t in types})}
    if len(namespaces) != 1:
        imports = [
            (uri, collections.describe_url(call.service_base, version, names))
            for prefix, uri in namespaces.items()
            for names in [[f"{prefix}:{t.name}" for t in types if t.workspace == prefix]]
        ]
        return codec.schema_imports(imports, version)
    return codec.schema_document(version, *next(iter(namespaces.items())), call.base, described)


# -- GetFeature ---------------------------------------------------------------------------


def _query(view: View, call: Call, version: str) -> wfs_query.Query:
    q = wfs_query.Query()
    fids = call.get("FEATUREID") or call.get("RESOURCEID")
    if fids:
        q.fids = [f.strip() for f in fids.split(",") if f.strip()]
    bbox = call.get("BBOX")
    if bbox:
        q.bbox = bbox_numbers(bbox)
        parts = bbox.split(",")
        if len(parts) > 4:
            q.bbox_crs = _crs(",".join(parts[4:]), "bbox")
    srs_name = call.get("SRSNAME")
    if srs_name:
        q.srs_name = _crs(srs_name, "srsName")
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


def _crs(text: str, locator: str) -> names.Ref:
    """A CRS the request names (``srsName``, a ``BBOX``'s fifth value); GeoServer's
    ``InvalidParameterValue`` when the database does not know it."""
    return ows_crs.decode(text, INVALID, locator, "Unable to support srsName: {}")


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


def get_feature(view: View, call: Call) -> FeatureCollection:
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
    params = viewparams.per_layer(call.get("VIEWPARAMS"), len(types), "feature types")
    results = []
    remaining = q.count
    for ft, values in zip(types, params, strict=True):
        sub = replace(q, count=remaining, params=values)
        r = wfs_query.run(view, ft, sub, version)
        results.append(r)
        if remaining is not None:
            remaining = max(0, remaining - len(r.rows))
    hits = (call.get("RESULTTYPE") or "results").lower() == "hits"
    fmt = call.get("OUTPUTFORMAT")
    decimals = int(sources.global_settings(view.state, view.workspace).get("numDecimals") or 8)
    settings = sources.service(view.state, sources.WFS, view.workspace)
    style = syntax.style_of(settings.get("gml"), version)
    bounding = bool(settings.get("featureBounding"))
    if fmt in JSON_FORMATS:
        encoding = "geojson"
    elif fmt is None:
        encoding = {V100: "gml2", V110: "gml31", V200: "gml32"}[version]
    elif fmt in GML_FORMATS:
        encoding = GML_FORMATS[fmt]
    else:
        raise OwsError(f"Unknown output format: {fmt}", INVALID, "outputFormat")
    return collections.collection(
        view, call, results, encoding, version, hits, decimals, style, bounding
    )


# -- stored queries -----------------------------------------------------------------------


def list_stored_queries(view: View, call: Call) -> Document:
    version = _version(view, call)
    if version != V200:
        raise OwsError(
            f"ListStoredQueries is not a WFS {version} operation", NOT_SUPPORTED, "request"
        )
    types = wfs_capabilities.feature_types(view)
    namespaces = {p: view.catalog.namespaces[p].uri for p in sorted({t.workspace for t in types})}
    return codec.stored_queries(namespaces, [f"{t.workspace}:{t.name}" for t in types])


def describe_stored_queries(view: View, call: Call) -> Document:
    version = _version(view, call)
    if version != V200:
        raise OwsError(
            f"DescribeStoredQueries is not a WFS {version} operation", NOT_SUPPORTED, "request"
        )
    wanted = call.get("STOREDQUERY_ID")
    if wanted and any(q != STORED_QUERY for q in wanted.split(",")):
        raise OwsError(f"No such stored query: {wanted}", INVALID, "STOREDQUERY_ID")
    return codec.stored_query_description()


def transaction(view: View, call: Call) -> Document:
    from . import transaction as wfs_transaction

    version = call.version if call.version in wfs_capabilities.VERSIONS else V110
    tx = wfs_transaction.run(view, call.document, version)
    return codec.transaction_response(tx.inserted, tx.updated, tx.deleted, version)


SERVICE = Service(
    "wfs",
    wfs_capabilities.VERSIONS,
    (
        Operation("GetCapabilities", get_capabilities),
        Operation("DescribeFeatureType", describe_feature_type),
        Operation("GetFeature", get_feature),
        Operation("ListStoredQueries", list_stored_queries, versions=(V200,)),
        Operation(
            "DescribeStoredQueries",
            describe_stored_queries,
            versions=(V200,),
            support=CANNED,
            note="the one stored query GeoServer has built in",
        ),
        Operation("Transaction", transaction, document=True),
        Operation("GetPropertyValue", None, versions=(V200,), support=NOT_EMULATED),
        Operation("CreateStoredQuery", None, versions=(V200,), support=NOT_EMULATED),
        Operation("DropStoredQuery", None, versions=(V200,), support=NOT_EMULATED),
        Operation("GetGmlObject", None, versions=(V110,), support=NOT_EMULATED),
        Operation("LockFeature", None, support=NOT_EMULATED),
        Operation("GetFeatureWithLock", None, support=NOT_EMULATED),
    ),
    codec.report,
)
