"""HTTP routes of the catalog: workspaces, namespaces, stores, resources, layers, groups,
and the resource API over the data directory."""

from __future__ import annotations

from starlette.routing import BaseRoute

from . import resource_api, routes_layers, routes_resources, routes_stores, routes_workspaces

routes: list[BaseRoute] = [
    *routes_workspaces.routes,
    *routes_stores.routes,
    *routes_resources.routes,
    *routes_layers.routes,
    *resource_api.routes,
]
