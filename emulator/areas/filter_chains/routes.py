"""``/rest/security/filterchain``: the authentication filter chains
(``AuthenticationFilterChainRestController``), administrator only (403 otherwise).

- ``GET`` the chains in order; ``PUT /order`` (``{"order": [...]}`` or ``<order>``) puts them
  in a new order that must name exactly the current chains (400 otherwise).
- ``POST`` a chain (``?position=N``, 0-based; appended by default): 201 with ``Location``
  and the chain; 400 for a bad or reserved name, a name in use, a class GeoServer does not
  allow, a position out of range.
- ``GET``/``PUT``/``DELETE /{name}``: 404 for a missing chain (``DELETE``: 410); ``PUT`` 400
  when the body names another chain; ``DELETE`` 400 for a constant chain (``webLogin``,
  ``webLogout``).

Errors are ``ErrorResponse`` bodies; GET, POST and DELETE on ``/order`` answer 405.
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute

from ...core.errors import Forbidden, Invalid, MethodNotAllowed
from ...http import context as ctx
from ...http.routing import Route
from ...wire import negotiate
from . import codec

BASE = "/rest/security/filterchain"
FORMATS = ("xml", "json")
ADMIN_REQUIRED = "Admin role required to access this resource"


def _admin(request: Request) -> None:
    principal = ctx.principal(request)
    if principal is None or not principal.is_admin:
        raise Forbidden(ADMIN_REQUIRED)


def _reply(request: Request, ext: str | None) -> str:
    return ctx.response_format(request, ext, FORMATS, default="xml")


def _position(request: Request) -> int | None:
    text = request.query_params.get("position")
    if text is None:
        return None
    try:
        return int(text)
    except ValueError:
        raise Invalid(f'Invalid position: "{text}"') from None


async def collection(request: Request) -> Response:
    _admin(request)
    emu = ctx.emulator(request)
    ext = request.path_params.get("ext")
    if ext is not None and ext not in FORMATS:
        raise Invalid(f"Unsupported format: {ext}")
    fmt = _reply(request, ext)
    store = emu.state.filter_chains
    if request.method == "POST":
        chain = codec.parse_chain(
            await ctx.body(request), ctx.body_format(request, FORMATS), emu.vendor
        )
        store.create(chain, _position(request))
        location = ctx.rest_url(request, f"security/filterchain/{chain.name}")
        body = codec.dump_chain(chain, fmt, emu.vendor)
        return ctx.respond(body, fmt, status=201, headers={"Location": location})
    return ctx.respond(codec.dump_list(store.chains, fmt, emu.vendor), fmt)


async def order(request: Request) -> Response:
    if request.method != "PUT":
        raise MethodNotAllowed(f"Request method '{request.method}' is not supported")
    _admin(request)
    names = codec.parse_order(await ctx.body(request), ctx.body_format(request, FORMATS))
    ctx.emulator(request).state.filter_chains.reorder(names)
    return Response(status_code=200)


async def one(request: Request) -> Response:
    name, ext = negotiate.split_ext(request.path_params["name"])
    if ext is not None and ext not in FORMATS:
        name, ext = request.path_params["name"], None
    if name == "order":
        return await order(request)
    _admin(request)
    emu = ctx.emulator(request)
    store = emu.state.filter_chains
    if request.method == "DELETE":
        store.delete(name)
        return Response(status_code=200)
    fmt = _reply(request, ext)
    if request.method == "PUT":
        chain = codec.parse_chain(
            await ctx.body(request), ctx.body_format(request, FORMATS), emu.vendor
        )
        store.update(name, chain, _position(request))
        return ctx.respond(codec.dump_chain(chain, fmt, emu.vendor), fmt)
    return ctx.respond(codec.dump_chain(store.find(name), fmt, emu.vendor), fmt)


routes: list[BaseRoute] = [
    Route(BASE, collection, methods=["GET", "POST"], name="filterchains"),
    Route(BASE + ".{ext}", collection, methods=["GET", "POST"], name="filterchains-ext"),
    Route(
        BASE + "/{name}",
        one,
        methods=["GET", "POST", "PUT", "DELETE"],
        name="filterchain",
        answers="GET, PUT, DELETE; PUT only on order",
    ),  # fmt: skip
]
