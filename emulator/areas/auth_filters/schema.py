"""The filter configuration classes the emulator knows, field by field, and how values are typed.

Class names here are canonical (``security.config.X``, see ``core.vendor``). A field value is
JSON-shaped: a string, boolean or integer for typed fields, and for a polymorphic value (a
role source) ``{"@class": <canonical class>, "$": <text>}``. Fields of classes not listed
here, and fields a lenient class does not declare, are kept as given: strings, numbers,
booleans, lists and objects (objects use ``@attr`` keys for XML attributes and ``$`` for text).

Three kinds of class:

- *described* (anonymous, security interceptor, OpenID Connect): typed, and the first two are
  strict (an undeclared field is a 400, as XStream refuses unknown elements);
- *hinted* (the other stock classes and the pre-authentication family): declared fields typed,
  undeclared ones kept;
- anything else: every field kept as given.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from ...core.errors import Invalid
from ...core.record import record

STR, BOOL, INT, CLASS = "string", "boolean", "integer", "class"


@record(frozen=True)
class Field:
    name: str
    kind: str
    primitive: bool = False
    """a Java primitive: always present; absent on input means the zero value (false, 0)"""


@record(frozen=True)
class FilterClass:
    config_class: str
    fields: tuple[Field, ...]
    strict: bool = False
    """undeclared fields are refused (400) rather than kept"""
    required: tuple[str, ...] = ()
    """fields GeoServer's validator insists on (non-empty)"""

    def field(self, name: str) -> Field | None:
        for f in self.fields:
            if f.name == name:
                return f
        return None


def _f(names: str, kind: str = STR, primitive: bool = False) -> tuple[Field, ...]:
    return tuple(Field(n, kind, primitive) for n in names.split())


ANONYMOUS = "security.config.AnonymousAuthenticationFilterConfig"
INTERCEPTOR = "security.config.SecurityInterceptorFilterConfig"
OPENID_CONNECT = "security.oauth2.OpenIdConnectFilterConfig"

PREAUTH_ROLE_SOURCE = (
    "security.config.PreAuthenticatedUserNameFilterConfig$PreAuthenticatedUserNameRoleSource"
)
ROLE_SOURCES: Mapping[str, frozenset[str]] = MappingProxyType(
    {
        PREAUTH_ROLE_SOURCE: frozenset({"Header", "UserGroupService", "RoleService"}),
        "security.config.J2eeAuthenticationBaseFilterConfig$J2EERoleSource": frozenset(
            {"Header", "UserGroupService", "RoleService", "J2EE"}
        ),
        "security.oauth2.OpenIdConnectFilterConfig$OpenIdRoleSource": frozenset(
            {"IdToken", "AccessToken", "MSGraphAPI", "UserInfo"}
        ),
    }
)
"""role-source enums and their constants; a role source of another class is kept as given"""

_PREAUTH = (
    Field("roleSource", CLASS),
    *_f("rolesHeaderAttribute userGroupServiceName roleConverterName roleServiceName"),
)

_OIDC = (
    Field("roleSource", CLASS),
    *_f("roleServiceName clientId clientSecret accessTokenUri userAuthorizationUri redirectUri"),
    *_f("checkTokenEndpointUrl introspectionEndpointUrl logoutUri scopes"),
    *_f("enableRedirectAuthenticationEntryPoint forceAccessTokenUriHttps", BOOL),
    *_f("forceUserAuthorizationUriHttps", BOOL),
    *_f("loginEndpoint logoutEndpoint"),
    *_f("allowUnSecureLogging", BOOL, primitive=True),
    *_f("principalKey jwkURI postLogoutRedirectUri"),
    *_f("sendClientSecret allowBearerTokens usePKCE enforceTokenValidation", BOOL, True),
    *_f("cacheAuthentication", BOOL, primitive=True),
    *_f("rolesHeaderAttribute userGroupServiceName roleConverterName tokenRolesClaim"),
    *_f("responseMode"),
)
"""the spec's table in its order, then the class's other fields (GeoServer's OIDC module)"""


def _classes(*items: FilterClass) -> Mapping[str, FilterClass]:
    return MappingProxyType({c.config_class: c for c in items})


FILTER_CLASSES: Mapping[str, FilterClass] = _classes(
    FilterClass(ANONYMOUS, (), strict=True),
    FilterClass(
        INTERCEPTOR,
        (Field("allowIfAllAbstainDecisions", BOOL, True), Field("securityMetadataSource", STR)),
        strict=True,
        required=("securityMetadataSource",),
    ),
    FilterClass(OPENID_CONNECT, _OIDC),
    FilterClass("security.config.BasicAuthenticationFilterConfig", _f("useRememberMe", BOOL, True)),
    FilterClass(
        "security.config.UsernamePasswordAuthenticationFilterConfig",
        _f("usernameParameterName passwordParameterName"),
        required=("usernameParameterName", "passwordParameterName"),
    ),
    FilterClass("security.config.RememberMeAuthenticationFilterConfig", ()),
    FilterClass(
        "security.config.ExceptionTranslationFilterConfig",
        _f("authenticationFilterName accessDeniedErrorPage"),
    ),
    FilterClass("security.config.LogoutFilterConfig", _f("redirectURL formLogoutChain")),
    FilterClass(
        "security.config.RoleFilterConfig",
        _f("httpResponseHeaderAttrForIncludedRoles roleConverterName"),
        required=("httpResponseHeaderAttrForIncludedRoles",),
    ),
    FilterClass("security.config.SSLFilterConfig", _f("sslPort", INT)),
    FilterClass(
        "security.config.SecurityContextPersistenceFilterConfig",
        _f("allowSessionCreation", BOOL, True),
    ),
    FilterClass(
        "security.config.DigestAuthenticationFilterConfig",
        (*_f("userGroupServiceName"), *_f("nonceValiditySeconds", INT, True)),
    ),
    FilterClass(
        "security.config.RequestHeaderAuthenticationFilterConfig",
        (*_f("principalHeaderAttribute"), *_PREAUTH),
        required=("principalHeaderAttribute",),
    ),
    FilterClass("security.config.J2eeAuthenticationFilterConfig", _PREAUTH),
    FilterClass("security.config.X509CertificateAuthenticationFilterConfig", _PREAUTH),
)

NON_AUTHENTICATION_FILTERS = frozenset(
    "security.filter." + n
    for n in (
        "GeoServerSecurityInterceptorFilter",
        "GeoServerExceptionTranslationFilter",
        "GeoServerLogoutFilter",
        "GeoServerRoleFilter",
        "GeoServerSSLFilter",
        "GeoServerSecurityContextPersistenceFilter",
    )
)
"""implementation classes that are not authentication filters (the list leaves them out)"""

KNOWN_IMPLEMENTATIONS = NON_AUTHENTICATION_FILTERS | frozenset(
    {
        "security.filter.GeoServerAnonymousAuthenticationFilter",
        "security.filter.GeoServerBasicAuthenticationFilter",
        "security.filter.GeoServerUserNamePasswordAuthenticationFilter",
        "security.filter.GeoServerRememberMeAuthenticationFilter",
        "security.filter.GeoServerDigestAuthenticationFilter",
        "security.filter.GeoServerRequestHeaderAuthenticationFilter",
        "security.filter.GeoServerJ2eeAuthenticationFilter",
        "security.filter.GeoServerX509CertificateAuthenticationFilter",
        "security.oauth2.OpenIdConnectAuthenticationFilter",
    }
)
"""implementation classes whose simple name the spec spells ``Service…`` for ``GeoServer…``"""


def filter_class(config_class: str) -> FilterClass:
    """The description of a config class; an unknown class keeps every field as given."""
    return FILTER_CLASSES.get(config_class) or FilterClass(config_class, ())


def type_fields(fc: FilterClass, raw: Mapping[str, Any]) -> dict[str, Any]:
    """Typed fields of ``fc`` from raw values (XML text or JSON values), declared order first.

    Raises ``Invalid`` for a value of the wrong shape, an unknown field of a strict class,
    or a role-source constant its enum does not have.
    """
    out: dict[str, Any] = {}
    for f in fc.fields:
        if f.name in raw and raw[f.name] is not None:
            out[f.name] = _typed(f, raw[f.name])
        elif f.primitive:
            out[f.name] = False if f.kind == BOOL else 0
    for name, value in raw.items():
        if fc.field(name) is not None or value is None:
            continue
        if fc.strict:
            raise Invalid(f"Unknown field {name} for {fc.config_class.rsplit('.', 1)[-1]}")
        out[name] = value
    return out


def _typed(f: Field, value: Any) -> Any:
    if f.kind == BOOL:
        if isinstance(value, bool):
            return value
        if isinstance(value, str) and value.strip().lower() in ("true", "false"):
            return value.strip().lower() == "true"
        raise Invalid(f"Field {f.name} must be true or false, not {value!r}")
    if f.kind == INT:
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        if isinstance(value, str) and value.strip().lstrip("+-").isdigit():
            return int(value.strip())
        raise Invalid(f"Field {f.name} must be an integer, not {value!r}")
    if f.kind == CLASS:
        return _class_value(f.name, value)
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float | str):
        return value if isinstance(value, str) else str(value)
    raise Invalid(f"Field {f.name} must be a string")


def _class_value(name: str, value: Any) -> dict[str, str]:
    if not (isinstance(value, dict) and isinstance(value.get("@class"), str)):
        raise Invalid(f"Field {name} needs a class (XML attribute class, JSON key @class)")
    text = value.get("$", "")
    if not isinstance(text, str) or set(value) - {"@class", "$"}:
        raise Invalid(f"Field {name} must hold a class and a text value")
    allowed = ROLE_SOURCES.get(value["@class"])
    if allowed is not None and text.strip() not in allowed:
        raise Invalid(f"Field {name}: {text!r} is not one of {', '.join(sorted(allowed))}")
    return {"@class": value["@class"], "$": text.strip() if allowed is not None else text}


def check_required(fc: FilterClass, fields: Mapping[str, Any]) -> None:
    """GeoServer's validator rules that the emulator repeats: required non-empty fields."""
    for name in fc.required:
        value = fields.get(name)
        if not (isinstance(value, str) and value.strip()):
            raise Invalid(f"Field {name} is required for {fc.config_class.rsplit('.', 1)[-1]}")
