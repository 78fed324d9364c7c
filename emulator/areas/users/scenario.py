"""Scenario section ``users``: user/group services, role services, memberships.

"users": {
  "defaultService": "default", "activeRoleService": "default",
  "services": [{"name": "default", "readOnly": false,
                "users": [{"name": "admin", "password": "geoserver", "enabled": true}],
                "groups": [{"name": "g", "enabled": true, "members": ["admin"]}]}],
  "roleServices": [{"name": "default", "readOnly": false,
                    "adminRole": "ADMIN", "groupAdminRole": "GROUP_ADMIN",
                    "roles": ["ADMIN", "GROUP_ADMIN"],
                    "userRoles": {"admin": ["ADMIN"]}, "groupRoles": {}}]
}
"""

from __future__ import annotations

from typing import Any

from ...core.errors import ScenarioError
from ...core.state import State
from ...scenarios.context import ScenarioContext
from ...scenarios.fields import Section
from .model import Group, RoleService, User, UserGroupService


def apply(state: State, sec: Section, ctx: ScenarioContext) -> None:
    sec.only({"defaultService", "activeRoleService", "services", "roleServices"})
    store = state.users
    store.default_service = sec.str("defaultService", store.default_service)
    store.active_role_service = sec.str("activeRoleService", store.active_role_service)
    for s in sec.items("services"):
        s.only({"name", "readOnly", "users", "groups", "configClass", "config"})
        name = s.str("name", required=True)
        svc = store.services.setdefault(name, UserGroupService(name))
        svc.read_only = s.bool("readOnly", svc.read_only)
        svc.config_class = s.str("configClass", svc.config_class)
        if s.has("config"):
            config = s.dict("config")
            bad = sorted(k for k, v in config.items() if not isinstance(v, str))
            if bad:
                raise ScenarioError(f"{s.where}.config.{bad[0]}: expected a string")
            svc.config = dict(config)
        for u in s.items("users"):
            u.only({"name", "password", "enabled", "properties"})
            uname = u.str("name", required=True)
            props = u.dict("properties")
            bad = sorted(k for k, v in props.items() if not isinstance(v, str))
            if bad:
                raise ScenarioError(f"{u.where}.properties.{bad[0]}: expected a string")
            svc.users[uname] = User(
                uname, u.str("password", ""), u.bool("enabled", True), dict(props)
            )
        for g in s.items("groups"):
            g.only({"name", "enabled", "members"})
            gname = g.str("name", required=True)
            svc.groups[gname] = Group(gname, g.bool("enabled", True))
            members = set(g.strings("members"))
            unknown = sorted(members - set(svc.users))
            if unknown:
                raise ScenarioError(f"{g.where}.members: unknown user {unknown[0]}")
            svc.memberships[gname] = members
    for r in sec.items("roleServices"):
        r.only(
            {"name", "readOnly", "adminRole", "groupAdminRole", "roles", "userRoles", "groupRoles"}
        )
        name = r.str("name", required=True)
        rs = store.role_services.setdefault(name, RoleService(name))
        rs.read_only = r.bool("readOnly", rs.read_only)
        rs.admin_role = r.str("adminRole", rs.admin_role)
        rs.group_admin_role = r.str("groupAdminRole", rs.group_admin_role)
        for role in r.strings("roles"):
            rs.roles.setdefault(role, {})
        for field_name, target in (("userRoles", rs.user_roles), ("groupRoles", rs.group_roles)):
            for holder, roles in r.dict(field_name).items():
                if not isinstance(roles, list) or not all(isinstance(x, str) for x in roles):
                    raise ScenarioError(
                        f"{r.where}.{field_name}.{holder}: expected a list of role names"
                    )
                missing = sorted(set(roles) - set(rs.roles))
                if missing:
                    raise ScenarioError(
                        f"{r.where}.{field_name}.{holder}: unknown role {missing[0]}"
                    )
                if roles:
                    target.setdefault(holder, set()).update(roles)
    if store.default_service not in store.services:
        raise ScenarioError(
            f"{sec.where}.defaultService: no user/group service {store.default_service}"
        )
    if store.active_role_service not in store.role_services:
        raise ScenarioError(
            f"{sec.where}.activeRoleService: no role service {store.active_role_service}"
        )


def dump(state: State, ctx: ScenarioContext) -> dict[str, Any]:
    store = state.users
    return {
        "defaultService": store.default_service,
        "activeRoleService": store.active_role_service,
        "services": [
            {
                "name": svc.name,
                "readOnly": svc.read_only,
                "configClass": svc.config_class,
                "config": dict(svc.config),
                "users": [
                    {
                        "name": u.name,
                        "password": u.password,
                        "enabled": u.enabled,
                        "properties": u.properties,
                    }
                    for u in svc.users.values()
                ],
                "groups": [
                    {
                        "name": g.name,
                        "enabled": g.enabled,
                        "members": sorted(svc.memberships.get(g.name, set())),
                    }
                    for g in svc.groups.values()
                ],
            }
            for svc in store.services.values()
        ],
        "roleServices": [
            {
                "name": rs.name,
                "readOnly": rs.read_only,
                "adminRole": rs.admin_role,
                "groupAdminRole": rs.group_admin_role,
                "roles": list(rs.roles),
                "userRoles": {k: sorted(v) for k, v in sorted(rs.user_roles.items()) if v},
                "groupRoles": {k: sorted(v) for k, v in sorted(rs.group_roles.items()) if v},
            }
            for rs in store.role_services.values()
        ],
    }
