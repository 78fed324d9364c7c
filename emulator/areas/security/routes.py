"""Routes of the security settings: ``/rest/security/masterpw``, ``/rest/security/acl/...``.

Each path takes an optional ``.xml``/``.json`` suffix that picks the reply format (JSON when
neither suffix nor ``Accept`` says). As in GeoServer, the media types are checked and the
body parsed before the controller's own administrator check.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from urllib.parse import unquote_plus

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute

from ...core.errors import Forbidden, Invalid, MethodNotAllowed, NotFound, ServerError
from ...http import context as ctx
from ...http.routing import Route
from ...wire import negotiate
from . import codec
from .rules import KINDS

ADMIN_REQUIRED = "Administrative privileges required"
FORMATS = ("xml", "json")
Endpoint = Callable[[Request], Awaitable[Response]]


def _ext(request: Request) -> str | None:
    """The path suffix; an unknown one is no resource at all."""
    ext = request.path_params.get("ext")
    if ext is None:
        return None
    if ext.lower() not in negotiate.EXTENSIONS:
        raise NotFound(f"No such resource: {request.method} {request.url.path}")
    return str(ext.lower())


def _reply_format(request: Request) -> str:
    return ctx.response_format(request, _ext(request), FORMATS, default="json")


async def _body(request: Request) -> tuple[bytes, str]:
    _ext(request)
    fmt = ctx.body_format(request, FORMATS)
    return await ctx.body(request), fmt


def _require_admin(request: Request, status: int = 403) -> None:
    principal = ctx.principal(request)
    if principal is None or not principal.is_admin:
        if status == 405:
            raise MethodNotAllowed(ADMIN_REQUIRED)
        raise Forbidden(ADMIN_REQUIRED)


def _ok(status: int = 200) -> Response:
    return Response(status_code=status)


# -- keystore password ---------------------------------------------------------------------


async def keystore_password(request: Request) -> Response:
    emu = ctx.emulator(request)
    if request.method == "PUT":
        body, fmt = await _body(request)
        current, new = codec.parse_keystore_change(body, fmt)
        _require_admin(request, status=405)  # GeoServer's own check answers 405 here
        emu.state.security.change_keystore_password(current, new)
        return _ok()
    fmt = _reply_format(request)
    _require_admin(request)
    return ctx.respond(codec.dump_keystore_password(emu.state.security.keystore_password, fmt), fmt)


# -- catalog mode --------------------------------------------------------------------------


async def catalog_mode(request: Request) -> Response:
    emu = ctx.emulator(request)
    if request.method == "PUT":
        body, fmt = await _body(request)
        mode = codec.parse_catalog_mode(body, fmt)
        _require_admin(request)
        emu.state.security.set_catalog_mode(mode)
        return _ok()
    fmt = _reply_format(request)
    _require_admin(request)
    return ctx.respond(codec.dump_catalog_mode(emu.state.security.catalog_mode, fmt), fmt)


async def catalog_reload(request: Request) -> Response:
    """Reload the security configuration; any body is ignored."""
    _require_admin(request)
    ctx.emulator(request).state.security.reload()
    return _ok()


# -- access rules --------------------------------------------------------------------------


def _rules_endpoint(kind: str) -> Endpoint:
    async def rules(request: Request) -> Response:
        store = ctx.emulator(request).state.security
        if request.method in ("GET", "HEAD"):
            fmt = _reply_format(request)
            _require_admin(request)
            return ctx.respond(codec.dump_rules(store.rules(kind), fmt), fmt)
        if request.method == "DELETE":
            return _delete_without_key(request, kind)
        body, fmt = await _body(request)
        entries = codec.parse_rules(body, fmt)
        _require_admin(request)
        if request.method == "POST":
            store.add_rules(kind, entries)
            decided = ctx.emulator(request).decisions.acl_post_status
            return _ok(decided if kind == "layers" else 200)  # AbstractAclController: 200
        store.modify_rules(kind, entries)
        return _ok()

    rules.__name__ = f"{kind}_rules"
    return rules


def _delete_without_key(request: Request, kind: str) -> Response:
    """DELETE on the collection: no rule named. GeoServer cuts the key out of the path past
    its end (a ``StringIndexOutOfBoundsException``, 500); the spec profile says 404."""
    _require_admin(request)
    status = ctx.emulator(request).decisions.acl_delete_without_key_status
    if status == 500:
        n = len(f"/security/acl/{kind}")
        raise ServerError(f"begin {n + 1}, end {n}, length {n}")
    raise NotFound("Rule not found: ")


def _rule_endpoint(kind: str) -> Endpoint:
    async def rule(request: Request) -> Response:
        """DELETE one rule. The key is decoded once more, as GeoServer does, so a ``/`` in a
        REST rule key travels as ``%2F`` (or ``%252F``) and a ``+`` reads as a space."""
        _require_admin(request)
        try:
            key = unquote_plus(request.path_params["key"], errors="strict")
        except UnicodeDecodeError:
            raise Invalid("The rule key is not valid UTF-8 once decoded") from None
        ctx.emulator(request).state.security.delete_rule(kind, key)
        return _ok()

    rule.__name__ = f"{kind}_rule"
    return rule


def _kind_routes(kind: str) -> list[BaseRoute]:
    base = f"/rest/security/acl/{kind}"
    endpoint = _rules_endpoint(kind)
    return [
        Route(base, endpoint, methods=["GET", "POST", "PUT", "DELETE"], name=f"acl_{kind}"),
        Route(base + ".{ext}", endpoint, methods=["GET", "POST", "PUT"], name=f"acl_{kind}_ext"),
        Route(
            base + "/{key:path}", _rule_endpoint(kind), methods=["DELETE"], name=f"acl_{kind}_rule"
        ),
    ]


routes: list[BaseRoute] = [
    Route("/rest/security/masterpw", keystore_password, methods=["GET", "PUT"], name="masterpw"),
    Route(
        "/rest/security/masterpw.{ext}",
        keystore_password,
        methods=["GET", "PUT"],
        name="masterpw_ext",
    ),
    Route("/rest/security/acl/catalog", catalog_mode, methods=["GET", "PUT"], name="acl_catalog"),
    Route(
        "/rest/security/acl/catalog.{ext}",
        catalog_mode,
        methods=["GET", "PUT"],
        name="acl_catalog_ext",
    ),
    Route(
        "/rest/security/acl/catalog/reload",
        catalog_reload,
        methods=["POST", "PUT"],
        name="acl_reload",
    ),
    *(route for kind in KINDS for route in _kind_routes(kind)),
]
