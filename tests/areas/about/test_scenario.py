"""Scenario section ``about``: the built-ins in ``empty``, merging, dumping, refusing."""

from __future__ import annotations

import json
import re

import pytest

from geoserver_emulator import Emulator
from geoserver_emulator.areas.about.metrics import METRIC_INFOS
from geoserver_emulator.core.errors import ScenarioError


def write(tmp_path, section) -> str:
    path = tmp_path / "scenario.json"
    path.write_text(json.dumps({"extends": "empty", "about": section}), encoding="utf-8")
    return str(path)


def test_empty_scenario_carries_the_built_ins():
    about = Emulator("empty").state.about
    assert [r.name for r in about.versions] == ["GeoServer", "GeoTools", "GeoWebCache"]
    kinds = {r.properties.get("GeoServerModule") for r in about.manifests}
    assert {"core", "extension", "community", None} <= kinds
    assert any(m.module == "gs-main" for m in about.modules)
    measured = {s.metric for s in about.metrics}
    assert measured == {i.name for i in METRIC_INFOS} - {"TEMPERATURE", "VOLTAGE", "FAN_SPEED"}
    assert about.metrics_source == "scenario"


def test_merge_by_name_and_replace_metrics(tmp_path):
    emu = Emulator(
        write(
            tmp_path,
            {
                "versions": [{"name": "GeoServer", "properties": {"Version": "2.26.0"}}],
                "manifests": [
                    {"name": "my-ext-1.0", "properties": {"GeoServerModule": "extension"}}
                ],
                "modules": [{"module": "gs-main", "name": "Main", "enabled": False}],
                "systemStatus": {"metrics": [{"metric": "LOGICAL_CPUS", "value": 64}]},
            },
        )
    )
    about = emu.state.about
    gs = next(r for r in about.versions if r.name == "GeoServer")
    assert gs.properties["Version"] == "2.26.0" and "Git-Revision" in gs.properties
    assert about.manifests[-1].name == "my-ext-1.0"
    main = next(m for m in about.modules if m.module == "gs-main")
    assert main.name == "Main" and main.enabled is False
    assert [(s.metric, s.value) for s in about.metrics] == [("LOGICAL_CPUS", 64)]


def test_dump_reads_back_the_same(tmp_path):
    dumped = Emulator("empty").dump_scenario()["about"]
    again = Emulator(write(tmp_path, dumped)).dump_scenario()["about"]
    assert again == dumped


def test_unavailable_metric_in_a_scenario(tmp_path):
    emu = Emulator(
        write(tmp_path, {"systemStatus": {"metrics": [{"metric": "VOLTAGE", "available": False}]}})
    )
    sample = emu.state.about.metrics[0]
    assert sample.available is False
    assert Emulator(write(tmp_path, emu.dump_scenario()["about"])).state.about.metrics == [sample]


@pytest.mark.parametrize(
    ("section", "where"),
    [
        ({"systemStatus": {"source": "cloud"}}, "systemStatus.source"),
        (
            {"systemStatus": {"metrics": [{"metric": "NOPE", "value": 1}]}},
            "systemStatus.metrics[0].metric",
        ),
        (
            {"systemStatus": {"metrics": [{"metric": "LOGICAL_CPUS"}]}},
            "systemStatus.metrics[0].value",
        ),
        (
            {"systemStatus": {"metrics": [{"metric": "LOGICAL_CPUS", "value": True}]}},
            "systemStatus.metrics[0].value",
        ),
        (
            {"manifests": [{"name": "x", "properties": {"1bad": "v"}}]},
            "manifests[0].properties.1bad",
        ),
        ({"manifests": [{"name": "x", "properties": {"k": 1}}]}, "manifests[0].properties.k"),
        ({"modules": [{"module": "m"}]}, "modules[0].name"),
        ({"colour": 1}, "colour"),
    ],
)
def test_bad_sections_name_the_key(tmp_path, section, where):
    with pytest.raises(ScenarioError, match=re.escape(f"about.{where}")):
        Emulator(write(tmp_path, section))


@pytest.mark.parametrize(
    ("section", "where"),
    [
        ({"manifests": [{"name": "x\u0001", "properties": {}}]}, "manifests[0].name"),
        (
            {"manifests": [{"name": "x", "properties": {"k": "\uffff"}}]},
            "manifests[0].properties.k",
        ),
        ({"modules": [{"module": "m", "name": "n", "message": "\u0007"}]}, "modules[0].message"),
        (
            {"systemStatus": {"metrics": [{"metric": "OPERATING_SYSTEM", "value": "\u0000"}]}},
            "systemStatus.metrics[0].value",
        ),
    ],
)
def test_text_xml_cannot_carry_is_refused(tmp_path, section, where):
    with pytest.raises(ScenarioError, match=re.escape(f"about.{where}")):
        Emulator(write(tmp_path, section))
