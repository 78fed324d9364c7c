"""Data, coverage, WMS and WMTS stores of a workspace (DataStoreController,
CoverageStoreController, WMSStoreController, WMTSStoreController)."""

from __future__ import annotations

import copy
from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute

from ...core.errors import Forbidden, Invalid, NotFound, Unauthorized
from ...http.routing import Route
from . import hooks, web
from .codec import store_node
from .entities import COVERAGE_STORE, DATA_STORE, WMS_STORE, WMTS_STORE
from .model import Catalog, CoverageStore, DataStore, Store, WMSStore, WMTSStore
from .parse import parse_store
from .routes_workspaces import seg

Spec = tuple[str, type[Store], str, str, str]
KINDS: dict[str, Spec] = {
    # path segment: (kind, class, "no such" wording, title, segment)
    "datastores": (DATA_STORE, DataStore, "datastore", "Data stores", "datastores"),
    "coveragestores": (
        COVERAGE_STORE,
        CoverageStore,
        "coverage store",
        "Coverage stores",
        "coveragestores",
    ),
    "wmsstores": (WMS_STORE, WMSStore, "wms store", "WMS stores", "wmsstores"),
    "wmtsstores": (WMTS_STORE, WMTSStore, "wmts store", "WMTS stores", "wmtsstores"),
}
FACTORY_TYPES = {
    "geopkg": "GeoPackage",
    "postgis": "PostGIS",
    "h2": "H2",
    "app-schema": "Application Schema DataAccess",
}


def existing(cat: Catalog, ws: str, name: str, kind: str, wording: str) -> Store:
    found = cat.store(ws, name, kind)
    if found is None:
        raise NotFound(f"No such {wording}: {ws},{name}")
    return found


async def stores(request: Request, spec: Spec) -> Response:
    kind, cls, _, title, segment = spec
    ws = web.param(request, "workspace")
    cat = web.catalog_view(request)
    if cat.workspace(ws) is None:
        raise NotFound(f"No such workspace : {ws}")
    if request.method == "POST":
        return await _post_store(request, cat, ws, spec)
    fmt = web.out_format(request, None)
    names = [s.name for s in cat.list_stores(ws, kind)]
    return web.answer_list(request, kind, names, fmt, f"{title} in {ws}")


async def _post_store(request: Request, cat: Catalog, ws: str, spec: Spec) -> Response:
    kind, cls, _, _, segment = spec
    _, data = await web.body(request, kind)
    fields = parse_store(data)
    given = fields.pop("workspace", None)
    real = cat.workspace(ws)
    assert real is not None
    if given is not None and given != real.name and given != ws:
        raise Forbidden(f"Expected workspace {ws} but client specified {given}")
    if not fields.get("name"):
        raise Invalid("Store name must not be null")
    store = cls(fields.pop("name"), real.name)
    _apply(store, fields)
    if kind == DATA_STORE:
        store.enabled = True
        _fill_data_store(cat, store)
    cat.add_store(store, when=web.now(request))
    return web.created(request, f"workspaces/{seg(ws)}/{segment}/{seg(store.name)}", store.name)


def _fill_data_store(cat: Catalog, store: Store) -> None:
    assert isinstance(store, DataStore)
    params = store.connection_parameters
    ns = cat.namespace(store.workspace) or cat.default_namespace
    if "namespace" not in params and ns is not None:
        params["namespace"] = ns.uri
    # GeoServer sets the type from the factory the parameters select, over any type the
    # client sent (GeoNode sends an empty <type/>); with no factory found it keeps the given one
    if params.get("dbtype") in FACTORY_TYPES:
        store.type = FACTORY_TYPES[params["dbtype"]]
    elif str(params.get("url", "")).lower().endswith(".shp"):
        store.type = "Shapefile"


def _apply(store: Store, fields: dict[str, Any]) -> None:
    for key, value in fields.items():
        if key in ("connection_parameters", "url") and not hasattr(store, key):
            raise Invalid(f"A {store.kind} has no {key}")
        if key == "capabilities_url" and not hasattr(store, key):
            raise Invalid(f"A {store.kind} has no capabilitiesURL")
        setattr(store, key, value)


async def store(request: Request, spec: Spec) -> Response:
    kind, _, wording, _, _ = spec
    ws = web.param(request, "workspace")
    name, ext = web.last(request, "store")
    cat = web.catalog(request)
    current = existing(cat, ws, name, kind, wording)
    if request.method == "GET":
        fmt = web.out_format(request, ext)
        children = None
        if current.lists_children:
            listed = cat.list_resources(current.workspace, store=current.name)
            children = [r.name for r in listed]
        node = store_node(current, web.links(request, fmt), fmt, children)
        return web.answer(node, fmt, f"{wording.capitalize()} {current.workspace}:{current.name}")
    if request.method == "DELETE":
        recurse = web.flag(request, "recurse")
        if (
            kind == COVERAGE_STORE
            and not recurse
            and cat.list_resources(current.workspace, store=current.name)
        ):
            raise Unauthorized("coveragestore not empty")
        cat.delete_store(current.workspace, current.name, recurse=recurse)
        hooks.store_deleted(web.state(request), current, request.query_params.get("purge"))
        return Response(status_code=200)
    _, data = await web.body(request, kind)
    fields = parse_store(data)
    updated = copy.deepcopy(current)
    _apply(updated, fields)
    old = (current.workspace, current.name)
    cat.replace_store(current.workspace, current.name, updated, when=web.now(request))
    if (updated.workspace, updated.name) != old:  # uploaded data follows its store
        web.state(request).features.move_store(old, (updated.workspace, updated.name))
    return Response(status_code=200)


async def reset(request: Request, spec: Spec) -> Response:
    kind, _, wording, _, _ = spec
    existing(
        web.catalog(request),
        web.param(request, "workspace"),
        web.param(request, "store"),
        kind,
        wording,
    )
    return Response(status_code=200)


def _routes(segment: str, writable: bool) -> list[BaseRoute]:
    spec = KINDS[segment]
    base = f"/rest/workspaces/{{workspace}}/{segment}"

    async def list_endpoint(request: Request) -> Response:
        return await stores(request, spec)

    async def item_endpoint(request: Request) -> Response:
        return await store(request, spec)

    async def reset_endpoint(request: Request) -> Response:
        return await reset(request, spec)

    list_methods = ["GET", "POST"] if writable else ["GET"]
    item_methods = ["GET", "PUT", "DELETE"] if writable else ["GET"]
    out: list[BaseRoute] = [
        Route(base, list_endpoint, methods=list_methods),
        Route(base + ".{ext}", list_endpoint, methods=list_methods),
        Route(base + "/{store}", item_endpoint, methods=item_methods),
    ]
    if writable:
        out.append(Route(base + "/{store}/reset", reset_endpoint, methods=["POST", "PUT"]))
    return out


routes: list[BaseRoute] = [
    *_routes("datastores", True),
    *_routes("coveragestores", True),
]
"""WMS and WMTS stores are the cascade area's (``areas/cascade``)."""
