"""The security store and the rule-key syntax, without HTTP."""

from __future__ import annotations

import json
import re

import pytest

from geoserver_emulator import Emulator
from geoserver_emulator.areas.security import rules, scenario
from geoserver_emulator.areas.security.model import SecurityStore
from geoserver_emulator.core.errors import Conflict, Invalid, NotFound, ScenarioError, Unprocessable
from geoserver_emulator.core.state import State
from geoserver_emulator.scenarios.context import ScenarioContext
from geoserver_emulator.scenarios.fields import Section


def stock() -> SecurityStore:
    s = SecurityStore()
    s.replace_rules("layers", {"*.*.r": "*", "*.*.w": "GROUP_ADMIN,ADMIN"})
    s.replace_rules(
        "rest",
        {"/**:GET,HEAD,OPTIONS": "ROLE_ADMINISTRATOR", "/**:POST,DELETE,PUT": "ROLE_ADMINISTRATOR"},
    )
    return s


# -- key syntax ------------------------------------------------------------------------------


@pytest.mark.parametrize("key", ["*.*.r", "ws.*.a", "topp.states.w", "ws . layer . r", "ws..r"])
def test_valid_layer_keys(key):
    assert rules.key_error("layers", key) is None


@pytest.mark.parametrize(
    ("key", "message"),
    [
        (
            "ws.layer1.r.c",
            "Invalid rule ws.layer1.r.c, the expected format is "
            "workspace.layer.mode=role1,role2,...",
        ),
        ("ws.layer1.x", "Unknown access mode x in ws.layer1.x"),
        ("*.layer1.r", "Invalid rule *.layer1.r, when namespace is * then also layer must be *."),
        (
            "ws.layer1.a",
            "Invalid rule ws.layer1.a, admin (a) privileges may only be applied globally to a "
            "workspace, layer must be *.",
        ),
        (
            "ws.layer.",
            "Invalid rule ws.layer., the expected format is workspace.layer.mode=role1,role2,...",
        ),
        ("", "Invalid rule , the expected format is workspace.layer.mode=role1,role2,..."),
        ("ws.layer.R", "Unknown access mode R in ws.layer.R"),
    ],
)
def test_invalid_layer_keys(key, message):
    assert rules.key_error("layers", key) == message


@pytest.mark.parametrize("key", ["*.*", "wfs.GetFeature", "ws.*"])
def test_valid_service_keys(key):
    assert rules.key_error("services", key) is None


@pytest.mark.parametrize(
    ("key", "message"),
    [
        (
            "ws.getMap.c",
            "Invalid rule ws.getMap.c, the expected format is service.method=role1,role2,...",
        ),
        ("*.getMap", "Invalid rule *.getMap, when namespace is * then also layer must be *."),
        ("wfs", "Invalid rule wfs, the expected format is service.method=role1,role2,..."),
    ],
)
def test_invalid_service_keys(key, message):
    assert rules.key_error("services", key) == message


@pytest.mark.parametrize(
    "key", ["/**:GET", "/**:GET,HEAD,OPTIONS", "/rest/a/**:PUT,POST", "x:DELETE"]
)
def test_valid_rest_keys(key):
    assert rules.key_error("rest", key) is None


@pytest.mark.parametrize(
    "key",
    ["/myworkspace/**!!!GET", "/**;GET", "/**:get", "/**:GET,", "/**:PATCH", "/a b/**:GET", ":GET"],
)
def test_invalid_rest_keys(key):
    assert rules.key_error("rest", key) == f"Invalid '{key}' not matching {rules.REST_KEY.pattern}"


def test_layer_and_service_keys_are_normalised():
    assert rules.normal_key("layers", "ws . layer . r") == "ws.layer.r"
    assert rules.normal_key("services", "wfs .GetFeature") == "wfs.GetFeature"
    assert rules.normal_key("rest", "/a/**:GET") == "/a/**:GET"


@pytest.mark.parametrize(
    ("value", "roles"),
    [
        ("A,B", ["A", "B"]),
        ("a,,b, ,, c", ["a", "b", "c"]),
        (" A B ", ["A", "B"]),
        ("A,*,B", ["*"]),
        ("A,A", ["A"]),
        ("", []),
    ],
)
def test_parse_roles(value, roles):
    assert rules.parse_roles(value) == roles


def test_layer_rules_are_kept_generic_first():
    keys = ["ws.l.w", "ws.*.a", "*.*.w", "ws.l.r", "a.b.r", "*.*.r", "ws.*.r"]
    assert rules.ordered("layers", keys) == [
        "*.*.r",
        "*.*.w",
        "a.b.r",
        "ws.*.r",
        "ws.*.a",
        "ws.l.r",
        "ws.l.w",
    ]


def test_rest_rules_keep_their_order():
    keys = ["/z/**:GET", "/a/**:GET", "/**:GET"]
    assert rules.ordered("rest", keys) == keys


# -- rule sets ---------------------------------------------------------------------------------


def test_add_rules_all_or_nothing():
    s = stock()
    with pytest.raises(Conflict, match=r"^Already existing rules: \*\.\*\.r$"):
        s.add_rules("layers", {"*.*.r": "X", "ws.layer1.r": "A,B"})
    assert list(s.layer_rules) == ["*.*.r", "*.*.w"]
    s.add_rules("layers", {"ws.layer1.w": "TEST_ROLE1", "ws.layer1.r": "TEST_ROLE1,TEST_ROLE2"})
    assert s.layer_rules == {
        "*.*.r": ["*"],
        "*.*.w": ["GROUP_ADMIN", "ADMIN"],
        "ws.layer1.r": ["TEST_ROLE1", "TEST_ROLE2"],
        "ws.layer1.w": ["TEST_ROLE1"],
    }


def test_add_rules_conflict_is_found_after_normalising():
    s = stock()
    with pytest.raises(Conflict):
        s.add_rules("layers", {"* . * . r": "X"})


def test_first_invalid_key_refuses_the_whole_request():
    s = stock()
    with pytest.raises(Unprocessable, match="Unknown access mode x"):
        s.add_rules("layers", {"ok.ok.r": "A", "ws.l.x": "A"})
    assert "ok.ok.r" not in s.layer_rules


def test_modify_rules_all_or_nothing():
    s = stock()
    with pytest.raises(Conflict, match=r"^Unknown rules: ws\.layer1\.r$"):
        s.modify_rules("layers", {"*.*.r": "X", "ws.layer1.r": "A"})
    assert s.layer_rules["*.*.r"] == ["*"]
    s.modify_rules("layers", {"*.*.r": "TEST_ROLE1", "*.*.w": "TEST_ROLE1,TEST_ROLE2"})
    assert s.layer_rules == {"*.*.r": ["TEST_ROLE1"], "*.*.w": ["TEST_ROLE1", "TEST_ROLE2"]}


def test_modify_with_nothing_is_a_no_op():
    s = stock()
    s.modify_rules("services", {})
    assert s.service_rules == {}


def test_modify_rest_rule_keeps_its_place():
    s = stock()
    s.modify_rules("rest", {"/**:GET,HEAD,OPTIONS": "ADMIN"})
    assert list(s.rest_rules) == ["/**:GET,HEAD,OPTIONS", "/**:POST,DELETE,PUT"]
    assert s.rest_rules["/**:GET,HEAD,OPTIONS"] == ["ADMIN"]


def test_added_rest_rules_go_last():
    s = stock()
    s.add_rules("rest", {"/rest/a/**:GET": "R"})
    assert list(s.rest_rules)[-1] == "/rest/a/**:GET"


def test_delete_rule():
    s = stock()
    s.delete_rule("layers", "*.*.r")
    assert list(s.layer_rules) == ["*.*.w"]
    with pytest.raises(NotFound, match=r"^Rule not found: \*\.\*\.r$"):
        s.delete_rule("layers", "*.*.r")
    with pytest.raises(Unprocessable):
        s.delete_rule("layers", "*.x.r")
    with pytest.raises(NotFound, match="Rule not found: wfs.getFeature"):
        s.delete_rule("services", "wfs.getFeature")


def test_unknown_kind():
    with pytest.raises(NotFound):
        SecurityStore().rules("catalog")


# -- catalog mode -----------------------------------------------------------------------------


@pytest.mark.parametrize("mode", ["HIDE", "MIXED", "CHALLENGE"])
def test_catalog_modes(mode):
    s = SecurityStore()
    s.set_catalog_mode(mode)
    assert s.catalog_mode == mode


@pytest.mark.parametrize("mode", ["ABC", "hide", " HIDE", "", 3])
def test_invalid_catalog_mode(mode):
    s = SecurityStore()
    with pytest.raises(Unprocessable, match="^Not a valid mode: "):
        s.set_catalog_mode(mode)
    assert s.catalog_mode == "HIDE"


def test_missing_catalog_mode():
    with pytest.raises(NotFound, match="^Element mode is missing$"):
        SecurityStore().set_catalog_mode(None)


# -- keystore password ------------------------------------------------------------------------


def test_change_keystore_password():
    s = SecurityStore()
    s.change_keystore_password(" geoserver ", " geoserver1 ")
    assert s.keystore_password == "geoserver1"


@pytest.mark.parametrize(
    ("current", "new", "error", "reason"),
    [
        ("geoserverXY", "geoserver1", Unprocessable, "current password is wrong"),
        ("geoserver", "abc", Unprocessable, "at least 8 characters"),
        ("geoserver", "1234567", Unprocessable, "at least 8 characters"),
        ("geoserver", "geoserver", Unprocessable, "equals the current one"),
        ("geoserverXY", "abc", Unprocessable, "current password is wrong"),  # checked first
        ("geoserver", "  short  ", Unprocessable, "at least 8"),  # trimmed before the policy
        (None, "geoserver1", Invalid, "no master password"),
        ("geoserver", "   ", Invalid, "no master password"),
        ("geoserver", 12345678, Invalid, "no master password"),
    ],
)
def test_refused_keystore_changes(current, new, error, reason):
    s = SecurityStore()
    with pytest.raises(error, match=reason) as info:
        s.change_keystore_password(current, new)
    if error is Unprocessable:
        assert info.value.message.startswith("Cannot change master password")
    assert s.keystore_password == "geoserver"


# -- scenario section -------------------------------------------------------------------------


def write_scenario(tmp_path, security: dict) -> str:
    path = tmp_path / "scenario.json"
    path.write_text(json.dumps({"extends": "stock", "security": security}))
    return str(path)


def test_scenario_declares_everything(tmp_path):

    emu = Emulator(
        write_scenario(
            tmp_path,
            {
                "keystorePassword": "secret123",
                "rootLogin": True,
                "catalogMode": "MIXED",
                "layerRules": {"topp . states . r": "A, B", "*.*.r": "*"},
                "serviceRules": {"wfs.GetFeature": ["ROLE_WFS"]},
                "restRules": {
                    "/rest/open/**:GET": "*",
                    "/**:GET,HEAD,OPTIONS,POST,PUT,DELETE": "ADMIN",
                },
            },
        )
    )
    s = emu.state.security
    assert (s.keystore_password, s.root_login, s.catalog_mode) == ("secret123", True, "MIXED")
    assert s.layer_rules == {"*.*.r": ["*"], "topp.states.r": ["A", "B"]}
    assert s.service_rules == {"wfs.GetFeature": ["ROLE_WFS"]}
    assert list(s.rest_rules) == ["/rest/open/**:GET", "/**:GET,HEAD,OPTIONS,POST,PUT,DELETE"]


def test_stock_scenario_security():

    s = Emulator("stock").state.security
    assert (s.keystore_password, s.root_login, s.catalog_mode) == ("geoserver", False, "HIDE")
    assert s.layer_rules == {"*.*.r": ["*"], "*.*.w": ["GROUP_ADMIN", "ADMIN"]}
    assert s.service_rules == {}
    assert s.rest_rules == {
        "/**:GET,HEAD,OPTIONS": ["ROLE_ADMINISTRATOR"],
        "/**:POST,DELETE,PUT": ["ROLE_ADMINISTRATOR"],
    }


@pytest.mark.parametrize(
    ("section", "message"),
    [
        ({"layerRules": {"ws.l.x": "A"}}, "layerRules: Unknown access mode x"),
        ({"restRules": {"/**;GET": "A"}}, "restRules: Invalid '/**;GET'"),
        ({"serviceRules": {"wfs.GetMap": 3}}, "serviceRules.wfs.GetMap"),
        ({"catalogMode": "hide"}, "catalogMode"),
        ({"keystorePassword": "  "}, "keystorePassword"),
        ({"masterPassword": "x"}, "masterPassword: unknown key"),
    ],
)
def test_bad_scenario_sections(tmp_path, section, message):

    with pytest.raises(ScenarioError, match=re.escape(message)):
        Emulator(write_scenario(tmp_path, section))


def test_scenario_dump_round_trips():

    emu = Emulator("stock")
    ctx = ScenarioContext(emu.vendor, None, "test")
    dumped = scenario.dump(emu.state, ctx)
    fresh = State()
    scenario.apply(fresh, Section(dumped, "security"), ctx)
    assert scenario.dump(fresh, ctx) == dumped
