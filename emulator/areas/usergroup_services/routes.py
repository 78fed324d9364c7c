"""``/rest/security/usergroupservices``: user/group service configurations
(``UserGroupServiceController``), administrator only.

- ``GET`` the list (name and link each); ``GET /{name}`` one configuration (404 ``Cannot
  find user/group service <name>``).
- ``POST`` a configuration: 200 with the saved one; 400 without a name, for a name in use,
  or without a class name.
- ``PUT /{name}``: 200; 400 when the body names another service or the service does not
  exist (GeoServer's 400, not 404).
- ``DELETE /{name}``: 200; 400 for ``default`` (required), 404 when absent.

Errors are GeoServer's ``ErrorResponse`` (``{"status":…,"message":…}``). A created service
is an empty XML user/group service: its users and groups are served by
``/rest/security/usergroup/service/<name>/…``.
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute

from ...core.errors import Forbidden, Invalid, NotFound
from ...http import context as ctx
from ...http.routing import Route
from ...wire import negotiate
from ..users.model import UserGroupService
from . import codec

BASE = "/rest/security/usergroupservices"
FORMATS = ("xml", "json")
REQUIRED = frozenset({"default"})
ADMIN_REQUIRED = "Admin role required to access this resource"


def _admin(request: Request) -> None:
    principal = ctx.principal(request)
    if principal is None or not principal.is_admin:
        raise Forbidden(ADMIN_REQUIRED)


def _split(request: Request, key: str) -> tuple[str, str | None]:
    value = request.path_params.get(key)
    if value is None:
        return "", request.path_params.get("ext")
    name, ext = negotiate.split_ext(value)
    if ext is not None and ext not in FORMATS:
        return value, None
    return name, ext


def _reply(request: Request, ext: str | None) -> str:
    return ctx.response_format(request, ext, FORMATS, default="xml")


async def collection(request: Request) -> Response:
    _admin(request)
    _, ext = _split(request, "none")
    if request.method == "POST":
        return await _create(request, ext)
    fmt = _reply(request, ext)
    services = ctx.emulator(request).state.users.services
    items = [(n, ctx.rest_url(request, f"security/usergroupservices/{n}.{fmt}")) for n in services]
    body = codec.dump_list_xml(items) if fmt == "xml" else codec.dump_list_json(items)
    return ctx.respond(body, fmt)


def _dump(svc: UserGroupService, fmt: str, request: Request) -> bytes:
    cls = ctx.emulator(request).vendor.emit(svc.config_class)
    dump = codec.dump_xml if fmt == "xml" else codec.dump_json
    return dump(cls, svc.name, svc.config)


async def _create(request: Request, ext: str | None) -> Response:
    fmt = ctx.body_format(request, FORMATS)
    body = await ctx.body(request)
    reply = _reply(request, ext)
    emu = ctx.emulator(request)
    cls, name, fields = codec.parse(body, fmt, emu.vendor)
    store = emu.state.users
    if not name:
        raise Invalid("Cannot create the config: no name parameter provided")
    if name in store.services:
        raise Invalid(f"Cannot create the config {name} because the name is already in use")
    if not fields.get("className"):
        raise Invalid("Implementation class name is required: className")
    svc = UserGroupService(name, config_class=cls, config=fields)
    store.services[name] = svc
    return ctx.respond(_dump(svc, reply, request), reply)


async def one(request: Request) -> Response:
    _admin(request)
    name, ext = _split(request, "name")
    store = ctx.emulator(request).state.users
    if request.method == "PUT":
        fmt = ctx.body_format(request, FORMATS)
        cls, given, fields = codec.parse(await ctx.body(request), fmt, ctx.emulator(request).vendor)
        if given != name:
            raise Invalid(
                f"Cannot modify the config {name} because the name {given or 'null'} in the"
                " body does not match"
            )
        current = store.services.get(name)
        if current is None:
            raise Invalid(f"Cannot update {name} because it does not exist")
        if not fields.get("className"):
            raise Invalid("Implementation class name is required: className")
        current.config_class, current.config = cls, fields
        return Response(status_code=200)
    if request.method == "DELETE":
        if name in REQUIRED:
            raise Invalid(f"Cannot delete {name} because it is a required user/group service")
        if store.services.pop(name, None) is None:
            raise NotFound(f"Cannot find user/group service {name}")
        return Response(status_code=200)
    fmt = _reply(request, ext)
    svc = store.services.get(name)
    if svc is None:
        raise NotFound(f"Cannot find user/group service {name}")
    return ctx.respond(_dump(svc, fmt, request), fmt)


routes: list[BaseRoute] = [
    Route(BASE, collection, methods=["GET", "POST"], name="usergroupservices"),
    Route(BASE + ".{ext}", collection, methods=["GET", "POST"], name="usergroupservices-ext"),
    Route(BASE + "/{name}", one, methods=["GET", "PUT", "DELETE"], name="usergroupservice"),
]
