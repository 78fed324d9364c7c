"""The ``authProviders`` scenario section: stock data, declaring providers, dump and load."""

from __future__ import annotations

import json

import pytest
from provider_helpers import UP, P, listed, send

from geoserver_emulator import Emulator
from geoserver_emulator.core.errors import ScenarioError


@pytest.mark.parametrize("scenario", ["stock", "empty"])
def test_stock_has_the_one_default_provider(scenario):
    store = Emulator(scenario).state.auth_providers
    assert store.active == ["default"] and list(store.configs) == ["default"]
    cfg = store.configs["default"]
    assert cfg.class_name == "security.auth.UsernamePasswordAuthenticationProvider"
    assert cfg.config_class == "security.config.UsernamePasswordAuthenticationProviderConfig"
    assert cfg.user_group_service == "default"


def _scenario(tmp_path, section):
    path = tmp_path / "s.json"
    path.write_text(json.dumps({"extends": "stock", "authProviders": section}))
    return path


def test_scenario_declares_providers_and_the_active_list(tmp_path, client_for):
    path = _scenario(
        tmp_path,
        {
            "providers": [
                {
                    "name": "ldap",
                    "className": "org.geoserver.security.ldap.LDAPAuthenticationProvider",
                    "fields": {"serverURL": "ldap://x", "useTLS": True},
                },
                {
                    "name": "k",
                    "className": "com.acme.KerberosProvider",
                    "configClass": "com.acme.KerberosConfig",
                    "fields": {"realm": "EXAMPLE.ORG"},
                },
            ],
            "active": ["ldap", "default"],
        },
    )
    emu = Emulator(path)
    store = emu.state.auth_providers
    assert store.active == ["ldap", "default"]
    assert (
        store.configs["ldap"].config_class == "security.ldap.LDAPSecurityServiceConfig"
    )  # derived
    assert store.configs["ldap"].extra["maxGroupSearchLevel"] == 10
    c = client_for(emulator=emu)
    assert listed(c) == ["ldap", "default"]
    assert c.get(P + "/k.xml").text.startswith("<com.acme.KerberosConfig><id>")
    # a class in use is a class the server has: another provider of it can be created
    r = send(
        c, "POST", P, {"name": "k2", "className": "com.acme.KerberosProvider", "realm": "B"}, "json"
    )
    assert r.status_code == 201, r.text
    body = "<com.acme.KerberosConfig><name>k2</name><realm>C</realm></com.acme.KerberosConfig>"
    r = send(c, "PUT", P + "/k2", body, "xml")
    assert r.status_code == 200, r.text
    assert (
        "<realm>C</realm>" in r.text
        and "<className>com.acme.KerberosProvider</className>" in r.text
    )


@pytest.mark.parametrize(
    "section, message",
    [
        ({"active": ["nope"]}, "unknown provider nope"),
        ({"active": ["default", "default"]}, "listed twice"),
        (
            {
                "providers": [
                    {
                        "name": "l",
                        "className": "org.geoserver.security.auth.LdapAuthenticationProvider",
                        "fields": {"useTLS": "maybe"},
                    }
                ]
            },
            "useTLS",
        ),
        (
            {
                "providers": [
                    {
                        "name": "u",
                        "className": UP,
                        "fields": {"colour": "red"},
                    }
                ]
            },
            "colour",
        ),
        (
            {"providers": [{"name": "x", "className": "a.B", "configClass": "not a tag"}]},
            "XML element name",
        ),
        ({"providers": [{"name": "x"}]}, "className: missing"),
        ({"other": 1}, "other: unknown key"),
    ],
)
def test_bad_scenario_sections(tmp_path, section, message):
    with pytest.raises(ScenarioError, match=message):
        Emulator(_scenario(tmp_path, section))


def test_dump_then_load_gives_the_same_providers(tmp_path, emu, client):
    send(
        client,
        "POST",
        P + "?position=0",
        {
            "name": "l",
            "className": "org.service.security.auth.LdapAuthenticationProvider",
            "serverURL": "ldap://x",
        },
        "json",
    )
    send(
        client,
        "POST",
        P,
        {
            "name": "j",
            "className": "org.geoserver.security.jdbc.JDBCConnectAuthProvider",
            "props": {"a": [1, 2]},
        },
        "json",
    )
    assert send(client, "PUT", P + "/order", ["j", "l"], "json").status_code == 200
    path = tmp_path / "saved.json"
    emu.save_scenario(path)
    again = Emulator(path).state.auth_providers
    assert again.active == ["j", "l"]
    assert again.configs == emu.state.auth_providers.configs
