"""``/rest/urlchecks`` black-box, in JSON, XML and HTML, with every error status."""

from __future__ import annotations

import pytest
from lxml import etree

from geoserver_emulator import Emulator
from geoserver_emulator.areas.urlchecks.model import UrlCheck

XML = {"Content-Type": "text/xml"}
JSON = {"Content-Type": "application/json"}
BASE = "http://localhost:8080/geoserver/rest/urlchecks"


def check_json(name=None, description=None, enabled=None, regex=None) -> dict:
    fields = {"name": name, "description": description, "enabled": enabled, "regex": regex}
    return {"regexUrlCheck": {k: v for k, v in fields.items() if v is not None}}


@pytest.fixture
def seeded(emu):
    emu.state.urlchecks.checks = [
        UrlCheck("check1", "check1://.*", "regex check 1", True),
        UrlCheck("check2", "check2://.*", "regex check 2", False),
        UrlCheck("check3", "check3://.*", "regex check 3", True),
    ]
    return emu


# -- list ------------------------------------------------------------------------------------


def test_list_is_json_by_default_and_empty_in_a_fresh_install(client):
    r = client.get("/rest/urlchecks")
    assert r.status_code == 200
    assert r.headers["content-type"] == "application/json"
    assert r.json() == {"urlchecks": ""}


def test_list_json_spec_profile(seeded, client):
    body = client.get("/rest/urlchecks.json").json()
    items = body["urlchecks"]["urlcheck"]
    assert [i["name"] for i in items] == ["check1", "check2", "check3"]
    assert items[0]["href"] == f"{BASE}/check1.json"


def test_list_json_geoserver_profile(client_for):
    emu = Emulator("stock", profile="geoserver")
    emu.state.urlchecks.checks = [UrlCheck("check1", "x")]
    body = client_for(emulator=emu).get("/rest/urlchecks.json").json()
    assert body == {"urlChecks": {"urlCheck": [{"name": "check1", "href": f"{BASE}/check1.json"}]}}


def test_list_xml(seeded, client):
    r = client.get("/rest/urlchecks.xml")
    assert r.headers["content-type"] == "application/xml"
    root = etree.fromstring(r.content)
    assert root.tag == "urlChecks" and len(root) == 3
    link = root[1].find("{http://www.w3.org/2005/Atom}link")
    assert root[1].findtext("name") == "check2"
    assert link.get("href") == f"{BASE}/check2.xml" and link.get("type") == "application/atom+xml"


def test_list_by_accept_header(seeded, client):
    assert client.get("/rest/urlchecks", headers={"Accept": "application/xml"}).text.startswith(
        "<urlChecks>"
    )
    html = client.get("/rest/urlchecks", headers={"Accept": "text/html"})
    assert html.headers["content-type"].startswith("text/html")
    assert html.text.count("<li>") == 3 and f'href="{BASE}/check3.html"' in html.text


def test_list_unacceptable_and_unknown_extension(client):
    assert client.get("/rest/urlchecks", headers={"Accept": "image/png"}).status_code == 406
    assert client.get("/rest/urlchecks.txt").status_code == 404


# -- view ------------------------------------------------------------------------------------


def test_view_in_each_format(seeded, client):
    x = etree.fromstring(client.get("/rest/urlchecks/check1.xml").content)
    assert x.tag == "regexUrlCheck"
    assert [x.findtext(f) for f in ("name", "description", "enabled", "regex")] == [
        "check1",
        "regex check 1",
        "true",
        "check1://.*",
    ]
    j = client.get("/rest/urlchecks/check2").json()
    assert j == {
        "regexUrlCheck": {
            "name": "check2",
            "description": "regex check 2",
            "enabled": False,
            "regex": "check2://.*",
        }
    }
    h = client.get("/rest/urlchecks/check3.html").text
    assert "<li>Configuration: check3://.*</li>" in h and "<li>Enabled: true</li>" in h


def test_view_unknown_is_404_with_geoservers_message(client):
    r = client.get("/rest/urlchecks/unknown.html")
    assert r.status_code == 404
    assert r.headers["content-type"].startswith("text/plain")
    assert r.text == "No such URL check found: 'unknown'"


# -- create ----------------------------------------------------------------------------------


def test_create_json(client, emu):
    body = check_json("check", "this is another check", "true", "http://example.com/.*")
    r = client.post("/rest/urlchecks", json=body)
    assert r.status_code == 201
    assert r.text == "check"
    assert r.headers["location"] == f"{BASE}/check"
    assert emu.state.urlchecks.get("check") == UrlCheck(
        "check", "http://example.com/.*", "this is another check", True
    )


def test_create_xml_with_extension_in_path(client, emu):
    xml = (
        "<regexUrlCheck><name>icons</name><description>External graphic icons</description>"
        "<enabled>true</enabled><regex>^https://styles\\.server\\.net/icons/.*$</regex></regexUrlCheck>"
    )
    r = client.post("/rest/urlchecks.xml", content=xml, headers=XML)
    assert r.status_code == 201 and r.headers["location"] == f"{BASE}/icons"
    assert client.get("/rest/urlchecks/icons.json").json()["regexUrlCheck"]["enabled"] is True


def test_create_without_enabled_is_disabled(client):
    client.post("/rest/urlchecks", json=check_json("check", regex="http://example.com/.*"))
    assert client.get("/rest/urlchecks/check.json").json()["regexUrlCheck"]["enabled"] is False


def test_create_duplicate_is_409(seeded, client):
    r = client.post("/rest/urlchecks", json=check_json("check1", regex="x"))
    assert r.status_code == 409 and r.text == "URL check 'check1' already exists"


@pytest.mark.parametrize(
    ("body", "message"),
    [
        (check_json(description="d", enabled="true", regex="x"), "The URL check name is required"),
        (check_json(name="", regex="x"), "The URL check name is required"),
        (check_json(name="n", enabled="true"), "The URL check configuration is required"),
        (check_json(name="n", regex=""), "The URL check configuration is required"),
    ],
)
def test_create_missing_fields_is_400(client, emu, body, message):
    r = client.post("/rest/urlchecks", json=body)
    assert r.status_code == 400 and r.text == message
    assert emu.state.urlchecks.checks == []


def test_create_bad_or_catastrophic_regex_is_400_and_does_not_hang(client, emu):
    r = client.post("/rest/urlchecks", json=check_json("bad", regex="(unclosed"))
    assert r.status_code == 400 and "Invalid URL check regular expression" in r.text
    r = client.post("/rest/urlchecks", json=check_json("evil", regex="(a|aa)+$"))
    assert r.status_code == 400 and "backtracks catastrophically" in r.text
    assert emu.state.urlchecks.checks == []


@pytest.mark.parametrize(
    ("content", "headers"),
    [
        ("<regexUrlCheck><name>a</name>", XML),
        ("<urlCheck><name>a</name><regex>x</regex></urlCheck>", XML),
        ('{"regexUrlCheck": {"name": "a", "regex": "x"', JSON),
        ('{"urlCheck": {"name": "a", "regex": "x"}}', JSON),
        ('{"regexUrlCheck": {"name": "a", "regex": "x", "enabled": "yes"}}', JSON),
        ("", JSON),
    ],
)
def test_create_malformed_body_is_400(client, emu, content, headers):
    assert client.post("/rest/urlchecks", content=content, headers=headers).status_code == 400
    assert emu.state.urlchecks.checks == []


def test_create_unsupported_media_type_is_415(client):
    r = client.post("/rest/urlchecks", content="name=a", headers={"Content-Type": "text/plain"})
    assert r.status_code == 415


# -- update ----------------------------------------------------------------------------------


def test_put_renames_and_copies_fields(seeded, client, emu):
    body = check_json("new-check", "new description", "false", "new regex")
    r = client.put("/rest/urlchecks/check1", json=body)
    assert r.status_code == 200 and r.content == b""
    assert emu.state.urlchecks.find("check1") is None
    assert emu.state.urlchecks.checks[0] == UrlCheck(
        "new-check", "new regex", "new description", False
    )


def test_put_xml_without_name_keeps_it_and_toggles_enabled(seeded, client):
    xml = "<regexUrlCheck><description>d2</description><enabled>false</enabled></regexUrlCheck>"
    assert client.put("/rest/urlchecks/check1.xml", content=xml, headers=XML).status_code == 200
    view = client.get("/rest/urlchecks/check1.json").json()["regexUrlCheck"]
    assert view == {"name": "check1", "description": "d2", "enabled": False, "regex": "check1://.*"}
    xml = "<regexUrlCheck><enabled>true</enabled></regexUrlCheck>"
    client.put("/rest/urlchecks/check1", content=xml, headers=XML)
    assert client.get("/rest/urlchecks/check1.json").json()["regexUrlCheck"]["enabled"] is True


def test_put_no_changes_disables_as_geoserver(seeded, client, emu):
    assert client.put("/rest/urlchecks/check1", json={"regexUrlCheck": {}}).status_code == 200
    assert emu.state.urlchecks.get("check1") == UrlCheck(
        "check1", "check1://.*", "regex check 1", False
    )


def test_put_errors(seeded, client, emu):
    before = [
        UrlCheck(c.name, c.regex, c.description, c.enabled) for c in emu.state.urlchecks.checks
    ]
    r = client.put("/rest/urlchecks/unknown", json={"regexUrlCheck": {}})
    assert r.status_code == 404 and r.text == "Can't change a non existent URL check (unknown)"
    r = client.put("/rest/urlchecks/check1", json={"regexUrlCheck": {"regex": ""}})
    assert r.status_code == 400 and r.text == "The URL check configuration is required"
    r = client.put("/rest/urlchecks/check1", json=check_json("check2"))
    assert r.status_code == 409 and r.text == "URL check 'check2' already exists"
    assert (
        client.put("/rest/urlchecks/check1", json=check_json(regex="(a|aa)+$")).status_code == 400
    )
    assert (
        client.put(
            "/rest/urlchecks/check1", content="x", headers={"Content-Type": "text/csv"}
        ).status_code
        == 415
    )
    assert emu.state.urlchecks.checks == before


# -- delete, methods, security ---------------------------------------------------------------


def test_delete(seeded, client, emu):
    assert client.delete("/rest/urlchecks/check1").status_code == 200
    assert emu.state.urlchecks.find("check1") is None
    r = client.delete("/rest/urlchecks/check1")
    assert r.status_code == 404 and r.text == "No such URL check found: 'check1'"


@pytest.mark.parametrize(
    ("method", "path"),
    [("PUT", "/rest/urlchecks"), ("DELETE", "/rest/urlchecks"), ("POST", "/rest/urlchecks/check1")],
)
def test_methods_not_allowed(seeded, client, method, path):
    r = client.request(method, path)
    assert r.status_code == 405 and "allow" in r.headers


def test_needs_an_administrator(emu, anon, client_for):
    assert anon.get("/rest/urlchecks").status_code == 401
    emu.state.users.create_user(None, "bob", "pw", True)
    bob = client_for(auth=("bob", "pw"))
    assert bob.get("/rest/urlchecks").status_code == 403
    assert bob.post("/rest/urlchecks", json=check_json("a", regex="x")).status_code == 403
    assert emu.state.urlchecks.checks == []


# -- evaluation ------------------------------------------------------------------------------


def test_evaluation_follows_the_checks_created_over_rest(client, emu):
    url = "https://styles.example.com/icons/a.png"
    assert emu.url_allowed(url) is False  # on, and no checks: everything denied
    client.post(
        "/rest/urlchecks", json=check_json("icons", regex="https://styles\\.example\\.com/icons/.*")
    )
    assert emu.url_allowed(url) is False  # created without enabled: disabled
    client.put("/rest/urlchecks/icons", json={"regexUrlCheck": {"enabled": True}})
    assert emu.url_allowed(url) is True
    assert emu.url_allowed("https://styles.example.com/other/a.png") is False
    r = client.get("/__emulator/urlchecks/evaluate", params={"url": url})
    assert r.json() == {
        "url": url,
        "allowed": True,
        "checksEnabled": True,
        "matchedBy": "icons",
        "timedOut": [],
    }


def test_evaluation_with_checks_off(client, emu):
    emu.state.urlchecks.enabled = False
    r = client.get("/__emulator/urlchecks/evaluate", params={"url": "file:///etc/passwd"})
    assert r.json()["allowed"] is True and r.json()["checksEnabled"] is False


def test_evaluation_endpoint_errors(client, anon):
    r = client.get("/__emulator/urlchecks/evaluate")
    assert r.status_code == 400 and "url" in r.json()["error"]
    assert (
        client.get("/__emulator/urlchecks/evaluate", params={"url": ""}).json()["allowed"] is False
    )
    assert anon.get("/__emulator/urlchecks/evaluate", params={"url": "x"}).status_code == 401
