"""Recording cascaded stores and layers, and replaying the cassette."""

from __future__ import annotations

import json

import httpx

from geoserver_emulator import Emulator
from geoserver_emulator.recording import verify

from .conftest import WMS_URL, payload


def test_a_recorded_session_replays(tmp_path):
    """The remote documents travel in the start scenario (register them there, not through
    the control plane, when recording): the cassette then rebuilds the cascaded layer."""
    scenario = tmp_path / "start.json"
    remotes = [{"url": WMS_URL, "capabilities": payload("wms130.xml").decode()}]
    scenario.write_text(json.dumps({"extends": "stock", "cascade": {"remotes": remotes}}))
    emu = Emulator(str(scenario))
    with httpx.Client(
        transport=httpx.WSGITransport(app=emu.wsgi_app),
        base_url="http://localhost:8080/geoserver",
        auth=("admin", "geoserver"),
    ) as c:
        body = {"wmsStore": {"name": "demo", "capabilitiesURL": WMS_URL, "password": "s3cret"}}
        assert c.post("/rest/workspaces/sf/wmsstores", json=body).status_code == 201
        layer = {"wmsLayer": {"name": "states", "nativeName": "topp:states"}}
        r = c.post("/rest/workspaces/sf/wmsstores/demo/wmslayers", json=layer)
        assert r.status_code == 201
        assert c.get("/rest/workspaces/sf/wmslayers/states.json").status_code == 200
    path = emu.journal.save(tmp_path / "session.jsonl")
    assert "s3cret" not in path.read_text()  # store passwords are scrubbed
    again = Emulator(path)
    assert again.state.catalog.layer("sf", "states").type == "WMS"
    assert again.state.catalog.store("sf", "demo").capabilities_url == WMS_URL
    assert verify.verify_file(path).ok
