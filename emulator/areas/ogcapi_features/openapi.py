"""The OpenAPI 3.0 document of the service (``/openapi``), shaped as GeoServer's
``FeaturesAPIBuilder`` adjusts its template to the WFS settings: the paths of the classes
that are on (``/search``, ``/queryables``, ``/functions``), the items parameters of the
classes that are on (``filter``, ``filter-lang``, ``filter-crs``, ``ids``, ``sortby``,
``properties``, ``exclude-properties``), the collection ids the caller may read as the enum of
``collectionId``, ``limit``'s maximum and default (the WFS ``maxFeatures``), the filter
languages, the media types of each path. The emulator writes the document itself (GeoServer
fills a YAML template): what it describes is what the emulator serves.
"""

from __future__ import annotations

from typing import Any

from . import media
from .model import Api

Doc = dict[str, Any]
INT_MAX = 2**31 - 1


def _param(name: str, where: str, schema: Doc, description: str, **more: Any) -> Doc:
    return {"name": name, "in": where, "description": description, "schema": schema, **more}


def _content(types: tuple[str, ...]) -> Doc:
    return {mt: {"schema": {"type": "object"}} for mt in types if mt != media.HTML} | {
        media.HTML: {"schema": {"type": "string"}}
    }


def _get(summary: str, op: str, types: tuple[str, ...], params: list[str]) -> Doc:
    return {
        "get": {
            "summary": summary,
            "operationId": op,
            "parameters": [{"$ref": f"#/components/parameters/{p}"} for p in params],
            "responses": {
                "200": {"description": summary, "content": _content(types)},
                "400": {"$ref": "#/components/responses/InvalidParameter"},
                "404": {"$ref": "#/components/responses/NotFound"},
            },
        }
    }


def document(api: Api, collection_ids: list[str]) -> Doc:
    conf = api.conformance
    limit_max = api.max_features if api.max_features > 0 else INT_MAX
    items_params = ["collectionId", "f", "limit", "startIndex", "bbox", "bbox-crs", "datetime"]
    if conf.feature("filter"):
        items_params += ["filter", "filter-lang"]
    if conf.feature("crsByReference"):
        items_params += ["crs", "filter-crs"]
    for switch, names in (
        ("ids", ["ids"]),
        ("sortBy", ["sortby"]),
        ("propertySelection", ["properties", "exclude-properties"]),
    ):
        if conf.feature(switch):
            items_params += names
    item_types = (
        media.ITEMS if conf.feature("gml321") else tuple(t for t in media.ITEMS if t != media.GML32)
    )
    paths: Doc = {
        "/": _get("Landing page", "getLandingPage", media.DOCUMENT, ["f"]),
        "/openapi": _get("This API definition", "getApi", media.API, ["f"]),
        "/conformance": _get(
            "Conformance declaration", "getConformanceDeclaration", media.DOCUMENT, ["f"]
        ),
        "/collections": _get("The collections", "getCollections", media.DOCUMENT, ["f"]),
        "/collections/{collectionId}": _get(
            "One collection", "describeCollection", media.DOCUMENT, ["collectionId", "f"]
        ),
        "/collections/{collectionId}/items": _get(
            "The features of a collection", "getFeatures", item_types, items_params
        ),
        "/collections/{collectionId}/items/{featureId}": _get(
            "One feature",
            "getFeature",
            item_types,
            ["collectionId", "featureId", "f", "crs"]
            if conf.feature("crsByReference")
            else ["collectionId", "featureId", "f"],
        ),
    }
    if conf.feature("queryables"):
        paths["/collections/{collectionId}/queryables"] = _get(
            "The queryable attributes", "getQueryables", media.QUERYABLES, ["collectionId", "f"]
        )
    if conf.feature("search"):
        paths["/collections/{collectionId}/search"] = {
            "post": {
                "summary": "Search the features of a collection",
                "operationId": "searchFeatures",
                "parameters": [{"$ref": "#/components/parameters/collectionId"}],
                "requestBody": {"content": {"application/json": {"schema": {"type": "object"}}}},
                "responses": {"200": {"description": "features", "content": _content(item_types)}},
            }
        }
    if conf.cql2_on("functions"):
        paths["/functions"] = _get("The filter functions", "getFunctions", media.DOCUMENT, ["f"])
    return {
        "openapi": "3.0.3",
        "info": {
            "title": api.wfs.get("title") or "Features 1.0 server",
            "description": api.wfs.get("abstrct") or "",
            "version": "1.0.1",
        },
        "externalDocs": {
            "description": "WFS specification",
            "url": "https://github.com/opengeospatial/WFS_FES",
        },
        "servers": [{"url": f"{api.base}/{api.path()}", "description": "This server"}],
        "paths": paths,
        "components": {
            "parameters": _parameters(api, collection_ids, limit_max),
            "responses": {
                "InvalidParameter": {"description": "A query parameter has an invalid value."},
                "NotFound": {"description": "The resource does not exist."},
            },
        },
    }


def _parameters(api: Api, collection_ids: list[str], limit_max: int) -> Doc:
    string: Doc = {"type": "string"}
    return {
        "collectionId": _param(
            "collectionId",
            "path",
            {"type": "string", "enum": collection_ids},
            "The collection's id",
            required=True,
        ),
        "featureId": _param("featureId", "path", string, "The feature's id", required=True),
        "f": _param("f", "query", string, "The format of the response"),
        "limit": _param(
            "limit",
            "query",
            {"type": "integer", "minimum": 0, "maximum": limit_max, "default": limit_max},
            "The most features a page holds",
        ),
        "startIndex": _param(
            "startIndex", "query", {"type": "integer", "minimum": 0, "default": 0}, "The first"
        ),
        "bbox": _param(
            "bbox",
            "query",
            {"type": "array", "minItems": 4, "maxItems": 6, "items": {"type": "number"}},
            "Only features that meet this box",
            style="form",
            explode=False,
        ),
        "bbox-crs": _param("bbox-crs", "query", string, "The CRS of bbox (CRS84 by default)"),
        "datetime": _param("datetime", "query", string, "An instant or an interval"),
        "filter": _param("filter", "query", string, "A filter in filter-lang"),
        "filter-lang": _param(
            "filter-lang",
            "query",
            {"type": "string", "enum": api.conformance.languages(), "default": "cql2-text"},
            "The language of filter",
        ),
        "filter-crs": _param("filter-crs", "query", string, "The CRS of the filter's geometries"),
        "crs": _param("crs", "query", string, "The CRS of the features answered"),
        "ids": _param("ids", "query", {"type": "array", "items": string}, "Feature ids"),
        "sortby": _param("sortby", "query", {"type": "array", "items": string}, "+name or -name"),
        "properties": _param(
            "properties", "query", {"type": "array", "items": string}, "Properties to answer"
        ),
        "exclude-properties": _param(
            "exclude-properties", "query", {"type": "array", "items": string}, "Properties to omit"
        ),
    }
