"""Settings writes recorded from an emulator's journal and replayed as a scenario."""

from __future__ import annotations

from pathlib import Path

import httpx

from geoserver_emulator import Emulator
from geoserver_emulator.scenarios.recorder import save_journal

from .conftest import ADMIN


def test_settings_writes_replay_to_the_same_state(tmp_path: Path) -> None:
    emu = Emulator("stock")
    with httpx.Client(
        transport=httpx.WSGITransport(app=emu.wsgi_app),
        base_url="http://localhost:8080/geoserver",
        auth=ADMIN,
    ) as c:
        assert (
            c.put("/rest/settings/contact", json={"contact": {"contactPerson": "R"}}).status_code
            == 200
        )
        assert (
            c.put(
                "/rest/services/wms/workspaces/topp/settings.json", json={"wms": {"title": "T"}}
            ).status_code
            == 200
        )
        assert (
            c.post(
                "/rest/workspaces/sf/settings", json={"settings": {"numDecimals": 3}}
            ).status_code
            == 201
        )
        assert c.put("/rest/logging", json={"logging": {"stdOutLogging": False}}).status_code == 200
        assert c.put("/rest/templates/a.ftl", content=b"x").status_code == 201
        assert (
            c.put("/rest/settings", json={"global": {"settings": {"numDecimals": "x"}}}).status_code
            == 400
        )
    tape = save_journal(emu.journal, tmp_path / "settings.jsonl")
    replayed = Emulator(tape)
    assert replayed.state.settings == emu.state.settings
    assert replayed.state.datadir.read("workspaces/topp/wms.xml") == emu.state.datadir.read(
        "workspaces/topp/wms.xml"
    )
    assert replayed.state.datadir.read("templates/a.ftl") == b"x"
