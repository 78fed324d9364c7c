"""Settings and OWS service configuration through the real client libraries: GeoNode's
geoserver-restconfig (``Catalog.get_global_settings``, ``get_services``) and gicait's
geoserver-rest (``update_service``), against a live emulator."""

from __future__ import annotations

from geo.Geoserver import Geoserver
from geoserver.catalog import Catalog

from geoserver_emulator import Emulator


def _cat(base_url: str) -> Catalog:
    return Catalog(base_url + "/rest", "admin", "geoserver", retries=1)


def test_restconfig_global_settings_read_and_save(base_url: str, emu: Emulator) -> None:
    cat = _cat(base_url)
    settings = cat.get_global_settings()
    assert settings.settings.charset == "UTF-8"
    assert settings.settings.numDecimals == 8
    assert settings.settings.contact.contactPerson == "Claudius Ptolomaeus"
    assert settings.jai.memoryThreshold == 0.75
    assert settings.coverageAccess.queueType == "UNBOUNDED"
    assert settings.globalServices is True
    before = emu.state.settings.update_sequence
    settings.globalServices = False
    cat.save(settings)
    assert emu.state.settings.global_info["globalServices"] is False
    assert emu.state.settings.update_sequence == before + 1
    assert _cat(base_url).get_global_settings().globalServices is False


def test_restconfig_get_services(base_url: str, emu: Emulator) -> None:
    cat = _cat(base_url)
    wms = cat.get_services("wms")
    assert len(wms) == 1 and wms[0].workspace is None  # no workspace has its own
    emu.state.settings.put_service("wms", "topp", {"title": "Topp"}, "WMSInfoImpl-1")
    services = _cat(base_url).get_services("wms")
    assert len(services) == 2
    assert services[1]._workspace_name == "topp"


def test_geoserver_rest_update_service(base_url: str, emu: Emulator) -> None:
    geo = Geoserver(base_url, username="admin", password="geoserver")
    geo.update_service("wms", maxRenderingTime=600)
    assert emu.state.settings.service("wms")["maxRenderingTime"] == 600


def test_restconfig_service_save(base_url: str, emu: Emulator) -> None:
    cat = _cat(base_url)
    wms = cat.get_services("wms")[0]
    assert wms.name == "Maps" and wms.maxRenderingTime == 60
    assert wms.keywords == ["MAP", "WMS", "GEOSERVER"]
    wms.title = "Restconfig maps"
    wms.keywords = ["a", "b"]
    wms.maxRenderingTime = 90
    wms.metadata = {"svgRenderer": "Simple"}
    cat.save(wms)
    saved = emu.state.settings.service("wms")
    assert saved["title"] == "Restconfig maps" and saved["maxRenderingTime"] == 90
    assert saved["keywords"] == [{"value": "a"}, {"value": "b"}]
    assert saved["metadata"] == {"svgRenderer": "Simple"}
    assert saved["watermark"]["position"] == "BOT_RIGHT"  # not named: kept
    wfs = cat.get_services("wfs")[0]
    assert {g.version for g in wfs.gml} == {"V_10", "V_11", "V_20"}
    wfs.maxFeatures = 77
    cat.save(wfs)
    assert emu.state.settings.service("wfs")["maxFeatures"] == 77
