"""HTTP routes of cascaded WMS and WMTS stores and their layers.

    /rest/workspaces/{ws}/wmsstores[/{store}]                     WMSStoreController
    /rest/workspaces/{ws}/wmsstores/{store}/wmslayers[/{layer}]   WMSLayerController
    /rest/workspaces/{ws}/wmslayers[/{layer}]
    /rest/workspaces/{ws}/wmtsstores[/{store}]                    WMTSStoreController
    /rest/workspaces/{ws}/wmtsstores/{store}/layers[/{layer}]     WMTSLayerController
    /rest/workspaces/{ws}/wmtslayers[/{layer}]

Every answer is XML, JSON or HTML (JSON when nothing says which: the controllers list it
first). The rules are ``model.py``'s; the remote server is reached through ``remote.py``.
"""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute

from ...core.errors import EmulatorError, Forbidden, Invalid, NotFound
from ...core.record import record
from ...http import context
from ...http.routing import Route
from ..catalog import web
from ..catalog.codec import render
from ..catalog.model import Catalog
from ..catalog.routes_workspaces import seg
from . import model
from .codec import layer_node, names_node, parse_layer, parse_store, read_body, store_node
from .entities import (
    WMS_LAYER,
    WMS_STORE,
    WMTS_LAYER,
    WMTS_STORE,
    HTTPStore,
    WMSLayer,
    WMSStore,
    WMTSLayer,
    WMTSStore,
)
from .remote import Unreachable, connect


@record(frozen=True)
class Kind:
    """One of the two services: its store and layer kinds and their path segments."""

    service: str  # "wms" or "wmts"
    store_kind: str
    store_cls: type[HTTPStore]
    layer_kind: str
    stores: str  # path segment of the stores
    children: str  # path segment of a store's layers
    layers: str  # path segment of a workspace's layers


WMS = Kind("wms", WMS_STORE, WMSStore, WMS_LAYER, "wmsstores", "wmslayers", "wmslayers")
WMTS = Kind("wmts", WMTS_STORE, WMTSStore, WMTS_LAYER, "wmtsstores", "layers", "wmtslayers")


def _body(request: Request, root: str, raw: bytes) -> dict[str, Any]:
    return read_body(raw, context.body_format(request), root)


def _store(cat: Catalog, kind: Kind, ws: str, name: str) -> HTTPStore:
    found = cat.store(ws, name, kind.store_kind)
    if not isinstance(found, HTTPStore):
        raise NotFound(f"No such {kind.service} store: {ws},{name}")
    return found


def _workspace(cat: Catalog, ws: str, message: str) -> str:
    found = cat.workspace(ws)
    if found is None or cat.namespace(found.name) is None:
        raise NotFound(message)
    return found.name


# -- stores ---------------------------------------------------------------------------------


async def stores(request: Request, kind: Kind) -> Response:
    cat = web.catalog(request)
    requested = web.param(request, "workspace")
    ws = _workspace(cat, requested, f"No such workspace : {requested}")
    if request.method == "POST":
        return await _post_store(request, cat, kind, ws)
    fmt = web.out_format(request, None)
    names = [s.name for s in cat.list_stores(ws, kind.store_kind)]
    title = f"{kind.service.upper()} stores in {ws}"
    return web.answer_list(request, kind.store_kind, names, fmt, title)


async def _post_store(request: Request, cat: Catalog, kind: Kind, ws: str) -> Response:
    fields = parse_store(_body(request, kind.store_kind, await context.body(request)))
    given = fields.pop("workspace", None)
    requested = web.param(request, "workspace")
    if given is not None and given not in (ws, requested):
        raise Forbidden(f"Expected workspace {requested} but client specified {given}")
    store = kind.store_cls(fields.pop("name", None) or "", ws)
    model.assign(store, fields)
    model.add_store(cat, store, web.now(request))
    path = f"workspaces/{seg(requested)}/{kind.stores}/{seg(store.name)}"
    return web.created(request, path, store.name)


async def store(request: Request, kind: Kind) -> Response:
    cat = web.catalog(request)
    ws = web.param(request, "workspace")
    name, ext = web.last(request, "store")
    current = _store(cat, kind, ws, name)
    if request.method == "GET":
        fmt = web.out_format(request, ext)
        layers = [r.name for r in cat.list_resources(current.workspace, store=current.name)]
        node = store_node(current, web.links(request, fmt), fmt, layers)
        title = f"{kind.service.upper()} store {current.workspace}:{current.name}"
        return web.answer(node, fmt, title)
    if request.method == "DELETE":
        model.delete_store(cat, current, web.flag(request, "recurse"))
        return Response(status_code=200)
    fields = parse_store(_body(request, kind.store_kind, await context.body(request)))
    model.update_store(cat, current, fields, web.now(request))
    return Response(status_code=200)


# -- layers ---------------------------------------------------------------------------------


def _layer(cat: Catalog, kind: Kind, ws: str, store: str | None, name: str) -> Any:
    ws = _workspace(cat, ws, f"Could not find workspace {ws}")
    found = cat.resource(ws, name, kind.layer_kind, store)
    if store is not None:
        _store(cat, kind, ws, store)
    if not isinstance(found, WMSLayer | WMTSLayer):
        raise NotFound(f"No such cascaded {kind.service}: {ws},{name}")
    return found


async def layers(request: Request, kind: Kind, with_store: bool) -> Response:
    cat = web.catalog(request)
    requested = web.param(request, "workspace")
    ws = _workspace(cat, requested, f"Could not find workspace {requested}")
    store_name = web.param(request, "store") if with_store else None
    if request.method == "POST":
        return await _post_layer(request, cat, kind, ws, store_name)
    found = (
        [_store(cat, kind, ws, store_name)]
        if store_name is not None
        else [s for s in cat.list_stores(ws, kind.store_kind) if isinstance(s, HTTPStore)]
    )
    fmt = web.out_format(request, None)
    listing = request.query_params.get("list") or "configured"
    if listing == "configured":
        names = [r.name for s in found for r in cat.list_resources(ws, store=s.name)]
        return web.answer_list(request, kind.layer_kind, names, fmt, "Cascaded layers")
    if listing != "available":
        raise EmulatorError(f"Unknown list type {listing}", status=501)
    available: list[str] = []
    for s in found:
        try:
            remote = connect(web.state(request), s)
        except Unreachable:
            raise Unreachable(
                f"Could not load {kind.service} store: {store_name or 'null'}"
            ) from None
        available.extend(model.available(cat, s, remote))
    return _names(fmt, f"{kind.service}LayerName", available)


def _names(fmt: str, item: str, names: list[str]) -> Response:
    if fmt == "json":
        from ...wire.json import dumps

        return context.respond(dumps({"list": {"string": names}}), "json")
    return context.respond(render(names_node(item, names), fmt, "Available layers"), fmt)


async def _post_layer(
    request: Request, cat: Catalog, kind: Kind, ws: str, store_name: str | None
) -> Response:
    fields = parse_layer(
        _body(request, kind.layer_kind, await context.body(request)), kind.layer_kind
    )
    given_store = fields.pop("store", None)
    given_ns = fields.pop("namespace", None)
    requested = web.param(request, "workspace")
    given_local = given_store.rpartition(":")[2] if given_store else None
    if given_local and store_name is not None and given_local != store_name:
        raise Forbidden(
            f"Expected {kind.service} store {store_name} but client specified {given_store}"
        )
    if given_ns is not None and given_ns not in (ws, requested):
        raise Forbidden(f"Expected workspace {requested} but client specified {given_ns}")
    name = store_name or given_local
    if not name:
        raise Invalid(f"No {kind.service} store named: give one in the path or the body")
    target = _store(cat, kind, ws, name)
    remote = connect(web.state(request), target)
    layer = model.build_layer(target, remote, fields)
    model.add_layer(cat, layer, web.now(request))
    segs = [f"workspaces/{seg(requested)}"]
    if store_name is not None:
        segs += [kind.stores, seg(store_name), kind.children]
    else:
        segs.append(kind.layers)
    return web.created(request, "/".join([*segs, seg(layer.name)]), layer.name)


async def layer(request: Request, kind: Kind, with_store: bool) -> Response:
    cat = web.catalog(request)
    ws = web.param(request, "workspace")
    store_name = web.param(request, "store") if with_store else None
    name, ext = web.last(request, "layer")
    current = _layer(cat, kind, ws, store_name, name)
    if request.method == "GET":
        fmt = web.out_format(request, ext)
        holder = _store(cat, kind, current.workspace, current.store)
        node = layer_node(current, holder, web.links(request, fmt))
        return web.answer(node, fmt, f"Cascaded layer {current.workspace}:{current.name}")
    if request.method == "DELETE":
        model.delete_layer(cat, current, web.flag(request, "recurse"))
        return Response(status_code=200)
    fields = parse_layer(
        _body(request, kind.layer_kind, await context.body(request)), kind.layer_kind
    )
    model.update_layer(cat, current, fields, web.now(request))
    return Response(status_code=200)


# -- the route table --------------------------------------------------------------------------


def _routes(kind: Kind) -> list[BaseRoute]:
    base = f"/rest/workspaces/{{workspace}}/{kind.stores}"
    in_store = f"{base}/{{store}}/{kind.children}"
    in_ws = f"/rest/workspaces/{{workspace}}/{kind.layers}"

    async def stores_endpoint(request: Request) -> Response:
        return await stores(request, kind)

    async def store_endpoint(request: Request) -> Response:
        return await store(request, kind)

    async def store_layers(request: Request) -> Response:
        return await layers(request, kind, True)

    async def store_layer(request: Request) -> Response:
        return await layer(request, kind, True)

    async def ws_layers(request: Request) -> Response:
        return await layers(request, kind, False)

    async def ws_layer(request: Request) -> Response:
        return await layer(request, kind, False)

    item = ["GET", "PUT", "DELETE"]
    return [
        Route(base, stores_endpoint, methods=["GET", "POST"]),
        Route(base + ".{ext}", stores_endpoint, methods=["GET", "POST"]),
        Route(in_store, store_layers, methods=["GET", "POST"]),
        Route(in_store + ".{ext}", store_layers, methods=["GET", "POST"]),
        Route(in_store + "/{layer}", store_layer, methods=item),
        Route(base + "/{store}", store_endpoint, methods=item),
        Route(in_ws, ws_layers, methods=["GET", "POST"]),
        Route(in_ws + ".{ext}", ws_layers, methods=["GET", "POST"]),
        Route(in_ws + "/{layer}", ws_layer, methods=item),
    ]


routes: list[BaseRoute] = [*_routes(WMS), *_routes(WMTS)]
