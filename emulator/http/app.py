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
from ..core.faults import ConnectionDropped
from ..wire import errors as wire_errors
from . import reload
from .middleware import AuthMiddleware, FaultMiddleware, JournalMiddleware, inner_path
from .rollback import RollbackMiddleware
from .routing import ContextRoot, LazyRoutes, RouteGroup

if TYPE_CHECKING:
    from ..emulator import Emulator

CATALOG_PREFIXES = tuple(
    f"/rest/{name}"
    for name in ("workspaces", "namespaces", "layers", "layergroups", "resource", "reload", "reset")
)

AREAS: list[LazyRoutes] = [
    LazyRoutes(f"geoserver_emulator.areas.{area}.routes", prefixes)
    for area, prefixes in (
        ("users", ("/rest/security/usergroup", "/rest/security/roles", "/rest/security/self")),
        ("auth_providers", ("/rest/security/authproviders",)),
        ("auth_filters", ("/rest/security/authfilters",)),
        ("security", ("/rest/security/masterpw", "/rest/security/acl")),
        ("urlchecks", ("/rest/urlchecks",)),
        ("about", ("/rest/about",)),
        (
            "settings",
            (
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
        ),
        ("styles", ("/rest/styles", "/rest/*/styles", "/rest/*/*/styles")),
        (
            "appschema",
            (
                "/rest/workspaces/*/appschemastores",
                "/rest/workspaces/*/datastores/*/file.appschema",
            ),
        ),
        ("mosaics", ("/rest/workspaces/*/coveragestores/*",)),
        (
            "cascade",
            (
                "/rest/workspaces/*/wmsstores",
                "/rest/workspaces/*/wmslayers",
                "/rest/workspaces/*/wmtsstores",
                "/rest/workspaces/*/wmtslayers",
            ),
        ),
        ("catalog", CATALOG_PREFIXES),
        (
            "uploads",
            ("/rest/workspaces/*/datastores/*/*", "/rest/workspaces/*/coveragestores/*/*"),
        ),
        ("seeding", ("/gwc/rest/seed", "/gwc/rest/layers")),
        ("gwc", ("/gwc/rest",)),
        (
            "ows",
            (
                *(f"{p}/{svc}" for p in ("", "/*", "/*/*") for svc in ("ows", "wms", "wfs", "wcs")),
                "/gwc/service/wmts",
            ),
        ),
    )
]
"""The areas' routes in matching order, each imported when a request first reaches the
area (``LazyRoutes``): a process pays only for the areas it uses."""


def app_routes() -> list[BaseRoute]:
    """The app's routes relative to the context root, in matching order: the control plane,
    reload and reset (one group), then each area (imported when first reached)."""
    return [RouteGroup([*control.routes, *reload.routes]), *AREAS]


def all_routes() -> list[BaseRoute]:
    """Every route of ``app_routes()``, each area's listed in place (imports every area)."""
    out: list[BaseRoute] = []
    for route in app_routes():
        out.extend(route.routes if isinstance(route, RouteGroup) else [route])
    return out


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
