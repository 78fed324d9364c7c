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


def test_control_plane_needs_the_control_credentials(anon, emu, client_for):
    r = anon.post("/__emulator/reset")
    assert r.status_code == 401
    assert r.headers["www-authenticate"] == 'Basic realm="GeoServer Realm"'
    assert "control credentials" in r.json()["error"]
    emu.state.users.create_user(None, "bob", "pw", True)
    assert client_for(auth=("bob", "pw")).post("/__emulator/reset").status_code == 401
    # an emulated administrator other than the control user is no control user either
    emu.state.users.assign_user_role(None, "ADMIN", "bob", True)
    assert client_for(auth=("bob", "pw")).get("/rest/workspaces.json").status_code == 200
    assert client_for(auth=("bob", "pw")).post("/__emulator/reset").status_code == 401
    assert client_for(auth=("admin", "nope")).post("/__emulator/reset").status_code == 401
    assert client_for().post("/__emulator/reset").status_code == 204


@pytest.mark.parametrize(
    ("method", "path", "body"),
    [
        ("DELETE", "/rest/security/usergroup/user/admin", None),
        ("PUT", "/rest/security/self/password", {"newPassword": "changed"}),
        ("DELETE", "/rest/security/authproviders/default", None),
    ],
)
def test_nothing_over_rest_locks_the_control_plane_out(emu, client_for, method, path, body):
    """Deleting admin, changing its password or removing the default provider: legitimate
    GeoServer operations, after which the control plane still answers its credentials."""
    admin = client_for()
    r = admin.request(method, path, json=body)
    assert r.status_code == 200, r.text
    assert admin.get("/rest/workspaces.json").status_code == 401  # the emulated admin is gone
    assert admin.post("/__emulator/reset").status_code == 204
    assert admin.get("/rest/workspaces.json").status_code == 200  # the reset brought it back


def test_control_credentials_are_the_emulators_own(client_for):
    from geoserver_emulator import Emulator

    own = Emulator("stock", control_user="ops", control_password="s3cret")
    assert (
        client_for(auth=("ops", "s3cret"), emulator=own).post("/__emulator/reset").status_code
        == 204
    )
    assert client_for(emulator=own).post("/__emulator/reset").status_code == 401
    assert client_for(emulator=own).get("/rest/workspaces.json").status_code == 200
    assert (
        client_for(auth=("ops", "s3cret"), emulator=own).get("/rest/workspaces.json").status_code
        == 401
    )
    assert client_for(auth=None, emulator=own).get("/__emulator/health").status_code == 200
