"""Scenario files: format, validation messages, extends, folders, the parse cache."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from geoserver_emulator import Emulator, ScenarioError
from geoserver_emulator.core.profile import GEOSERVER, SPEC


def _write(path: Path, doc: object) -> Path:
    path.write_text(doc if isinstance(doc, str) else json.dumps(doc), encoding="utf-8")
    return path


BAD_DOCUMENTS = [
    # (document, the key path the message must name)
    ({"nonsense": {}}, "nonsense"),
    ({"extends": 3}, "extends"),
    ({"extends": "no-such-scenario"}, "extends"),
    ({"settings": []}, "settings"),
    ({"settings": {"profile": "best"}}, "settings.profile"),
    ({"settings": {"clock": "manual"}}, "settings.clock"),
    ({"settings": {"clockOrigin": "yesterday"}}, "settings.clockOrigin"),
    ({"settings": {"vendorPrefix": 7}}, "settings.vendorPrefix"),
    ({"users": []}, "users"),
    ({"users": {"servicez": []}}, "users.servicez"),
    ({"users": {"services": {}}}, "users.services"),
    ({"users": {"services": [{}]}}, "users.services[0].name"),
    (
        {"users": {"services": [{"name": "default", "users": [{"name": "a", "enabled": "yes"}]}]}},
        "users.services[0].users[0].enabled",
    ),
    (
        {
            "users": {
                "services": [{"name": "default", "users": [{"name": "a", "properties": {"k": 1}}]}]
            }
        },
        "users.services[0].users[0].properties.k",
    ),
    (
        {
            "users": {
                "services": [{"name": "default", "groups": [{"name": "g", "members": ["ghost"]}]}]
            }
        },
        "users.services[0].groups[0].members",
    ),
    (
        {"users": {"roleServices": [{"name": "default", "userRoles": {"admin": ["NOPE"]}}]}},
        "users.roleServices[0].userRoles.admin",
    ),
    (
        {"users": {"roleServices": [{"name": "default", "groupRoles": {"g": "ADMIN"}}]}},
        "users.roleServices[0].groupRoles.g",
    ),
    ({"users": {"defaultService": "elsewhere"}}, "users.defaultService"),
    ({"users": {"activeRoleService": "elsewhere"}}, "users.activeRoleService"),
    ({"security": {"rootLogin": "on"}}, "security.rootLogin"),
    ({"security": {"keystorePassword": 123}}, "security.keystorePassword"),
    ({"security": {"catalogMode": "OPEN"}}, "security.catalogMode"),
    ({"security": {"restRules": {"/**:GET": 5}}}, "security.restRules./**:GET"),
    ({"authProviders": {"providers": [{"name": "p"}]}}, "authProviders.providers[0].className"),
    ({"authFilters": {"filters": "x"}}, "authFilters.filters"),
]


@pytest.mark.parametrize(("doc", "key"), BAD_DOCUMENTS)
def test_every_error_names_the_file_and_the_key(tmp_path, doc, key):
    file = _write(
        tmp_path / "bad.json", {"extends": "stock", **doc} if "extends" not in doc else doc
    )
    with pytest.raises(ScenarioError) as info:
        Emulator(file)
    message = str(info.value)
    assert message.startswith(f"{file}: "), message
    assert key in message, message


@pytest.mark.parametrize(
    ("content", "says"),
    [
        ("", "not valid JSON"),
        ("{", "not valid JSON"),
        ("[]", "JSON object"),
        ("\udcff", "not valid JSON"),
    ],
)
def test_unreadable_files(tmp_path, content, says):
    file = tmp_path / "bad.json"
    if content == "\udcff":
        file.write_bytes(b"\xff\xfe{}")
    else:
        file.write_text(content)
    with pytest.raises(ScenarioError, match=says) as info:
        Emulator(file)
    assert str(file) in str(info.value)


def test_missing_file(tmp_path):
    with pytest.raises(ScenarioError, match="no such scenario"):
        Emulator(tmp_path / "absent.json")


def test_a_missing_relative_path_says_where_it_looked(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(ScenarioError) as info:
        Emulator("sub/absent.json")
    assert str(info.value) == (
        f"sub/absent.json: no such scenario: looked for {tmp_path}/sub/absent.json"
        " (built-ins: stock, empty)"
    )
    (tmp_path / "s.json").write_text('{"extends": "base/nope.json"}')
    with pytest.raises(ScenarioError) as info:
        Emulator("s.json")
    assert f"extends: base/nope.json: no such scenario: looked for {tmp_path}/base/nope.json" in (
        str(info.value)
    )


def test_errors_in_a_folder_name_the_file_that_holds_the_key(tmp_path):
    folder = tmp_path / "scenario"
    folder.mkdir()
    _write(folder / "00-base.json", {"extends": "stock"})
    _write(folder / "security.json", {"security": {"rootLogin": 1}})
    with pytest.raises(ScenarioError) as info:
        Emulator(folder)
    assert str(info.value).startswith(f"{folder / 'security.json'}: security.rootLogin")


def test_a_section_given_twice_in_a_folder(tmp_path):
    folder = tmp_path / "scenario"
    folder.mkdir()
    _write(folder / "a.json", {"security": {}})
    _write(folder / "b.json", {"security": {}})
    with pytest.raises(ScenarioError, match="already given by") as info:
        Emulator(folder)
    assert str(folder / "b.json") in str(info.value)


def test_extends_cycle(tmp_path):
    _write(tmp_path / "a.json", {"extends": "b.json"})
    _write(tmp_path / "b.json", {"extends": "a.json"})
    with pytest.raises(ScenarioError, match="extends itself"):
        Emulator(tmp_path / "a.json")


# -- what loads ----------------------------------------------------------------------------


def test_builtins():
    stock, empty = Emulator("stock"), Emulator("empty")
    assert stock.scenario.name == "stock" and empty.scenario.name == "empty"
    assert sorted(stock.state.users.service().users) == ["admin"]
    assert stock.state.security.keystore_password == "geoserver"
    assert stock.state.security.root_login is False


def test_file_extends_relative_path_and_builtin(tmp_path):
    (tmp_path / "base").mkdir()
    _write(
        tmp_path / "base" / "users.json",
        {
            "extends": "empty",
            "users": {
                "services": [{"name": "default", "users": [{"name": "eve", "password": "pw"}]}]
            },
        },
    )
    _write(
        tmp_path / "top.json",
        {
            "extends": "base",
            "settings": {
                "profile": "geoserver",
                "vendorPrefix": "org.service",
                "clockOrigin": "2030-05-06T07:08:09Z",
            },
            "users": {
                "services": [
                    {"name": "default", "groups": [{"name": "g", "members": ["eve", "admin"]}]}
                ]
            },
            "security": {"rootLogin": True, "keystorePassword": "s3cret"},
        },
    )
    emu = Emulator(tmp_path / "top.json")
    svc = emu.state.users.service()
    assert sorted(svc.users) == ["admin", "eve"]  # extends merges: admin from empty, eve from base
    assert svc.memberships["g"] == {"admin", "eve"}
    assert emu.profile == "geoserver" and emu.decisions is GEOSERVER
    assert emu.vendor.prefix == "org.service"
    assert emu.clock.datetime().isoformat() == "2030-05-06T07:08:09+00:00"
    assert emu.state.security.root_login and emu.state.security.keystore_password == "s3cret"


def test_folder_merges_settings_across_files(tmp_path):
    _write(tmp_path / "a.json", {"extends": "stock", "settings": {"profile": "geoserver"}})
    _write(tmp_path / "b.json", {"settings": {"vendorPrefix": "com.example"}})
    emu = Emulator(tmp_path)
    assert (emu.profile, emu.vendor.prefix) == ("geoserver", "com.example")


def test_changed_file_is_read_again(tmp_path):
    file = _write(
        tmp_path / "s.json", {"extends": "stock", "security": {"keystorePassword": "one"}}
    )
    assert Emulator(file).state.security.keystore_password == "one"
    _write(
        file, {"extends": "stock", "security": {"keystorePassword": "two"}}
    )  # same size, maybe same mtime
    assert Emulator(file).state.security.keystore_password == "two"


def test_changed_parent_is_read_again(tmp_path):
    parent = _write(
        tmp_path / "p.json", {"extends": "stock", "security": {"keystorePassword": "one"}}
    )
    child = _write(tmp_path / "c.json", {"extends": "p.json"})
    assert Emulator(child).state.security.keystore_password == "one"
    _write(parent, {"extends": "stock", "security": {"keystorePassword": "two"}})
    assert Emulator(child).state.security.keystore_password == "two"


def test_file_added_to_folder_is_seen(tmp_path):
    _write(tmp_path / "a.json", {"extends": "stock"})
    assert Emulator(tmp_path).state.security.root_login is False
    _write(tmp_path / "b.json", {"security": {"rootLogin": True}})
    assert Emulator(tmp_path).state.security.root_login is True


def test_emulators_from_one_scenario_share_nothing():
    a, b = Emulator("stock"), Emulator("stock")
    a.state.users.create_role(None, "ONLY_A")
    assert "ONLY_A" not in b.state.users.role_service().roles
    assert "ONLY_A" not in Emulator("stock").state.users.role_service().roles


def test_load_scenario_switches(tmp_path):
    emu = Emulator("stock")
    emu.load_scenario(
        _write(tmp_path / "s.json", {"extends": "empty", "settings": {"profile": "geoserver"}})
    )
    assert emu.profile == "geoserver" and emu.scenario.name == str(tmp_path / "s.json")
    emu.load_scenario("stock")
    assert emu.profile == "spec" and emu.decisions is SPEC
