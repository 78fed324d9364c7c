"""Fault injection: the Python API, the HTTP answers, and the control plane."""

from __future__ import annotations

import httpx
import pytest

from geoserver_emulator import Emulator
from geoserver_emulator.core.faults import ConnectionDropped, Faults
from geoserver_emulator_pytest.live import LiveTarget


def test_add_validates_its_arguments():
    faults = Faults()
    bad = [
        dict(method="GE T", path_pattern="/rest"),
        dict(method="GET", path_pattern="rest"),
        dict(method="GET", path_pattern="/rest", status=600),
        dict(method="GET", path_pattern="/rest", status=True),
        dict(method="GET", path_pattern="/rest", status=199),
        dict(method="GET", path_pattern="/rest", times=0),
        dict(method="GET", path_pattern="/rest", times=1.5),
        dict(method="GET", path_pattern="/rest", delay=-1),
        dict(method="GET", path_pattern="/rest", delay=float("nan")),
        dict(method="GET", path_pattern="/rest", drop="yes"),
        dict(method="GET", path_pattern="/rest", body=3),
        dict(method="GET", path_pattern="/rest", status=None, body="x"),
        dict(method="GET", path_pattern="/rest", headers={"Retry-After": 3}),
        dict(method="GET", path_pattern="/rest", headers={"Bad Name": "x"}),
        dict(method="GET", path_pattern="/rest", headers={"X-A": "line\nbreak"}),
        dict(method="GET", path_pattern="/rest", headers={"X-A": "€"}),
    ]
    for kwargs in bad:
        with pytest.raises(ValueError):
            faults.add(**kwargs)  # type: ignore[arg-type]
    assert len(faults) == 0


def test_take_counts_down_and_keeps_order():
    faults = Faults()
    first = faults.add("GET", "/rest/**", status=503, times=2)
    second = faults.add("*", "/rest/styles", status=500, times=None)
    assert faults.take("GET", "/rest/styles") is first
    assert faults.take("POST", "/rest/styles") is second
    assert faults.take("GET", "/rest/styles") is first
    assert faults.active() == [second] and first.hits == 2
    assert faults.take("GET", "/other") is None
    for _ in range(3):
        assert faults.take("DELETE", "/rest/styles") is second
    faults.clear()
    assert faults.take("GET", "/rest/styles") is None


def test_fault_answers_in_geoserver_text_shape_then_recovers(emu, client):
    emu.faults.add("GET", "/rest/about/**", status=503, times=2, headers={"Retry-After": "3"})
    for _ in range(2):
        r = client.get("/rest/about/version.xml")
        assert r.status_code == 503
        assert r.text == "Service Unavailable (injected fault)"
        assert (
            r.headers["content-type"].startswith("text/plain") and r.headers["retry-after"] == "3"
        )
    assert client.get("/rest/about/version.xml").status_code != 503
    assert len(emu.faults) == 0


def test_fault_answers_error_response_on_security_controllers(emu, client):
    emu.faults.add("POST", "/rest/security/authproviders", status=500, body="Boom")
    r = client.post("/rest/security/authproviders", json={}, headers={"Accept": "application/json"})
    assert r.status_code == 500 and r.json() == {"status": 500, "message": "Boom"}
    emu.faults.add("GET", "/rest/security/authfilters/*", status=409)
    r = client.get("/rest/security/authfilters/x.xml")
    assert (
        r.status_code == 409
        and b"<ErrorResponse>" in r.content
        and b"Conflict (injected fault)" in r.content
    )


def test_bytes_body_is_sent_verbatim(emu, client):
    emu.faults.add(
        "GET", "/rest/a", status=502, body=b"<html>bad gateway</html>", content_type="text/html"
    )
    r = client.get("/rest/a")
    assert (r.status_code, r.text, r.headers["content-type"]) == (
        502,
        "<html>bad gateway</html>",
        "text/html",
    )


def test_fault_applies_before_authentication(emu, anon):
    emu.faults.add("GET", "/rest/**", status=503)
    assert anon.get("/rest/workspaces").status_code == 503
    assert anon.get("/rest/workspaces").status_code == 401


def test_method_and_pattern_must_match(emu, client):
    emu.faults.add("DELETE", "/rest/things/*", status=500)  # a path no area serves
    assert client.get("/rest/things/x").status_code == 404
    assert client.delete("/rest/things/x/y").status_code == 404
    assert client.delete("/rest/things/x").status_code == 500


def test_context_path_in_the_pattern_is_accepted(emu, client):
    emu.faults.add_json({"method": "GET", "path": "/geoserver/rest/a", "status": 500})
    assert emu.faults.active()[0].path == "/geoserver/rest/a"
    emu.faults.clear()
    emu.faults.add_json({"method": "GET", "path": "/geoserver/rest/a", "status": 500}, "/geoserver")
    assert client.get("/rest/a").status_code == 500


def test_control_plane_is_never_faulted(emu, client):
    emu.faults.add("*", "/**", status=500, times=None)
    assert client.get("/__emulator/health").status_code == 200
    assert client.get("/rest/x").status_code == 500


def test_delay_advances_the_manual_clock(emu, client):
    emu.faults.add("GET", "/rest/slow", status=504, delay=30)
    assert client.get("/rest/slow").status_code == 504
    assert emu.clock.now() == 30
    assert emu.journal.last.at == 0


def test_delay_only_fault_answers_normally_afterwards(emu, client):
    emu.faults.add("GET", "/rest/slow", status=None, delay=5)
    r = client.get("/rest/slow")
    assert r.status_code == 404 and emu.clock.now() == 5
    assert emu.journal.last.fault == "fault 1: GET /rest/slow -> delay"


def test_delay_with_the_realtime_clock_really_waits(client_for):
    emu = Emulator("empty", clock="realtime")
    emu.faults.add("GET", "/rest/slow", status=503, delay=0.05)
    before = emu.clock.now()
    assert client_for(emulator=emu).get("/rest/slow").status_code == 503
    assert emu.clock.now() - before >= 0.05


def test_drop_in_process_raises_connection_dropped(emu, client):
    emu.faults.add("GET", "/rest/a", drop=True)
    with pytest.raises(ConnectionDropped):
        client.get("/rest/a")
    assert emu.journal.last.status == 0 and emu.journal.last.fault
    assert not emu.internal_errors
    assert client.get("/rest/a").status_code == 404


def test_reset_clears_faults(emu, client):
    emu.faults.add("GET", "/rest/a", status=500)
    client.post("/__emulator/reset")
    assert client.get("/rest/a").status_code == 404


# -- the control plane -------------------------------------------------------------------


def test_control_plane_add_list_clear(client):
    r = client.post(
        "/__emulator/faults",
        json={
            "method": "put",
            "path": "/rest/things/**",
            "status": 503,
            "times": 2,
            "body": "busy",
        },
    )
    assert r.status_code == 201
    assert r.json() == {
        "id": 1,
        "method": "PUT",
        "path": "/rest/things/**",
        "status": 503,
        "body": "busy",
        "contentType": None,
        "headers": {},
        "times": 2,
        "delay": 0.0,
        "drop": False,
        "hits": 0,
    }
    assert client.put("/rest/things/x").text == "busy"
    (listed,) = client.get("/__emulator/faults").json()["faults"]
    assert listed["hits"] == 1
    assert client.delete("/__emulator/faults").status_code == 204
    assert client.get("/__emulator/faults").json() == {"faults": []}
    assert client.put("/rest/things/x").status_code == 404


def test_control_plane_defaults(client):
    r = client.post("/__emulator/faults", json={"path": "/rest/a"})
    assert r.json()["method"] == "*" and r.json()["status"] == 500 and r.json()["times"] == 1


@pytest.mark.parametrize(
    "body",
    [
        b"not json",
        b"[1]",
        b"{}",
        b'{"path": "/rest", "status": "500"}',
        b'{"path": "/rest", "times": -1}',
        b'{"path": "/rest", "body": 5}',
        b'{"path": "/rest", "colour": "red"}',
        b'{"path": "/rest", "drop": 1}',
        b"\xff",
    ],
)
def test_control_plane_bad_input_is_400(client, body):
    r = client.post(
        "/__emulator/faults", content=body, headers={"Content-Type": "application/json"}
    )
    assert r.status_code == 400
    assert r.json()["error"]
    assert client.get("/__emulator/faults").json() == {"faults": []}


def test_control_plane_faults_405_and_auth(client, anon):
    r = client.put("/__emulator/faults", json={})
    assert r.status_code == 405 and set(r.headers["allow"].split(", ")) >= {"GET", "POST", "DELETE"}
    assert anon.get("/__emulator/faults").status_code == 401


def test_bodiless_statuses_carry_no_body(emu, client):
    emu.faults.add("PUT", "/rest/a", status=204, body="ignored")
    r = client.put("/rest/a")
    assert r.status_code == 204 and r.content == b""


def test_bodiless_status_on_the_live_server():
    live, emu = LiveTarget(), Emulator("empty")
    try:
        url = live.attach(emu)
        emu.faults.add("PUT", "/rest/a", status=204)
        r = httpx.put(url + "/rest/a", auth=("admin", "geoserver"))
        assert r.status_code == 204 and r.content == b""
        assert live.detach() == []
    finally:
        emu.close()
        live.stop()
