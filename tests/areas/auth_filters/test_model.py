"""The filter store and the typing of filter fields, without HTTP."""

from __future__ import annotations

import pytest

from geoserver_emulator.areas.auth_filters.model import PROTECTED, FilterConfig, FilterStore, draft
from geoserver_emulator.areas.auth_filters.schema import (
    ANONYMOUS,
    INTERCEPTOR,
    OPENID_CONNECT,
    PREAUTH_ROLE_SOURCE,
)
from geoserver_emulator.core.errors import Gone, Invalid, NotFound

ANON_IMPL = "security.filter.GeoServerAnonymousAuthenticationFilter"
INTERCEPTOR_IMPL = "security.filter.GeoServerSecurityInterceptorFilter"
OIDC_IMPL = "security.oauth2.OpenIdConnectAuthenticationFilter"


def ids():
    counter = iter(range(1, 1000))
    return lambda: f"id-{next(counter)}"


def interceptor(name: str, **raw) -> FilterConfig:
    fields = {"securityMetadataSource": "restFilterDefinitionMap", **raw}
    return draft(name, INTERCEPTOR_IMPL, INTERCEPTOR, fields)


def test_create_assigns_an_id_only_when_accepted():
    store, new_id = FilterStore(), ids()
    with pytest.raises(Invalid):
        store.create(draft("", ANON_IMPL, ANONYMOUS, {}), new_id)
    saved = store.create(draft("a", ANON_IMPL, ANONYMOUS, {}), new_id)
    assert saved.id == "id-1" and store.find("a") is saved


@pytest.mark.parametrize(
    "cfg, message",
    [
        (draft("", ANON_IMPL, ANONYMOUS, {}), "Cannot create the config has no name parameter"),
        (draft("x", "", ANONYMOUS, {}), "Cannot save the config x because it has no className"),
        (interceptor("x", securityMetadataSource=""), "Field securityMetadataSource is required"),
        (draft("a/b", ANON_IMPL, ANONYMOUS, {}), "a name cannot contain a slash"),
    ],
)
def test_create_refuses_bad_configs(cfg, message):
    with pytest.raises(Invalid, match=message):
        FilterStore().create(cfg, ids())


def test_duplicate_name_is_refused_whatever_the_kind():
    store = FilterStore()
    store.create(interceptor("x"), ids())
    with pytest.raises(
        Invalid, match="Cannot create the config x because the name is already in use"
    ):
        store.create(draft("x", ANON_IMPL, ANONYMOUS, {}), ids())


def test_update_keeps_the_id_and_may_change_the_class():
    store = FilterStore()
    store.create(interceptor("x"), ids())
    replaced = draft("x", ANON_IMPL, ANONYMOUS, {})
    replaced.id = "client-sent"
    store.update("x", replaced)
    assert store.find("x").config_class == ANONYMOUS and store.find("x").id == "id-1"


def test_update_checks_the_name_before_existence():
    store = FilterStore()
    with pytest.raises(Invalid, match="Cannot modify the config x because the name y"):
        store.update("x", draft("y", ANON_IMPL, ANONYMOUS, {}))
    with pytest.raises(Invalid, match="the name null in the body"):
        store.update("x", draft("", ANON_IMPL, ANONYMOUS, {}))
    with pytest.raises(NotFound, match="Cannot update x because it does not exist"):
        store.update("x", draft("x", ANON_IMPL, ANONYMOUS, {}))


def test_update_validates():
    store = FilterStore()
    store.create(interceptor("x"), ids())
    with pytest.raises(Invalid):
        store.update("x", interceptor("x", securityMetadataSource=" "))
    assert store.find("x").fields["securityMetadataSource"] == "restFilterDefinitionMap"


def test_delete_protected_missing_and_gone():
    store = FilterStore()
    for name in PROTECTED:
        store.create(draft(name, ANON_IMPL, ANONYMOUS, {}), ids())
        with pytest.raises(Invalid, match=f"Cannot delete {name} because it is a required"):
            store.delete(name)
    store.create(interceptor("x"), ids())
    store.delete("x")
    assert store.find("x") is None and "x" in store.deleted
    with pytest.raises(Gone) as gone:
        store.delete("x")
    assert gone.value.status == 410
    with pytest.raises(NotFound) as missing:
        store.delete("never", missing_status=404)
    assert missing.value.status == 404 and missing.value.message == "Cannot find filter never"


def test_recreating_a_deleted_name_forgets_the_deletion():
    store = FilterStore()
    store.create(interceptor("x"), ids())
    store.delete("x")
    store.create(interceptor("x"), ids())
    assert "x" not in store.deleted


def test_list_holds_authentication_filters_sorted_by_name():
    store = FilterStore()
    for name in ("zeta", "Alpha", "beta"):
        store.create(draft(name, ANON_IMPL, ANONYMOUS, {}), ids())
    store.create(interceptor("inter"), ids())
    store.create(
        draft("custom", "=com.acme.MyFilter", "=com.acme.MyFilterConfig", {"a": "1"}), ids()
    )
    assert [c.name for c in store.listed()] == ["Alpha", "beta", "custom", "zeta"]


# -- typing --------------------------------------------------------------------------------


def test_booleans_are_typed_from_text_or_json():
    assert (
        interceptor("x", allowIfAllAbstainDecisions="TRUE").fields["allowIfAllAbstainDecisions"]
        is True
    )
    assert (
        interceptor("x", allowIfAllAbstainDecisions=False).fields["allowIfAllAbstainDecisions"]
        is False
    )
    with pytest.raises(Invalid, match="must be true or false"):
        interceptor("x", allowIfAllAbstainDecisions="yes")
    with pytest.raises(Invalid, match="must be true or false"):
        interceptor("x", allowIfAllAbstainDecisions=1)


def test_absent_primitive_booleans_read_as_false():
    assert interceptor("x").fields == {
        "allowIfAllAbstainDecisions": False,
        "securityMetadataSource": "restFilterDefinitionMap",
    }


def test_strict_classes_refuse_unknown_fields_lenient_ones_keep_them():
    with pytest.raises(Invalid, match="Unknown field foo for SecurityInterceptorFilterConfig"):
        interceptor("x", foo="1")
    with pytest.raises(Invalid, match="Unknown field foo"):
        draft("a", ANON_IMPL, ANONYMOUS, {"foo": "1"})
    oidc = draft("o", OIDC_IMPL, OPENID_CONNECT, {"futureField": {"a": ["1", "2"]}})
    assert oidc.fields["futureField"] == {"a": ["1", "2"]}


def test_string_fields_take_scalars_but_not_structures():
    cfg = interceptor("x", securityMetadataSource=12)
    assert cfg.fields["securityMetadataSource"] == "12"
    with pytest.raises(Invalid, match="must be a string"):
        interceptor("x", securityMetadataSource={"a": "b"})


def test_role_source_needs_a_class_and_a_known_constant():
    good = {"@class": PREAUTH_ROLE_SOURCE, "$": "RoleService"}
    assert draft("o", OIDC_IMPL, OPENID_CONNECT, {"roleSource": good}).fields["roleSource"] == good
    with pytest.raises(Invalid, match="needs a class"):
        draft("o", OIDC_IMPL, OPENID_CONNECT, {"roleSource": "RoleService"})
    with pytest.raises(Invalid, match="is not one of"):
        draft(
            "o",
            OIDC_IMPL,
            OPENID_CONNECT,
            {"roleSource": {"@class": PREAUTH_ROLE_SOURCE, "$": "Nope"}},
        )
    other = {"@class": "=com.acme.Source", "$": "anything"}
    assert (
        draft("o", OIDC_IMPL, OPENID_CONNECT, {"roleSource": other}).fields["roleSource"] == other
    )


def test_integers():
    ssl = draft(
        "s",
        "security.filter.GeoServerSSLFilter",
        "security.config.SSLFilterConfig",
        {"sslPort": " 8443 "},
    )
    assert ssl.fields == {"sslPort": 8443}
    with pytest.raises(Invalid, match="must be an integer"):
        draft(
            "s",
            "security.filter.GeoServerSSLFilter",
            "security.config.SSLFilterConfig",
            {"sslPort": "x"},
        )


@pytest.mark.parametrize(
    "config_class, fields, missing",
    [
        (
            "security.config.UsernamePasswordAuthenticationFilterConfig",
            {"usernameParameterName": "u"},
            "passwordParameterName",
        ),
        ("security.config.RoleFilterConfig", {}, "httpResponseHeaderAttrForIncludedRoles"),
        (
            "security.config.RequestHeaderAuthenticationFilterConfig",
            {"principalHeaderAttribute": ""},
            "principalHeaderAttribute",
        ),
    ],
)
def test_other_stock_classes_check_their_required_fields(config_class, fields, missing):
    with pytest.raises(Invalid, match=f"Field {missing} is required"):
        FilterStore().create(draft("x", "security.filter.X", config_class, fields), ids())
