"""The OGC API Features endpoints under ``/ogc/features/v1``, and under the virtual services
``/{workspace}/ogc/features/v1`` and ``/{workspace}/{layer}/ogc/features/v1`` (a global
layer group's path too): the only module of the area that touches HTTP.

Each endpoint reads the request, asks ``model``/``query``/``documents`` and writes the answer
in the negotiated format (``media.chosen``), with the ``Link`` headers GeoServer adds. An
``ApiError`` is answered as GeoServer's ``FeaturesExceptionHandler`` answers
(``{"code", "description"}``); a refusal by the security rules as Spring Security's challenge
(401/403). Installed with the ``ogcapi-features`` extension (``core/extensions.py``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from starlette import routing
from starlette.requests import Request
from starlette.responses import Response
from starlette.types import Receive, Scope, Send

from ...core.errors import EmulatorError
from ...http import context
from ...http.routing import Route, check_request_text
from ...wire import yaml
from ...wire.json import dumps
from ..ows import sources
from ..ows.errors import Denied
from ..ows.model import View, scope
from ..ows.routes import challenge
from . import documents, encode, html, media, model, openapi, query
from . import links as ln
from . import params as pmod
from .conformance import Conformance
from .errors import INVALID, RESOURCE_NOT_FOUND, ApiError, body, not_found
from .model import ROOT, SERVICE, Api

Handler = Callable[[Api, Request], Response]


class Disabled(Exception):
    """The WFS service of the virtual service is disabled."""


def _api(request: Request, operation: str) -> Api:
    emu = context.emulator(request)
    principal = context.principal(request)
    assert principal is not None  # the auth middleware names every caller
    state, path = emu.state, request.path_params
    found = scope(state.catalog, path.get("workspace"), path.get("layer"))
    if found is None:
        raise _no_mapping(request)
    wfs = sources.service(state, sources.WFS, found.workspace)
    if not wfs.get("enabled", True):
        raise Disabled()
    view = View(state, principal, found.workspace, found.only, SERVICE, operation)
    if found.only is not None and not view.enabled(found.only):
        raise _no_mapping(request)
    view.check_service()
    settings = sources.global_settings(state, found.workspace)
    decimals = int(settings.get("numDecimals") or 8)
    now = emu.clock.datetime().strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z"
    site = context.base_url(request)
    return Api(state, view, site, found.base(site), wfs, Conformance(wfs), decimals, now)


def _no_mapping(request: Request) -> ApiError:
    return ApiError(RESOURCE_NOT_FOUND, f"No mapping for {request.method} {request.url.path}", 404)


def _error(err: ApiError) -> Response:
    return Response(body(err), err.status, err.headers or None, media_type="application/json")


def _disabled() -> Response:
    message = "Service Features is disabled"
    page = (
        f"<html><head><title>Error 404 {message}</title></head>"
        f"<body><h2>HTTP ERROR 404 {message}</h2></body></html>"
    )
    return Response(page, 404, media_type="text/html")


def _endpoint(operation: str, handler: Handler) -> Callable[[Request], Any]:
    async def endpoint(request: Request) -> Response:
        try:
            return handler(_api(request, operation), request)
        except ApiError as err:
            return _error(err)
        except Denied as denied:
            return challenge(denied)
        except Disabled:
            return _disabled()

    return endpoint


def _chosen(request: Request, offered: tuple[str, ...]) -> str:
    return media.chosen(request.query_params.get("f"), request.headers.get("accept"), offered)


def _written(doc: dict[str, Any], chosen: str, page: Callable[[dict[str, Any]], bytes]) -> Response:
    """A document in the format chosen, with its links as ``Link`` headers."""
    if chosen == media.HTML:
        content, media_type = page(doc), media.HTML
    elif chosen == media.YAML:
        content, media_type = yaml.dumps(doc), media.YAML
    else:
        content, media_type = dumps(doc), chosen
    response = Response(content, 200, media_type=media_type)
    for value in ln.header(doc.get("links") or []):
        response.headers.append("Link", value)
    return response


# -- documents --------------------------------------------------------------------------------


def landing(api: Api, request: Request) -> Response:
    chosen = _chosen(request, media.DOCUMENT)
    return _written(documents.landing(api, chosen), chosen, html.landing)


def conformance(api: Api, request: Request) -> Response:
    chosen = _chosen(request, media.DOCUMENT)
    return _written(documents.conformance(api, chosen), chosen, html.conformance)


def api_document(api: Api, request: Request) -> Response:
    suffix = request.url.path.rsplit("/", 1)[-1]
    fixed = {"openapi.json": media.OPENAPI, "openapi.yaml": media.YAML}.get(suffix)
    chosen = fixed if fixed and "f" not in request.query_params else _chosen(request, media.API)
    ids = [api.collection_id(layer) for layer, _ in model.collections(api)]
    doc = openapi.document(api, ids)
    json_href = ln.href(api.base, api.path("openapi"), [("f", media.OPENAPI)])
    return _written(doc, chosen, lambda d: html.api(d, json_href))


def collections(api: Api, request: Request) -> Response:
    chosen = _chosen(request, media.DOCUMENT)
    doc = documents.collections(api, chosen, model.collections(api))
    return _written(doc, chosen, html.collections)


def collection(api: Api, request: Request) -> Response:
    layer, ft = model.collection(api, request.path_params["collection"], describe=True)
    chosen = _chosen(request, media.DOCUMENT)
    return _written(documents.collection(api, chosen, layer, ft), chosen, html.collection)


def queryables(api: Api, request: Request) -> Response:
    layer, ft = model.collection(api, request.path_params["collection"], describe=True)
    chosen = _chosen(request, media.QUERYABLES)
    lengths = {a.name: a.length for a in ft.attributes}
    from ...features import resolver

    schema = resolver.schema(api.state, ft)[1]
    attrs = [(a.name, a.binding, lengths.get(a.name) or a.length) for a in schema.attributes]
    doc = documents.queryables(api, chosen, layer, ft, attrs)
    return _written(doc, chosen, html.queryables)


def functions(api: Api, request: Request) -> Response:
    if not api.conformance.cql2_on("functions"):
        raise not_found("Functions not supported by the service.")
    chosen = _chosen(request, media.DOCUMENT)
    return _written(documents.functions(api, chosen), chosen, html.functions)


# -- features ---------------------------------------------------------------------------------


def items(api: Api, request: Request) -> Response:
    layer, ft = model.collection(api, request.path_params["collection"], describe=False)
    chosen = _chosen(request, media.ITEMS)
    p = pmod.from_query(request.query_params.multi_items())
    return _features(api, request, layer, ft, p, chosen)


ITEM_PARAMETERS = frozenset(
    {"limit", "startIndex", "bbox", "bbox-crs", "time", "crs", "properties", "exclude-properties"}
)
"""what GeoServer's ``FeatureService.item`` reads (``filter``, ``sortby``, ``ids`` are not)"""


def item(api: Api, request: Request) -> Response:
    layer, ft = model.collection(api, request.path_params["collection"], describe=False)
    chosen = _chosen(request, media.ITEMS)
    p = pmod.from_query(
        ("datetime" if k == "time" else k, v)  # GeoServer names it ``time`` here
        for k, v in request.query_params.multi_items()
        if k in ITEM_PARAMETERS
    )
    return _features(api, request, layer, ft, p, chosen, request.path_params["feature"])


async def search(request: Request) -> Response:
    """``POST …/search``: the items query as a JSON body (when the ``search`` class is on)."""
    try:
        api = _api(request, "searchFeatures")
        if not api.conformance.feature("search"):
            raise not_found("Search is not supported by the service.")
        layer, ft = model.collection(api, request.path_params["collection"], describe=False)
        chosen = _chosen(request, media.ITEMS)
        data = await context.body(request)
        p = pmod.from_body(_search_body(data))
        return _features(api, request, layer, ft, p, chosen)
    except ApiError as err:
        return _error(err)
    except Denied as denied:
        return challenge(denied)
    except Disabled:
        return _disabled()


def _search_body(data: bytes) -> dict[str, Any]:
    from ...core.errors import Invalid
    from ...wire import json as wjson

    try:
        doc = wjson.loads(data, "search request") if data.strip() else {}
    except Invalid as exc:
        raise ApiError("InvalidParameterValue", exc.message, 400) from None
    if not isinstance(doc, dict):
        raise ApiError("InvalidParameterValue", "The search request is a JSON object", 400)
    return doc


def _features(
    api: Api,
    request: Request,
    layer: Any,
    ft: Any,
    p: pmod.Params,
    chosen: str,
    item_id: str | None = None,
) -> Response:
    cid = api.collection_id(layer)
    page = query.run(api.state, ft, p, api.conformance, api.max_features, item_id, cid)
    if item_id is not None and not page.rows:
        raise not_found(f"Could not find a feature with id {item_id} in collection {cid}")
    base_path = api.path("collections", ln.encoded(cid))
    items_path = base_path + "/items"
    kvp: dict[str, str] = {}
    for key, value in request.query_params.multi_items():
        kvp.setdefault(key, value)
    paging = []
    if item_id is None:
        for rel, title, at in _paging_steps(page):
            if at is not None:
                moved = dict(kvp)  # kept in place, or added: startIndex, then limit
                moved["startIndex"], moved["limit"] = str(at[0]), str(at[1])
                href = ln.href(api.base, items_path, list(moved.items()))
                paging.append(ln.link(href, rel, media.GEOJSON, title))
    headers = {"Content-Crs": f"<{page.crs.uri}>"}
    if chosen == media.HTML:
        title = f"{cid} items" if item_id is None else f"{cid} {item_id}"
        prev = next((x["href"] for x in paging if x["rel"] == "prev"), None)
        nxt = next((x["href"] for x in paging if x["rel"] == "next"), None)
        response = Response(html.features(page, title, prev, nxt), 200, headers, media.HTML)
    elif chosen == media.GEOJSON:
        path = items_path if item_id is None else f"{items_path}/{ln.encoded(item_id)}"
        links = paging + _format_links(api, path, base_path)
        write = encode.geojson if item_id is None else encode.geojson_feature
        headers["Content-Disposition"] = f"inline; filename={ft.name}.json"
        response = Response(write(page, api, links), 200, headers, media.GEOJSON)
    else:
        suffix = "json" if chosen == media.JSON else "xml"
        headers["Content-Disposition"] = f"inline; filename={ft.name}.{suffix}"
        response = Response(encode.wfs(page, api, chosen), 200, headers, chosen)
    for value in ln.header(paging, titles=False):
        response.headers.append("Link", value)
    return response


def _paging_steps(page: query.Page) -> list[tuple[str, str, tuple[int, int] | None]]:
    return [("prev", "Previous page", page.prev), ("next", "Next page", page.next)]


def _format_links(api: Api, path: str, collection_path: str) -> list[ln.Link]:
    """The page in each of its formats (``self`` for GeoJSON), then its collection's."""
    out = []
    for mt in media.ITEMS:
        rel, title = (
            (ln.SELF, "This document")
            if mt == media.GEOJSON
            else (ln.ALTERNATE, f"This document as {mt}")
        )
        out.append(ln.link(ln.href(api.base, path, [("f", mt)]), rel, mt, title))
    for mt in media.DOCUMENT:
        href = ln.href(api.base, collection_path, [("f", mt)])
        out.append(ln.link(href, "collection", mt, f"The collection description as {mt}"))
    return out


# -- the route table ---------------------------------------------------------------------------


class ApiRoute(Route):
    """A route whose query values are the endpoint's to judge (JSON carries any character:
    GeoServer answers a value it cannot use with its own error), and whose path a client
    cannot spell (a character XML cannot hold) is refused in the API's error shape."""

    check_query = False

    async def handle(self, scope: Scope, receive: Receive, send: Send) -> None:
        try:
            check_request_text(scope, query=False)
        except EmulatorError as err:
            await _error(ApiError(INVALID, err.message, err.status))(scope, receive, send)
            return
        await routing.Route.handle(self, scope, receive, send)


PREFIXES = ("", "/{workspace}", "/{workspace}/{layer}")

ENDPOINTS: tuple[tuple[str, str, Handler], ...] = (
    ("", "getLandingPage", landing),
    ("/", "getLandingPage", landing),
    ("/conformance", "getConformanceDeclaration", conformance),
    ("/openapi", "getApi", api_document),
    ("/openapi.json", "getApi", api_document),
    ("/openapi.yaml", "getApi", api_document),
    ("/collections", "getCollections", collections),
    ("/collections/{collection}", "describeCollection", collection),
    ("/collections/{collection}/queryables", "getQueryables", queryables),
    ("/collections/{collection}/items", "getFeatures", items),
    ("/collections/{collection}/items/{feature:path}", "getFeature", item),
    ("/functions", "getFunctions", functions),
)
"""(path under the API root, GeoServer's operation name, handler)"""


def _unmapped(operation: str) -> Handler:
    def handler(api: Api, request: Request) -> Response:
        raise _no_mapping(request)

    return handler


routes = [
    *(
        ApiRoute(f"{prefix}/{ROOT}{path}", _endpoint(op, handler), methods=["GET"])
        for prefix in PREFIXES
        for path, op, handler in ENDPOINTS
    ),
    *(
        ApiRoute(
            f"{prefix}/{ROOT}/collections/{{collection}}/search",
            search,
            methods=["POST"],
            support="404 until the search class is on in the WFS settings",
        )
        for prefix in PREFIXES
    ),
    *(
        ApiRoute(
            f"{prefix}/{ROOT}/{{rest:path}}",
            _endpoint("", _unmapped("")),
            methods=["GET"],
            support="any other path: GeoServer's 404 ResourceNotFound",
        )
        for prefix in PREFIXES
    ),
]
