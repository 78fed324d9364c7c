"""The provider classes the emulator knows, and the typed fields of their configurations.

Class names are canonical (see ``core.vendor``): the part after the vendor prefix, or
``=`` plus the whole name for a foreign class. A *typed* class has a fixed list of fields
(GeoServer's XStream order); a body with any other field is refused, as GeoServer refuses
it. A *free-form* class keeps whatever fields a body gives, unchanged, so that nothing is
lost for providers the emulator does not model.

The known classes are GeoServer's default allow-list for this endpoint (newest code), plus
the LDAP class names the interface spec uses.
"""

from __future__ import annotations

import re
from typing import Any

from ...core.errors import Invalid
from ...core.record import record

USERNAME_PASSWORD_PROVIDER = "security.auth.UsernamePasswordAuthenticationProvider"
USERNAME_PASSWORD_CONFIG = "security.config.UsernamePasswordAuthenticationProviderConfig"
USER_GROUP_SERVICE = "userGroupServiceName"


@record(frozen=True)
class FieldSpec:
    """One typed configuration field: ``str``, ``bool`` or ``int``, and its Java default."""

    name: str
    type: str = "str"
    default: Any = None


@record(frozen=True)
class ProviderClass:
    """A provider implementation and its configuration class (both canonical)."""

    provider: str
    config: str
    fields: tuple[FieldSpec, ...] | None = None
    """fields after id, name and className, in order; None for a free-form class"""
    requires_user_group_service: bool = False

    @property
    def typed(self) -> bool:
        return self.fields is not None


LDAP_FIELDS = (
    FieldSpec("serverURL"),
    FieldSpec("groupSearchBase"),
    FieldSpec("groupFilter"),
    FieldSpec("groupNameAttribute"),
    FieldSpec("allGroupsSearchFilter"),
    FieldSpec("groupSearchFilter"),
    FieldSpec("groupMembershipAttribute"),
    FieldSpec("userSearchBase"),
    FieldSpec("userFilter"),
    FieldSpec("userNameAttribute"),
    FieldSpec("allUsersSearchFilter"),
    FieldSpec("useTLS", "bool"),
    FieldSpec("useNestedParentGroups", "bool", False),
    FieldSpec("maxGroupSearchLevel", "int", 10),
    FieldSpec("nestedGroupSearchFilter", "str", "(member={0})"),
    FieldSpec("bindBeforeGroupSearch", "bool"),
    FieldSpec("adminGroup"),
    FieldSpec("groupAdminGroup"),
    FieldSpec("user"),
    FieldSpec("password"),
    FieldSpec("userDnPattern"),
    FieldSpec(USER_GROUP_SERVICE),
    FieldSpec("userFormat"),
)

KNOWN_CLASSES: tuple[ProviderClass, ...] = (
    ProviderClass(
        USERNAME_PASSWORD_PROVIDER, USERNAME_PASSWORD_CONFIG, (FieldSpec(USER_GROUP_SERVICE),), True
    ),
    # the spec's names for LDAP
    ProviderClass(
        "security.auth.LdapAuthenticationProvider",
        "security.config.LdapAuthenticationProviderConfig",
        LDAP_FIELDS,
    ),
    # GeoServer's LDAP extension
    ProviderClass(
        "security.ldap.LDAPAuthenticationProvider",
        "security.ldap.LDAPSecurityServiceConfig",
        LDAP_FIELDS,
    ),
    ProviderClass(
        "security.jdbc.JDBCConnectAuthProvider",
        "security.jdbc.config.JDBCConnectAuthProviderConfig",
    ),
    ProviderClass(
        "geoserver.authentication.auth.GeoFenceAuthenticationProvider",
        "geoserver.authentication.auth.GeoFenceAuthenticationProviderConfig",
    ),
    ProviderClass(
        "security.auth.web.WebServiceAuthenticationProvider",
        "security.auth.web.WebAuthenticationConfig",
    ),
    ProviderClass(
        "security.WebServiceBodyResponseSecurityProvider",
        "security.WebServiceBodyResponseSecurityProviderConfig",
    ),
)

KNOWN_NAMES = frozenset(n for c in KNOWN_CLASSES for n in (c.provider, c.config))


def known_class(name: str, kind: str = "any") -> ProviderClass | None:
    """The known class a canonical provider (``kind="any"``) or config class name names."""
    for c in KNOWN_CLASSES:
        if name == c.config or (kind == "any" and name == c.provider):
            return c
    return None


def known_provider(provider: str) -> ProviderClass | None:
    for c in KNOWN_CLASSES:
        if c.provider == provider:
            return c
    return None


def typed_fields(pclass: ProviderClass, raw: dict[str, Any]) -> dict[str, Any]:
    """The fields of a configuration of ``pclass`` from a body's raw field values.

    Typed classes: unknown fields are refused, values converted, Java defaults filled in,
    absent (None) fields dropped. Free-form classes: everything kept as given.
    """
    if pclass.fields is None:
        return dict(raw)
    specs = {f.name: f for f in pclass.fields}
    for key in raw:
        if key not in specs:
            raise Invalid(f"Unknown field '{key}' for this provider class")
    out: dict[str, Any] = {}
    for spec in pclass.fields:
        value = coerce(spec, raw.get(spec.name))
        if value is None:
            value = spec.default
        if value is not None:
            out[spec.name] = value
    return out


def coerce(spec: FieldSpec, value: Any) -> Any:
    """A raw value (JSON scalar, or XML text) as the field's type; None stays None."""
    if value is None:
        return None
    if spec.type == "bool":
        if isinstance(value, bool):
            return value
        if isinstance(value, str) and value.strip().lower() in ("true", "false"):
            return value.strip().lower() == "true"
    elif spec.type == "int":
        if isinstance(value, str) and _INT.fullmatch(value.strip()):
            value = int(value.strip())
        if (
            isinstance(value, int)
            and not isinstance(value, bool)
            and _JAVA_INT[0] <= value <= _JAVA_INT[1]
        ):
            return value
    elif isinstance(value, str):
        return value
    elif isinstance(value, bool):
        return "true" if value else "false"
    elif isinstance(value, int | float):
        return str(value)
    raise Invalid(f"Invalid value for field '{spec.name}': expected {_TYPE_NAMES[spec.type]}")


_INT = re.compile(r"[+-]?[0-9]{1,10}")
_JAVA_INT = (-(2**31), 2**31 - 1)
_TYPE_NAMES = {"str": "a string", "bool": "true or false", "int": "an integer"}
