"""The ``authFilters`` scenario section: stock filters, declared filters, dump and reload."""

from __future__ import annotations

import json

import pytest

from geoserver_emulator import Emulator
from geoserver_emulator.core.errors import ScenarioError

OIDC = {
    "name": "keycloak",
    "className": "org.geoserver.security.oauth2.OpenIdConnectAuthenticationFilter",
    "configClass": "org.service.security.oauth2.OpenIdConnectFilterConfig",
    "fields": {
        "roleSource": {
            "@class": "org.geoserver.security.config.PreAuthenticatedUserNameFilterConfig"
            "$PreAuthenticatedUserNameRoleSource",
            "$": "RoleService",
        },
        "clientId": "c",
        "usePKCE": "true",
    },
}


def test_stock_holds_the_fresh_install_filters():
    store = Emulator("stock").state.auth_filters
    assert sorted(store.configs) == sorted(
        [
            "anonymous",
            "basic",
            "form",
            "rememberme",
            "contextAsc",
            "contextNoAsc",
            "interceptor",
            "restInterceptor",
            "formLogout",
            "exception",
            "roleFilter",
            "sslFilter",
        ]
    )
    assert [c.name for c in store.listed()] == ["anonymous", "basic", "form", "rememberme"]
    assert store.find("exception").id == "52857278:13c7ffd66a8:-7ff2"
    assert store.find("basic").fields == {"useRememberMe": True}


def test_a_scenario_declares_filters_typed(tmp_path):
    path = tmp_path / "s.json"
    path.write_text(json.dumps({"extends": "stock", "authFilters": {"filters": [OIDC]}}))
    cfg = Emulator(str(path)).state.auth_filters.find("keycloak")
    assert cfg.config_class == "security.oauth2.OpenIdConnectFilterConfig"
    assert cfg.fields["usePKCE"] is True and cfg.id
    assert cfg.fields["roleSource"]["@class"].startswith("security.config.")


@pytest.mark.parametrize(
    "change, message",
    [
        ({"fields": {"usePKCE": "perhaps"}}, "must be true or false"),
        (
            {"configClass": "org.geoserver.security.config.AnonymousAuthenticationFilterConfig"},
            "Unknown field",
        ),
        ({"className": ""}, "no className"),
        ({"colour": "red"}, "unknown key"),
    ],
)
def test_a_bad_declared_filter_names_the_place(tmp_path, change, message):
    path = tmp_path / "s.json"
    path.write_text(json.dumps({"authFilters": {"filters": [{**OIDC, **change}]}}))
    with pytest.raises(ScenarioError, match=message) as err:
        Emulator(str(path))
    assert "authFilters" in str(err.value)


def test_dump_and_reload_gives_the_same_filters(tmp_path):
    emu = Emulator("stock", vendor_prefix="org.service")
    path = tmp_path / "saved.json"
    emu.save_scenario(path)
    section = json.loads(path.read_text())["authFilters"]["filters"]
    assert {f["configClass"].split(".")[1] for f in section} == {"geoserver"}
    again = Emulator(str(path)).state.auth_filters.configs
    assert {n: (c.id, c.class_name, c.config_class, c.fields) for n, c in again.items()} == {
        n: (c.id, c.class_name, c.config_class, c.fields)
        for n, c in emu.state.auth_filters.configs.items()
    }
