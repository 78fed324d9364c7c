"""The provider store and class rules, without HTTP."""

from __future__ import annotations

from itertools import count

import pytest

from geoserver_emulator.areas.auth_providers.classes import (
    LDAP_FIELDS,
    USERNAME_PASSWORD_PROVIDER,
    FieldSpec,
    ProviderClass,
    coerce,
    known_class,
    typed_fields,
)
from geoserver_emulator.areas.auth_providers.model import (
    ProviderConfig,
    ProviderDraft,
    ProviderStore,
    config_fields,
    normalize_name,
)
from geoserver_emulator.core.errors import Gone, Invalid, NotFound, ServerError
from geoserver_emulator.core.vendor import VendorNames

VENDOR = VendorNames()
UGS = {"default", "other"}
UP = "org.geoserver.security.auth.UsernamePasswordAuthenticationProvider"


def canon(name: str) -> str:
    return VENDOR.canonical(name)


@pytest.fixture
def store() -> ProviderStore:
    s = ProviderStore()
    ids = count(1)
    s.new_id = lambda: f"id-{next(ids)}"  # type: ignore[attr-defined]
    for name in ("default", "a", "b"):
        s.create(_draft(name), None, canon, s.new_id, UGS)  # type: ignore[attr-defined]
    return s


def _draft(name: str | None, class_name: str | None = UP, **fields: object) -> ProviderDraft:
    return ProviderDraft(
        "JSON", name, class_name, None, None, {"userGroupServiceName": "default", **fields}
    )


def test_create_appends_or_inserts_and_assigns_ids(store):
    assert store.active == ["default", "a", "b"]
    assert [store.get(n).id for n in store.active] == ["id-1", "id-2", "id-3"]
    store.create(_draft("c"), 0, canon, store.new_id, UGS)
    store.create(_draft("d"), 4, canon, store.new_id, UGS)
    assert store.active == ["c", "default", "a", "b", "d"]
    cfg = store.get("c")
    assert cfg.class_name == USERNAME_PASSWORD_PROVIDER and cfg.user_group_service == "default"


@pytest.mark.parametrize(
    "draft, position, message",
    [
        (_draft("order"), None, "'order' is reserved"),
        (_draft("ORDER"), None, "'ORDER' is reserved"),
        (_draft(None), None, "name required"),
        (_draft(""), None, "name required"),
        (_draft("a"), None, "Provider 'a' already exists"),
        (_draft("c"), 4, "position out of range"),
        (_draft("c"), -1, "position out of range"),
        (_draft("c", class_name=None), None, "Missing 'className' in JSON payload"),
        (_draft("c", class_name="org.x.Nope"), None, "Unsupported className: org.x.Nope"),
        (_draft("c", userGroupServiceName="nope"), None, "User/group service nope does not exist"),
        (_draft("c", userGroupServiceName=""), None, "User/group service name is required"),
        (_draft("c", extra=1), None, "Unknown field 'extra'"),
    ],
)
def test_create_refusals_change_nothing(store, draft, position, message):
    before = (store.active[:], dict(store.configs))
    with pytest.raises(Invalid, match=message):
        store.create(draft, position, canon, store.new_id, UGS)
    assert (store.active, store.configs) == before


def test_update_keeps_id_and_class_and_moves(store):
    cfg = store.update(
        "a", _draft("a", class_name=None, userGroupServiceName="other"), 2, canon, UGS
    )
    assert (cfg.id, cfg.class_name, cfg.user_group_service) == (
        "id-2",
        USERNAME_PASSWORD_PROVIDER,
        "other",
    )
    assert store.active == ["default", "b", "a"]


@pytest.mark.parametrize(
    "name, draft, position, error",
    [
        ("a", _draft("b"), None, Invalid),
        ("zz", _draft("zz"), None, NotFound),
        (
            "a",
            _draft("a", class_name="org.geoserver.security.auth.LdapAuthenticationProvider"),
            None,
            Invalid,
        ),
        ("a", _draft("a"), 3, Invalid),
    ],
)
def test_update_refusals(store, name, draft, position, error):
    with pytest.raises(error):
        store.update(name, draft, position, canon, UGS)
    assert store.active == ["default", "a", "b"] and store.get("a").user_group_service == "default"


def test_update_of_disabled_provider_is_a_server_error(store):
    store.reorder(["default"])
    with pytest.raises(ServerError, match="Cannot save security configuration"):
        store.update("a", _draft("a"), None, canon, UGS)


def test_delete_statuses(store):
    store.delete("a")
    assert "a" not in store.configs and store.active == ["default", "b"] and "a" in store.deleted
    with pytest.raises(Gone):
        store.delete("a")
    with pytest.raises(NotFound):
        store.delete("never")
    with pytest.raises(ServerError):
        store.delete("a", 500, 500)
    with pytest.raises(ServerError):
        store.delete("never", 500, 500)
    store.create(_draft("a"), None, canon, store.new_id, UGS)
    assert "a" not in store.deleted


def test_reorder(store):
    store.reorder(["b.json", "default"])
    assert store.active == ["b", "default"] and set(store.configs) == {"default", "a", "b"}
    assert [c.name for c in store.active_configs()] == ["b", "default"]
    for names, message in [
        ([], "`order` array required"),
        (["a", "a"], "Duplicate"),
        (["x"], "Unknown provider: x"),
    ]:
        with pytest.raises(Invalid, match=message):
            store.reorder(names)
    assert store.active == ["b", "default"]


@pytest.mark.parametrize(
    "name, expected",
    [
        ("a.xml", "a"),
        ("a.JSON", "a"),
        ("a.json.xml", "a.json"),
        ("a.txt", "a.txt"),
        (".xml", ""),
        ("a", "a"),
    ],
)
def test_normalize_name(name, expected):
    assert normalize_name(name) == expected


def test_resolve_knows_classes_in_use(store):
    store.configs["k"] = ProviderConfig("i", "k", "=com.acme.KProvider", "=com.acme.KConfig")
    assert store.resolve("=com.acme.KProvider") == ProviderClass(
        "=com.acme.KProvider", "=com.acme.KConfig"
    )
    assert store.resolve("=com.acme.KConfig", "config") is not None
    assert store.resolve("=com.acme.KProvider", "config") is None
    assert store.resolve("security.auth.UsernamePasswordAuthenticationProvider", "config") is None
    assert "=com.acme.KConfig" in store.class_names()


def test_typed_fields_fill_java_defaults_and_drop_absent():
    ldap = known_class("security.ldap.LDAPSecurityServiceConfig")
    assert ldap is not None and ldap.fields == LDAP_FIELDS
    out = typed_fields(ldap, {"serverURL": "ldap://x", "useTLS": "false", "user": None})
    assert out == {
        "serverURL": "ldap://x",
        "useTLS": False,
        "useNestedParentGroups": False,
        "maxGroupSearchLevel": 10,
        "nestedGroupSearchFilter": "(member={0})",
    }


@pytest.mark.parametrize(
    "spec, value, expected",
    [
        (FieldSpec("s"), "x", "x"),
        (FieldSpec("s"), 5, "5"),
        (FieldSpec("s"), True, "true"),
        (FieldSpec("b", "bool"), " TRUE ", True),
        (FieldSpec("b", "bool"), False, False),
        (FieldSpec("i", "int"), "+7", 7),
        (FieldSpec("i", "int"), -3, -3),
        (FieldSpec("i", "int"), None, None),
    ],
)
def test_coerce(spec, value, expected):
    assert coerce(spec, value) == expected


@pytest.mark.parametrize(
    "spec, value",
    [
        (FieldSpec("s"), {"a": 1}),
        (FieldSpec("s"), [1]),
        (FieldSpec("b", "bool"), "yes"),
        (FieldSpec("b", "bool"), 1),
        (FieldSpec("i", "int"), "1.5"),
        (FieldSpec("i", "int"), True),
        (FieldSpec("i", "int"), 2**31),
        (FieldSpec("i", "int"), "+-5"),
    ],
)
def test_coerce_refuses(spec, value):
    with pytest.raises(Invalid, match=f"field '{spec.name}'"):
        coerce(spec, value)


def test_config_fields_order():
    ldap = known_class("security.config.LdapAuthenticationProviderConfig")
    assert ldap is not None
    cfg = ProviderConfig(
        "i", "l", ldap.provider, ldap.config, "ugs", {"userFormat": "f", "serverURL": "u"}
    )
    keys = [k for k, v in config_fields(cfg, ldap) if v is not None]
    assert keys == ["serverURL", "userGroupServiceName", "userFormat"]
    free = ProviderClass("=x.P", "=x.C")
    cfg = ProviderConfig("i", "f", "=x.P", "=x.C", None, {"z": 1, "a": 2})
    assert config_fields(cfg, free) == [("userGroupServiceName", None), ("z", 1), ("a", 2)]
