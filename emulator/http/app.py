"""``create_app(emulator)``: the Starlette app with every area's routes under the context path."""

from __future__ import annotations

import traceback
from typing import TYPE_CHECKING

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute

from ..control import routes as control
from ..core.errors import EmulatorError
from ..core.extensions import EXTENSIONS
from ..core.faults import ConnectionDropped
from ..wire import errors as wire_errors
from . import reload
from .middleware import AuthMiddleware, FaultMiddleware, JournalMiddleware, inner_path
from .rollback import RollbackMiddleware
from .routing import ContextRoot, ExtensionRoutes, LazyPaths, LazyRoutes, RouteGroup, unwrapped

if TYPE_CHECKING:
    from ..emulator import Emulator

CATALOG_PREFIXES = tuple(
    f"/rest/{name}"
    for name in ("workspaces", "namespaces", "layers", "layergroups", "resource", "reload", "reset")
)

AREA_PREFIXES: dict[str, tuple[str, ...]] = {
    "crs": ("/rest/crs",),
    "users": ("/rest/security/usergroup", "/rest/security/roles", "/rest/security/self"),
    "usergroup_services": ("/rest/security/usergroupservices",),
    "filter_chains": ("/rest/security/filterchain",),
    "auth_providers": ("/rest/security/authproviders",),
    "auth_filters": ("/rest/security/authfilters",),
    "security": ("/rest/security/masterpw", "/rest/security/acl"),
    "urlchecks": ("/rest/urlchecks",),
    "about": ("/rest/about",),
    "settings": (
        "/rest/settings",
        "/rest/services",
        "/rest/logging",
        "/rest/fonts",
        "/rest/templates",
        "/rest/workspaces/*/settings",
        "/rest/workspaces/*/templates",
        "/rest/workspaces/*/datastores/*/templates",
        "/rest/workspaces/*/datastores/*/featuretypes/*/templates",
        "/rest/workspaces/*/coveragestores/*/templates",
        "/rest/workspaces/*/coveragestores/*/coverages/*/templates",
    ),
    "styles": ("/rest/styles", "/rest/*/styles", "/rest/*/*/styles"),
    "appschema": (
        "/rest/workspaces/*/appschemastores",
        "/rest/workspaces/*/datastores/*/file.appschema",
    ),
    "mosaics": ("/rest/workspaces/*/coveragestores/*",),
    "cascade": (
        "/rest/workspaces/*/wmsstores",
        "/rest/workspaces/*/wmslayers",
        "/rest/workspaces/*/wmtsstores",
        "/rest/workspaces/*/wmtslayers",
    ),
    "catalog": CATALOG_PREFIXES,
    "uploads": ("/rest/workspaces/*/datastores/*/*", "/rest/workspaces/*/coveragestores/*/*"),
    "seeding": ("/gwc/rest/seed", "/gwc/rest/layers"),
    "gwc": ("/gwc/rest",),
    "ows": (
        *(f"{p}/{svc}" for p in ("", "/*", "/*/*") for svc in ("ows", "wms", "wfs", "wcs")),
        "/gwc/service/wmts",
        "/temp/wcs",
        "/*/gwc/service/wmts",
        "/*/*/gwc/service/wmts",
    ),
}
"""URL ownership: the paths each area answers under, from the context root (``*`` is any one
segment; the last segment also covers a format suffix). A request outside an area's paths
never reaches its routes."""

FIRST: tuple[tuple[str, str, str], ...] = (
    ("appschema", "uploads", "`…/datastores/{ds}/file.appschema` is an app-schema upload"),
    ("mosaics", "catalog", "a mosaic store's `…/coverages` POST configures a mosaic coverage"),
    ("mosaics", "uploads", "a coverage store's `{file,external,url,remote}.{format}`"),
    ("catalog", "uploads", "`featuretypes.{ext}`, `coverages.{ext}` under a store are lists"),
    ("settings", "uploads", "`templates.{ext}` under a store lists its templates"),
    ("settings", "styles", "`/rest/templates/styles` is the template named styles"),
    ("urlchecks", "styles", "`/rest/urlchecks/styles` is the URL check named styles"),
    ("styles", "catalog", "`/rest/<ws>/styles` lists a workspace's styles, whatever <ws>"),
    ("crs", "styles", "`/rest/crs/styles` would be a CRS code, not a workspace's styles"),
    ("crs", "ows", "`/rest/crs/ows` would be a CRS code, not an OGC service shortcut"),
    ("catalog", "ows", "`/rest/layergroups/ows` is a layer group, not an OGC service shortcut"),
    ("settings", "ows", "`/rest/templates/wms` is a template, not an OGC service shortcut"),
    ("styles", "ows", "`/rest/styles/wms` is a style, not an OGC service shortcut"),
    ("urlchecks", "ows", "`/rest/urlchecks/wms` is a URL check, not an OGC service shortcut"),
)  # fmt: skip
"""Where two areas have routes that match the same request (the same path and a method in
common), which answers: (first, then, why). ``tests/http/test_url_ownership.py`` finds every
such pair in the route tables and fails on one that is not declared here."""


def routing_order(
    prefixes: dict[str, tuple[str, ...]], first: tuple[tuple[str, str, str], ...]
) -> list[str]:
    """The areas in the order their routes are tried: every pair of ``first`` in its order;
    otherwise the area with the more specific paths (more literal segments) first, then by
    name. The order the tables list the areas in plays no part."""

    def specific(area: str) -> tuple[int, str]:
        literal = max(sum(s != "*" for s in p.strip("/").split("/")) for p in prefixes[area])
        return (-literal, area)

    before: dict[str, set[str]] = {area: set() for area in prefixes}
    for earlier, later, _ in first:
        before[later].add(earlier)
    order: list[str] = []
    while before:
        ready = [area for area, needs in before.items() if not needs]
        if not ready:
            raise ValueError(f"the URL precedence has a cycle among {sorted(before)}")
        area = min(ready, key=specific)
        order.append(area)
        del before[area]
        for needs in before.values():
            needs.discard(area)
    return order


AREAS: list[LazyRoutes] = [
    LazyPaths("geoserver_emulator.http.rest_index", ("/rest", "/rest/index")),
    *(
        LazyRoutes(f"geoserver_emulator.areas.{area}.routes", AREA_PREFIXES[area])
        for area in routing_order(AREA_PREFIXES, FIRST)
    ),
]
"""The areas' routes in matching order (``routing_order``), each imported when a request first
reaches the area (``LazyRoutes``): a process pays only for the areas it uses."""

EXTENSION_AREAS: list[LazyRoutes] = [
    ExtensionRoutes(ext.name, f"geoserver_emulator.areas.{area}.routes", prefixes)
    for ext in EXTENSIONS.values()
    for area, prefixes in ext.routes
]
"""The extensions' routes (``core/extensions.py``), after the core areas: each matches only
on an emulator that installed its extension."""


def app_routes() -> list[BaseRoute]:
    """The app's routes relative to the context root, in matching order: the control plane,
    reload and reset (one group), then each area (imported when first reached)."""
    return [RouteGroup([*control.routes, *reload.routes]), *AREAS, *EXTENSION_AREAS]


def all_routes() -> list[BaseRoute]:
    """Every route of ``app_routes()``, each area's listed in place (imports every area); an
    extension's routes are listed as themselves, installed or not (``routing.unwrapped``)."""
    out: list[BaseRoute] = []
    for route in app_routes():
        out.extend(route.routes if isinstance(route, RouteGroup) else [route])
    return [unwrapped(r) for r in out]


def _error_response(
    request: Request, status: int, message: str, headers: dict[str, str]
) -> Response:
    emu = request.app.state.emulator
    path = inner_path(request.scope, emu) or request.url.path
    if not message.strip():  # a blank name in a message that is only the name: say more
        message = _blank_message(request, status, message)
    if path.startswith("/__emulator"):
        from ..wire.json import dumps

        return Response(dumps({"error": message}), status, headers, media_type="application/json")
    quiet = request.query_params.get("quietOnNotFound", "").lower() == "true"
    body, media_type = wire_errors.render(
        status, message, path, request.headers.get("accept"), quiet
    )
    return Response(body, status, headers, media_type=media_type)


def _blank_message(request: Request, status: int, message: str) -> str:
    """What a 4xx or 5xx whose own message is blank says instead: the status, the request,
    and the blank text quoted (GeoServer answers some errors with the bare name it could
    not find; a blank name would leave the body blank)."""
    from http import HTTPStatus

    try:
        phrase = HTTPStatus(status).phrase
    except ValueError:
        phrase = "Error"
    said = f" (the name given is {message!r})" if message else ""
    return f"{phrase}: {request.method} {request.url.path}{said}"


async def on_domain_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, EmulatorError)
    return _error_response(request, exc.status, exc.message, exc.headers)


async def on_http_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    if exc.status_code == 404:
        message = f"No such resource: {request.method} {request.url.path}" + _base_hint(request)
    elif exc.status_code == 405:
        message = f"Request method '{request.method}' is not supported"
    else:
        message = exc.detail
    return _error_response(request, exc.status_code, message, dict(exc.headers or {}))


def _base_hint(request: Request) -> str:
    """For a path outside the context path (``/rest/…`` instead of ``/geoserver/rest/…``):
    where the server is."""
    emu = request.app.state.emulator
    if not emu.context_path or inner_path(request.scope, emu) is not None:
        return ""
    path = request.url.path
    return (
        f"; this server's base is {emu.context_path} (REST at {emu.context_path}/rest):"
        f" try {emu.context_path}{path if path != '/' else '/'}"
    )


async def on_unexpected(request: Request, exc: Exception) -> Response:
    """A bug: answered as GeoServer answers any uncaught exception (500, the message), and
    remembered on the emulator so that tests can fail on it."""
    if isinstance(exc, ConnectionDropped):  # an injected fault, in process: let it out
        raise exc
    request.app.state.emulator.internal_errors.append(
        "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))
    )
    return _error_response(request, 500, f"Internal error: {type(exc).__name__}", {})


def create_app(emulator: Emulator) -> Starlette:
    routes: list[RouteGroup | ContextRoot] = [RouteGroup(app_routes())]  # one lookup a path
    if emulator.context_path:
        routes = [ContextRoot(emulator.context_path, routes[0])]
    app = Starlette(
        routes=routes,
        middleware=[
            Middleware(JournalMiddleware),
            Middleware(FaultMiddleware),
            Middleware(AuthMiddleware),
            Middleware(RollbackMiddleware),
        ],
        exception_handlers={
            EmulatorError: on_domain_error,
            HTTPException: on_http_error,
            Exception: on_unexpected,
        },
    )
    app.state.emulator = emulator
    vars(app.state)["emulator"] = emulator  # read on every request: found without __getattr__
    return app
