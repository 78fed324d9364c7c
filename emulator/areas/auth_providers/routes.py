"""HTTP routes of ``/rest/security/authproviders``: list, one, create, update, delete, order.

Every write runs its checks and changes without yielding to the event loop, so writes from
many clients are serialized; each successful write reloads the security configuration.
The ``order`` paths take only PUT: the item route answers 405 for them.
"""

from __future__ import annotations

import re
from urllib.parse import quote

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute

from ...core.errors import Forbidden, Invalid, MethodNotAllowed, NotFound, UnsupportedMediaType
from ...http.context import body, emulator, principal, respond, response_format, rest_url
from ...http.routing import Route
from ...wire.negotiate import split_ext
from . import codec
from .model import Canon

BASE = "/rest/security/authproviders"
ORDER_PATHS = ("order", "order.xml", "order.json")
CONSUMES = {"application/xml": "xml", "application/json": "json"}
_POSITION = re.compile(r"[+-]?[0-9]{1,10}")


async def providers(request: Request) -> Response:
    """GET: the enabled providers in the active order. POST: create one."""
    if request.method == "POST":
        return await _create(request)
    return _list(request, None)


async def providers_ext(request: Request) -> Response:
    ext = request.path_params["ext"].lower()
    if ext not in ("xml", "json"):
        raise NotFound(f"No such resource: {request.url.path}")
    return _list(request, ext)


async def provider(request: Request) -> Response:
    """GET, PUT or DELETE one provider (``name`` may end in ``.xml``/``.json``)."""
    raw = request.path_params["name"]
    if raw in ORDER_PATHS:
        raise MethodNotAllowed(
            f"Request method '{request.method}' is not supported", headers={"Allow": "PUT"}
        )
    name, ext = split_ext(raw, ("xml", "json"))
    if not codec.xml_safe(name):
        raise NotFound("Provider not found")
    if request.method == "PUT":
        return await _update(request, name, ext)
    if request.method == "DELETE":
        return _delete(request, name)
    fmt = response_format(request, ext)
    _require_admin(request)
    store = emulator(request).state.auth_providers
    cfg = store.get(name)
    return respond(
        codec.dump_provider(cfg, store.class_of(cfg), emulator(request).vendor, fmt), fmt
    )


async def order(request: Request) -> Response:
    """PUT: the whole active list; providers left out are disabled but kept."""
    fmt_in = _body_format(request)
    _require_admin(request)
    names = codec.parse_order(await body(request), fmt_in)
    state = emulator(request).state
    state.auth_providers.reorder(names)
    state.security.reload()
    return Response(status_code=200)


# -- the endpoints' work --------------------------------------------------------------------


def _list(request: Request, ext: str | None) -> Response:
    fmt = response_format(request, ext)
    _require_admin(request)
    emu = emulator(request)
    store = emu.state.auth_providers
    items = [(cfg, store.class_of(cfg)) for cfg in store.active_configs()]
    return respond(codec.dump_providers(items, emu.vendor, fmt), fmt)


async def _create(request: Request) -> Response:
    fmt_in = _body_format(request)
    fmt = response_format(request, None)
    _require_admin(request)
    position = _position(request)
    draft = codec.parse_provider(await body(request), fmt_in)
    emu = emulator(request)
    state = emu.state
    store = state.auth_providers
    new_id = lambda: state.ids.object_id("authprovider")  # noqa: E731
    cfg = store.create(draft, position, _canon(request), new_id, state.users.services)
    state.security.reload()
    location = rest_url(request, "security/authproviders/" + quote(cfg.name, safe=""))
    content = codec.dump_provider(cfg, store.class_of(cfg), emu.vendor, fmt)
    return respond(content, fmt, 201, {"Location": location})


async def _update(request: Request, name: str, ext: str | None) -> Response:
    fmt_in = _body_format(request)
    fmt = response_format(request, ext)
    _require_admin(request)
    position = _position(request)
    draft = codec.parse_provider(await body(request), fmt_in)
    emu = emulator(request)
    state = emu.state
    store = state.auth_providers
    cfg = store.update(name, draft, position, _canon(request), state.users.services)
    state.security.reload()
    return respond(codec.dump_provider(cfg, store.class_of(cfg), emu.vendor, fmt), fmt)


def _delete(request: Request, name: str) -> Response:
    _require_admin(request)
    emu = emulator(request)
    decisions = emu.decisions
    emu.state.auth_providers.delete(
        name, decisions.provider_delete_unknown_status, decisions.provider_delete_gone_status
    )
    emu.state.security.reload()
    return Response(status_code=200)


# -- helpers --------------------------------------------------------------------------------


def _require_admin(request: Request) -> None:
    """GeoServer's controller repeats the admin check (it matters when REST rules are relaxed)."""
    who = principal(request)
    if who is None or not who.is_admin:
        raise Forbidden("Admin role required")


def _body_format(request: Request) -> str:
    """``xml`` or ``json`` from Content-Type; only the two application types are taken."""
    content_type = request.headers.get("content-type") or ""
    from werkzeug.http import parse_options_header  # slow to import: on first use

    mime, _ = parse_options_header(content_type)
    fmt = CONSUMES.get(mime.lower())
    if fmt is None:
        raise UnsupportedMediaType(
            f"Content-Type '{mime or '(none)'}' is not supported;"
            " use application/xml or application/json"
        )
    return fmt


def _position(request: Request) -> int | None:
    """The ``position`` query parameter: None when absent or empty."""
    raw = request.query_params.get("position", "").strip()
    if not raw:
        return None
    if not _POSITION.fullmatch(raw):
        raise Invalid("position must be an integer")
    return int(raw)


def _canon(request: Request) -> Canon:
    emu = emulator(request)
    known = emu.state.auth_providers.class_names()
    return lambda name: codec.canonical_class(emu.vendor, name, known)


routes: list[BaseRoute] = [
    Route(BASE, providers, methods=["GET", "POST"], name="authproviders"),
    Route(BASE + ".{ext}", providers_ext, methods=["GET"], name="authproviders_ext"),
    *(
        Route(f"{BASE}/{path}", order, methods=["PUT"], name=f"authproviders_{path}")
        for path in ORDER_PATHS
    ),
    Route(BASE + "/{name}", provider, methods=["GET", "PUT", "DELETE"], name="authprovider"),
]
