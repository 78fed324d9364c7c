"""Black-box: logging, fonts, and the configuration files the resource API shows."""

from __future__ import annotations

import pytest
from lxml import etree

# -- logging -----------------------------------------------------------------------------------


def test_logging_stock(client):
    assert client.get("/rest/logging.json").json() == {
        "logging": {
            "level": "DEFAULT_LOGGING",
            "location": "logs/geoserver.log",
            "stdOutLogging": True,
        }
    }
    dom = etree.fromstring(client.get("/rest/logging.xml").content)
    assert dom.tag == "logging" and dom.findtext("stdOutLogging") == "true"
    assert client.get("/rest/logging.html").status_code == 200


def test_put_logging_json(client):
    body = {
        "logging": {
            "level": "DEFAULT_LOGGING.xml",
            "location": "logs/geoserver-test-2.log",
            "stdOutLogging": False,
        }
    }
    assert client.put("/rest/logging", json=body).status_code == 200
    assert client.get("/rest/logging.json").json()["logging"] == {
        "level": "DEFAULT_LOGGING.properties",
        "location": "logs/geoserver-test-2.log",
        "stdOutLogging": False,
    }
    assert (
        b"<location>logs/geoserver-test-2.log</location>"
        in client.get("/rest/resource/logging.xml").content
    )


def test_put_logging_xml_changes_what_it_names(client):
    r = client.put(
        "/rest/logging",
        content="<logging> <level>VERBOSE_LOGGING</level> </logging>",
        headers={"Content-Type": "text/xml"},
    )
    assert r.status_code == 200
    log = client.get("/rest/logging.json").json()["logging"]
    assert log["level"] == "VERBOSE_LOGGING" and log["location"] == "logs/geoserver.log"


@pytest.mark.parametrize(
    "body",
    [
        '{"logging": {"stdOutLogging": "sometimes"}}',
        '{"logging": {"level": {"a": 1}}}',
        '{"log": {}}',
    ],
)
def test_put_logging_bad_input(client, emu, body):
    before = dict(emu.state.settings.logging)
    r = client.put("/rest/logging", content=body, headers={"Content-Type": "application/json"})
    assert r.status_code == 400
    assert emu.state.settings.logging == before


@pytest.mark.parametrize("method", ["POST", "DELETE"])
def test_logging_other_methods(client, method):
    assert client.request(method, "/rest/logging").status_code == 405


# -- fonts -------------------------------------------------------------------------------------


def test_fonts_json_and_xml(client):
    j = client.get("/rest/fonts.json").json()
    assert isinstance(j["fonts"], list) and "DejaVu Sans" in j["fonts"]
    assert j["fonts"] == sorted(j["fonts"])
    dom = etree.fromstring(client.get("/rest/fonts.xml").content)
    assert dom.tag == "root" and dom.findall("fonts/entry")
    assert client.get("/rest/fonts").headers["content-type"].startswith("application/json")


@pytest.mark.parametrize("method", ["POST", "PUT", "DELETE"])
def test_fonts_cannot_change(client, method):
    assert client.request(method, "/rest/fonts").status_code == 405


def test_fonts_from_a_scenario():
    from geoserver_emulator import Emulator

    emu = Emulator({"extends": "stock", "serverSettings": {"fonts": ["Comic Sans MS", "Arial"]}})
    assert emu.state.settings.fonts == ["Comic Sans MS", "Arial"]


def test_fonts_html_is_not_offered(client):
    assert client.get("/rest/fonts.html").status_code in (404, 406)


# -- the data directory ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("path", "root"),
    [
        ("global.xml", "global"),
        ("logging.xml", "logging"),
        ("wms.xml", "wms"),
        ("wfs.xml", "wfs"),
        ("wcs.xml", "wcs"),
        ("wmts.xml", "wmts"),
        ("gwc-gs.xml", "GeoServerGWCConfig"),
    ],
)
def test_configuration_files_are_served(client, path, root):
    r = client.get("/rest/resource/" + path)
    assert r.status_code == 200
    assert etree.fromstring(r.content).tag == root
    listing = client.get("/rest/resource/?format=json").json()
    assert path in [c["name"] for c in listing["ResourceDirectory"]["children"]["child"]]


def test_service_file_has_its_id_and_reflects_changes(client):
    dom = etree.fromstring(client.get("/rest/resource/wms.xml").content)
    assert dom.findtext("id") == "wms"
    assert dom.findtext("maxRenderingTime") == "60"
    client.put("/rest/services/wms/settings", json={"wms": {"maxRenderingTime": 120}})
    dom = etree.fromstring(client.get("/rest/resource/wms.xml").content)
    assert dom.findtext("maxRenderingTime") == "120"


def test_global_file_follows_update_sequence(client, emu):
    client.put("/rest/settings/contact", json={"contact": {"contactPerson": "Ann"}})
    dom = etree.fromstring(client.get("/rest/resource/global.xml").content)
    assert dom.findtext("settings/contact/contactPerson") == "Ann"
    assert int(dom.findtext("updateSequence")) == emu.state.settings.update_sequence


def test_workspace_files_come_and_go(client, emu):
    client.put("/rest/workspaces/sf/settings", json={"settings": {"numDecimals": 3}})
    client.put("/rest/services/wfs/workspaces/sf/settings", json={"wfs": {"maxFeatures": 9}})
    names = [
        c["name"]
        for c in client.get("/rest/resource/workspaces/sf?format=json").json()["ResourceDirectory"][
            "children"
        ]["child"]
    ]
    assert "settings.xml" in names and "wfs.xml" in names
    wfs = etree.fromstring(client.get("/rest/resource/workspaces/sf/wfs.xml").content)
    assert wfs.findtext("workspace/name") == "sf" and wfs.findtext("maxFeatures") == "9"
    client.delete("/rest/services/wfs/workspaces/sf/settings")
    client.delete("/rest/workspaces/sf/settings")
    assert emu.state.datadir.read("workspaces/sf/wfs.xml") is None
    assert emu.state.datadir.read("workspaces/sf/settings.xml") is None


def test_unchanged_files_keep_their_time(client, emu):
    emu.clock.advance(100)
    wcs_before = emu.state.datadir.modified("wcs.xml")
    client.put("/rest/services/wms/settings", json={"wms": {"title": "x"}})
    assert emu.state.datadir.modified("wcs.xml") == wcs_before
    assert emu.state.datadir.modified("wms.xml") == emu.clock.now() > wcs_before


def test_reload_reads_edited_files_back(client, emu):
    wms = client.get("/rest/resource/wms.xml").content
    edited = wms.replace(b"<maxRenderingTime>60</", b"<maxRenderingTime>33</")
    assert client.put("/rest/resource/wms.xml", content=edited).status_code == 200
    client.put("/rest/services/wfs/workspaces/topp/settings", json={"wfs": {"maxFeatures": 9}})
    assert client.delete("/rest/resource/workspaces/topp/wfs.xml").status_code == 200
    assert client.get("/rest/services/wms/settings.json").json()["wms"]["maxRenderingTime"] == 60
    assert client.post("/rest/reload").status_code == 200
    assert client.get("/rest/services/wms/settings.json").json()["wms"]["maxRenderingTime"] == 33
    assert emu.state.settings.service("wms")["id"] == "wms"
    assert emu.state.settings.own_service("wfs", "topp") is None


def test_reload_keeps_what_cannot_be_read(client, emu):
    client.put("/rest/resource/logging.xml", content=b"<logging><level>")
    before = dict(emu.state.settings.logging)
    assert client.post("/rest/reload").status_code == 200
    assert emu.state.settings.logging == before


def test_reload_without_changes_changes_nothing(client, emu):
    client.put("/rest/workspaces/sf/settings", json={"settings": {"numDecimals": 3}})
    before = emu.dump_scenario()["serverSettings"]
    assert client.post("/rest/reload").status_code == 200
    assert emu.dump_scenario()["serverSettings"] == before


def test_a_save_rewrites_only_its_own_files(client, emu):
    edited = client.get("/rest/resource/wcs.xml").content.replace(b"<name>WCS</", b"<name>X</")
    client.put("/rest/resource/wcs.xml", content=edited)
    client.put("/rest/services/wms/settings", json={"wms": {"title": "x"}})
    client.put("/rest/workspaces/sf/settings", json={"settings": {"numDecimals": 3}})
    client.delete("/rest/workspaces/sf?recurse=true")
    assert emu.state.datadir.read("wcs.xml") == edited
    client.put("/rest/services/wcs/settings", json={"wcs": {"title": "y"}})
    assert b"<name>WCS</name>" in emu.state.datadir.read("wcs.xml")
