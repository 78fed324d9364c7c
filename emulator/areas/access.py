"""Who is calling and what they may do: authentication through the active providers,
the role calculation, and the REST access rules. Pure domain logic, no HTTP."""

from __future__ import annotations

import re
from functools import lru_cache

from ..core.antpath import ant_match
from ..core.record import record
from ..core.state import State
from .auth_providers.model import USERNAME_PASSWORD_PROVIDER
from .users.model import (
    ROLE_ADMINISTRATOR,
    ROLE_ANONYMOUS,
    ROLE_AUTHENTICATED,
    ROLE_GROUP_ADMIN,
)

ANYONE = frozenset({"*", "IS_AUTHENTICATED_ANONYMOUSLY"})
AUTHENTICATED = frozenset({"IS_AUTHENTICATED_FULLY", "IS_AUTHENTICATED_REMEMBERED"})


@record(frozen=True)
class Principal:
    name: str
    roles: frozenset[str]

    def __init__(self, name: str, roles: frozenset[str]) -> None:
        # what the record's own ``__init__`` does, without its generality: one is made for
        # every authenticated request
        values = self.__dict__
        values["name"] = name
        values["roles"] = roles

    @property
    def is_admin(self) -> bool:
        return ROLE_ADMINISTRATOR in self.roles

    @property
    def anonymous(self) -> bool:
        return ROLE_ANONYMOUS in self.roles


ANONYMOUS = Principal("anonymous", frozenset({ROLE_ANONYMOUS}))


def authenticate(state: State, username: str, password: str) -> Principal | None:
    """The principal for these credentials, or None when no enabled provider accepts them.

    With root login on, ``root`` and the current keystore password come first; any other
    password for ``root`` falls through to the providers, as GeoServer's root provider does.
    """
    sec = state.security
    if username == "root" and sec.root_login and password == sec.keystore_password:
        return Principal("root", frozenset({ROLE_ADMINISTRATOR, ROLE_AUTHENTICATED}))
    providers = state.auth_providers
    configs = providers.configs
    for name in providers.active:  # ``iter_active()``, inline: this runs for every request
        provider = configs.get(name)
        if provider is None:
            continue
        if provider.class_name != USERNAME_PASSWORD_PROVIDER:
            continue  # LDAP and other providers have nothing to talk to here
        service = state.users.services.get(provider.user_group_service or "")
        if service is None:
            continue
        user = service.users.get(username)
        if user is None or not user.enabled or user.password != password:
            continue
        return Principal(username, frozenset(roles_of(state, username, service.name)))
    return None


def roles_of(state: State, username: str, ug_service: str) -> set[str]:
    """Direct and group roles, plus the system roles the role service maps them to."""
    users = state.users
    if users.active_role_service not in users.role_services:
        return {ROLE_AUTHENTICATED}
    rs = users.role_services[users.active_role_service]  # ``role_service()``: it is there
    roles = users.roles_from(rs, ug_service, username)
    if rs.admin_role in roles:
        roles.add(ROLE_ADMINISTRATOR)
    if rs.group_admin_role in roles:
        roles.add(ROLE_GROUP_ADMIN)
    roles.add(ROLE_AUTHENTICATED)
    return roles


def rest_rule_roles(state: State, method: str, path: str) -> list[str] | None:
    """The roles the first matching REST rule asks for, or None when no rule matches.

    ``path`` is the decoded request path from the context root (``/rest/...``). As GeoServer's
    ``RESTfulDefinitionSource`` does, trailing slashes are dropped, the path is lower-cased
    and compared with each rule's ant pattern as written (so patterns start with ``/rest``;
    one with an upper-case letter never matches) and the method with the rule's method list.
    Rules are tried in the order of the rule set.
    """
    url = (re.sub("/+$", "", path) if path.endswith(("/", "\n")) else path).lower()
    for key, roles in state.security.rest_rules.items():
        pattern, methods = _rule(key)
        if methods is not None and method not in methods:
            continue
        if ant_match(pattern, url):
            return roles
    return None


@lru_cache(maxsize=1024)
def _rule(key: str) -> tuple[str, tuple[str, ...] | None]:
    """A rule key's ant pattern and methods (None: any method), as ``pattern:M1,M2``. The
    methods follow the last colon, as GeoServer's key pattern ``\\S+:(GET|...)(,...)*``
    reads them, so that a pattern may hold ``{name:regex}`` variables."""
    pattern, colon, methods = key.rpartition(":")
    if colon and methods and all(m.isalpha() and m.isupper() for m in methods.split(",")):
        return pattern, tuple(methods.split(","))
    head, colon, tail = key.partition(":")
    return (head, tuple(tail.split(","))) if colon and "{" not in head else (key, None)


def rest_allowed(state: State, principal: Principal, method: str, path: str) -> bool:
    """Whether the REST rules let ``principal`` call ``method`` on ``path``.

    A path no rule matches is refused (GeoServer's REST interceptor denies when every voter
    abstains). ``*`` and ``IS_AUTHENTICATED_ANONYMOUSLY`` admit anyone,
    ``IS_AUTHENTICATED_FULLY`` and ``IS_AUTHENTICATED_REMEMBERED`` anyone who logged in, and any
    other name is a role the principal must hold.
    """
    roles = rest_rule_roles(state, method.upper(), path)
    if not roles:
        return False
    wanted = set(roles)
    if ANYONE & wanted:
        return True
    if AUTHENTICATED & wanted and not principal.anonymous:
        return True
    return bool(wanted & principal.roles)
