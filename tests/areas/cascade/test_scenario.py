"""The ``cascade`` scenario section: applying, dumping, loading a dump back."""

from __future__ import annotations

import json

import httpx
import pytest

from geoserver_emulator import Emulator
from geoserver_emulator.core.errors import ScenarioError

from .conftest import PAYLOADS

BASE = "http://localhost:8080/geoserver"


def _client(emu: Emulator) -> httpx.Client:
    return httpx.Client(
        transport=httpx.WSGITransport(app=emu.wsgi_app),
        base_url=BASE,
        auth=("admin", "geoserver"),
    )


def test_dump_of_a_changed_state_loads_back_the_same(remote, emu, tmp_path):
    remote.put(
        "/rest/workspaces/sf/wmsstores/demo",
        json={"wmsStore": {"user": "u", "password": "p", "description": "d",
              "metadata": {"entry": {"@key": "useConnectionPooling", "$": "false"}}}},
    )  # fmt: skip
    remote.put(
        "/rest/workspaces/sf/wmslayers/states",
        json={"wmsLayer": {"selectedRemoteStyles": {"string": ["population"]}, "minScale": 10,
              "forcedRemoteStyle": "population", "advertised": False}},
    )  # fmt: skip
    remote.post(
        "/rest/workspaces/sf/wmtsstores/tiles/layers", json={"wmtsLayer": {"name": "basemap"}}
    )
    remote.put("/rest/workspaces/sf/wmtsstores/tiles", json={"wmtsStore": {"headerName": "X"}})
    remote.delete("/rest/layers/sf:basemap")  # an unpublished layer
    path = tmp_path / "dump.json"
    emu.save_scenario(path)
    section = json.loads(path.read_text())["cascade"]
    assert [r["url"] for r in section["remotes"]] and section["wmtsStores"][0]["headerName"] == "X"
    assert section["wmtsStores"][0]["layers"][0]["layer"] is False
    again = Emulator(str(path))
    assert again.state.cascade == emu.state.cascade
    cat, other = emu.state.catalog, again.state.catalog
    assert other.stores == cat.stores and other.resources == cat.resources
    assert other.layers == cat.layers
    assert again.dump_scenario()["cascade"] == emu.dump_scenario()["cascade"]
    # and the loaded emulator answers as the first did
    with _client(again) as c:
        for p in (
            "/rest/workspaces/sf/wmsstores/demo.xml",
            "/rest/workspaces/sf/wmslayers/states.json",
            "/rest/workspaces/sf/wmsstores/demo/wmslayers.json?list=available",
            "/rest/workspaces/sf/wmtsstores/tiles/layers/basemap.xml",
        ):
            assert c.get(p).content == remote.get(p).content, p


def test_remote_documents_from_files_and_stores_from_the_section(tmp_path):
    (tmp_path / "caps.xml").write_bytes((PAYLOADS / "wms111.xml").read_bytes())
    doc = {
        "extends": "empty",
        "catalog": {"workspaces": [{"name": "w"}]},
        "cascade": {
            "remotes": [{"url": "http://old.example.com/wms", "file": "caps.xml"}],
            "wmsStores": [
                {
                    "workspace": "w",
                    "name": "old",
                    "capabilitiesUrl": "http://old.example.com/wms?REQUEST=GetCapabilities",
                    "layers": [{"name": "roads", "nativeName": "roads", "srs": "EPSG:4326",
                                "nativeBoundingBox": {"minx": 0, "maxx": 1, "miny": 0, "maxy": 1},
                                "remoteStyles": [{"name": "s", "legendWidth": 20}]}],
                }
            ],
        },
    }  # fmt: skip
    path = tmp_path / "s.json"
    path.write_text(json.dumps(doc))
    emu = Emulator(str(path))
    with _client(emu) as c:
        layer = c.get("/rest/workspaces/w/wmslayers/roads.json").json()["wmsLayer"]
        assert layer["nativeBoundingBox"]["crs"] == "EPSG:4326"
        assert layer["allAvailableRemoteStyles"]["style"]["name"] == "s"
        published = c.get("/rest/layers/w:roads.json").json()["layer"]
        assert published["type"] == "WMS" and published["defaultStyle"]["name"] == "raster"
        r = c.get("/rest/workspaces/w/wmsstores/old/wmslayers.json?list=available")
        assert r.json() == {"list": {"string": ["root"]}}
    assert emu.state.catalog.problems() == []
    tiles = [t["name"] for t in emu.dump_scenario()["seeding"]["tileLayers"]]
    assert tiles == ["w:roads"]  # every published layer has its tile layer


@pytest.mark.parametrize(
    ("section", "message"),
    [
        ({"remotes": [{"url": "http://x/"}]}, "exactly one of capabilities and file"),
        ({"remotes": [{"url": "http://x/", "capabilities": "<html/>"}]}, "root element <html>"),
        ({"remotes": [{"url": "http://x/", "file": "missing.xml"}]}, "cannot read"),
        ({"wmsStores": [{"workspace": "nope", "name": "s"}]}, "Store must be part of a workspace"),
        ({"wmsStores": [{"workspace": "w", "name": "s", "port": 1}]}, "unknown key"),
        ({"wmtsStores": [{"workspace": "w", "name": "s", "layers": [{"name": "a",
          "remoteStyles": []}]}]}, "unknown key"),
        ({"wmsStores": [{"workspace": "w", "name": "s", "maxConnections": "6"}]}, "integer"),
        ({"bogus": []}, "unknown key"),
    ],
)  # fmt: skip
def test_bad_sections(tmp_path, section, message):
    path = tmp_path / "s.json"
    doc = {"extends": "empty", "catalog": {"workspaces": [{"name": "w"}]}, "cascade": section}
    path.write_text(json.dumps(doc))
    with pytest.raises(ScenarioError) as caught:
        Emulator(str(path))
    assert message in str(caught.value)
