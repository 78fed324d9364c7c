"""Users, groups and roles REST: ``/rest/security/usergroup/…``, ``/rest/security/roles/…``
and ``/rest/security/self/password``.

Every path also exists under ``…/service/{serviceName}/…`` for a named service. Each path
answers with and without a trailing slash, and list paths also as ``….xml`` / ``….json``;
a ``.xml``/``.json`` suffix on the last path segment picks the format, as in GeoServer.
With neither suffix nor ``Accept``, answers are XML (GeoServer's first producible type).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute

from ...core.errors import Invalid, MethodNotAllowed, NotFound, Unprocessable
from ...http.context import body, body_format, emulator, principal, respond, response_format
from ...http.routing import Route
from ...wire.negotiate import split_ext
from . import codec

UG = "/rest/security/usergroup"
ROLES = "/rest/security/roles"
Endpoint = Callable[[Request], Awaitable[Response]]


def _names(request: Request, last: str | None = None) -> tuple[dict[str, str], str | None]:
    """The path parameters and the format suffix: ``….{ext}`` on a literal last segment,
    or ``.xml``/``.json`` split off the parameter ``last`` when that one ends the path."""
    values = dict(request.path_params)
    ext = values.pop("ext", None)
    if ext is not None and ext not in ("xml", "json", "html"):
        raise NotFound(f"No such resource: {request.method} {request.url.path}")
    if last is not None:
        values[last], ext = split_ext(values[last], ("xml", "json"))
    return values, ext


def _fmt(request: Request, ext: str | None) -> str:
    return response_format(request, ext, ("xml", "json"), "xml")


def _ok(text: str = "") -> Response:
    return respond(text, status=200, media_type="text/plain" if text else None)


# -- users and groups ----------------------------------------------------------------------


async def users(request: Request) -> Response:
    values, ext = _names(request)
    emu = emulator(request)
    store = emu.state.users
    if request.method == "GET":
        fmt = _fmt(request, ext)
        svc = store.service(values.get("serviceName"))
        return respond(codec.dump_users(svc.sorted_users(), fmt), fmt)
    change = codec.parse_user(await body(request), body_format(request), emu.vendor)
    store.add_user(values.get("serviceName"), change)
    return respond(status=201)


async def user(request: Request) -> Response:
    values, _ = _names(request, "user")
    emu = emulator(request)
    store = emu.state.users
    if request.method == "DELETE":
        store.delete_user(values.get("serviceName"), values["user"])
        return _ok()
    change = codec.parse_user(await body(request), body_format(request), emu.vendor)
    store.update_user(values.get("serviceName"), values["user"], change.password, change.enabled)
    return _ok()


async def groups(request: Request) -> Response:
    values, ext = _names(request)
    fmt = _fmt(request, ext)
    svc = emulator(request).state.users.service(values.get("serviceName"))
    return respond(codec.dump_groups(sorted(svc.groups), fmt), fmt)


async def group(request: Request) -> Response:
    values, _ = _names(request, "group")
    store = emulator(request).state.users
    if request.method == "POST":
        store.create_group(values.get("serviceName"), values["group"])
        return respond(status=201)
    store.delete_group(values.get("serviceName"), values["group"])
    return _ok()


async def group_users(request: Request) -> Response:
    values, ext = _names(request)
    fmt = _fmt(request, ext)
    svc = emulator(request).state.users.service(values.get("serviceName"))
    return respond(codec.dump_users(svc.members_of(values["group"]), fmt), fmt)


async def user_groups(request: Request) -> Response:
    values, ext = _names(request)
    fmt = _fmt(request, ext)
    svc = emulator(request).state.users.service(values.get("serviceName"))
    svc.user(values["user"])
    return respond(codec.dump_groups(svc.groups_of(values["user"]), fmt), fmt)


async def membership(request: Request) -> Response:
    values, _ = _names(request, "group")
    store = emulator(request).state.users
    service, name, group_name = values.get("serviceName"), values["user"], values["group"]
    if request.method == "DELETE":
        store.leave(service, name, group_name)
        return _ok()
    if not store.join(service, name, group_name):
        return _ok("Username already associated with this groupname")
    return _ok()


# -- roles ---------------------------------------------------------------------------------


async def roles(request: Request) -> Response:
    _, ext = _names(request)
    fmt = _fmt(request, ext)
    return respond(
        codec.dump_roles(sorted(emulator(request).state.users.role_service().roles), fmt), fmt
    )


async def service_roles(request: Request) -> Response:
    values, ext = _names(request, "serviceName")
    fmt = _fmt(request, ext)
    rs = emulator(request).state.users.role_service(values["serviceName"])
    return respond(codec.dump_roles(sorted(rs.roles), fmt), fmt)


async def roles_of_user(request: Request) -> Response:
    values, ext = _names(request, "user")
    fmt = _fmt(request, ext)
    rs = emulator(request).state.users.role_service(values.get("serviceName"))
    return respond(codec.dump_roles(rs.roles_of_user(values["user"]), fmt), fmt)


async def roles_of_group(request: Request) -> Response:
    values, ext = _names(request, "group")
    fmt = _fmt(request, ext)
    rs = emulator(request).state.users.role_service(values.get("serviceName"))
    return respond(codec.dump_roles(rs.roles_of_group(values["group"]), fmt), fmt)


async def role(request: Request) -> Response:
    values, _ = _names(request, "role")
    store = emulator(request).state.users
    if request.method == "POST":
        store.create_role(values.get("serviceName"), values["role"])
        return respond(status=201)
    store.delete_role(values.get("serviceName"), values["role"])
    return _ok()


async def role_user(request: Request) -> Response:
    values, _ = _names(request, "user")
    store = emulator(request).state.users
    grant = request.method == "POST"
    store.assign_user_role(values.get("serviceName"), values["role"], values["user"], grant)
    return _ok()


async def role_group(request: Request) -> Response:
    values, _ = _names(request, "group")
    store = emulator(request).state.users
    grant = request.method == "POST"
    store.assign_group_role(values.get("serviceName"), values["role"], values["group"], grant)
    return _ok()


# -- self password -------------------------------------------------------------------------


async def self_password(request: Request) -> Response:
    """PUT: the caller changes its own password (GET is refused, as in GeoServer)."""
    if request.method == "GET":
        raise MethodNotAllowed("You can not request the password!", headers={"Allow": "PUT"})
    store = emulator(request).state.users
    who = principal(request)
    name = who.name if who is not None else ""
    svc = next((s for s in store.services.values() if name in s.users), None)
    if svc is None:
        raise Unprocessable("Cannot calculate if PUT is allowed (service not found)")
    new = codec.parse_new_password(await body(request), body_format(request))
    if new is None or not new.strip():
        raise Invalid("Missing 'newPassword'")
    if svc.read_only:
        raise Unprocessable("User service does not support changing pw", status=424)
    store.update_user(svc.name, name, new, None)
    return _ok()


# -- the route table -----------------------------------------------------------------------


def _shapes(
    path: str, endpoint: Endpoint, methods: list[str], answers: str | None = None
) -> list[BaseRoute]:
    """``path`` and, when the path ends in a literal, ``path.{ext}`` (a trailing slash is
    dropped before routing, see ``http/middleware.py``)."""
    out: list[BaseRoute] = [Route(path, endpoint, methods=methods, answers=answers)]
    if not path.endswith("}"):
        out.append(Route(path + ".{ext}", endpoint, methods=methods, answers=answers))
    return out


USERGROUP_TABLE: list[tuple[str, Endpoint, list[str]]] = [
    ("/users", users, ["GET", "POST"]),
    ("/groups", groups, ["GET"]),
    ("/user/{user}", user, ["POST", "DELETE"]),
    ("/user/{user}/groups", user_groups, ["GET"]),
    ("/group/{group}", group, ["POST", "DELETE"]),
    ("/group/{group}/users", group_users, ["GET"]),
    ("/user/{user}/group/{group}", membership, ["POST", "DELETE"]),
]

ROLES_TABLE: list[tuple[str, Endpoint, list[str]]] = [
    ("/user/{user}", roles_of_user, ["GET"]),
    ("/group/{group}", roles_of_group, ["GET"]),
    ("/role/{role}", role, ["POST", "DELETE"]),
    ("/role/{role}/user/{user}", role_user, ["POST", "DELETE"]),
    ("/role/{role}/group/{group}", role_group, ["POST", "DELETE"]),
]


def _table() -> list[BaseRoute]:
    out: list[BaseRoute] = []
    for prefix in (UG, UG + "/service/{serviceName}"):
        for path, endpoint, methods in USERGROUP_TABLE:
            out += _shapes(prefix + path, endpoint, methods)
    out += _shapes(ROLES, roles, ["GET"])
    out += _shapes(ROLES + "/service/{serviceName}", service_roles, ["GET"])
    for prefix in (ROLES, ROLES + "/service/{serviceName}"):
        for path, endpoint, methods in ROLES_TABLE:
            out += _shapes(prefix + path, endpoint, methods)
    # GET is routed only to be refused with GeoServer's own message
    out += _shapes("/rest/security/self/password", self_password, ["GET", "PUT"], "PUT")
    return out


routes: list[BaseRoute] = _table()
