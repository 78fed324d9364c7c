"""The OGC service endpoints: ``/ows``, ``/wms``, ``/wfs``, ``/wcs``, their workspace
(``/{ws}/wms``) and layer (``/{ws}/{layer}/wms``) virtual services, and WMTS under
``/gwc/service/wmts``.

The one module of the OGC services that touches HTTP: it reads a request into a ``Call``
(key-value pairs, or a POSTed XML document), hands it to ``dispatch.answer`` with the
services of ``SERVICES``, and makes the response of the result (``results.py``): content
type, ``Content-Disposition``, status. A caller the security rules refuse gets 401 (with the
challenge) or 403.
"""

from __future__ import annotations

import importlib
from collections.abc import Awaitable, Callable

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response

from ...http import context
from ...http.middleware import REALM
from ...http.routing import Route
from . import collections, xml_request
from .dispatch import Service, answer, headers
from .errors import Denied, OwsError
from .kvp import Call, upper_keys
from .model import scope
from .results import Document, Image, Report, Result

SERVICES = {
    "wms": "geoserver_emulator.areas.wms.operations",
    "wfs": "geoserver_emulator.areas.wfs.operations",
    "wcs": "geoserver_emulator.areas.wcs.operations",
    "wmts": "geoserver_emulator.areas.wmts.operations",
}
"""each service's module, whose ``SERVICE`` is its table; imported when first called (the
services import this folder, never the other way: ``tests/test_layers.py``)"""

PATH_SERVICES = ("wms", "wfs", "wcs")
"""the services with a path of their own (``/wms``…) beside ``/ows``"""


def service(name: str) -> Service | None:
    """The service ``name`` (lower case), its module imported on first use."""
    module = SERVICES.get(name)
    if module is None:
        return None
    found: Service = importlib.import_module(module).SERVICE
    return found


def respond(result: Result, extra: dict[str, str] | None = None) -> Response:
    """The HTTP response of an operation's result, with ``extra`` headers
    (``dispatch.headers``)."""
    if isinstance(result, Document):
        return Response(result.body, 200, extra, media_type=result.media_type)
    if isinstance(result, Image):
        headers = dict(extra or {})
        if result.disposition is not None:
            headers["Content-Disposition"] = result.disposition
        return Response(result.data, 200, headers, media_type=result.media_type)
    if isinstance(result, Report):  # the report's media type exactly (no charset added)
        return Response(result.body, result.status, {"Content-Type": result.media_type})
    return Response(collections.encode(result), 200, extra, media_type=result.media_type)


def challenge(denied: Denied) -> Response:
    """Spring Security's answer: 401 with the Basic challenge, or 403."""
    headers = {"WWW-Authenticate": REALM} if denied.anonymous else None
    return Response(denied.message, denied.status, headers, media_type="text/plain")


async def dispatch(
    request: Request,
    path_service: str | None,
    fixed: dict[str, str] | None = None,
    document: bytes | None = None,
) -> Response:
    """Answer ``request``: ``path_service`` is the path's service (``SERVICE`` overrides
    it), ``fixed`` parameters a RESTful URL stands for, ``document`` a POSTed XML body."""
    emu = context.emulator(request)
    principal = context.principal(request)
    assert principal is not None  # the auth middleware names every caller
    pairs = request.query_params.multi_items()
    params = upper_keys(pairs)
    params.update(fixed or {})
    root, parse_error = None, None
    if document is not None:
        try:
            root = xml_request.parse(document)
            params.update(xml_request.params(root))
        except OwsError as err:
            parse_error = err
    now = emu.clock.datetime().strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z"
    call = _call(request, params, path_service, root, now)
    call.pairs = list(pairs)
    ws, layer = request.path_params.get("workspace"), request.path_params.get("layer")
    found = scope(emu.state.catalog, ws, layer)
    if found is None:
        raise HTTPException(404)
    call.workspace, only, call.service_base = found.workspace, found.only, found.base(call.base)
    with emu.databases.watched() as used:  # the database stores the call read, for the journal
        try:
            result = answer(emu.state, principal, call, only, service, parse_error, pairs)
            response = respond(result, headers(call, result, service(call.service)))
        except Denied as denied:
            response = challenge(denied)
    if used:
        request.scope.setdefault("emulator.databases", {}).update(used)
    return response


def _call(
    request: Request, params: dict[str, str], path_service: str | None, root: object, now: str
) -> Call:
    base = context.base_url(request)
    version = params.get("VERSION") or params.get("WMTVER") or params.get("ACCEPTVERSIONS")
    return Call(
        base=base,
        service_base=base,
        service=(params.get("SERVICE") or path_service or "").lower(),
        request=params.get("REQUEST", ""),
        version=version,
        params=params,
        now=now,
        document=root,
        url=str(request.url),
    )


def _endpoint(path_service: str | None) -> Callable[[Request], Awaitable[Response]]:
    async def endpoint(request: Request) -> Response:
        if request.method == "POST":
            data = await context.body(request)
            if data.strip():
                return await dispatch(request, path_service, document=data)
        return await dispatch(request, path_service)

    return endpoint


async def wmts_tile(request: Request) -> Response:
    """The RESTful tile URL of the WMTS capabilities' ``ResourceURL`` templates."""
    p = request.path_params
    fixed = {
        "SERVICE": "WMTS",
        "REQUEST": "GetTile",
        "VERSION": "1.0.0",
        "LAYER": p["tile_layer"],
        "STYLE": p["style"],
        "TILEMATRIXSET": p["matrix_set"],
        "TILEMATRIX": p["matrix"],
        "TILEROW": p["row"],
        "TILECOL": p["col"],
    }
    fixed["FORMAT"] = request.query_params.get("format", "image/png")
    return await dispatch(request, "wmts", fixed)


async def wmts_capabilities(request: Request) -> Response:
    fixed = {"SERVICE": "WMTS", "REQUEST": "GetCapabilities", "VERSION": "1.0.0"}
    return await dispatch(request, "wmts", fixed)


STORED_TYPES = {
    "tif": "image/tiff",
    "png": "image/png",
    "jpeg": "image/jpeg",
    "gif": "image/gif",
    "asc": "text/plain",
    "gz": "application/x-gzip",
}


async def stored_coverage(request: Request) -> Response:
    """A WCS 1.1.1 answer stored with ``store=true`` (``temp/wcs`` of the data directory,
    as GeoServer publishes it)."""
    name = request.path_params["file"]
    data = context.emulator(request).state.datadir.read(f"temp/wcs/{name}")
    if data is None or "/" in name:
        raise HTTPException(404)
    kind = STORED_TYPES.get(name.rsplit(".", 1)[-1].lower(), "application/octet-stream")
    return Response(data, 200, media_type=kind)


class OwsRoute(Route):
    check_query = False  # the service refuses a bad parameter in its exception report


WMTS_PATHS = ("", "/{workspace}", "/{workspace}/{layer}")
"""GeoWebCache's WMTS and its workspace and layer virtual services"""

routes = (
    [
        OwsRoute(path + slash, _endpoint(svc if svc != "ows" else None), methods=["GET", "POST"])
        for svc in ("ows", *PATH_SERVICES)
        for path in (f"/{svc}", f"/{{workspace}}/{svc}", f"/{{workspace}}/{{layer}}/{svc}")
        for slash in ("", "/")
    ]
    + [
        route
        for prefix in WMTS_PATHS
        for route in (
            OwsRoute(f"{prefix}/gwc/service/wmts", _endpoint("wmts"), methods=["GET"]),
            Route(
                f"{prefix}/gwc/service/wmts/rest/WMTSCapabilities.xml",
                wmts_capabilities,
                methods=["GET"],
            ),
            Route(
                f"{prefix}/gwc/service/wmts/rest/{{tile_layer}}/{{style}}/{{matrix_set}}/{{matrix}}"
                "/{row}/{col}",
                wmts_tile,
                methods=["GET"],
            ),
        )
    ]
    + [
        Route("/temp/wcs/{file}", stored_coverage, methods=["GET"]),
    ]
)
