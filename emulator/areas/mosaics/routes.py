"""HTTP routes of image mosaics (CoverageStoreFileController for ``imagemosaic``,
StructuredCoverageController, and the mosaic side of CoverageController's POST).

Paths start with ``/rest/workspaces/{workspace}/coveragestores/{store}``:

- ``/{file|external|url|remote}.{format}``: PUT uploads a mosaic, POST harvests granules;
- ``/coverages``: POST on a mosaic store configures a coverage from the index; everything
  else (and any other store) is the catalog's endpoint, called through;
- ``/coverages/{coverage}/index``: the index schema;
- ``/coverages/{coverage}/index/granules[/{id}]``: granules, read and removed.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute

from ...core import hooks
from ...core.budget import Budget
from ...core.errors import Invalid, NotFound, UnsupportedMediaType
from ...http import context
from ...http.routing import Route
from ..catalog import routes as catalog_routes
from ..catalog import web
from ..catalog.codec import render, store_node
from ..catalog.entities import Coverage, CoverageStore
from ..catalog.parse import parse_resource
from ..catalog.routes_workspaces import seg
from . import codec, service
from .granules import extension
from .model import Granule, Mosaic
from .sources import HostBudget

BASE = "/rest/workspaces/{workspace}/coveragestores/{store}"
ZIP_TYPES = frozenset({"application/zip", "multipart/x-zip", "application/x-zip-compressed"})
FORMATS = ("arcgrid", "geotiff", "gtopo30", "imagemosaic", "imagepyramid", "worldimage")
INDEX = BASE + "/coverages/{coverage}/index"


def _ctx(request: Request) -> service.Context:
    emu = context.emulator(request)
    return service.Context(
        emu.state,
        emu.clock.datetime(),
        emu.clock.now(),
        emu.clock.origin,
        emu.url_allowed,
        emu.max_body * 4,
        HostBudget() if emu.host_read else None,
    )


def _param(request: Request, name: str) -> str:
    value: str = request.path_params[name]
    return value


def _is_zip(request: Request) -> bool:
    return (request.headers.get("content-type") or "").split(";")[0].strip().lower() in ZIP_TYPES


def _flag(request: Request, name: str) -> bool:
    return (request.query_params.get(name) or "").strip().lower() == "true"


def _format(request: Request) -> str:
    fmt = _param(request, "format")
    if fmt not in FORMATS:
        raise Invalid(f"Unsupported format: {fmt}, available formats are: [{', '.join(FORMATS)}]")
    return fmt


async def _text(request: Request) -> str:
    try:
        return (await context.body(request)).decode("utf-8")
    except UnicodeDecodeError:
        raise Invalid("The body must be a UTF-8 text naming a file or a folder") from None


# -- uploads and harvests -------------------------------------------------------------------


async def upload(request: Request, method: str) -> Response:
    fmt = _format(request)
    ws, store = _param(request, "workspace"), _param(request, "store")
    ctx = _ctx(request)
    if request.method == "POST":
        return await _harvest(request, ctx, method, fmt, ws, store)
    if fmt != "imagemosaic":  # GeoTIFF, world image, ArcGrid: the uploads area's (a hook)
        (answer,) = hooks.call("mosaics.coverage_upload", request, method)
        response: Response = await answer
        return response
    configured = (request.query_params.get("configure") or "").lower() != "none"
    name = request.query_params.get("coverageName")
    if method == "external" and not _is_zip(request):
        made = service.put_external(ctx, ws, store, await _text(request), configured, name)
    else:
        data = await _archive(request, ctx, method)
        folder = service.workspace_of(ctx, ws)
        staged = await context.off_loop(
            service.stage_upload, ctx.files, folder, store, data, ctx.max_total, ctx.now
        )
        made = service.finish_upload(ctx, ws, store, staged, configured, name)
    status = context.emulator(request).decisions.mosaic_upload_status
    if not configured:
        return Response(status_code=status)
    out = context.response_format(request, None, ("xml", "json"), "xml")
    return context.respond(render(store_node(made, web.links(request, out), out), out), out, status)


async def _archive(request: Request, ctx: service.Context, method: str) -> bytes:
    """The ZIP of an upload: the body itself, or the file a ``url.``/``external.`` body names."""
    if method == "file":
        if not _is_zip(request):
            raise UnsupportedMediaType(
                "An image mosaic is uploaded as a ZIP archive (Content-Type application/zip)"
            )
        return await context.body(request)
    return service.read_named(ctx, await _text(request))


async def _harvest(
    request: Request, ctx: service.Context, method: str, fmt: str, ws: str, store: str
) -> Response:
    bbox = _flag(request, "updateBBox")
    if method in ("external", "remote") and not _is_zip(request):
        service.harvest_external(ctx, ws, store, await _text(request), bbox)
    else:
        service.harvestable(ctx, ws, store)
        zipped = _is_zip(request)
        data = (
            await context.body(request)
            if method == "file"
            else service.read_named(ctx, await _text(request))
        )
        filename = request.query_params.get("filename") or f"{store}.{fmt}"
        service.harvest_upload(
            ctx, ws, store, data, zipped or extension(filename) == "zip", filename, bbox
        )
    return Response(status_code=context.emulator(request).decisions.mosaic_harvest_status)


def _upload_route(method: str) -> Route:
    async def endpoint(request: Request) -> Response:
        return await upload(request, method)

    methods = ["POST"] if method == "remote" else ["PUT", "POST"]
    return Route(f"{BASE}/{method}.{{format}}", endpoint, methods=methods)


# -- coverages ------------------------------------------------------------------------------


Endpoint = Callable[[Request], Awaitable[Response]]


def _catalog_endpoint(path: str) -> Endpoint:
    for route in catalog_routes.routes:
        if isinstance(route, Route) and route.path == path:
            found: Endpoint = route.endpoint
            return found
    raise LookupError(f"the catalog has no route {path}")


def _coverages_route(path: str) -> Route:
    """The catalog's coverages collection, with POST on a mosaic store answered here."""
    catalog_endpoint = _catalog_endpoint(path)

    async def endpoint(request: Request) -> Response:
        if request.method == "POST":
            state = context.emulator(request).state
            store = state.catalog.coverage_store(
                _param(request, "workspace"), _param(request, "store")
            )
            if store is not None and service.mosaic_of(state, store) is not None:
                return await _post_coverage(request)
        return await catalog_endpoint(request)

    return Route(path, endpoint, methods=["GET", "POST"])


async def _post_coverage(request: Request) -> Response:
    ws, store = _param(request, "workspace"), _param(request, "store")
    _, data = await web.body(request, "coverage")
    made = service.configure_coverage(_ctx(request), ws, store, parse_resource(data))
    path = f"workspaces/{seg(ws)}/coveragestores/{seg(store)}/coverages/{seg(made.name)}"
    return web.created(request, path, made.name)


# -- the index ------------------------------------------------------------------------------


async def index(request: Request) -> Response:
    mosaic, native, cov = _index_target(request)
    fmt = context.response_format(request, request.path_params.get("ext"), ("xml", "json"), "xml")
    href = context.rest_url(request, _index_path(request) + f"/granules.{fmt}")
    attributes = mosaic.schema(native)
    body = (
        codec.dump_schema_xml(attributes, href)
        if fmt == "xml"
        else codec.dump_schema_json(attributes, href)
    )
    return context.respond(body, fmt)


async def granules(request: Request) -> Response:
    ctx = _ctx(request)
    mosaic, native, _ = _index_target(request, ctx)
    from ...filters import predicates  # pygeofilter, lark, shapely: imported on first use

    predicate = predicates.compile_filter(request.query_params.get("filter"), Budget("filter"))
    if request.method == "DELETE":
        policy = service.purge_policy(request.query_params.get("purge"))
        bbox = _flag(request, "updateBBox") and predicate is not None
        service.remove(ctx, mosaic, native, predicate, policy, bbox, _store(request))
        return Response(status_code=200)
    offset, limit = _paging(request)
    fmt = context.response_format(request, request.path_params.get("ext"), ("xml", "json"), "xml")
    found = mosaic.select(native, predicate, offset, limit)
    return _collection(mosaic, native, found, fmt)


async def granule(request: Request) -> Response:
    ctx = _ctx(request)
    mosaic, native, cov = _index_target(request, ctx)
    raw = _param(request, "granule")
    fid = raw[:-4] if raw.endswith(".xml") else raw[:-5] if raw.endswith(".json") else raw
    found = mosaic.find(native, fid)
    if request.method == "DELETE":
        policy = service.purge_policy(request.query_params.get("purge"))
        chosen = [found] if found is not None else []
        service.remove_granules(
            ctx, mosaic, chosen, policy, _flag(request, "updateBBox"), _store(request)
        )
        return Response(status_code=200)
    if found is None:
        raise NotFound(f"Could not find a granule with id {raw} in coverage {cov.name}")
    return _collection(mosaic, native, [found], "json" if raw.endswith(".json") else "xml")


def _collection(mosaic: Mosaic, native: str, found: list[Granule], fmt: str) -> Response:
    if fmt == "json":
        return context.respond(codec.dump_granules_json(mosaic, native, found), "json")
    return context.respond(codec.dump_granules_xml(mosaic, native, found), "xml")


def _index_target(
    request: Request, ctx: service.Context | None = None
) -> tuple[Mosaic, str, Coverage]:
    ctx = ctx or _ctx(request)
    return service.coverage_index(
        ctx, _param(request, "workspace"), _param(request, "store"), _param(request, "coverage")
    )


def _store(request: Request) -> CoverageStore | None:
    state = context.emulator(request).state
    return state.catalog.coverage_store(_param(request, "workspace"), _param(request, "store"))


def _index_path(request: Request) -> str:
    ws, store, cov = (seg(_param(request, k)) for k in ("workspace", "store", "coverage"))
    return f"workspaces/{ws}/coveragestores/{store}/coverages/{cov}/index"


def _paging(request: Request) -> tuple[int, int | None]:
    offset, limit = _integer(request, "offset"), _integer(request, "limit")
    if offset is not None and offset < 0:
        raise Invalid(f"Invalid offset value: {offset}")
    if limit is not None and limit <= 0:
        # GeoServer prints the offset here (Java writes a missing one as "null")
        raise Invalid(f"Invalid limit value: {'null' if offset is None else offset}")
    return offset or 0, limit


def _integer(request: Request, name: str) -> int | None:
    raw = request.query_params.get(name)
    if raw is None or raw == "":
        return None
    try:
        return int(raw.strip())
    except ValueError:
        raise Invalid(
            "Failed to convert value of type 'java.lang.String' "
            "to required type 'java.lang.Integer'; "
            f'For input string: "{raw}"'
        ) from None


routes: list[BaseRoute] = [
    _upload_route("file"),
    _upload_route("external"),
    _upload_route("url"),
    _upload_route("remote"),
    _coverages_route(BASE + "/coverages"),
    _coverages_route(BASE + "/coverages.{ext}"),
    Route(INDEX, index, methods=["GET"]),
    Route(INDEX + ".{ext}", index, methods=["GET"]),
    Route(INDEX + "/granules", granules, methods=["GET", "DELETE"]),
    Route(INDEX + "/granules.{ext}", granules, methods=["GET", "DELETE"]),
    Route(INDEX + "/granules/{granule}", granule, methods=["GET", "DELETE"]),
    Route(INDEX + "/granules/{granule}/{format}", granule, methods=["DELETE"]),
]
