"""Black-box tests of the HTTP conventions every area shares."""

from __future__ import annotations

from geoserver_emulator import Emulator


def test_no_credentials_gets_401_with_realm(anon):
    r = anon.get("/rest/nothing-here")
    assert r.status_code == 401
    assert r.headers["www-authenticate"] == 'Basic realm="GeoServer Realm"'


def test_wrong_password_gets_401(client_for):
    r = client_for(auth=("admin", "wrong")).get("/rest/about/version.json")
    assert r.status_code == 401
    assert r.headers["www-authenticate"] == 'Basic realm="GeoServer Realm"'


def test_malformed_authorization_header_gets_401(anon):
    r = anon.get("/rest/x", headers={"Authorization": "Basic !!!"})
    assert r.status_code == 401


def test_unknown_rest_path_is_404_plain_text(client):
    r = client.get("/rest/no/such/thing")
    assert r.status_code == 404
    assert r.headers["content-type"].startswith("text/plain")
    assert "/rest/no/such/thing" in r.text


def test_user_without_admin_role_gets_403(emu, client_for):
    emu.state.users.create_user(None, "bob", "pw12345678", True)
    r = client_for(auth=("bob", "pw12345678")).get("/rest/no/such/thing")
    assert r.status_code == 403


def test_disabled_user_cannot_log_in(emu, client_for):
    emu.state.users.create_user(None, "carol", "pw", False)
    emu.state.users.assign_user_role(None, "ADMIN", "carol", True)
    assert client_for(auth=("carol", "pw")).get("/rest/x").status_code == 401


def test_root_login_off_by_default_and_on_by_setting(emu, client_for):
    assert client_for(auth=("root", "geoserver")).get("/rest/workspaces.json").status_code == 401
    emu.state.security.root_login = True
    assert client_for(auth=("root", "geoserver")).get("/rest/workspaces.json").status_code == 200
    assert client_for(auth=("root", "nope")).get("/rest/workspaces.json").status_code == 401


def test_rest_rule_grants_a_role_read_access(emu, client_for):
    emu.state.users.create_user(None, "reader", "pw", True)
    emu.state.users.create_role(None, "ROLE_READER")
    emu.state.users.assign_user_role(None, "ROLE_READER", "reader", True)
    rules = {"/rest/nothing/**:GET": ["ROLE_READER"], **emu.state.security.rest_rules}
    emu.state.security.rest_rules = rules
    c = client_for(auth=("reader", "pw"))
    assert c.get("/rest/nothing/here").status_code == 404  # allowed through, then not found
    assert c.delete("/rest/nothing/here").status_code == 403


def test_outside_context_path_is_404(client):
    r = client.get("http://localhost:8080/other")
    assert r.status_code == 404


def test_two_emulators_share_nothing():
    a, b = Emulator("stock"), Emulator("stock")
    a.state.users.create_user(None, "only-in-a", "x", True)
    a.clock.advance(10)
    assert "only-in-a" not in b.state.users.service().users
    assert b.clock.now() == 0.0
