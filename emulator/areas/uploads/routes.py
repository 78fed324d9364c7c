"""HTTP routes of data and coverage store uploads.

- ``…/datastores/{store}/{file|url|external}.{format}``: PUT uploads (``datastores.py``),
  GET answers the store's folder as a ZIP (deprecated in GeoServer, still served); POST 405.
- ``…/coveragestores/{store}/{file|url|external}.{format}``: the mosaics area routes these
  (it also harvests); a PUT of a format other than ``imagemosaic`` comes to ``put_coverage``.
- any other ``{method}.{format}`` below a store: 400, the method is unknown.

``file.appschema`` is the app-schema area's.
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Match
from starlette.types import Scope

from ...core.errors import Invalid, NotFound
from ...http import context
from ...http.routing import Route
from ..catalog import web
from ..catalog.codec import render, store_node
from ..mosaics.sources import HostBudget
from . import coverages, datastores, download
from .context import Context, raster_budget
from .context import Request as Upload

WS = "/rest/workspaces/{workspace}"
ZIP_TYPES = frozenset(
    {"application/zip", "multipart/x-zip", "application/x-zip-compressed", "application/x-zip"}
)


def ctx(request: Request, rasters: bool = False) -> Context:
    """The upload's context (``rasters``: with the raster budget of the workspace's WCS)."""
    emu = context.emulator(request)
    state = emu.state
    budget = raster_budget(state, request.path_params["workspace"]) if rasters else None
    return Context(
        state, web.now(request), emu.clock.now(), emu.url_allowed, emu.max_body * 4,
        emu.decisions, HostBudget() if emu.host_read else None,
        *(() if budget is None else (budget,)),
    )  # fmt: skip


def is_zip(request: Request) -> bool:
    kind = (request.headers.get("content-type") or "").split(";")[0].strip().lower()
    return kind in ZIP_TYPES


async def upload_of(request: Request, method: str) -> Upload:
    q = request.query_params
    return Upload(
        request.path_params["workspace"],
        request.path_params["store"],
        method,
        request.path_params["format"],
        await context.body(request),
        is_zip(request),
        q.get("configure"),
        q.get("target"),
        q.get("update"),
        q.get("charset") or None,
        q.get("filename") or None,
        q.get("coverageName") or None,
    )


def _data_route(method: str) -> Route:
    async def endpoint(request: Request) -> Response:
        if request.method == "GET":
            return download.data_store_zip(
                web.state(request), request.path_params["workspace"], request.path_params["store"]
            )
        c, up = ctx(request), await upload_of(request, method)
        fmt = datastores.check_format(up.format)
        if fmt == "appschema":
            return Response(status_code=datastores.upload(c, up))
        ws = datastores.begin(c, up, fmt)
        staged = await context.off_loop(datastores.stage, c.sources(), up, fmt, ws)
        return Response(status_code=datastores.finish(c, up, fmt, ws, staged))

    return Route(f"{WS}/datastores/{{store}}/{method}.{{format}}", endpoint, methods=["GET", "PUT"])


async def put_coverage(request: Request, method: str) -> Response:
    """PUT of a coverage file (GeoTIFF, world image, ArcGrid): 201 with the store."""
    c, up = ctx(request, rasters=True), await upload_of(request, method)
    fmt, ws = coverages.begin(c, up)
    staged = await context.off_loop(coverages.stage, c.sources(), up, fmt, ws)
    store = coverages.finish(c, up, fmt, ws, staged)
    if store is None:
        return Response(status_code=201)
    fmt = context.response_format(request, None, ("xml", "json"), "xml")
    return context.respond(render(store_node(store, web.links(request, fmt), fmt), fmt), fmt, 201)


async def unknown_method(request: Request) -> Response:
    """400 for an upload method GeoServer does not know (``UnknownMethodRoute`` leaves the
    known ones, and the catalog's own children, to their routes)."""
    state = web.state(request)
    ws = request.path_params["workspace"]
    if state.catalog.workspace(ws) is None:
        raise NotFound(f"No such workspace: {ws}")
    raise Invalid(f"Unrecognized file upload method: {request.path_params['method']}")


RESERVED = frozenset({"file", "url", "external", "remote", "featuretypes", "coverages"})
"""names below a store that are not unknown upload methods: the upload routes' (a method
they do not take is their 405) and the catalog's collections (``featuretypes.json``)"""


class UnknownMethodRoute(Route):
    """``{method}.{format}`` below a store, matching only methods that are not ``RESERVED``."""

    def matches(self, scope: Scope) -> tuple[Match, Scope]:
        match, child = super().matches(scope)
        if match is not Match.NONE and child["path_params"].get("method") in RESERVED:
            return Match.NONE, {}
        return match, child


routes: list[BaseRoute] = [
    *(_data_route(m) for m in ("file", "url", "external")),
    UnknownMethodRoute(
        WS + "/datastores/{store}/{method}.{format}", unknown_method, methods=["GET", "PUT", "POST"]
    ),
    UnknownMethodRoute(
        WS + "/coveragestores/{store}/{method}.{format}",
        unknown_method,
        methods=["GET", "PUT", "POST"],
    ),
]
