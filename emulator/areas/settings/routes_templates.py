"""Freemarker templates: ``/rest/templates`` and the same under a workspace, a data or
coverage store, a feature type and a coverage (TemplateController).

A template is a file ``{name}.ftl`` in the data-directory folder of what it belongs to
(``templates/``, ``workspaces/{ws}/``, ``workspaces/{ws}/{store}/``,
``workspaces/{ws}/{store}/{resource}/``), so the resource API shows it too. GET of a folder
lists its templates (HTML unless a suffix or ``Accept`` says otherwise); GET, PUT (201) and
DELETE act on one template; what it belongs to must exist (404).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from urllib.parse import quote

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute

from ...core.errors import NotFound
from ...http import context as ctx
from ...http.routing import Route
from ...wire.geoserver.html import esc
from ...wire.geoserver.html import page as html_page
from ...wire.negotiate import split_ext
from ..catalog.tree import Node, dump_xml, to_json

SUFFIX = ".ftl"
FORMATS = ("xml", "json", "html")
Endpoint = Callable[[Request], Awaitable[Response]]


def folder(request: Request) -> str:
    """The data-directory folder of the templates a request addresses (404 when what they
    belong to does not exist)."""
    p = request.path_params
    ws, store, resource = p.get("workspace"), p.get("store"), p.get("resource")
    if ws is None:
        return "templates"
    cat = ctx.emulator(request).state.catalog
    if cat.workspace(ws) is None:
        raise NotFound(f"Workspace '{ws}' not found")
    if store is None:
        return f"workspaces/{ws}"
    coverage = "/coveragestores/" in request.url.path
    found_store = cat.coverage_store(ws, store) if coverage else cat.data_store(ws, store)
    if found_store is None:
        raise NotFound(f"Store '{store}' not found in workspace '{ws}'")
    if resource is None:
        return f"workspaces/{ws}/{store}"
    found = cat.coverage(ws, resource, store) if coverage else cat.feature_type(ws, resource, store)
    if found is None:
        raise NotFound(f"Resource '{resource}' not found in store '{store}'")
    return f"workspaces/{ws}/{store}/{resource}"


def _names(request: Request, where: str) -> list[str]:
    dd = ctx.emulator(request).state.datadir
    return [n for n, is_dir in dd.listdir(where) if not is_dir and n.endswith(SUFFIX)]


async def template_list(request: Request) -> Response:
    where = folder(request)
    ext = request.path_params.get("ext")
    if ext is not None and ext not in FORMATS:
        raise NotFound(f"No such resource: {request.method} {request.url.path}")
    fmt = ctx.response_format(request, ext, FORMATS, default="html")
    page = ctx.base_url(request) + split_ext(request.url.path, FORMATS)[0].removeprefix(
        ctx.emulator(request).context_path
    )
    items = [(name, f"{page}/{quote(name)}") for name in _names(request, where)]
    if fmt == "html":
        lines = "".join(f'<li><a href="{esc(href)}">{esc(n)}</a></li>\n' for n, href in items)
        return ctx.respond(html_page(f"Templates\n<ul>\n{lines}</ul>"), "html")
    doc = Node(
        "templates",
        children=[
            Node("template", children=[Node("name", n)], link=href, link_type="text/plain")
            for n, href in items
        ],
        arrays=frozenset({"template"}),
    )
    from ...wire import json as wjson

    body = wjson.dumps({"templates": to_json(doc)}) if fmt == "json" else dump_xml(doc)
    return ctx.respond(body, fmt)


async def template(request: Request) -> Response:
    name: str = request.path_params["name"]
    if not name.endswith(SUFFIX) or name == SUFFIX:
        raise NotFound(f"No such template: {name}")
    path = f"{folder(request)}/{name}"
    emu = ctx.emulator(request)
    dd = emu.state.datadir
    if request.method == "PUT":
        dd.write(path, await ctx.body(request), emu.clock.now())
        return Response(status_code=201)
    data = dd.read(path)
    if data is None:
        raise NotFound(f"Template not found: {name}")
    if request.method == "DELETE":
        dd.delete(path)
        return Response(status_code=200)
    return Response(data, media_type="text/plain")


_PARENTS = (
    "",
    "/workspaces/{workspace}",
    "/workspaces/{workspace}/datastores/{store}",
    "/workspaces/{workspace}/datastores/{store}/featuretypes/{resource}",
    "/workspaces/{workspace}/coveragestores/{store}",
    "/workspaces/{workspace}/coveragestores/{store}/coverages/{resource}",
)


def _routes() -> list[BaseRoute]:
    out: list[BaseRoute] = []
    for i, parent in enumerate(_PARENTS):
        base = f"/rest{parent}/templates"
        out += [
            Route(base, template_list, methods=["GET"], name=f"templates_{i}"),
            Route(f"{base}.{{ext}}", template_list, methods=["GET"], name=f"templates_{i}_ext"),
            Route(
                f"{base}/{{name}}", template, methods=["GET", "PUT", "DELETE"], name=f"template_{i}"
            ),
        ]
    return out


routes = _routes()
