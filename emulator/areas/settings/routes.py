"""Routes of GeoServer's configuration: ``/rest/settings``, ``/rest/settings/contact``,
``/rest/workspaces/{ws}/settings``, ``/rest/services/{kind}/settings``,
``/rest/services/{kind}/workspaces/{ws}/settings``, ``/rest/logging``, ``/rest/fonts``
and (from ``routes_templates``) the Freemarker templates.

Each path takes an optional ``.xml``/``.json``/``.html`` suffix; with neither a suffix nor
``Accept`` the answer is JSON, the first type these controllers declare. Methods a path
does not have answer 405. Every change rewrites the configuration files it touches in the
data directory (``files.sync``).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute

from ...core.errors import NotFound
from ...http import context as ctx
from ...http.routing import Route
from ..catalog.tree import Node
from . import codec, defaults, files, schema
from .model import KINDS, SettingsStore
from .routes_templates import routes as template_routes

FORMATS = ("xml", "json", "html")
Endpoint = Callable[[Request], Awaitable[Response]]
BODY_FORMATS = ("xml", "json")


def _store(request: Request) -> SettingsStore:
    return ctx.emulator(request).state.settings


def _ext(request: Request) -> str | None:
    ext = request.path_params.get("ext")
    if ext is None:
        return None
    if ext.lower() not in FORMATS:
        raise NotFound(f"No such resource: {request.method} {request.url.path}")
    return str(ext.lower())


def _reply(request: Request, doc: Node, title: str) -> Response:
    fmt = ctx.response_format(request, _ext(request), FORMATS, default="json")
    return ctx.respond(codec.render(doc, fmt, title), fmt)


async def _read(request: Request, root: str, table: schema.Table) -> codec.ParsedBody:
    _ext(request)
    fmt = ctx.body_format(request, BODY_FORMATS)
    return codec.parse(await ctx.body(request), fmt, root, table)


def _saved(request: Request, *paths: str) -> None:
    """Rewrite the files of what was saved, and ``global.xml`` (its ``updateSequence``)."""
    emu = ctx.emulator(request)
    files.sync(emu.state, emu.clock.now(), ("global.xml", *paths))


def _workspace(request: Request) -> str:
    name: str = request.path_params["workspace"]
    if ctx.emulator(request).state.catalog.workspace(name) is None:
        raise NotFound(f"Workspace '{name}' not found")
    return name


def _kind(request: Request) -> str:
    kind: str = request.path_params["kind"]
    if kind not in KINDS:
        raise NotFound(f"No such service: {kind}")
    return kind


def _new_id(request: Request, cls: str) -> str:
    return ctx.emulator(request).state.ids.catalog_id(cls)


# -- global ----------------------------------------------------------------------------------


async def global_settings(request: Request) -> Response:
    store = _store(request)
    if request.method == "PUT":
        patch, _ = await _read(request, "global", schema.GLOBAL)
        store.update_global(patch)
        _saved(request)
        return Response(status_code=200)
    doc = codec.node(schema.GLOBAL, store.global_info, "global")
    return _reply(request, doc, "Settings")


async def contact(request: Request) -> Response:
    store = _store(request)
    if request.method == "PUT":
        patch, _ = await _read(request, "contact", schema.CONTACT)
        store.update_contact(patch)
        _saved(request)
        return Response(status_code=200)
    values = store.global_info.get("settings", {}).get("contact", {})
    return _reply(request, codec.node(schema.CONTACT, values, "contact"), "Contact")


# -- workspace settings ----------------------------------------------------------------------


async def workspace_settings(request: Request) -> Response:
    ws = _workspace(request)
    store = _store(request)
    if request.method == "DELETE":
        store.delete_workspace_settings(ws)
        _saved(request, f"workspaces/{ws}/settings.xml")
        return Response(status_code=200)
    if request.method in ("POST", "PUT"):
        patch, _ = await _read(request, "settings", schema.SETTINGS)
        new_id = _new_id(request, "SettingsInfoImpl")
        if request.method == "POST":
            store.create_workspace_settings(ws, patch, new_id)
            _saved(request, f"workspaces/{ws}/settings.xml")
            return ctx.created(request, f"workspaces/{ws}/settings", ws)
        store.put_workspace_settings(ws, patch, new_id)
        _saved(request, f"workspaces/{ws}/settings.xml")
        return Response(status_code=200)
    own = store.workspace_settings.get(ws)
    if own is None:  # GeoServer answers a blank settings object, without a workspace
        doc = codec.node(schema.SETTINGS, defaults.fresh(defaults.NEW_SETTINGS), "settings")
    else:
        doc = codec.node(schema.SETTINGS, own, "settings", workspace=ws)
    return _reply(request, doc, f"Settings of {ws}")


# -- services --------------------------------------------------------------------------------


async def service_settings(request: Request) -> Response:
    kind = _kind(request)
    store = _store(request)
    table = schema.SERVICES[kind]
    if request.method == "PUT":
        patch, _ = await _read(request, kind, table)
        store.put_service(kind, None, patch, "")
        _saved(request, f"{kind}.xml")
        return Response(status_code=200)
    doc = codec.node(table, store.services[kind], kind, skip=frozenset({"id"}))
    return _reply(request, doc, f"{kind.upper()} settings")


async def workspace_service_settings(request: Request) -> Response:
    kind = _kind(request)
    ws = _workspace(request)
    store = _store(request)
    table = schema.SERVICES[kind]
    if request.method == "DELETE":
        store.delete_service(kind, ws)
        _saved(request, f"workspaces/{ws}/{kind}.xml")
        return Response(status_code=200)
    if request.method == "PUT":
        patch, _ = await _read(request, kind, table)
        store.put_service(kind, ws, patch, _new_id(request, f"{kind.upper()}InfoImpl"))
        _saved(request, f"workspaces/{ws}/{kind}.xml")
        return Response(status_code=200)
    own = store.own_service(kind, ws)
    if own is None:
        raise NotFound(f"No {kind.upper()} settings for workspace '{ws}'")
    doc = codec.node(table, own, kind, workspace=ws, skip=frozenset({"id"}))
    return _reply(request, doc, f"{kind.upper()} settings of {ws}")


# -- logging and fonts -----------------------------------------------------------------------


async def logging(request: Request) -> Response:
    store = _store(request)
    if request.method == "PUT":
        patch, _ = await _read(request, "logging", schema.LOGGING)
        store.update_logging(patch)
        emu = ctx.emulator(request)
        files.sync(emu.state, emu.clock.now(), ("logging.xml",))
        return Response(status_code=200)
    return _reply(request, codec.node(schema.LOGGING, store.logging, "logging"), "Logging")


async def fonts(request: Request) -> Response:
    names = sorted(_store(request).fonts)
    fmt = ctx.response_format(request, _ext(request), ("xml", "json"), default="json")
    return ctx.respond(codec.dump_fonts(names, fmt), fmt)


def _pair(path: str, endpoint: Endpoint, methods: list[str], name: str) -> list[BaseRoute]:
    """The route with and without a format suffix."""
    return [
        Route(path, endpoint, methods=methods, name=name),
        Route(f"{path}.{{ext}}", endpoint, methods=methods, name=f"{name}_ext"),
    ]


routes: list[BaseRoute] = [
    *_pair("/rest/settings", global_settings, ["GET", "PUT"], "settings"),
    *_pair("/rest/settings/contact", contact, ["GET", "PUT"], "settings_contact"),
    *_pair(
        "/rest/workspaces/{workspace}/settings",
        workspace_settings,
        ["GET", "POST", "PUT", "DELETE"],
        "workspace_settings",
    ),
    *_pair("/rest/services/{kind}/settings", service_settings, ["GET", "PUT"], "service"),
    *_pair(
        "/rest/services/{kind}/workspaces/{workspace}/settings",
        workspace_service_settings,
        ["GET", "PUT", "DELETE"],
        "workspace_service",
    ),
    *_pair("/rest/logging", logging, ["GET", "PUT"], "logging"),
    *_pair("/rest/fonts", fonts, ["GET"], "fonts"),
    *template_routes,
]
