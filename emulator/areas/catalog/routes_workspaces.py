"""``/rest/workspaces`` and ``/rest/namespaces`` (WorkspaceController, NamespaceController)."""

from __future__ import annotations

from urllib.parse import quote

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute

from ...core.errors import Conflict, Forbidden, Invalid, MethodNotAllowed, NotFound
from ...core.hooks import call as call_hook
from ...http.context import emulator
from ...http.routing import Route
from . import hooks, web
from .codec import namespace_node, workspace_node
from .parse import apply_fields, parse_namespace, parse_workspace


def seg(name: str) -> str:
    """A name as a path segment of a ``Location`` header."""
    return quote(name, safe=":@!$&'()*+,;=")


async def workspaces(request: Request) -> Response:
    if request.method == "POST":
        return await _post_workspace(request)
    fmt = web.out_format(request, None)
    names = [w.name for w in web.catalog_view(request).list_workspaces()]
    return web.answer_list(request, "workspace", names, fmt, "Workspaces")


async def _post_workspace(request: Request) -> Response:
    _, data = await web.body(request, "workspace")
    fields = parse_workspace(data)
    name = fields.get("name")
    if not name:
        raise Invalid("workspace name must not be null")
    cat = web.catalog(request)
    if cat.workspace(name) is not None and name != "default":
        raise Conflict(f"Workspace '{name}' already exists")
    ws = cat.add_workspace(
        name,
        isolated=fields.get("isolated", False),
        make_default=web.flag(request, "default"),
        when=web.now(request),
    )
    apply_fields(ws, {"extras": fields.get("extras", {})}, "workspace")
    return web.created(request, f"workspaces/{seg(name)}", name)


async def workspace(request: Request) -> Response:
    name, ext = web.last(request, "workspace")
    cat = web.catalog(request)
    if request.method == "GET":
        fmt = web.out_format(request, ext)
        ws = web.require(cat.workspace(name), f"No such workspace: '{name}' found")
        stores = None
        if fmt == "html":  # the page lists the workspace's stores
            stores = {}
            for store in cat.list_stores(ws.name):
                stores.setdefault(store.kind, []).append(store.name)
        node = workspace_node(ws, web.links(request, fmt), stores)
        return web.answer(node, fmt, f"Workspace {ws.name}")
    if request.method == "DELETE":
        real = cat.workspace(name)
        stores = cat.list_stores(real.name) if real is not None else []
        cat.delete_workspace(name, recurse=web.flag(request, "recurse"))
        for store in stores:
            hooks.store_deleted(web.state(request), store)
        if real is not None:
            _workspace_files_gone(request, real.name)
        return Response(status_code=200)
    _, data = await web.body(request, "workspace")
    fields = parse_workspace(data)
    if name == "default":
        target = fields.get("name")
        if not target or cat.workspace(target) is None or target == "default":
            raise NotFound(f"No such workspace: '{target}'")
        cat.set_default_workspace(target)
        return Response(status_code=200)
    if cat.workspace(name) is None:
        raise NotFound(f"Can't change a non existant workspace ({name})")
    if fields.get("name") == "":
        raise Forbidden("The workspace name cannot be empty")
    changed = cat.update_workspace(
        name, new_name=fields.get("name"), isolated=fields.get("isolated"), when=web.now(request)
    )
    apply_fields(changed, {"extras": fields.get("extras", {})}, "workspace")
    new_name = fields.get("name")
    if new_name and new_name != name:
        _workspace_files_moved(request, name, new_name)
    return Response(status_code=200)


def _workspace_files_gone(request: Request, name: str) -> None:
    """A deleted workspace takes its own styles and its data-directory folder with it."""
    state = emulator(request).state
    state.styles.drop_workspace(name)
    state.settings.drop_workspace(name)
    state.datadir.delete(f"workspaces/{name}")
    call_hook("catalog.workspace_changed", state, emulator(request).clock.now(), name)


def _workspace_files_moved(request: Request, old: str, new: str) -> None:
    """A renamed workspace keeps its styles and folder under the new name."""
    state = emulator(request).state
    state.features.rename_workspace(old, new)  # the data behind its upload stores
    state.styles.rename_workspace(old, new)
    state.settings.rename_workspace(old, new)
    state.datadir.move(f"workspaces/{old}", f"workspaces/{new}")
    call_hook("catalog.workspace_changed", state, emulator(request).clock.now(), new)


async def namespaces(request: Request) -> Response:
    cat = web.catalog(request)
    if request.method == "GET":
        fmt = web.out_format(request, None)
        return web.answer_list(
            request, "namespace", [n.prefix for n in cat.list_namespaces()], fmt, "Namespaces"
        )
    _, data = await web.body(request, "namespace")
    fields = parse_namespace(data)
    prefix = fields.get("prefix")
    if not prefix:
        raise Invalid("Namespace prefix must not be null")
    if not fields.get("uri"):
        raise Invalid("Namespace uri must not be null")
    ns = cat.add_namespace(
        prefix, fields["uri"], isolated=fields.get("isolated", False), when=web.now(request)
    )
    apply_fields(ns, {"extras": fields.get("extras", {})}, "namespace")
    return web.created(request, f"namespaces/{seg(prefix)}", prefix)


async def namespace(request: Request) -> Response:
    prefix, ext = web.last(request, "prefix")
    cat = web.catalog(request)
    if request.method == "GET":
        fmt = web.out_format(request, ext)
        ns = web.require(cat.namespace(prefix), f"No such namespace: '{prefix}' found")
        return web.answer(
            namespace_node(ns, web.links(request, fmt)), fmt, f"Namespace {ns.prefix}"
        )
    if request.method == "DELETE":
        if prefix == "default":
            raise MethodNotAllowed("Can't delete the default namespace")
        gone = cat.delete_namespace(prefix)
        if gone is not None:
            _workspace_files_gone(request, gone)
        return Response(status_code=200)
    _, data = await web.body(request, "namespace")
    fields = parse_namespace(data)
    if prefix == "default":
        target = fields.get("prefix")
        if not target or cat.workspace(target) is None or target not in cat.namespaces:
            raise NotFound(f"No such namespace: '{target}'")
        cat.set_default_workspace(target)
        return Response(status_code=200)
    if cat.namespace(prefix) is None:
        raise NotFound(f"Can't change a non existant namespace ({prefix})")
    if fields.get("prefix") not in (None, prefix):
        raise Forbidden("Can't change name of namespace")
    ns = cat.update_namespace(prefix, uri=fields.get("uri"), isolated=fields.get("isolated"))
    apply_fields(ns, {"extras": fields.get("extras", {})}, "namespace")
    return Response(status_code=200)


routes: list[BaseRoute] = [
    Route("/rest/workspaces", workspaces, methods=["GET", "POST"]),
    Route("/rest/workspaces.{ext}", workspaces, methods=["GET", "POST"]),
    Route("/rest/workspaces/{workspace}", workspace, methods=["GET", "PUT", "DELETE"]),
    Route("/rest/namespaces", namespaces, methods=["GET", "POST"]),
    Route("/rest/namespaces.{ext}", namespaces, methods=["GET", "POST"]),
    Route("/rest/namespaces/{prefix}", namespace, methods=["GET", "PUT", "DELETE"]),
]
