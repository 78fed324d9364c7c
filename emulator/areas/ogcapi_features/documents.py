"""The JSON documents of OGC API Features, as GeoServer's ``FeaturesLandingPage``,
``ConformanceDocument``, ``CollectionsDocument``, ``CollectionDocument``, ``Queryables`` and
``FunctionsDocument`` serialize them: plain dicts, written as JSON, YAML or HTML by the caller.

Links follow GeoServer's ``LinksBuilder``: one per format of the resource linked, ``?f=`` the
media type, titled with the format; a document's own links are ``self`` for the format
answered and ``alternate`` for the others. Pure logic over an ``Api``.
"""

from __future__ import annotations

from typing import Any

from ..catalog.entities import FeatureType, Layer
from . import links as ln
from . import media
from .model import (
    Api,
    collection_crs,
    service_crs,
    spatial_extent,
    storage_crs,
    time_extent,
)
from .query import is_geometry

FUNCTIONS_REL = "http://www.opengis.net/def/rel/ogc/1.0/functions"
QUERYABLES_REL = "http://www.opengis.net/def/rel/ogc/1.0/queryables"
JSON_SCHEMA = "https://json-schema.org/draft/2020-12/schema"
CRS84 = "http://www.opengis.net/def/crs/OGC/1.3/CRS84"
TRS = "http://www.opengis.net/def/uom/ISO-8601/0/Gregorian"

Doc = dict[str, Any]


def landing(api: Api, chosen: str) -> Doc:
    base = api.base
    links = ln.self_links(base, api.path(""), media.DOCUMENT, chosen)
    links += ln.formats(
        base,
        api.path("openapi"),
        media.API,
        "service-desc",
        "API definition for this endpoint as ",
        {media.HTML: "service-doc"},
    )
    links += ln.formats(
        base, api.path("conformance"), media.DOCUMENT, "conformance", "Conformance declaration as "
    )
    links += ln.formats(
        base, api.path("collections"), media.DOCUMENT, "data", "Collections Metadata as "
    )
    if api.conformance.cql2_on("functions"):
        links += ln.formats(
            base, api.path("functions"), media.DOCUMENT, FUNCTIONS_REL, "Filter capabilities as "
        )
    return {
        "title": api.wfs.get("title") or "Features 1.0 server",
        "description": api.wfs.get("abstrct") or "",
        "links": links,
    }


def conformance(api: Api, chosen: str) -> Doc:
    return {
        "links": ln.self_links(api.base, api.path("conformance"), media.DOCUMENT, chosen),
        "conformsTo": api.conformance.classes(),
    }


def collections(api: Api, chosen: str, found: list[tuple[Layer, FeatureType]]) -> Doc:
    service = service_crs(api.wfs)
    return {
        "links": ln.self_links(api.base, api.path("collections/"), media.DOCUMENT, chosen),
        "collections": [collection(api, chosen, lyr, ft, service, True) for lyr, ft in found],
        "crs": service,
    }


def collection(
    api: Api,
    chosen: str,
    layer: Layer,
    ft: FeatureType,
    service: list[str] | None = None,
    in_list: bool = False,
) -> Doc:
    cid = api.collection_id(layer)
    base, path = api.base, api.path("collections", cid)
    doc: Doc = {"id": cid}
    if ft.title is not None:
        doc["title"] = ft.title
    if ft.abstract is not None:
        doc["description"] = ft.abstract
    extent: Doc = {}
    box = spatial_extent(ft, api.decimals)
    if box is not None:
        extent["spatial"] = {"bbox": [box], "crs": CRS84}
    times = time_extent(api.state, ft)
    if times is not None:
        extent["temporal"] = {"interval": [list(times)], "trs": TRS}
    if extent:
        doc["extent"] = extent
    links = [
        ln.link(ln.href(base, path + "/items", [("f", mt)]), "items", mt, f"{cid} items as {mt}")
        for mt in media.ITEMS
    ]
    links += ln.self_links(base, path, media.DOCUMENT, chosen)
    describe = [
        ("service", "WFS"),
        ("version", "2.0"),
        ("request", "DescribeFeatureType"),
        ("typenames", cid),
    ]
    schema = ln.href(base, "wfs", describe)
    links.append(ln.link(schema, "describedBy", "application/xml", f"Schema for {cid}"))
    links += ln.formats(
        base, path + "/queryables", media.QUERYABLES, QUERYABLES_REL, "Queryable attributes as "
    )
    doc["links"] = links
    storage = storage_crs(api.state, ft)
    doc["crs"] = collection_crs(ft, service or service_crs(api.wfs), storage, in_list)
    if storage is not None:
        doc["storageCrs"] = storage
    return doc


GEOMETRY_TITLES = {
    "Point": "Point",
    "MultiPoint": "MultiPoint",
    "LineString": "LineString",
    "LinearRing": "LineString",
    "MultiLineString": "MultiLineString",
    "Polygon": "Polygon",
    "MultiPolygon": "MultiPolygon",
}
INTEGERS = frozenset("java.lang." + n for n in ("Integer", "Long", "Short", "Byte")) | {
    "java.math.BigInteger"
}
NUMBERS = frozenset("java.lang." + n for n in ("Double", "Float", "Number")) | {
    "java.math.BigDecimal"
}


def queryable(binding: str, length: int | None) -> Doc:
    """The JSON schema of one attribute, as GeoServer's ``QueryablesBuilder`` writes it."""
    if is_geometry(binding):
        title = GEOMETRY_TITLES.get(binding.rsplit(".", 1)[-1], "Any geometry")
        shape = "geometry-any" if title == "Any geometry" else "geometry-" + title.lower()
        return {"title": title, "format": shape}
    kind = "string"
    if binding in INTEGERS:
        kind = "integer"
    elif binding in NUMBERS:
        kind = "number"
    elif binding == "java.lang.Boolean":
        kind = "boolean"
    out: Doc = {"title": kind, "type": kind}
    formats: dict[str, tuple[str | None, str | None]] = {
        "java.sql.Date": ("date", "Date"),
        "java.sql.Time": ("time", "Time"),
        "java.util.Date": ("date-time", "DateTime"),
        "java.sql.Timestamp": ("date-time", "DateTime"),
        "java.util.UUID": ("uuid", None),
        "java.net.URL": (None, "uri"),
        "java.lang.String": ("string", None),
        "java.lang.Object": ("string", None),
        "java.lang.Boolean": ("boolean", None),
        "java.lang.Number": ("number", None),
    }
    fmt, shown = formats.get(binding, (None, None))
    if shown is not None:
        out["title"] = shown
    if fmt is not None:
        out["format"] = fmt
    if length is not None:
        out["maxLength"] = length
    return out


def queryables(
    api: Api, chosen: str, layer: Layer, ft: FeatureType, attrs: list[tuple[str, str, int | None]]
) -> Doc:
    cid = api.collection_id(layer)
    doc: Doc = {
        "$schema": JSON_SCHEMA,
        "$id": ln.href(api.base, api.path("collections", ln.encoded(cid), "queryables")),
        "type": "object",
        "title": ft.title or cid,
    }
    if ft.description is not None:
        doc["description"] = ft.description
    doc["properties"] = {name: queryable(binding, length) for name, binding, length in attrs}
    path = api.path("collections", cid, "queryables")
    doc["links"] = ln.self_links(api.base, path, media.QUERYABLES, chosen)
    return doc


FUNCTIONS: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    ("strToLowerCase", "string", ("string",)),
    ("strToUpperCase", "string", ("string",)),
    ("strLength", "integer", ("string",)),
    ("strTrim", "string", ("string",)),
    ("strConcat", "string", ("string", "string")),
    ("strStartsWith", "boolean", ("string", "string")),
    ("strEndsWith", "boolean", ("string", "string")),
    ("abs", "number", ("number",)),
)
"""the functions the emulator's filter engine evaluates (``filters/expressions.py``)"""


def functions(api: Api, chosen: str) -> Doc:
    return {
        "links": ln.self_links(api.base, api.path("functions"), media.DOCUMENT, chosen),
        "functions": [
            {
                "name": name,
                "returns": [returns],
                "arguments": [{"title": f"arg{i + 1}", "type": [t]} for i, t in enumerate(args)],
            }
            for name, returns, args in FUNCTIONS
        ],
    }
