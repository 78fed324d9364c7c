"""Black-box: keystore password and catalog mode over HTTP, in XML and JSON."""

from __future__ import annotations

import pytest

FORMATS = ("xml", "json")
MASTERPW = "/rest/security/masterpw"
CATALOG = "/rest/security/acl/catalog"
ADMIN_REQUIRED = "Administrative privileges required"
XXE = """<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE {root} [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>
<{root}><{field}>&xxe;</{field}></{root}>"""


def pw_body(h, fmt, current, new):
    return h.map_body(
        "masterPassword", {"oldMasterPassword": current, "newMasterPassword": new}, fmt
    )


# -- keystore password: reads ------------------------------------------------------------------


def test_get_keystore_password_xml(client):
    r = client.get(MASTERPW + ".xml")
    assert r.status_code == 200
    assert r.headers["content-type"].startswith("application/xml")
    assert (
        r.text
        == "<masterPassword><oldMasterPassword>geoserver</oldMasterPassword></masterPassword>"
    )


def test_get_keystore_password_json(client):
    r = client.get(MASTERPW + ".json")
    assert r.status_code == 200
    assert r.headers["content-type"].startswith("application/json")
    assert r.json() == {"oldMasterPassword": "geoserver"}


@pytest.mark.parametrize(
    ("accept", "fmt"),
    [
        (None, "json"),
        ("*/*", "json"),
        ("text/xml", "xml"),
        ("application/xml", "xml"),
        ("text/json", "json"),
    ],
)
def test_get_keystore_password_negotiated(client, accept, fmt):
    headers = {"Accept": accept} if accept else {}
    r = client.get(MASTERPW, headers=headers)
    assert r.status_code == 200
    assert r.text.startswith("<masterPassword>" if fmt == "xml" else "{")


def test_get_keystore_password_not_acceptable(client):
    assert client.get(MASTERPW, headers={"Accept": "text/html"}).status_code == 406
    assert client.get(MASTERPW + ".html").status_code == 406


def test_unknown_extension_is_404(client):
    assert client.get(MASTERPW + ".yaml").status_code == 404


def test_keystore_password_methods(client):
    r = client.delete(MASTERPW + ".xml")
    assert r.status_code == 405
    assert set(r.headers["allow"].replace(" ", "").split(",")) >= {"GET", "PUT"}
    assert (
        client.post(
            MASTERPW, content=b"{}", headers={"Content-Type": "application/json"}
        ).status_code
        == 405
    )


# -- keystore password: changes ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("fmt", "content_type"),
    [
        ("xml", "text/xml"),
        ("xml", "application/xml"),
        ("json", "text/json"),
        ("json", "application/json"),
    ],
)
def test_change_keystore_password_and_back(client, h, fmt, content_type):
    r = h.send(
        client,
        "PUT",
        f"{MASTERPW}.{fmt}",
        pw_body(h, fmt, "geoserver", "geoserver1"),
        fmt,
        content_type,
    )
    assert (r.status_code, r.content) == (200, b"")
    assert client.get(MASTERPW + ".json").json() == {"oldMasterPassword": "geoserver1"}
    r = h.send(
        client, "PUT", MASTERPW, pw_body(h, fmt, "geoserver1", "geoserver"), fmt, content_type
    )
    assert r.status_code == 200
    assert client.get(MASTERPW + ".json").json() == {"oldMasterPassword": "geoserver"}


def test_change_trims_both_passwords(client, h):
    r = h.send(client, "PUT", MASTERPW, pw_body(h, "xml", "  geoserver ", " geoserver2  "), "xml")
    assert r.status_code == 200
    assert client.get(MASTERPW + ".json").json() == {"oldMasterPassword": "geoserver2"}


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize(
    ("current", "new", "reason"),
    [
        ("geoserverXY", "geoserver1", "the current password is wrong"),
        ("geoserver", "abc", "at least 8 characters"),
        ("geoserver", "geoserver", "equals the current one"),
    ],
)
def test_refused_change_is_422(client, h, fmt, current, new, reason):
    r = h.send(client, "PUT", f"{MASTERPW}.{fmt}", pw_body(h, fmt, current, new), fmt)
    assert r.status_code == 422
    assert r.headers["content-type"].startswith("text/plain")
    assert r.text.startswith("Cannot change master password")
    assert reason in r.text
    assert client.get(MASTERPW + ".json").json() == {"oldMasterPassword": "geoserver"}


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize(
    "values",
    [
        {"oldMasterPassword": "geoserver"},
        {"newMasterPassword": "geoserver1"},
        {"oldMasterPassword": " ", "newMasterPassword": "geoserver1"},
    ],
)
def test_missing_password_is_400(client, h, fmt, values):
    r = h.send(client, "PUT", MASTERPW, h.map_body("masterPassword", values, fmt), fmt)
    assert (r.status_code, r.text) == (400, "no master password")


@pytest.mark.parametrize(
    ("body", "content_type"),
    [
        ("<masterPassword><oldMasterPassword>x", "text/xml"),
        ("{", "application/json"),
        ("", "text/xml"),
    ],
)
def test_malformed_change_is_400(client, body, content_type):
    r = client.put(MASTERPW, content=body.encode(), headers={"Content-Type": content_type})
    assert r.status_code == 400


@pytest.mark.parametrize("content_type", ["text/plain", "application/x-www-form-urlencoded", None])
def test_change_with_unsupported_media_type_is_415(client, content_type):
    headers = {"Content-Type": content_type} if content_type else {}
    r = client.put(MASTERPW, content=b"oldMasterPassword=geoserver", headers=headers)
    assert r.status_code == 415


def test_keystore_change_xxe_is_400_without_leaking(client):
    body = XXE.format(root="masterPassword", field="oldMasterPassword")
    r = client.put(MASTERPW, content=body.encode(), headers={"Content-Type": "text/xml"})
    assert r.status_code == 400
    assert "root:" not in r.text
    assert client.get(MASTERPW + ".json").json() == {"oldMasterPassword": "geoserver"}


# -- keystore password: who may ---------------------------------------------------------------


def test_anonymous_gets_401(anon, h):
    assert anon.get(MASTERPW + ".xml").status_code == 401
    r = h.send(anon, "PUT", MASTERPW, pw_body(h, "xml", "geoserver", "geoserver1"), "xml")
    assert r.status_code == 401


def test_non_admin_is_stopped_by_the_stock_rest_rules(reader, client, h):
    assert reader.get(MASTERPW + ".xml").status_code == 403
    r = h.send(reader, "PUT", MASTERPW, pw_body(h, "xml", "geoserver", "geoserver1"), "xml")
    assert r.status_code == 403
    assert client.get(MASTERPW + ".json").json() == {"oldMasterPassword": "geoserver"}


def test_non_admin_past_relaxed_rules_meets_the_controller_check(reader, client, h, relaxed):
    r = reader.get(MASTERPW + ".xml")
    assert (r.status_code, r.text) == (403, ADMIN_REQUIRED)
    assert r.headers["content-type"].startswith("text/plain")
    r = h.send(reader, "PUT", MASTERPW, pw_body(h, "json", "geoserver", "geoserver1"), "json")
    assert (r.status_code, r.text) == (405, ADMIN_REQUIRED)  # GeoServer's "backwards compat" 405
    assert client.get(MASTERPW + ".json").json() == {"oldMasterPassword": "geoserver"}


def test_root_logs_in_with_the_current_keystore_password_only(emu, client, client_for, h):
    emu.state.security.root_login = True
    assert client_for(auth=("root", "geoserver")).get(MASTERPW + ".json").status_code == 200
    h.send(client, "PUT", MASTERPW, pw_body(h, "xml", "geoserver", "newsecret1"), "xml")
    assert client_for(auth=("root", "geoserver")).get(MASTERPW + ".json").status_code == 401
    r = client_for(auth=("root", "newsecret1")).get(MASTERPW + ".json")
    assert r.json() == {"oldMasterPassword": "newsecret1"}


def test_root_login_stays_off_when_disabled(client, client_for, h):
    h.send(client, "PUT", MASTERPW, pw_body(h, "xml", "geoserver", "newsecret1"), "xml")
    assert client_for(auth=("root", "newsecret1")).get(MASTERPW + ".json").status_code == 401


# -- catalog mode -------------------------------------------------------------------------------


def test_get_catalog_mode(client):
    r = client.get(CATALOG + ".xml")
    assert (r.status_code, r.text) == (200, "<catalog><mode>HIDE</mode></catalog>")
    r = client.get(CATALOG + ".json")
    assert (r.status_code, r.json()) == (200, {"mode": "HIDE"})
    assert client.get(CATALOG).json() == {"mode": "HIDE"}


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("mode", ["MIXED", "CHALLENGE", "HIDE"])
def test_put_catalog_mode(client, h, fmt, mode):
    r = h.send(client, "PUT", f"{CATALOG}.{fmt}", h.map_body("catalog", {"mode": mode}, fmt), fmt)
    assert (r.status_code, r.content) == (200, b"")
    assert client.get(CATALOG + ".json").json() == {"mode": mode}
    assert client.get(CATALOG + ".xml").text == f"<catalog><mode>{mode}</mode></catalog>"


@pytest.mark.parametrize("fmt", FORMATS)
def test_put_catalog_mode_without_mode_is_404(client, h, fmt):
    r = h.send(client, "PUT", CATALOG, h.map_body("catalog", {"modexxxxx": "HIDE"}, fmt), fmt)
    assert (r.status_code, r.text) == (404, "Element mode is missing")
    assert client.get(CATALOG + ".json").json() == {"mode": "HIDE"}


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("mode", ["ABC", "mixed"])
def test_put_invalid_catalog_mode_is_422(client, h, fmt, mode):
    r = h.send(client, "PUT", CATALOG, h.map_body("catalog", {"mode": mode}, fmt), fmt)
    assert (r.status_code, r.text) == (422, f"Not a valid mode: {mode}")
    assert client.get(CATALOG + ".json").json() == {"mode": "HIDE"}


def test_catalog_mode_xxe_is_400_without_leaking(client):
    body = XXE.format(root="catalog", field="mode")
    r = client.put(CATALOG + ".xml", content=body.encode(), headers={"Content-Type": "text/xml"})
    assert r.status_code == 400
    assert "root:" not in r.text
    assert client.get(CATALOG + ".json").json() == {"mode": "HIDE"}


def test_catalog_mode_errors(client):
    assert (
        client.put(
            CATALOG, content=b"mode=HIDE", headers={"Content-Type": "text/plain"}
        ).status_code
        == 415
    )
    assert (
        client.put(CATALOG, content=b"<catalog/>", headers={"Content-Type": "text/xml"}).status_code
        == 400
    )
    assert client.get(CATALOG, headers={"Accept": "image/png"}).status_code == 406
    assert client.delete(CATALOG).status_code == 405
    assert client.post(CATALOG + ".json", json={"mode": "HIDE"}).status_code == 405


def test_catalog_mode_who_may(anon, reader, relaxed, h):
    assert anon.get(CATALOG + ".json").status_code == 401
    r = reader.get(CATALOG + ".json")
    assert (r.status_code, r.text) == (403, ADMIN_REQUIRED)
    r = h.send(reader, "PUT", CATALOG, h.map_body("catalog", {"mode": "MIXED"}, "json"), "json")
    assert (r.status_code, r.text) == (403, ADMIN_REQUIRED)


def test_catalog_mode_non_admin_with_stock_rules(reader):
    r = reader.get(CATALOG + ".json")
    assert r.status_code == 403
    assert r.text != ADMIN_REQUIRED  # stopped by the REST rules, before the controller


# -- security reload ----------------------------------------------------------------------------


@pytest.mark.parametrize("method", ["POST", "PUT"])
def test_catalog_security_reload(emu, client, method):
    before = emu.state.security.reloads
    r = client.request(
        method, CATALOG + "/reload", content=b"", headers={"Content-Type": "text/plain"}
    )
    assert (r.status_code, r.content) == (200, b"")
    assert emu.state.security.reloads == before + 1


def test_catalog_security_reload_errors(emu, client, anon, reader, relaxed):
    assert client.get(CATALOG + "/reload").status_code == 405
    assert anon.post(CATALOG + "/reload").status_code == 401
    r = reader.post(CATALOG + "/reload")
    assert (r.status_code, r.text) == (403, ADMIN_REQUIRED)
    assert emu.state.security.reloads == 0
