"""HTTP routes of the catalog: workspaces, namespaces, stores, resources, layers, groups,
the resource API over the data directory, and reload/reset (CatalogReloadController)."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute

from ...http.routing import Route
from . import resource_api, routes_layers, routes_resources, routes_stores, routes_workspaces


async def reload_or_reset(request: Request) -> Response:
    """``/rest/reload`` (re-read the data directory) and ``/rest/reset`` (drop store
    connections and caches): 200 with no body. The emulated catalog is its own data directory
    and holds no connections or caches, so both leave the state as it is."""
    return Response(status_code=200)


routes: list[BaseRoute] = [
    *routes_workspaces.routes,
    *routes_stores.routes,
    *routes_resources.routes,
    *routes_layers.routes,
    *resource_api.routes,
    Route("/rest/reload", reload_or_reset, methods=["POST", "PUT"]),
    Route("/rest/reset", reload_or_reset, methods=["POST", "PUT"]),
]
