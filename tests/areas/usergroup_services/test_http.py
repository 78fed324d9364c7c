"""``/rest/security/usergroupservices`` over HTTP: list, view, create, update, delete, in
XML and JSON, with GeoServer's statuses and ``ErrorResponse`` bodies; nothing stored on a
refusal."""

from __future__ import annotations

import pytest

BASE = "/rest/security/usergroupservices"
XML = {"Content-Type": "application/xml"}
JSON = {"Content-Type": "application/json"}
CLS = "org.geoserver.security.xml.XMLUserGroupServiceConfig"
IMPL = "org.geoserver.security.xml.XMLUserGroupService"


def xml_config(name: str, **fields: str) -> bytes:
    inner = "".join(f"<{k}>{v}</{k}>" for k, v in {"name": name, **fields}.items())
    return f"<{CLS}>{inner}</{CLS}>".encode()


def json_config(name: str, **fields: str) -> dict:
    return {CLS: {"name": name, **fields}}


def test_list_in_both_formats(client):
    xml = client.get(BASE)
    assert xml.headers["content-type"].startswith("application/xml")
    assert "<userGroupServices><userGroupService><name>default</name>" in xml.text
    doc = client.get(f"{BASE}.json").json()
    (entry,) = doc["userGroupServices"]["userGroupService"]
    assert entry["name"] == "default" and entry["href"].endswith(f"{BASE}/default.json")


def test_view_the_stock_service(client):
    doc = client.get(f"{BASE}/default.json").json()[CLS]
    assert doc["name"] == "default" and doc["className"] == IMPL
    assert doc["passwordEncoderName"] == "pbePasswordEncoder" and doc["checkInterval"] == 10000
    xml = client.get(f"{BASE}/default.xml").text
    assert xml.startswith(f"<{CLS}><name>default</name><className>{IMPL}</className>")


@pytest.mark.parametrize("fmt", ["xml", "json"])
def test_create_update_delete(client, fmt):
    fields = {"className": IMPL, "fileName": "second.xml", "passwordPolicyName": "default"}
    if fmt == "xml":
        r = client.post(BASE, content=xml_config("second", **fields), headers=XML)
    else:
        r = client.post(BASE, json=json_config("second", **fields))
    assert r.status_code == 200, r.text
    assert "second.xml" in r.text
    assert client.get(f"{BASE}/second.json").json()[CLS]["fileName"] == "second.xml"
    assert client.get("/rest/security/usergroup/service/second/users.json").json() == {"users": []}
    changed = {**fields, "fileName": "renamed.xml"}
    r = client.put(f"{BASE}/second", json=json_config("second", **changed))
    assert (r.status_code, r.content) == (200, b"")
    assert client.get(f"{BASE}/second.json").json()[CLS]["fileName"] == "renamed.xml"
    assert client.delete(f"{BASE}/second").status_code == 200
    r = client.delete(f"{BASE}/second")
    assert r.status_code == 404
    assert r.json() == {"status": 404, "message": "Cannot find user/group service second"}


@pytest.mark.parametrize(
    ("method", "path", "body", "status", "says"),
    [
        ("POST", BASE, json_config("default", className=IMPL), 400, "already in use"),
        ("POST", BASE, json_config("", className=IMPL), 400, "no name parameter provided"),
        ("POST", BASE, json_config("x"), 400, "className"),
        ("POST", BASE, {"a": 1, "b": 2}, 400, "one key"),
        ("PUT", f"{BASE}/default", json_config("other", className=IMPL), 400, "does not match"),
        ("PUT", f"{BASE}/nope", json_config("nope", className=IMPL), 400, "does not exist"),
        ("DELETE", f"{BASE}/default", None, 400, "required user/group service"),
        ("GET", f"{BASE}/nope", None, 404, "Cannot find user/group service nope"),
    ],
)
def test_refusals_store_nothing(client, emu, method, path, body, status, says):
    before = client.get(f"{BASE}.json").json(), client.get(f"{BASE}/default.json").json()
    r = (
        client.request(method, path, json=body)
        if body is not None
        else client.request(method, path)
    )
    assert r.status_code == status, r.text
    assert r.json()["status"] == status and says in r.json()["message"]
    assert (client.get(f"{BASE}.json").json(), client.get(f"{BASE}/default.json").json()) == before


def test_bad_bodies_and_media_types(client):
    assert client.post(BASE, content=b"<unclosed", headers=XML).status_code == 400
    assert (
        client.post(BASE, content=b"x", headers={"Content-Type": "text/plain"}).status_code == 415
    )
    assert client.get(BASE, headers={"Accept": "text/html"}).status_code == 406
    assert client.post(f"{BASE}/default", json={}).status_code == 405


def test_only_the_administrator(client_for, anon):
    assert anon.get(BASE).status_code == 401
    client = client_for()
    body = {"user": {"userName": "bob", "password": "pw", "enabled": True}}
    assert client.post("/rest/security/usergroup/users", json=body).status_code == 201
    bob = client_for(auth=("bob", "pw"))
    assert bob.get(BASE).status_code == 403
    assert bob.post(BASE, json=json_config("x", className=IMPL)).status_code == 403


def test_a_created_service_is_kept_in_the_scenario(client, emu):
    client.post(BASE, json=json_config("kept", className=IMPL, fileName="kept.xml"))
    dumped = emu.dump_scenario()["users"]["services"]
    kept = next(s for s in dumped if s["name"] == "kept")
    assert kept["config"]["fileName"] == "kept.xml"
    from geoserver_emulator import Emulator

    again = Emulator(emu.dump_scenario())
    assert again.state.users.services["kept"].config["fileName"] == "kept.xml"
