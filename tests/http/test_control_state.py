"""State over HTTP (contract section 3): ``GET state``, ``PUT scenario``, open ``health``."""

from __future__ import annotations

import json
import re

import pytest


def test_health_needs_no_credentials(anon):
    r = anon.get("/__emulator/health")
    assert r.status_code == 200 and r.json()["status"] == "ok"


def test_other_control_paths_still_need_credentials(anon):
    assert anon.get("/__emulator/state").status_code == 401
    assert anon.put("/__emulator/scenario?name=empty").status_code == 401


def test_state_is_the_dumped_scenario(emu, client):
    r = client.get("/__emulator/state")
    assert r.status_code == 200
    assert r.headers["content-type"].startswith("application/json")
    assert r.json() == json.loads(json.dumps(emu.dump_scenario()))


def test_state_follows_rest_changes(client):
    before = client.get("/__emulator/state").json()
    r = client.post("/rest/workspaces.json", json={"workspace": {"name": "fresh"}})
    assert r.status_code == 201
    after = client.get("/__emulator/state").json()
    assert after != before
    assert "fresh" in json.dumps(after)


def test_put_name_switches_and_becomes_the_reset_point(emu, client):
    assert client.get("/rest/workspaces/topp.json").status_code == 200
    r = client.put("/__emulator/scenario?name=empty")
    assert r.status_code == 204
    assert emu.scenario.name == "empty"
    assert client.get("/rest/workspaces/topp.json").status_code == 404
    client.post("/rest/workspaces.json", json={"workspace": {"name": "w1"}})
    assert client.post("/__emulator/reset").status_code == 204
    assert client.get("/rest/workspaces/w1.json").status_code == 404  # back to empty
    assert client.get("/rest/workspaces/topp.json").status_code == 404


def test_put_document_round_trips_the_state(client):
    client.post("/rest/workspaces.json", json={"workspace": {"name": "saved"}})
    saved = client.get("/__emulator/state").json()
    client.put("/__emulator/scenario?name=empty")
    assert client.get("/rest/workspaces/saved.json").status_code == 404
    r = client.put("/__emulator/scenario", json=saved)
    assert r.status_code == 204
    assert client.get("/rest/workspaces/saved.json").status_code == 200
    assert client.get("/__emulator/state").json() == saved
    client.post("/__emulator/reset")
    assert client.get("/rest/workspaces/saved.json").status_code == 200


@pytest.mark.parametrize(
    ("query", "content", "needle"),
    [
        ("?name=nosuch", b"", "stock, empty"),
        ("?name=/etc/passwd", b"", "unknown scenario"),
        ("", b"", "?name=stock|empty"),
        ("", b"{not json", "not valid JSON"),
        ("", b"[1, 2]", "JSON object"),
        ("", b'{"nosuchkey": 1}', "unknown top-level key"),
        ("?name=empty", b'{"users": {}}', "not both"),
    ],
)
def test_put_scenario_bad_input_changes_nothing(emu, client, query, content, needle):
    before = emu.dump_scenario()
    r = client.put(
        "/__emulator/scenario" + query,
        content=content,
        headers={"content-type": "application/json"},
    )
    assert r.status_code == 400
    assert needle in r.json()["error"]
    assert emu.scenario.name == "stock"
    assert emu.dump_scenario() == before


def test_put_scenario_only_put(client):
    r = client.get("/__emulator/scenario")
    assert r.status_code == 405 and r.headers["allow"] == "PUT"


# -- the landing page and the inspector over plain HTTP (the browser tests: tests/browser) ---


def test_landing_page_needs_no_credentials_and_links(anon):
    r = anon.get("/")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/html")
    assert 'href="/geoserver/rest"' in r.text and 'href="/geoserver/__emulator/"' in r.text


def test_landing_page_at_a_root_context_path():
    import httpx

    from geoserver_emulator import Emulator

    emu = Emulator("stock", context_path="/")
    with httpx.Client(transport=httpx.WSGITransport(app=emu.wsgi_app), base_url="http://x") as c:
        r = c.get("/")
        assert r.status_code == 200 and 'href="/rest"' in r.text
        assert c.get("/__emulator/").status_code == 401
        r = c.get("/__emulator/", auth=("admin", "geoserver"))
        assert r.status_code == 200 and "coverage-summary" in r.text


def test_inspector_needs_credentials_and_is_deterministic(anon, client):
    assert anon.get("/__emulator/").status_code == 401
    client.post("/rest/workspaces.json", json={"workspace": {"name": "<b>w</b>"}})
    first = client.get("/__emulator/")
    assert first.status_code == 200 and first.headers["content-type"].startswith("text/html")
    assert first.text == client.get("/__emulator/").text  # reading changes nothing
    assert "<b>w</b>" not in first.text  # names are escaped
    assert not re.search(r'(src|href)="(https?:)?//', first.text)  # no external assets
    # what it loads: this server's own images (previews, legends) and an empty inline icon
    loaded = re.findall(r'<(?:img|script|link)[^>]*\b(?:src|href)="([^"]*)"', first.text)
    assert loaded and all(u.startswith(("/geoserver/", "data:")) for u in loaded), loaded


def test_inspector_filters_and_reports_bad_filters(client):
    client.get("/rest/about/version.json")
    client.get("/rest/nosuch")
    page = client.get("/__emulator/?status=404").text
    assert "/rest/nosuch" in page and "/rest/about/version.json</code>" not in page
    page = client.get("/__emulator/?status=abc").text
    assert 'id="filter-error"' in page and "status must be an HTTP status code" in page


# -- round trip: GET state, PUT it into another emulator, GET state again ------------------


def test_state_round_trips_through_put_scenario():
    import httpx
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    from geoserver_emulator import Emulator
    from geoserver_emulator_pytest import strategies as gs

    def client_of(emu: Emulator) -> httpx.Client:
        return httpx.Client(
            transport=httpx.WSGITransport(app=emu.wsgi_app),
            base_url="http://localhost:8080/geoserver",
            auth=("admin", "geoserver"),
        )

    @settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(
        workspaces=st.lists(gs.names(), max_size=3, unique=True),
        rules=gs.access_rules("layers", max_size=3),
        mode=st.sampled_from(("HIDE", "MIXED", "CHALLENGE")),
    )
    def check(workspaces: list[str], rules: dict[str, str], mode: str) -> None:
        source, target = Emulator("empty"), Emulator("stock")
        with client_of(source) as a, client_of(target) as b:
            for name in workspaces:
                a.post("/rest/workspaces.json", json={"workspace": {"name": name}})
            if rules:
                a.post("/rest/security/acl/layers.json", json=rules)
            a.put("/rest/security/acl/catalog.json", json={"mode": mode})
            saved = a.get("/__emulator/state").content
            r = b.put(
                "/__emulator/scenario", content=saved, headers={"content-type": "application/json"}
            )
            assert r.status_code == 204, r.text
            assert b.get("/__emulator/state").content == saved  # byte-identical
            b.post("/__emulator/reset")
            assert b.get("/__emulator/state").content == saved  # the new reset point

    check()
