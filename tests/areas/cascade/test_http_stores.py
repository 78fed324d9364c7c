"""WMS and WMTS stores over HTTP (GeoServer's WMSStoreTest and WMTSStoreTest, and more)."""

from __future__ import annotations

import pytest
from lxml import etree

from geoserver_emulator import Emulator

from .conftest import WMS_URL

BASE = "http://localhost:8080/geoserver/rest"
ATOM = "{http://www.w3.org/2005/Atom}link"
XML = {"Content-Type": "application/xml"}
JSON = {"Content-Type": "application/json"}
KINDS = [("wmsstores", "wmsStore"), ("wmtsstores", "wmtsStore")]


@pytest.mark.parametrize(("segment", "tag"), KINDS)
def test_post_xml_then_get_in_every_format(client, segment, tag):
    body = f"<{tag}><name>new</name><capabilitiesURL>http://somehost/x?</capabilitiesURL>"
    body += f"<workspace>sf</workspace></{tag}>"
    r = client.post(f"/rest/workspaces/sf/{segment}", content=body, headers=XML)
    assert r.status_code == 201 and r.text == "new"
    assert r.headers["content-type"].startswith("text/plain")
    assert r.headers["location"] == f"{BASE}/workspaces/sf/{segment}/new"
    root = etree.fromstring(client.get(f"/rest/workspaces/sf/{segment}/new.xml").content)
    assert root.tag == tag and root.findtext("name") == "new"
    assert root.find("workspace").findtext("name") == "sf"
    assert root.find("workspace").find(ATOM).get("href") == f"{BASE}/workspaces/sf.xml"
    assert root.findtext("capabilitiesURL") == "http://somehost/x?"
    assert root.findtext("enabled") == "true" and root.findtext("__default") == "false"
    assert [root.findtext(k) for k in ("maxConnections", "readTimeout", "connectTimeout")] == [
        "6",
        "60",
        "30",
    ]
    child = "wmslayers" if tag == "wmsStore" else "layers"
    assert root.find(child).find(ATOM).get("href") == (
        f"{BASE}/workspaces/sf/{segment}/new/{child}.xml"
    )
    js = client.get(f"/rest/workspaces/sf/{segment}/new.json").json()[tag]
    assert js["workspace"]["name"] == "sf" and js["_default"] is False
    assert js[child] == f"{BASE}/workspaces/sf/{segment}/new/{child}.json"
    listing = client.get(f"/rest/workspaces/sf/{segment}.json").json()
    assert listing == {
        f"{tag}s": {tag: [{"name": "new", "href": f"{BASE}/workspaces/sf/{segment}/new.json"}]}
    }
    assert etree.fromstring(client.get(f"/rest/workspaces/sf/{segment}.xml").content).tag == (
        f"{tag}s"
    )
    page = client.get(f"/rest/workspaces/sf/{segment}.html")
    assert page.headers["content-type"].startswith("text/html") and "new.html" in page.text


@pytest.mark.parametrize(("segment", "tag"), KINDS)
def test_post_json_without_workspace(client, segment, tag):
    body = {tag: {"name": "j", "capabilitiesURL": "http://somehost/x?"}}
    r = client.post(f"/rest/workspaces/sf/{segment}", json=body)
    assert r.status_code == 201
    assert r.headers["location"].endswith(f"/workspaces/sf/{segment}/j")
    assert client.get(f"/rest/workspaces/sf/{segment}/j.json").json()[tag]["enabled"] is True


def test_post_with_text_json_and_disable_on_conn_failure(client):
    body = '{"wmsStore": {"name": "auto", "capabilitiesURL": "http://x/wms?",'
    body += ' "disableOnConnFailure": true, "enabled": false}}'
    r = client.post(
        "/rest/workspaces/sf/wmsstores", content=body, headers={"Content-Type": "text/json"}
    )
    assert r.status_code == 201
    store = client.get("/rest/workspaces/sf/wmsstores/auto.json").json()["wmsStore"]
    assert store["disableOnConnFailure"] is True
    assert store["enabled"] is True  # GeoServer enables every new store


def test_post_without_capabilities_url_is_accepted(client):
    """GeoServer checks only the name and workspace of a new store (geoserver-restconfig
    creates one with an empty URL, then sets it)."""
    r = client.post("/rest/workspaces/sf/wmsstores", json={"wmsStore": {"name": "bare"}})
    assert r.status_code == 201
    assert (
        "capabilitiesURL"
        not in client.get("/rest/workspaces/sf/wmsstores/bare.json").json()["wmsStore"]
    )


def test_post_refusals_store_nothing(client, emu):
    before = emu.dump_scenario()
    cases = [
        ({"wmsStore": {"capabilitiesURL": "http://x/"}}, 400, "Store name must not be null"),
        (
            {"wmsStore": {"name": "a", "workspace": "cite"}},
            403,
            "Expected workspace sf but client specified cite",
        ),
        ({"wmsStore": {"name": "a", "maxConnections": "many"}}, 400, "Invalid integer"),
        ({"wmsStore": {"name": "a", "enabled": "perhaps"}}, 400, "Invalid boolean"),
        ({"dataStore": {"name": "a"}}, 400, "wmsStore"),
    ]
    for body, status, message in cases:
        r = client.post("/rest/workspaces/sf/wmsstores", json=body)
        assert (r.status_code, message in r.text) == (status, True), (body, r.text)
    r = client.post("/rest/workspaces/sf/wmsstores", content="<wmsStore><name>", headers=XML)
    assert r.status_code == 400
    r = client.post("/rest/workspaces/sf/wmsstores", content="<x/>", headers=XML)
    assert r.status_code == 400
    r = client.post("/rest/workspaces/sf/wmsstores", content="{}", headers={"Content-Type": "a/b"})
    assert r.status_code == 415
    assert emu.dump_scenario() == before


def test_store_names_are_unique_across_kinds(client):
    """A workspace's stores share one name space: a WMS store cannot take a data store's."""
    r = client.post("/rest/workspaces/sf/wmsstores", json={"wmsStore": {"name": "sf"}})
    assert r.status_code == 500
    assert r.text == "Store 'sf' already exists in workspace 'sf'"
    assert client.get("/rest/workspaces/sf/wmsstores.json").json() == {"wmsStores": ""}


def test_missing_workspace_or_store_is_404(client):
    r = client.get("/rest/workspaces/nope/wmsstores.json")
    assert r.status_code == 404 and r.text == "No such workspace : nope"
    r = client.post("/rest/workspaces/nope/wmtsstores", json={"wmtsStore": {"name": "x"}})
    assert r.status_code == 404
    r = client.get("/rest/workspaces/sf/wmsstores/sfssssss.html")
    assert r.status_code == 404 and "No such wms store: sf,sfssssss" in r.text
    r = client.get("/rest/workspaces/sf/wmsstores/sfssssss.html?quietOnNotFound=true")
    assert r.status_code == 404 and r.text == ""
    assert client.get("/rest/workspaces/sf/wmtsstores/x.json").text == "No such wmts store: sf,x"
    r = client.put("/rest/workspaces/sf/wmsstores/nonExistant", json={"wmsStore": {"name": "c"}})
    assert r.status_code == 404
    assert client.delete("/rest/workspaces/sf/wmsstores/nonExistant").status_code == 404


def test_a_data_store_is_not_a_wms_store(client):
    assert client.get("/rest/workspaces/sf/wmsstores/sf.json").status_code == 404
    assert client.delete("/rest/workspaces/sf/wmtsstores/sf").status_code == 404


def test_methods(client, remote):
    assert client.put("/rest/workspaces/sf/wmsstores", content="x").status_code == 405
    assert client.delete("/rest/workspaces/sf/wmtsstores").status_code == 405
    r = client.post("/rest/workspaces/sf/wmsstores/demo", content="<wmsStore/>", headers=XML)
    assert r.status_code == 405
    assert r.headers["allow"] == "GET, HEAD, PUT, DELETE"


def test_put_merges(remote):
    body = "<wmsStore><name>demo</name><enabled>false</enabled><user>alibaba</user>"
    body += "<password>open sesame</password><readTimeout>5</readTimeout></wmsStore>"
    r = remote.put("/rest/workspaces/sf/wmsstores/demo", content=body, headers=XML)
    assert r.status_code == 200
    root = etree.fromstring(remote.get("/rest/workspaces/sf/wmsstores/demo.xml").content)
    assert root.findtext("enabled") == "false" and root.findtext("user") == "alibaba"
    assert root.findtext("password") == "open sesame" and root.findtext("readTimeout") == "5"
    assert root.findtext("capabilitiesURL") == WMS_URL and root.findtext("maxConnections") == "6"
    r = remote.put("/rest/workspaces/sf/wmsstores/demo", json={"wmsStore": {"name": "demo"}})
    assert r.status_code == 200
    again = etree.fromstring(remote.get("/rest/workspaces/sf/wmsstores/demo.xml").content)
    assert again.findtext("user") == "alibaba" and again.findtext("enabled") == "false"
    assert again.findtext("dateModified") is not None


def test_put_unsets_with_null_and_nil(remote):
    remote.put("/rest/workspaces/sf/wmsstores/demo", json={"wmsStore": {"user": "u"}})
    r = remote.put(
        "/rest/workspaces/sf/wmsstores/demo",
        json={"wmsStore": {"name": "demo", "user": None, "password": None}},
    )
    assert r.status_code == 200
    store = remote.get("/rest/workspaces/sf/wmsstores/demo.json").json()["wmsStore"]
    assert "user" not in store and store["enabled"] is True
    remote.put("/rest/workspaces/sf/wmsstores/demo", json={"wmsStore": {"user": "u"}})
    body = '<wmsStore><name>demo</name><user xsi:nil="true"/><password xsi:nil="true"/></wmsStore>'
    assert remote.put("/rest/workspaces/sf/wmsstores/demo", content=body, headers=XML).is_success
    assert "user" not in remote.get("/rest/workspaces/sf/wmsstores/demo.json").json()["wmsStore"]
    body = "<wmsStore><name>demo</name><user/><password/></wmsStore>"
    assert remote.put("/rest/workspaces/sf/wmsstores/demo", content=body, headers=XML).is_success
    store = remote.get("/rest/workspaces/sf/wmsstores/demo.json").json()["wmsStore"]
    assert store["user"] == "" and store["password"] == ""


def test_put_cannot_rename_or_move(remote, emu):
    before = emu.dump_scenario()
    r = remote.put("/rest/workspaces/sf/wmsstores/demo", json={"wmsStore": {"name": "newName"}})
    assert r.status_code == 403 and r.text == "Attempting to rename demo to newName via PUT"
    body = "<wmsStore><workspace>gs</workspace></wmsStore>"
    r = remote.put("/rest/workspaces/sf/wmsstores/demo", content=body, headers=XML)
    assert r.status_code == 403 and r.text == "Attempting to move demo from sf to gs via PUT"
    r = remote.put("/rest/workspaces/sf/wmtsstores/tiles", json={"wmtsStore": {"name": "t2"}})
    assert r.status_code == 403
    body = "<wmsStore><name>demo</name><unbalancedTag></wmsStore>"
    r = remote.put("/rest/workspaces/sf/wmsstores/demo", content=body, headers=XML)
    assert r.status_code == 400
    assert emu.dump_scenario() == before


def test_wmts_store_header_fields_round_trip(remote):
    body = {"wmtsStore": {"headerName": "X-Key", "headerValue": "v", "user": "u"}}
    assert remote.put("/rest/workspaces/sf/wmtsstores/tiles", json=body).status_code == 200
    store = remote.get("/rest/workspaces/sf/wmtsstores/tiles.json").json()["wmtsStore"]
    assert (store["headerName"], store["headerValue"], store["user"]) == ("X-Key", "v", "u")
    root = etree.fromstring(remote.get("/rest/workspaces/sf/wmtsstores/tiles.xml").content)
    assert root.findtext("headerName") == "X-Key"


def test_delete_empty_store(remote):
    assert remote.delete("/rest/workspaces/sf/wmtsstores/tiles").status_code == 200
    assert remote.get("/rest/workspaces/sf/wmtsstores/tiles.json").status_code == 404


def test_delete_non_empty_store_needs_recurse(remote, emu):
    before = emu.dump_scenario()
    r = remote.delete("/rest/workspaces/sf/wmsstores/demo")
    assert r.status_code == 401 and r.text == "wmsstore not empty"
    assert emu.dump_scenario() == before
    assert remote.delete("/rest/workspaces/sf/wmsstores/demo?recurse=true").status_code == 200
    assert remote.get("/rest/workspaces/sf/wmslayers/states.json").status_code == 404
    assert remote.get("/rest/layers/sf:states.json").status_code == 404
    assert emu.state.catalog.problems() == []


def test_store_page_links_its_layers(remote):
    page = etree.fromstring(
        remote.get("/rest/workspaces/sf/wmsstores/demo.html").content, etree.HTMLParser()
    )
    hrefs = [a.get("href") for a in page.iter("a")]
    assert hrefs == [f"{BASE}/workspaces/sf/wmsstores/demo/wmslayers/states.html"]


def test_workspace_delete_and_rename_carry_cascaded_objects(remote, emu):
    r = remote.put("/rest/workspaces/sf", json={"workspace": {"name": "sf2"}})
    assert r.status_code == 200
    assert remote.get("/rest/workspaces/sf2/wmsstores/demo.json").status_code == 200
    layer = remote.get("/rest/workspaces/sf2/wmslayers/states.json").json()["wmsLayer"]
    assert layer["store"]["name"] == "sf2:demo"
    assert remote.get("/rest/layers/sf2:states.json").json()["layer"]["type"] == "WMS"
    assert remote.delete("/rest/workspaces/sf2").status_code == 403
    assert remote.delete("/rest/workspaces/sf2?recurse=true").status_code == 200
    assert emu.state.catalog.problems() == []
    assert "sf2:states" not in remote.get("/rest/layers.json").text


def test_responses_are_deterministic(remote):
    paths = [
        "/rest/workspaces/sf/wmsstores/demo.xml",
        "/rest/workspaces/sf/wmsstores/demo.json",
        "/rest/workspaces/sf/wmslayers/states.xml",
        "/rest/workspaces/sf/wmsstores/demo/wmslayers.json?list=available",
    ]
    first = [remote.get(p).content for p in paths]
    assert [remote.get(p).content for p in paths] == first


def test_a_wms_store_has_no_wmts_fields(client, emu):
    before = emu.dump_scenario()
    r = client.post("/rest/workspaces/sf/wmsstores", json={"wmsStore": {"name": "h",
                    "headerName": "X"}})  # fmt: skip
    assert r.status_code == 400 and r.text == "A wmsStore has no field headerName"
    assert emu.dump_scenario() == before


def test_null_leaves_primitives_and_empties_maps(remote, emu, tmp_path):
    body = {"wmsStore": {"maxConnections": None, "enabled": None, "metadata": None}}
    assert remote.put("/rest/workspaces/sf/wmsstores/demo", json=body).status_code == 200
    store = remote.get("/rest/workspaces/sf/wmsstores/demo.json").json()["wmsStore"]
    assert store["maxConnections"] == 6 and store["enabled"] is True and "metadata" not in store
    body = {"wmsLayer": {"metadata": None, "minScale": None, "keywords": None}}
    assert remote.put("/rest/workspaces/sf/wmslayers/states", json=body).status_code == 200
    layer = remote.get("/rest/workspaces/sf/wmslayers/states.json").json()["wmsLayer"]
    assert "keywords" not in layer and "minScale" not in layer
    emu.save_scenario(tmp_path / "s.json")
    again = Emulator(str(tmp_path / "s.json"))
    assert again.state.catalog.stores == emu.state.catalog.stores
    assert again.state.catalog.resources == emu.state.catalog.resources
