"""Errors that say what to do next."""

from __future__ import annotations

import pytest

from geoserver_emulator import Emulator, ScenarioError

SLD = b"""<?xml version="1.0"?><StyledLayerDescriptor version="1.0.0"
 xmlns="http://www.opengis.net/sld"><NamedLayer><Name>x</Name></NamedLayer>
</StyledLayerDescriptor>"""


@pytest.mark.parametrize("ctype", ["text/xml", "application/xml"])
def test_sld_posted_as_xml_names_the_sld_media_type(client, ctype):
    r = client.post("/rest/styles", content=SLD, headers={"content-type": ctype})
    assert r.status_code == 400
    assert "expected <style>, got <StyledLayerDescriptor>" in r.text
    assert "application/vnd.ogc.sld+xml" in r.text
    r = client.post("/rest/styles", content=b"<other/>", headers={"content-type": ctype})
    assert r.status_code == 400 and "vnd.ogc.sld" not in r.text


def test_rest_path_without_the_context_path_says_where_the_base_is(client_for):
    import httpx

    client = client_for()
    r = client.get(httpx.URL("http://localhost:8080/rest/about/version.json"))
    assert r.status_code == 404
    assert "this server's base is /geoserver" in r.text
    assert "try /geoserver/rest/about/version.json" in r.text


def test_a_missing_path_inside_the_context_gets_no_base_hint(client):
    r = client.get("/rest/nosuchthing")
    assert r.status_code == 404 and "base is" not in r.text


def test_root_context_path_gets_no_base_hint():
    import httpx

    emu = Emulator("stock", context_path="/")
    with httpx.Client(transport=httpx.WSGITransport(app=emu.wsgi_app),
                      base_url="http://x", auth=("admin", "geoserver")) as c:  # fmt: skip
        r = c.get("/nothing/here")
    assert r.status_code == 404 and "base is" not in r.text


def test_get_on_the_seed_kill_path_points_at_the_status_list(client):
    r = client.get("/gwc/rest/seed")
    assert r.status_code == 405
    assert "GET /gwc/rest/seed.json" in r.text


@pytest.mark.parametrize(
    ("doc", "says"),
    [
        ({"nosuch": 1}, "scenario document: nosuch: unknown top-level key"),
        ({"users": {"services": 3}}, "scenario document: users.services: expected a list"),
        ({"extends": "nope"}, "scenario document: extends: nope: no such scenario"),
    ],
)
def test_inline_scenario_errors_name_no_file_and_chain_nothing(doc, says):
    with pytest.raises(ScenarioError) as info:
        Emulator(doc)
    assert str(info.value).startswith(says)
    assert "document-" not in str(info.value)
    assert info.value.__cause__ is None
    assert info.value.__context__ is None or info.value.__suppress_context__
