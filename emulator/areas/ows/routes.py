"""The OGC service endpoints: ``/ows``, ``/wms``, ``/wfs``, ``/wcs``, their workspace
(``/{ws}/wms``) and layer (``/{ws}/{layer}/wms``) virtual services.

Each call is dispatched on its ``service`` and ``request`` parameters (the path's service
when ``service`` is absent). OGC errors are answered as the service's exception report;
a caller the security rules refuse gets 401 (with the challenge) or 403.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response

from ...core.budget import TooCostly
from ...http import context
from ...http.middleware import REALM
from ...http.routing import Route
from ...wire import text as wtext
from ..wcs import operations as wcs
from ..wfs import operations as wfs
from ..wms import operations as wms
from ..wmts import operations as wmts
from . import sources, xml_request
from .errors import INVALID, MISSING, NOT_SUPPORTED, Denied, OwsError, ows_report, wms_report
from .kvp import Call, upper_keys
from .model import Published, View, check_service

SERVICES = ("wms", "wfs", "wcs")
RESERVED = frozenset(
    {"rest", "gwc", "web", "__emulator", "schemas", "www", "j_spring_security_check"}
)

Handler = Callable[[View, Call], Awaitable[Response] | Response]

HANDLERS: dict[str, dict[str, Handler]] = {
    "wms": wms.HANDLERS,
    "wfs": wfs.HANDLERS,
    "wcs": wcs.HANDLERS,
    "wmts": wmts.HANDLERS,
}


def _scope(request: Request) -> tuple[str | None, Published | None, str]:
    """(workspace, the one published item, the URL base of the virtual service)."""
    state = context.emulator(request).state
    base = context.base_url(request)
    ws = request.path_params.get("workspace")
    layer = request.path_params.get("layer")
    if ws is None:
        return None, None, base
    if ws in RESERVED:
        raise HTTPException(404)
    catalog = state.catalog
    if ws not in catalog.workspaces:
        group = catalog.layer_group(None, ws)
        if group is None or layer is not None:
            raise HTTPException(404)
        return None, group, f"{base}/{ws}"
    if layer is None:
        return ws, None, f"{base}/{ws}"
    item: Published | None = catalog.layer(ws, layer) or catalog.layer_group(ws, layer)
    if item is None:
        raise HTTPException(404)
    return ws, item, f"{base}/{ws}/{layer}"


def _endpoint(path_service: str | None) -> Callable[[Request], Awaitable[Response]]:
    async def endpoint(request: Request) -> Response:
        if request.method == "POST":
            data = await context.body(request)
            if data.strip():
                return await dispatch(request, path_service, document=data)
        return await dispatch(request, path_service)

    return endpoint


async def dispatch(
    request: Request,
    path_service: str | None,
    fixed: dict[str, str] | None = None,
    document: bytes | None = None,
) -> Response:
    emu = context.emulator(request)
    state = emu.state
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
    service = (params.get("SERVICE") or path_service or "").lower()
    version = params.get("VERSION") or params.get("WMTVER") or params.get("ACCEPTVERSIONS")
    base = context.base_url(request)
    ws, only, service_base = _scope(request)
    call = Call(
        base=base,
        service_base=service_base,
        service=service,
        request=params.get("REQUEST", ""),
        version=version,
        params=params,
        workspace=ws,
        now=emu.clock.datetime().strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z",
        document=root,
    )
    try:
        if parse_error is not None:
            raise parse_error
        _check_text(pairs)
        if not service:
            raise OwsError("Could not determine service", MISSING, "service")
        handlers = HANDLERS.get(service)
        if handlers is None:
            raise OwsError(f"No service: ( {service} )", INVALID, "service")
        if not call.request:
            raise OwsError(
                "Could not determine geoserver request from http request " + str(request.url),
                MISSING,
                "request",
            )
        names = {k.lower(): k for k in handlers}
        canonical = names.get(call.request.lower())
        if canonical is None:
            raise OwsError(
                f"No such operation {service.upper()} {version or ''} {call.request}".replace(
                    "  ", " "
                ),
                NOT_SUPPORTED,
                call.request,
            )
        call.request = canonical
        settings = sources.service(state, service, ws)
        if not settings.get("enabled", True):
            raise OwsError(f"Service {service.upper()} is disabled", "ServiceUnavailable")
        check_service(state, principal, service, canonical)
        view = View(state, principal, ws, only, service)
        result = handlers[canonical](view, call)
        if not isinstance(result, Response):
            result = await result
        return result
    except OwsError as err:
        return error_response(err, call)
    except TooCostly as err:  # a style's or filter's patterns past their time bound
        return error_response(OwsError(err.message, INVALID), call)
    except Denied as denied:
        return denied_response(denied)


def _check_text(pairs: list[tuple[str, str]]) -> None:
    """A parameter XML 1.0 cannot carry: an ``InvalidParameterValue`` exception (the route
    leaves the query to the service, ``OwsRoute``)."""
    for key, value in pairs:
        for text in (key, value):
            bad = wtext.unsafe_in(text)
            if bad is not None:
                where = f"the parameter {wtext.replace_unsafe(key)[:40]}"
                locator = wtext.replace_unsafe(key.lower())
                raise OwsError(wtext.refusal(bad, where), INVALID, locator)


def error_response(err: OwsError, call: Call) -> Response:
    """The exception report of the call's service and version (the OWS 1.0 report when
    the service is not known)."""
    if call.service == "wms":
        other = wms.exception_in_format(err, call)
        if other is not None:
            return other
        body, media_type = wms_report(err, wms.exception_version(call), call.base)
        return Response(body, 200, media_type=media_type)
    known = call.service in HANDLERS
    service = call.service if known else "ows"
    version = (call.version or "1.0.0") if known else "1.0.0"
    body, media_type, status = ows_report(err, service, version, call.base)
    return Response(body, status, media_type=media_type)


def denied_response(denied: Denied) -> Response:
    if denied.anonymous:
        return Response(
            "Full authentication is required to access this resource",
            401,
            {"WWW-Authenticate": REALM},
            media_type="text/plain",
        )
    return Response(denied.message, 403, media_type="text/plain")


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


class OwsRoute(Route):
    check_query = False  # the service refuses a bad parameter in its exception report


routes = [
    OwsRoute(path + slash, _endpoint(svc if svc != "ows" else None), methods=["GET", "POST"])
    for svc in ("ows", *SERVICES)
    for path in (f"/{svc}", f"/{{workspace}}/{svc}", f"/{{workspace}}/{{layer}}/{svc}")
    for slash in ("", "/")
] + [
    OwsRoute("/gwc/service/wmts", _endpoint("wmts"), methods=["GET"]),
    Route("/gwc/service/wmts/rest/WMTSCapabilities.xml", wmts_capabilities, methods=["GET"]),
    Route(
        "/gwc/service/wmts/rest/{tile_layer}/{style}/{matrix_set}/{matrix}/{row}/{col}",
        wmts_tile,
        methods=["GET"],
    ),
]
