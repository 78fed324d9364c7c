"""The store other areas read: effective settings and services, update sequence, merges."""

from __future__ import annotations

import pytest

from geoserver_emulator.areas.settings import schema
from geoserver_emulator.areas.settings.model import SettingsStore
from geoserver_emulator.core.errors import NotFound, ServerError


def test_effective_service_falls_back_to_global():
    s = SettingsStore()
    assert s.service("wms")["title"] == "Maps"
    assert s.service("wms", "topp") is s.service("wms")
    assert s.put_service("wms", "topp", {"title": "T"}, "WMSInfoImpl-1") is True
    assert s.service("wms", "topp")["title"] == "T"
    assert s.service("wms", "topp")["id"] == "WMSInfoImpl-1"
    assert s.service("wms", "sf")["title"] == "Maps"
    assert s.service("wps") is None
    assert s.put_service("wms", "topp", {"maxBuffer": 3}, "unused") is False
    assert s.service("wms", "topp")["title"] == "T"


def test_effective_settings_fall_back_to_global():
    s = SettingsStore()
    assert s.settings()["numDecimals"] == 8
    assert s.settings("topp")["numDecimals"] == 8
    s.create_workspace_settings("topp", {"numDecimals": 2}, "SettingsInfoImpl-1")
    assert s.settings("topp")["numDecimals"] == 2
    assert s.settings("topp")["charset"] == "UTF-8"
    with pytest.raises(ServerError):
        s.create_workspace_settings("topp", {}, "SettingsInfoImpl-2")


def test_update_sequence_moves_once_per_saved_change():
    s = SettingsStore()
    start = s.update_sequence
    s.update_contact({"contactPerson": "A"})
    s.put_service("wfs", None, {"maxFeatures": 1}, "")
    s.delete_workspace_settings("none")  # nothing to remove: nothing saved
    s.update_logging({"level": "X"})  # logging is not GeoServerInfo
    assert s.update_sequence == start + 2
    s.update_global({"updateSequence": 10})
    assert s.update_sequence == 11


def test_merge_is_field_by_field_for_records_and_whole_for_lists():
    current = {"watermark": {"enabled": False, "position": "BOT_RIGHT"}, "srs": ["EPSG:4326"]}
    merged = schema.merge(
        schema.WMS, current, {"watermark": {"enabled": True}, "srs": ["EPSG:3857"]}
    )
    assert merged == {"watermark": {"enabled": True, "position": "BOT_RIGHT"}, "srs": ["EPSG:3857"]}
    assert current["watermark"]["enabled"] is False


def test_workspace_rename_and_drop():
    s = SettingsStore()
    s.put_workspace_settings("a", {"numDecimals": 1}, "id1")
    s.put_service("wcs", "a", {"title": "t"}, "id2")
    s.rename_workspace("a", "b")
    assert s.workspaces_configured() == ["b"]
    before = s.update_sequence
    s.drop_workspace("b")
    assert s.workspaces_configured() == []
    assert s.update_sequence == before + 1


def test_unknown_kind():
    s = SettingsStore()
    with pytest.raises(NotFound):
        s.delete_service("wps", "topp")


@pytest.mark.parametrize(
    ("table", "value"),
    [
        (schema.WMS, {"maxBuffer": "1"}),
        (schema.WMS, {"enabled": 1}),
        (schema.WMS, {"interpolation": "Fancy"}),
        (schema.WMS, {"keywords": [{"value": "a", "colour": "red"}]}),
        (schema.WFS, {"gml": {"V_30": {}}}),
        (schema.GLOBAL, {"jai": {"memoryCapacity": float("nan")}}),
        (schema.GLOBAL, {"nope": 1}),
    ],
)
def test_check_refuses(table, value):
    with pytest.raises(ValueError):
        schema.check(table, value, "x")
