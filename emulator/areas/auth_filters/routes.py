"""HTTP routes of ``/rest/security/authfilters``: list, create, view, replace, delete.

Content negotiation here is stricter than elsewhere: GeoServer's filter controller produces
and consumes only ``application/xml`` and ``application/json`` (``text/xml`` is 406 / 415).
Order of checks, as Spring applies them: 415 (body type), 406 (Accept), then the
controller's own administrator check (403), then the body (400).
"""

from __future__ import annotations

from collections.abc import Callable
from urllib.parse import quote

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute

from ...core.errors import (
    Forbidden,
    NotAcceptable,
    NotFound,
    UnsupportedMediaType,
)
from ...core.vendor import VendorNames
from ...http.context import body, emulator, principal, respond, rest_url
from ...http.routing import Route
from ...wire.negotiate import EXTENSIONS, split_ext
from . import codec
from .model import FilterConfig

PATH = "security/authfilters"
MEDIA = {"application/xml": "xml", "application/json": "json"}
FORMATS = ("xml", "json")

Parser = Callable[[bytes, VendorNames], FilterConfig]
PARSE: dict[str, Parser] = {"xml": codec.parse_filter_xml, "json": codec.parse_filter_json}
DUMP = {"xml": codec.dump_filter_xml, "json": codec.dump_filter_json}


def _body_format(request: Request) -> str:
    from werkzeug.http import parse_options_header  # slow to import: on first use

    mime, _ = parse_options_header(request.headers.get("content-type", ""))
    fmt = MEDIA.get(mime.lower())
    if fmt is None:
        raise UnsupportedMediaType(
            f"Content type '{mime or '(none)'}' not supported; "
            "use application/xml or application/json"
        )
    return fmt


def _response_format(request: Request, ext: str | None, default: str) -> str:
    if ext is not None:
        return ext
    accept = request.headers.get("accept", "")
    if not accept.strip():
        return default
    order = sorted(MEDIA, key=lambda m: MEDIA[m] != default)
    from werkzeug.datastructures import MIMEAccept  # slow to import: on first use
    from werkzeug.http import parse_accept_header

    best = parse_accept_header(accept, MIMEAccept).best_match(order)
    if best is None:
        raise NotAcceptable(f"Cannot answer in {accept}; use application/xml or application/json")
    return MEDIA[best]


def _require_admin(request: Request) -> None:
    who = principal(request)
    if who is None or not who.is_admin:
        raise Forbidden("Admin role required to access this resource")


def _collection_ext(request: Request) -> str | None:
    ext = request.path_params.get("ext")
    if ext is None or ext in FORMATS:
        return ext
    if ext in EXTENSIONS:
        raise NotAcceptable(f"Format {ext} is not supported here; use xml or json")
    raise NotFound(f"No such resource: {request.url.path}")


def _href(request: Request, name: str, fmt: str) -> str:
    return rest_url(request, f"{PATH}/{quote(name, safe='')}.{fmt}")


async def collection(request: Request) -> Response:
    ext = _collection_ext(request)
    if request.method == "POST":
        return await _create(request, ext)
    fmt = _response_format(request, ext, "xml")
    _require_admin(request)
    items = [
        (c.name, _href(request, c.name, fmt)) for c in emulator(request).state.auth_filters.listed()
    ]
    dump = codec.dump_list_xml if fmt == "xml" else codec.dump_list_json
    return respond(dump(items), fmt)


async def _create(request: Request, ext: str | None) -> Response:
    emu = emulator(request)
    fmt_in = _body_format(request)
    fmt_out = _response_format(request, ext, fmt_in)
    _require_admin(request)
    cfg = PARSE[fmt_in](await body(request), emu.vendor)
    saved = emu.state.auth_filters.create(cfg, lambda: emu.state.ids.object_id("authfilter"))
    emu.state.security.reload()
    headers = {}
    if emu.decisions.filter_create_location:
        headers["Location"] = rest_url(request, f"{PATH}/{quote(saved.name, safe='')}")
    content = DUMP[fmt_out](saved, emu.vendor)
    return respond(content, fmt_out, status=emu.decisions.filter_create_status, headers=headers)


async def item(request: Request) -> Response:
    name, ext = split_ext(request.path_params["name"], FORMATS)
    if request.method == "PUT":
        return await _update(request, name, ext)
    if request.method == "DELETE":
        return _delete(request, name)
    emu = emulator(request)
    fmt = _response_format(request, ext, "xml")
    _require_admin(request)
    cfg = emu.state.auth_filters.find(name)
    if cfg is None:
        if emu.decisions.filter_get_missing_status == 404:
            raise NotFound(f"Cannot find filter {name}")
        return respond(codec.dump_missing(fmt), fmt, status=emu.decisions.filter_get_missing_status)
    return respond(DUMP[fmt](cfg, emu.vendor), fmt)


async def _update(request: Request, name: str, ext: str | None) -> Response:
    emu = emulator(request)
    fmt_in = _body_format(request)
    _response_format(request, ext, fmt_in)
    _require_admin(request)
    cfg = PARSE[fmt_in](await body(request), emu.vendor)
    emu.state.auth_filters.update(name, cfg)
    emu.state.security.reload()
    return Response(status_code=200)


def _delete(request: Request, name: str) -> Response:
    emu = emulator(request)
    _require_admin(request)
    emu.state.auth_filters.delete(name, emu.decisions.filter_delete_missing_status)
    emu.state.security.reload()
    return Response(status_code=200)


routes: list[BaseRoute] = [
    Route(f"/rest/{PATH}", collection, methods=["GET", "POST"], name="authfilters"),
    Route(f"/rest/{PATH}.{{ext}}", collection, methods=["GET", "POST"], name="authfilters_ext"),
    Route(f"/rest/{PATH}/{{name}}", item, methods=["GET", "PUT", "DELETE"], name="authfilter"),
]
