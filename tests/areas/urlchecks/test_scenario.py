"""Scenario section ``urlChecks``: read, written back, refused when wrong."""

from __future__ import annotations

import json
import re

import pytest

from geoserver_emulator import Emulator
from geoserver_emulator.areas.urlchecks.model import UrlCheck
from geoserver_emulator.core.errors import ScenarioError


def write(tmp_path, section) -> str:
    path = tmp_path / "scenario.json"
    path.write_text(json.dumps({"extends": "empty", "urlChecks": section}), encoding="utf-8")
    return str(path)


def test_empty_scenario_has_checks_on_and_none_defined():
    emu = Emulator("empty")
    assert emu.state.urlchecks.enabled is True and emu.state.urlchecks.checks == []


def test_checks_and_switch_from_a_scenario(tmp_path):
    emu = Emulator(
        write(
            tmp_path,
            {
                "enabled": False,
                "checks": [
                    {"name": "icons", "description": "d", "enabled": True, "regex": "https://a/.*"},
                    {"name": "wfs", "regex": "https://b/.*", "enabled": False},
                ],
            },
        )
    )
    store = emu.state.urlchecks
    assert store.enabled is False
    assert store.checks == [
        UrlCheck("icons", "https://a/.*", "d", True),
        UrlCheck("wfs", "https://b/.*", None, False),
    ]


def test_dump_reads_back_the_same(tmp_path):
    emu = Emulator(write(tmp_path, {"checks": [{"name": "a", "regex": "x+", "description": "d"}]}))
    dumped = emu.dump_scenario()["urlChecks"]
    assert dumped == {
        "enabled": True,
        "checks": [{"name": "a", "description": "d", "enabled": True, "regex": "x+"}],
    }
    again = Emulator(write(tmp_path, dumped))
    assert again.dump_scenario()["urlChecks"] == dumped


def test_reset_restores_the_scenarios_checks(tmp_path, client_for):
    emu = Emulator(write(tmp_path, {"checks": [{"name": "a", "regex": "x"}]}))
    emu.state.urlchecks.checks.clear()
    emu.reset()
    assert [c.name for c in emu.state.urlchecks.checks] == ["a"]


@pytest.mark.parametrize(
    ("section", "where"),
    [
        ({"checks": [{"name": "a", "regex": "(a|aa)+$"}]}, "checks[0].regex"),
        ({"checks": [{"name": "a", "regex": "("}]}, "checks[0].regex"),
        ({"checks": [{"name": "a"}]}, "checks[0].regex"),
        ({"checks": [{"name": "", "regex": "x"}]}, "checks[0]"),
        ({"checks": [{"name": "a", "regex": "x", "color": "red"}]}, "checks[0].color"),
        ({"enabled": "yes"}, "enabled"),
        ({"other": 1}, "other"),
    ],
)
def test_bad_sections_name_the_key(tmp_path, section, where):
    with pytest.raises(ScenarioError, match=re.escape(f"urlChecks.{where}")):
        Emulator(write(tmp_path, section))


def test_text_xml_cannot_carry_is_refused(tmp_path):
    with pytest.raises(ScenarioError, match=re.escape("urlChecks.checks[0].description")):
        Emulator(
            write(tmp_path, {"checks": [{"name": "a", "regex": "x", "description": "\u0001"}]})
        )
