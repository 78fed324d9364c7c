"""The control plane of the outside contract, section 3."""

from __future__ import annotations

import pytest


def test_reset_restores_start_state(emu, client):
    emu.state.users.create_user(None, "temp", "x", True)
    emu.clock.advance(5)
    r = client.post("/__emulator/reset")
    assert r.status_code == 204
    assert "temp" not in emu.state.users.service().users
    assert emu.clock.now() == 0.0


def test_clock_advance(client):
    r = client.post("/__emulator/clock/advance?seconds=2.5")
    assert r.status_code == 200 and r.json() == {"now": 2.5}
    r = client.post("/__emulator/clock/advance", params={"seconds": "0"})
    assert r.json() == {"now": 2.5}


@pytest.mark.parametrize(
    "query", ["", "?seconds=", "?seconds=abc", "?seconds=-1", "?seconds=nan", "?seconds=inf"]
)
def test_clock_advance_bad_input(client, query):
    r = client.post("/__emulator/clock/advance" + query)
    assert r.status_code == 400
    assert "error" in r.json()


def test_drain(client):
    r = client.post("/__emulator/scheduler/drain")
    assert r.status_code == 200 and r.json() == {"now": 0.0}


def test_journal_lists_and_clears(client):
    client.get("/rest/whatever?x=1")
    r = client.get("/__emulator/requests")
    entries = r.json()["requests"]
    assert [(e["method"], e["path"], e["query"], e["status"]) for e in entries] == [
        ("GET", "/rest/whatever", "x=1", 404)
    ]
    assert "authorization" not in entries[0]["headers"]
    assert client.delete("/__emulator/requests").status_code == 204
    assert client.get("/__emulator/requests").json() == {"requests": []}


def test_health(client):
    r = client.get("/__emulator/health")
    assert r.status_code == 200
    assert r.json()["status"] == "ok" and r.json()["profile"] == "spec"


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("GET", "/__emulator/reset"),
        ("PUT", "/__emulator/requests"),
        ("GET", "/__emulator/clock/advance"),
    ],
)
def test_control_plane_405_with_allow(client, method, path):
    r = client.request(method, path)
    assert r.status_code == 405
    assert "allow" in r.headers


def test_control_plane_needs_admin(anon, emu, client_for):
    assert anon.post("/__emulator/reset").status_code == 401
    emu.state.users.create_user(None, "bob", "pw", True)
    assert client_for(auth=("bob", "pw")).post("/__emulator/reset").status_code == 403
