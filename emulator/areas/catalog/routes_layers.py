"""Layers and layer groups (LayerController, LayerGroupController).

``/rest/layers`` names layers ``ws:name``; ``/rest/workspaces/{ws}/layers`` by bare name.
``/rest/layergroups`` holds the global groups, ``/rest/workspaces/{ws}/layergroups`` the
groups of one workspace. A layer PUT looks its style names up in the styles area as
GeoServer's reference resolution does, and leaves out names that find no style (the default
style then stays as it was).
"""

from __future__ import annotations

import copy
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute

from ...core.errors import Invalid, NotFound
from ...http.routing import Route
from . import web
from .codec import layer_group_node, layer_node
from .entities import LayerGroup, PublishedRef, StyleRef
from .model import Catalog
from .parse import apply_fields, parse_layer, parse_layer_group
from .readers import items, text

if TYPE_CHECKING:
    from ..styles.model import StyleStore


async def layers(request: Request) -> Response:
    cat = web.catalog_view(request)
    fmt = web.out_format(request, None)
    ws = request.path_params.get("workspace")
    if ws is None:
        names = cat.layer_names()
    else:
        names = [lyr.name for lyr in cat.list_layers(ws)] if cat.namespace(ws) else []
    return web.answer_list(request, "layer", names, fmt, "Layers")


async def layer(request: Request) -> Response:
    cat = web.catalog(request)
    name, ext = web.last(request, "layer")
    ws = request.path_params.get("workspace")
    full = f"{ws}:{name}" if ws is not None else name
    found = cat.find_layer(full)
    if request.method == "DELETE":
        if found is None:
            raise NotFound(full)
        cat.delete_layer(found.workspace, found.name, recurse=web.flag(request, "recurse"))
        return Response(status_code=200)
    if found is None:
        raise NotFound(f"No such layer: {full}")
    if request.method == "GET":
        fmt = web.out_format(request, ext)
        res = cat.resources[(found.workspace, found.name)]
        return web.answer(
            layer_node(found, res, web.links(request, fmt)), fmt, f"Layer {found.prefixed}"
        )
    _, data = await web.body(request, "layer")
    updated = copy.deepcopy(found)
    fields = parse_layer(data)
    styles = web.state(request).styles
    fields.pop("default_style", None)
    default = resolve_style(styles, data["defaultStyle"]) if "defaultStyle" in data else None
    if default is not None:
        fields["default_style"] = default
    if "styles" in fields:
        found_styles = (resolve_style(styles, v) for v in items(data, "styles", "style"))
        fields["styles"] = [ref for ref in found_styles if ref is not None]
    apply_fields(updated, fields, "layer")
    cat.replace_layer(found.workspace, found.name, updated, when=web.now(request))
    return Response(status_code=200)


def resolve_style(styles: StyleStore, value: Any) -> StyleRef | None:
    """The style a body names (``"x"``, ``{"name": "ws:x"}``, ``{"name": "x", "workspace":
    "ws"}``), found as GeoServer's ``ResolvingProxy`` finds it: by name in the given
    workspace, then as ``getStyleByName`` does (``ws:name``, global, any workspace). None
    when no style answers: GeoServer reads the reference as null and its update skips it."""
    if isinstance(value, dict):
        name, workspace = text(value, "name"), text(value, "workspace")
    else:
        name, workspace = (None if value is None else str(value)), None
    if not name:
        return None
    found = styles.get(workspace, name) if workspace else None
    found = found or styles.find(name)
    return found.ref if found is not None else None


def _workspace(request: Request, cat: Catalog) -> str | None:
    ws = request.path_params.get("workspace")
    if ws is not None:
        found = cat.workspace(ws)
        if found is None:
            raise NotFound(f"Workspace {ws} not found")
        return found.name
    return None


async def groups(request: Request) -> Response:
    cat = web.catalog_view(request)
    ws = _workspace(request, cat)
    if request.method == "POST":
        return await _post_group(request, cat, ws)
    fmt = web.out_format(request, None)
    names = [g.name for g in cat.list_layer_groups(ws)]
    return web.answer_list(request, "layerGroup", names, fmt, "Layer groups")


async def _post_group(request: Request, cat: Catalog, ws: str | None) -> Response:
    _, data = await web.body(request, "layerGroup")
    fields = parse_layer_group(data)
    if not fields.get("members"):
        raise Invalid("layer group must not be empty")
    if not fields.get("name"):
        raise Invalid("Layer group name must not be null")
    group = LayerGroup(fields["name"], ws if ws is not None else fields.get("workspace"))
    _apply(cat, group, fields)
    cat.add_layer_group(group, when=web.now(request))
    return web.created(request, f"layergroups/{quote(group.name, safe='')}", group.name)


def _apply(cat: Catalog, group: LayerGroup, fields: dict[str, Any]) -> None:
    for key in (
        "mode",
        "title",
        "abstract",
        "bounds",
        "enabled",
        "advertised",
        "keywords",
        "root_layer_style",
    ):
        if key in fields:
            setattr(group, key, fields[key])
    if "extras" in fields:
        apply_fields(group, {"extras": fields["extras"]}, "layer group")
    if "root_layer" in fields:
        root = fields["root_layer"]
        group.root_layer = None if root is None else _resolve(cat, group.workspace, "layer", root)
    if "members" in fields:
        group.publishables = [
            _resolve(cat, group.workspace, kind, name) for kind, name in fields["members"]
        ]
        if "styles" not in fields and len(group.styles) != len(group.publishables):
            group.styles = [None] * len(group.publishables)
        if "bounds" not in fields:
            group.bounds = None
    if "styles" in fields:
        group.styles = fields["styles"]


def _resolve(cat: Catalog, ws: str | None, kind: str | None, name: str) -> PublishedRef:
    prefix, sep, local = name.rpartition(":")
    if kind in (None, "layer"):
        found = cat.layer(prefix, local) if sep else None
        if not sep:
            found = (cat.layer(ws, name) if ws else None) or cat.find_layer(name)
        if found is not None:
            return found.ref
    if kind in (None, "layerGroup"):
        group = (
            cat.layer_group(prefix, local)
            if sep
            else cat.layer_group(None, name) or (cat.layer_group(ws, name) if ws else None)
        )
        if group is not None:
            return group.ref
    what = "layer group" if kind == "layerGroup" else "layer"
    raise Invalid(f"No such {what}: {name}")


async def group(request: Request) -> Response:
    cat = web.catalog(request)
    ws = _workspace(request, cat)
    name, ext = web.last(request, "group")
    found = cat.layer_group(ws, name) if ws is not None else cat.find_layer_group(name)
    if found is None:
        where = f" in workspace {ws}" if ws is not None else ""
        raise NotFound(f"No such layer group {name}{where}")
    if request.method == "GET":
        fmt = web.out_format(request, ext)
        return web.answer(
            layer_group_node(found, web.links(request, fmt)), fmt, f"Layer group {found.prefixed}"
        )
    if request.method == "DELETE":
        cat.delete_layer_group(found.workspace, found.name, recurse=web.flag(request, "recurse"))
        return Response(status_code=200)
    _, data = await web.body(request, "layerGroup")
    fields = parse_layer_group(data)
    updated = copy.deepcopy(found)
    updated.name = fields.get("name", found.name)
    updated.workspace = fields.get("workspace", found.workspace)
    _apply(cat, updated, fields)
    cat.replace_layer_group(found.workspace, found.name, updated, when=web.now(request))
    return Response(status_code=200)


routes: list[BaseRoute] = [
    Route("/rest/layers", layers, methods=["GET"]),
    Route("/rest/layers.{ext}", layers, methods=["GET"]),
    Route("/rest/layers/{layer}", layer, methods=["GET", "PUT", "DELETE"]),
    Route("/rest/workspaces/{workspace}/layers", layers, methods=["GET"]),
    Route("/rest/workspaces/{workspace}/layers.{ext}", layers, methods=["GET"]),
    Route("/rest/workspaces/{workspace}/layers/{layer}", layer, methods=["GET", "PUT", "DELETE"]),
    Route("/rest/layergroups", groups, methods=["GET", "POST"]),
    Route("/rest/layergroups.{ext}", groups, methods=["GET", "POST"]),
    Route("/rest/layergroups/{group}", group, methods=["GET", "PUT", "DELETE"]),
    Route("/rest/workspaces/{workspace}/layergroups", groups, methods=["GET", "POST"]),
    Route("/rest/workspaces/{workspace}/layergroups.{ext}", groups, methods=["GET", "POST"]),
    Route(
        "/rest/workspaces/{workspace}/layergroups/{group}", group, methods=["GET", "PUT", "DELETE"]
    ),
]
