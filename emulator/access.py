"""Who is calling and what they may do: authentication through the active providers,
the role calculation, and the REST access rules. Pure domain logic, no HTTP."""

from __future__ import annotations

from dataclasses import dataclass

from .areas.auth_providers.model import USERNAME_PASSWORD_PROVIDER
from .areas.users.model import (
    ROLE_ADMINISTRATOR,
    ROLE_ANONYMOUS,
    ROLE_AUTHENTICATED,
    ROLE_GROUP_ADMIN,
)
from .core.antpath import ant_match
from .state import State

ANYONE = frozenset({"*", "IS_AUTHENTICATED_ANONYMOUSLY"})


@dataclass(frozen=True)
class Principal:
    name: str
    roles: frozenset[str]

    @property
    def is_admin(self) -> bool:
        return ROLE_ADMINISTRATOR in self.roles

    @property
    def anonymous(self) -> bool:
        return ROLE_ANONYMOUS in self.roles


ANONYMOUS = Principal("anonymous", frozenset({ROLE_ANONYMOUS}))


def authenticate(state: State, username: str, password: str) -> Principal | None:
    """The principal for these credentials, or None when no enabled provider accepts them."""
    sec = state.security
    if username == "root" and sec.root_login:
        if password == sec.keystore_password:
            return Principal("root", frozenset({ROLE_ADMINISTRATOR, ROLE_AUTHENTICATED}))
        return None
    for provider in state.auth_providers.active_configs():
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
    rs = users.role_service()
    roles = set(users.roles_of_user(username, ug_service))
    if rs.admin_role in roles:
        roles.add(ROLE_ADMINISTRATOR)
    if rs.group_admin_role in roles:
        roles.add(ROLE_GROUP_ADMIN)
    roles.add(ROLE_AUTHENTICATED)
    return roles


def rest_rule_roles(state: State, method: str, path: str) -> list[str] | None:
    """The roles the first matching REST rule asks for, or None when no rule matches.

    ``path`` is the request path from the context root (``/rest/...``), matched lower-cased
    with trailing slashes removed, as GeoServer's REST definition source does; a rule's ant
    pattern is also tried relative to ``/rest`` so that ``/**`` and ``/workspaces/**`` read
    as users write them.
    """
    url = path.lower().rstrip("/") or "/"
    inner = url[len("/rest") :] if url.startswith("/rest") else url
    for key, roles in state.security.rest_rules.items():
        pattern, _, methods = key.partition(":")
        if methods and method.upper() not in methods.split(","):
            continue
        if ant_match(pattern, url) or ant_match(pattern, inner or "/"):
            return roles
    return None


def rest_allowed(state: State, principal: Principal, method: str, path: str) -> bool:
    roles = rest_rule_roles(state, method, path)
    if roles is None:
        return True
    if ANYONE & set(roles):
        return True
    if principal.anonymous:
        return False
    return bool(set(roles) & principal.roles)
