"""User/group services and the role service, and the checks GeoServer makes on them."""

from __future__ import annotations

from dataclasses import dataclass, field

from ...core.errors import Conflict, Invalid, NotFound

ROLE_ADMINISTRATOR = "ROLE_ADMINISTRATOR"
ROLE_GROUP_ADMIN = "ROLE_GROUP_ADMIN"
ROLE_AUTHENTICATED = "ROLE_AUTHENTICATED"
ROLE_ANONYMOUS = "ROLE_ANONYMOUS"


@dataclass
class User:
    name: str
    password: str
    enabled: bool = True
    properties: dict[str, str] = field(default_factory=dict)


@dataclass
class Group:
    name: str
    enabled: bool = True


@dataclass
class UserGroupService:
    name: str
    users: dict[str, User] = field(default_factory=dict)
    groups: dict[str, Group] = field(default_factory=dict)
    memberships: dict[str, set[str]] = field(default_factory=dict)
    """group name → user names"""
    read_only: bool = False

    def user(self, name: str) -> User:
        try:
            return self.users[name]
        except KeyError:
            raise NotFound(f"Provided username does not exist: {name}") from None

    def group(self, name: str) -> Group:
        try:
            return self.groups[name]
        except KeyError:
            raise NotFound(f"Provided groupname does not exist: {name}") from None

    def groups_of(self, user: str) -> list[str]:
        return sorted(g for g, members in self.memberships.items() if user in members)


@dataclass
class RoleService:
    name: str = "default"
    roles: dict[str, dict[str, str]] = field(default_factory=dict)
    """role name → properties"""
    user_roles: dict[str, set[str]] = field(default_factory=dict)
    group_roles: dict[str, set[str]] = field(default_factory=dict)
    admin_role: str = "ADMIN"
    group_admin_role: str = "GROUP_ADMIN"

    def require(self, role: str) -> None:
        if role not in self.roles:
            raise NotFound(f"Provided role does not exist: {role}")


@dataclass
class UsersStore:
    services: dict[str, UserGroupService] = field(default_factory=dict)
    role_services: dict[str, RoleService] = field(default_factory=dict)
    default_service: str = "default"
    active_role_service: str = "default"

    # -- lookups -------------------------------------------------------------------------

    def service(self, name: str | None = None) -> UserGroupService:
        name = name or self.default_service
        try:
            return self.services[name]
        except KeyError:
            raise NotFound(f"Provided UserGroupService does not exist: {name}") from None

    def role_service(self, name: str | None = None) -> RoleService:
        name = name or self.active_role_service
        try:
            return self.role_services[name]
        except KeyError:
            raise NotFound(f"Provided RoleService does not exist: {name}") from None

    # -- users ---------------------------------------------------------------------------

    def create_user(self, service: str | None, name: str, password: str, enabled: bool) -> User:
        svc = self._writable(service)
        if not name:
            raise Invalid("Missing userName")
        if name in svc.users:
            raise Conflict(f"User already exists: {name}")
        user = User(name, password, enabled)
        svc.users[name] = user
        return user

    def update_user(
        self, service: str | None, name: str, password: str | None, enabled: bool | None
    ) -> User:
        svc = self._writable(service)
        user = svc.user(name)
        if password is not None:
            user.password = password
        if enabled is not None:
            user.enabled = enabled
        return user

    def delete_user(self, service: str | None, name: str) -> None:
        svc = self._writable(service)
        svc.user(name)
        del svc.users[name]
        for members in svc.memberships.values():
            members.discard(name)

    # -- groups --------------------------------------------------------------------------

    def create_group(self, service: str | None, name: str) -> Group:
        svc = self._writable(service)
        if name in svc.groups:
            raise Conflict(f"Group already exists: {name}")
        group = Group(name)
        svc.groups[name] = group
        svc.memberships.setdefault(name, set())
        return group

    def delete_group(self, service: str | None, name: str) -> None:
        svc = self._writable(service)
        svc.group(name)
        del svc.groups[name]
        svc.memberships.pop(name, None)

    def join(self, service: str | None, user: str, group: str) -> bool:
        """Add a user to a group; False when it already was a member."""
        svc = self._writable(service)
        svc.user(user)
        svc.group(group)
        members = svc.memberships.setdefault(group, set())
        if user in members:
            return False
        members.add(user)
        return True

    def leave(self, service: str | None, user: str, group: str) -> None:
        svc = self._writable(service)
        svc.user(user)
        svc.group(group)
        svc.memberships.setdefault(group, set()).discard(user)

    # -- roles ---------------------------------------------------------------------------

    def create_role(self, service: str | None, role: str) -> None:
        rs = self.role_service(service)
        if role in rs.roles:
            raise Conflict(f"Role already exists: {role}")
        rs.roles[role] = {}

    def delete_role(self, service: str | None, role: str) -> None:
        rs = self.role_service(service)
        rs.require(role)
        del rs.roles[role]
        for held in (*rs.user_roles.values(), *rs.group_roles.values()):
            held.discard(role)

    def assign_user_role(self, service: str | None, role: str, user: str, grant: bool) -> None:
        rs = self.role_service(service)
        rs.require(role)
        held = rs.user_roles.setdefault(user, set())
        if grant:
            held.add(role)
        else:
            held.discard(role)

    def assign_group_role(self, service: str | None, role: str, group: str, grant: bool) -> None:
        rs = self.role_service(service)
        rs.require(role)
        held = rs.group_roles.setdefault(group, set())
        if grant:
            held.add(role)
        else:
            held.discard(role)

    def roles_of_user(self, user: str, ug_service: str | None = None, role_service: str | None = None) -> list[str]:
        """The roles a user holds directly or through its groups, sorted."""
        rs = self.role_service(role_service)
        svc = self.services.get(ug_service or self.default_service)
        roles = set(rs.user_roles.get(user, set()))
        if svc is not None:
            for group in svc.groups_of(user):
                if svc.groups.get(group, Group(group)).enabled:
                    roles |= rs.group_roles.get(group, set())
        return sorted(r for r in roles if r in rs.roles)

    def _writable(self, service: str | None) -> UserGroupService:
        svc = self.service(service)
        if svc.read_only:
            raise Invalid("Provided UserGroupService is read-only.", status=500)
        return svc
