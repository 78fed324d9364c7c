"""Scenario section ``serverSettings``: applied, checked, dumped and loaded back equal."""

from __future__ import annotations

import pytest

from geoserver_emulator import Emulator
from geoserver_emulator.core.errors import ScenarioError
from geoserver_emulator.scenarios import loader


def test_stock_and_empty_are_a_fresh_geoserver():
    for name in ("stock", "empty"):
        s = Emulator(name).state.settings
        assert s.update_sequence == 294
        assert s.service("wms")["name"] == "Maps"
        assert s.settings()["contact"]["contactPerson"] == "Claudius Ptolomaeus"


def test_section_applies_and_round_trips():
    doc = {
        "extends": "stock",
        "serverSettings": {
            "global": {"settings": {"numDecimals": 4, "contact": {"contactPerson": "Ann"}}},
            "logging": {"level": "VERBOSE_LOGGING"},
            "services": {
                "wms": {"title": "My maps", "keywords": [{"value": "m", "language": "en"}]}
            },
            "workspaces": {"topp": {"settings": {"numDecimals": 2}, "wfs": {"maxFeatures": 50}}},
            "templates": {"templates/header.ftl": "<b>hello</b>"},
        },
    }
    emu = Emulator(doc)
    s = emu.state.settings
    assert s.settings()["numDecimals"] == 4
    assert s.settings()["contact"]["contactPerson"] == "Ann"
    assert s.settings()["contact"]["addressCity"] == "Alexandria"  # merged
    assert s.logging["level"] == "VERBOSE_LOGGING"
    assert s.service("wms")["keywords"] == [{"value": "m", "language": "en"}]
    assert s.service("wfs", "topp")["maxFeatures"] == 50
    assert s.settings("topp")["numDecimals"] == 2
    assert emu.state.datadir.read("templates/header.ftl") == b"<b>hello</b>"
    assert b"<maxFeatures>50</maxFeatures>" in emu.state.datadir.read("workspaces/topp/wfs.xml")
    dumped = loader.dump(emu.state)
    again = loader.load_document(dumped).state()
    assert again.settings == emu.state.settings
    assert loader.dump(again)["serverSettings"] == dumped["serverSettings"]
    assert again.datadir.read("workspaces/topp/wfs.xml") == emu.state.datadir.read(
        "workspaces/topp/wfs.xml"
    )


@pytest.mark.parametrize(
    ("section", "needle"),
    [
        ({"bogus": 1}, "bogus"),
        ({"global": {"settings": {"numDecimals": "4"}}}, "numDecimals"),
        ({"services": {"wps": {}}}, "wps"),
        ({"services": {"wms": {"interpolation": "Fancy"}}}, "interpolation"),
        ({"workspaces": {"nope": {"settings": {}}}}, "nope"),
        ({"workspaces": {"topp": {"wps": {}}}}, "wps"),
        ({"fonts": "Arial"}, "fonts"),
        ({"templates": {"styles/x.ftl": "x"}}, "styles/x.ftl"),
        ({"templates": {"templates/../x.ftl": "x"}}, "x.ftl"),
        ({"templates": {"templates/x.ftl": 3}}, "x.ftl"),
    ],
)
def test_bad_sections_name_the_key(section, needle):
    with pytest.raises(ScenarioError, match=needle.replace(".", r"\.")):
        Emulator({"extends": "stock", "serverSettings": section})


def test_binary_template_round_trips():
    doc = {
        "extends": "stock",
        "serverSettings": {"templates": {"templates/b.ftl": {"base64": "/w=="}}},
    }
    emu = Emulator(doc)
    assert emu.state.datadir.read("templates/b.ftl") == b"\xff"
    assert loader.dump(emu.state)["serverSettings"]["templates"] == {
        "templates/b.ftl": {"base64": "/w=="}
    }
