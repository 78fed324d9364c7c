"""User/group services and role services, and the checks GeoServer makes on them.

Messages and statuses follow GeoServer's ``UsersRestController`` / ``RolesRestController``:
their ``IllegalArgumentException`` handler answers 404 for an unknown service, user, group
or role, and also for a name that already exists (the stores throw the same exception
type for both); a read-only service answers 500.
"""

from __future__ import annotations

from ...core.errors import Conflict, Invalid, NotFound, ServerError
from ...core.record import field, record

ROLE_ADMINISTRATOR = "ROLE_ADMINISTRATOR"
ROLE_GROUP_ADMIN = "ROLE_GROUP_ADMIN"
ROLE_AUTHENTICATED = "ROLE_AUTHENTICATED"
ROLE_ANONYMOUS = "ROLE_ANONYMOUS"


@record
class User:
    name: str
    password: str
    enabled: bool = True
    properties: dict[str, str] = field(default_factory=dict)


@record(frozen=True)
class UserChange:
    """A user as a client sent it; ``None`` means the field was absent."""

    name: str | None = None
    password: str | None = None
    enabled: bool | None = None


@record
class Group:
    name: str
    enabled: bool = True


XML_SERVICE_CONFIG = "security.xml.XMLUserGroupServiceConfig"
"""canonical (vendor part dropped, ``core/vendor.py``)"""
XML_SERVICE_DEFAULTS = {
    "className": "org.geoserver.security.xml.XMLUserGroupService",
    "fileName": "users.xml",
    "checkInterval": "10000",
    "validating": "true",
    "passwordEncoderName": "pbePasswordEncoder",
    "passwordPolicyName": "default",
}
"""the stock ``default`` service's configuration (``security/usergroup/default/config.xml``)"""


@record
class UserGroupService:
    name: str
    users: dict[str, User] = field(default_factory=dict)
    groups: dict[str, Group] = field(default_factory=dict)
    memberships: dict[str, set[str]] = field(default_factory=dict)
    """group name → user names"""
    read_only: bool = False
    config_class: str = XML_SERVICE_CONFIG
    """the service configuration's class (``/rest/security/usergroupservices``)"""
    config: dict[str, str] = field(default_factory=lambda: dict(XML_SERVICE_DEFAULTS))
    """the configuration's fields after ``name``, in order (``className``, ``fileName``…)"""

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

    def members_of(self, group: str) -> list[User]:
        self.group(group)
        return [
            self.users[u] for u in sorted(self.memberships.get(group, set())) if u in self.users
        ]

    def sorted_users(self) -> list[User]:
        return [self.users[name] for name in sorted(self.users)]


@record
class RoleService:
    name: str = "default"
    roles: dict[str, dict[str, str]] = field(default_factory=dict)
    """role name → properties"""
    user_roles: dict[str, set[str]] = field(default_factory=dict)
    """user name → role names; the user need not exist in any user/group service"""
    group_roles: dict[str, set[str]] = field(default_factory=dict)
    admin_role: str = "ADMIN"
    group_admin_role: str = "GROUP_ADMIN"
    read_only: bool = False

    def require(self, role: str) -> None:
        if role not in self.roles:
            raise NotFound(f"Provided role does not exist: {role}")

    def roles_of_user(self, user: str) -> list[str]:
        """Roles given to the user directly (not through groups), sorted."""
        return sorted(r for r in self.user_roles.get(user, set()) if r in self.roles)

    def roles_of_group(self, group: str) -> list[str]:
        return sorted(r for r in self.group_roles.get(group, set()) if r in self.roles)


@record
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
            raise NotFound(f"Provided user/group service does not exist: {name}") from None

    def role_service(self, name: str | None = None) -> RoleService:
        name = name or self.active_role_service
        try:
            return self.role_services[name]
        except KeyError:
            raise NotFound(f"Provided roleservice does not exist: {name}") from None

    # -- users ---------------------------------------------------------------------------

    def create_user(self, service: str | None, name: str, password: str, enabled: bool) -> User:
        svc = self._writable(service)
        if not name:
            raise Invalid("Missing userName")
        if name in svc.users:
            raise Conflict(f"The user {name} already exists", status=404)
        user = User(name, password, enabled)
        svc.users[name] = user
        return user

    def add_user(self, service: str | None, change: UserChange) -> User:
        """Create a user from a client's payload: all three fields are required."""
        svc = self._writable(service)
        if not change.name:
            raise Invalid("Missing userName")
        if change.name in svc.users:
            raise Conflict(f"The user {change.name} already exists", status=404)
        if change.password is None:
            raise Invalid("Missing password")
        if change.enabled is None:
            raise Invalid("Missing enabled")
        return self.create_user(service, change.name, change.password, change.enabled)

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
        """Remove a user and its group memberships; its roles stay in the role service,
        keyed by name, as in GeoServer."""
        svc = self._writable(service)
        svc.user(name)
        del svc.users[name]
        for members in svc.memberships.values():
            members.discard(name)

    # -- groups --------------------------------------------------------------------------

    def create_group(self, service: str | None, name: str) -> Group:
        svc = self._writable(service)
        if not name:
            raise Invalid("Missing group name")
        if name in svc.groups:
            raise Conflict(f"The group {name} already exists", status=404)
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
        rs = self._writable_roles(service)
        if not role:
            raise Invalid("Missing role name")
        if role in rs.roles:
            raise Conflict(f"The role {role} already exists", status=404)
        rs.roles[role] = {}

    def delete_role(self, service: str | None, role: str) -> None:
        rs = self._writable_roles(service)
        rs.require(role)
        del rs.roles[role]
        for held in (*rs.user_roles.values(), *rs.group_roles.values()):
            held.discard(role)

    def assign_user_role(self, service: str | None, role: str, user: str, grant: bool) -> None:
        """Grant or withdraw a role; the user name is not checked, as in GeoServer."""
        rs = self._writable_roles(service)
        rs.require(role)
        _toggle(rs.user_roles, user, role, grant)

    def assign_group_role(self, service: str | None, role: str, group: str, grant: bool) -> None:
        rs = self._writable_roles(service)
        rs.require(role)
        _toggle(rs.group_roles, group, role, grant)

    def roles_of_user(
        self, user: str, ug_service: str | None = None, role_service: str | None = None
    ) -> list[str]:
        """The roles a user holds directly or through its enabled groups, sorted."""
        return sorted(self.role_set_of_user(user, ug_service, role_service))

    def role_set_of_user(
        self, user: str, ug_service: str | None = None, role_service: str | None = None
    ) -> set[str]:
        """``roles_of_user`` as a set."""
        return self.roles_from(self.role_service(role_service), ug_service, user)

    def roles_from(self, rs: RoleService, ug_service: str | None, user: str) -> set[str]:
        """The roles ``rs`` gives ``user`` directly or through its enabled groups of the
        user/group service ``ug_service`` (what authentication asks on every request)."""
        svc = self.services.get(ug_service or self.default_service)
        known = rs.roles
        roles = {r for r in rs.user_roles.get(user, ()) if r in known}
        if svc is not None:
            for group, members in svc.memberships.items():
                if user in members and svc.groups.get(group, Group(group)).enabled:
                    roles.update(r for r in rs.group_roles.get(group, ()) if r in known)
        return roles

    # -- helpers -------------------------------------------------------------------------

    def _writable(self, service: str | None) -> UserGroupService:
        svc = self.service(service)
        if svc.read_only:
            raise ServerError("Provided UserGroupService is read-only.")
        return svc

    def _writable_roles(self, service: str | None) -> RoleService:
        rs = self.role_service(service)
        if rs.read_only:
            raise ServerError(f"Provided roleservice is read-only: {rs.name}")
        return rs


def _toggle(table: dict[str, set[str]], holder: str, role: str, grant: bool) -> None:
    held = table.setdefault(holder, set())
    if grant:
        held.add(role)
    else:
        held.discard(role)
    if not held:
        del table[holder]
