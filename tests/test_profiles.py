"""The two fidelity profiles, chosen by argument, by scenario and (see tests/cli) by flag."""

from __future__ import annotations

import json

import pytest

from geoserver_emulator import Emulator
from geoserver_emulator.core.profile import GEOSERVER, SPEC, differing_rows


def test_default_is_spec():
    emu = Emulator("stock")
    assert emu.profile == "spec" and emu.decisions is SPEC


@pytest.mark.parametrize(("name", "decisions"), [("spec", SPEC), ("geoserver", GEOSERVER)])
def test_chosen_by_argument(name, decisions):
    emu = Emulator("stock", profile=name)
    assert emu.profile == name and emu.decisions is decisions


@pytest.mark.parametrize(("name", "decisions"), [("spec", SPEC), ("geoserver", GEOSERVER)])
def test_chosen_by_scenario(tmp_path, name, decisions):
    path = tmp_path / "s.json"
    path.write_text(json.dumps({"extends": "stock", "settings": {"profile": name}}))
    emu = Emulator(path)
    assert emu.profile == name and emu.decisions is decisions


def test_argument_beats_scenario_and_survives_reset(tmp_path):
    path = tmp_path / "s.json"
    path.write_text(json.dumps({"extends": "stock", "settings": {"profile": "geoserver"}}))
    emu = Emulator(path, profile="spec")
    assert emu.decisions is SPEC
    emu.reset()
    assert emu.decisions is SPEC


def test_unknown_profile_is_refused():
    with pytest.raises(ValueError, match="unknown profile"):
        Emulator("stock", profile="strict")


def test_profile_is_visible_in_health(client_for):
    for name in ("spec", "geoserver"):
        c = client_for(emulator=Emulator("stock", profile=name))
        assert c.get("/__emulator/health").json()["profile"] == name


def test_the_profiles_differ_somewhere():
    assert differing_rows(), "two profiles that never differ are one profile"
