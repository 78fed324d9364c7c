"""Workspaces and namespaces over HTTP, in XML and JSON, with GeoServer's statuses."""

from __future__ import annotations

import pytest
from lxml import etree

from geoserver_emulator import Emulator

BASE = "http://localhost:8080/geoserver/rest"
ATOM = "{http://www.w3.org/2005/Atom}link"
XML = {"Content-Type": "application/xml"}


def test_list_json_names_and_absolute_links(client):
    r = client.get("/rest/workspaces.json")
    assert r.status_code == 200
    assert r.headers["content-type"].startswith("application/json")
    items = r.json()["workspaces"]["workspace"]
    assert [w["name"] for w in items] == [
        "cite",
        "it.geosolutions",
        "ne",
        "nurc",
        "sde",
        "sf",
        "tiger",
        "topp",
    ]
    assert items[-1]["href"] == f"{BASE}/workspaces/topp.json"


def test_list_xml_has_atom_links(client):
    root = etree.fromstring(client.get("/rest/workspaces.xml").content)
    assert root.tag == "workspaces"
    first = root.find("workspace")
    assert first.findtext("name") == "cite"
    link = first.find(ATOM)
    assert link.get("href") == f"{BASE}/workspaces/cite.xml"
    assert link.get("rel") == "alternate"
    assert link.get("type") == "application/atom+xml"


@pytest.mark.parametrize(
    ("path", "media_type"),
    [
        # Spring answers a bare GET (or ``Accept: */*``) with the first type the controller
        # declares: JSON for workspaces, namespaces, stores, layers and groups (what
        # geoserver-rest's ``r.json()`` on bare URLs relies on), HTML for feature types,
        # text/xml for coverages.
        ("/rest/workspaces", "application/json"),
        ("/rest/workspaces/sf", "application/json"),
        ("/rest/workspaces/default", "application/json"),
        ("/rest/namespaces/sf", "application/json"),
        ("/rest/workspaces/sf/datastores", "application/json"),
        ("/rest/workspaces/sf/datastores/sf", "application/json"),
        ("/rest/workspaces/sf/coveragestores", "application/json"),
        ("/rest/workspaces/sf/coveragestores/sfdem", "application/json"),
        ("/rest/workspaces/sf/wmsstores", "application/json"),
        ("/rest/layers", "application/json"),
        ("/rest/layers/sf:roads", "application/json"),
        ("/rest/workspaces/sf/layers/roads", "application/json"),
        ("/rest/layergroups", "application/json"),
        ("/rest/layergroups/spearfish", "application/json"),
        ("/rest/workspaces/ne/layergroups/world", "application/json"),
        ("/rest/workspaces/sf/datastores/sf/featuretypes", "text/html"),
        ("/rest/workspaces/sf/datastores/sf/featuretypes/roads", "text/html"),
        ("/rest/workspaces/sf/featuretypes/roads", "text/html"),
        ("/rest/workspaces/sf/coveragestores/sfdem/coverages", "application/xml"),
        ("/rest/workspaces/sf/coveragestores/sfdem/coverages/sfdem", "application/xml"),
        ("/rest/workspaces/sf/coverages", "application/xml"),
    ],
)
@pytest.mark.parametrize("accept", [None, "*/*"])
def test_default_format_is_the_controllers_first(client, path, media_type, accept):
    headers = {"Accept": accept} if accept else {}
    if accept is None:
        # httpx sends ``Accept: */*`` unless told otherwise; drop the header entirely
        r = client.build_request("GET", path)
        del r.headers["accept"]
        response = client.send(r)
    else:
        response = client.get(path, headers=headers)
    assert response.status_code == 200
    assert response.headers["content-type"].startswith(media_type)


def test_accept_chooses(client):
    r = client.get("/rest/workspaces", headers={"Accept": "application/json"})
    assert r.json()["workspaces"]["workspace"][0]["href"].endswith("/workspaces/cite.json")
    r = client.get("/rest/workspaces", headers={"Accept": "application/xml"})
    assert r.content.startswith(b"<workspaces>")
    r = client.get("/rest/workspaces", headers={"Accept": "text/html"})
    assert r.headers["content-type"].startswith("text/html")
    browser = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"
    r = client.get("/rest/workspaces/sf", headers={"Accept": browser})
    assert r.headers["content-type"].startswith("text/html")


def test_links_follow_the_request_host(client):
    r = client.get("/rest/workspaces.json", headers={"Host": "maps.example.org:9090"})
    href = r.json()["workspaces"]["workspace"][0]["href"]
    assert href == "http://maps.example.org:9090/geoserver/rest/workspaces/cite.json"


def test_get_one_json_and_xml(client):
    ws = client.get("/rest/workspaces/sf.json").json()["workspace"]
    assert ws["name"] == "sf" and ws["isolated"] is False
    assert ws["dataStores"] == f"{BASE}/workspaces/sf/datastores.json"
    assert ws["wmtsStores"] == f"{BASE}/workspaces/sf/wmtsstores.json"
    root = etree.fromstring(client.get("/rest/workspaces/sf.xml").content)
    link = root.find("coverageStores").find(ATOM)
    assert link.get("href") == f"{BASE}/workspaces/sf/coveragestores.xml"
    assert link.get("type") == "application/xml"


def test_default_workspace_resolves_to_ne(client):
    assert client.get("/rest/workspaces/default.json").json()["workspace"]["name"] == "ne"


def test_missing_workspace_404_and_quiet(client):
    r = client.get("/rest/workspaces/nope.json")
    assert r.status_code == 404
    assert r.text == "No such workspace: 'nope' found"
    quiet = client.get("/rest/workspaces/nope.json?quietOnNotFound=true")
    assert quiet.status_code == 404 and quiet.text == ""


@pytest.mark.parametrize(
    "body,ctype",
    [
        ("<workspace><name>foo</name></workspace>", "application/xml"),
        ('{"workspace":{"name":"foo"}}', "application/json"),
        ('{"workspace":{"name":"foo"}}', "text/json"),
    ],
)
def test_create(client, emu, body, ctype):
    r = client.post("/rest/workspaces", content=body, headers={"Content-Type": ctype})
    assert r.status_code == 201
    assert r.text == "foo"
    assert r.headers["location"] == f"{BASE}/workspaces/foo"
    assert r.headers["content-type"].startswith("text/plain")
    ns = client.get("/rest/namespaces/foo.json").json()["namespace"]
    assert ns["uri"] == "http://foo"
    names = [
        w["name"] for w in client.get("/rest/workspaces.json").json()["workspaces"]["workspace"]
    ]
    assert names[:3] == ["cite", "foo", "it.geosolutions"]


def test_create_duplicate_is_409(client):
    r = client.post(
        "/rest/workspaces", content="<workspace><name>sf</name></workspace>", headers=XML
    )
    assert r.status_code == 409
    assert r.text == "Workspace 'sf' already exists"


def test_create_default_flag_and_isolated(client):
    body = "<workspace><name>iso</name><isolated>true</isolated></workspace>"
    assert (
        client.post("/rest/workspaces?default=true", content=body, headers=XML).status_code == 201
    )
    assert client.get("/rest/workspaces/default.json").json()["workspace"]["name"] == "iso"
    assert client.get("/rest/namespaces/iso.json").json()["namespace"]["isolated"] is True


def test_create_bad_bodies(client):
    assert client.post("/rest/workspaces", content="<workspace/>", headers=XML).status_code == 400
    assert client.post("/rest/workspaces", content="<oops", headers=XML).status_code == 400
    r = client.post("/rest/workspaces", content="<layer><name>x</name></layer>", headers=XML)
    assert r.status_code == 400
    r = client.post("/rest/workspaces", content="name=x", headers={"Content-Type": "text/plain"})
    assert r.status_code == 415


def test_rename_moves_everything_inside(client, emu):
    body = '{"workspace":{"name":"topp2"}}'
    r = client.put(
        "/rest/workspaces/topp", content=body, headers={"Content-Type": "application/json"}
    )
    assert r.status_code == 200
    assert client.get("/rest/workspaces/topp.json").status_code == 404
    layer = client.get("/rest/layers/topp2:states.json").json()["layer"]
    assert layer["resource"]["href"].endswith(
        "/workspaces/topp2/datastores/states_shapefile/featuretypes/states.json"
    )
    group = client.get("/rest/layergroups/tasmania.json").json()["layerGroup"]
    assert group["publishables"]["published"][0]["name"] == "topp2:tasmania_state_boundaries"
    assert "topp2:states" in emu.state.seeding.tile_layers
    assert "topp:states" not in emu.state.seeding.tile_layers
    assert emu.state.catalog.problems() == []


def test_put_errors(client):
    r = client.put(
        "/rest/workspaces/nope", content="<workspace><name>x</name></workspace>", headers=XML
    )
    assert r.status_code == 404
    assert r.text == "Can't change a non existant workspace (nope)"
    r = client.put(
        "/rest/workspaces/sf", content="<workspace><name></name></workspace>", headers=XML
    )
    assert r.status_code == 403
    assert r.text == "The workspace name cannot be empty"


def test_put_default_sets_the_default(client):
    r = client.put(
        "/rest/workspaces/default",
        content='{"workspace":{"name":"sf"}}',
        headers={"Content-Type": "application/json"},
    )
    assert r.status_code == 200
    assert client.get("/rest/workspaces/default.json").json()["workspace"]["name"] == "sf"


def test_delete_non_empty_needs_recurse(client, emu):
    r = client.delete("/rest/workspaces/topp")
    assert r.status_code == 403
    assert r.text == "Workspace not empty"
    assert client.delete("/rest/workspaces/topp?recurse=true").status_code == 200
    assert client.get("/rest/namespaces/topp.json").status_code == 404
    assert client.get("/rest/layers/topp:states.json").status_code == 404
    assert client.get("/rest/layergroups/tasmania.json").status_code == 404
    assert not [n for n in emu.state.seeding.tile_layers if n.startswith("topp:")]
    assert "tasmania" not in emu.state.seeding.tile_layers
    assert emu.state.catalog.problems() == []


def test_delete_empty_workspace_and_missing(client):
    assert client.delete("/rest/workspaces/cite").status_code == 200
    assert client.get("/rest/namespaces/cite.json").status_code == 404
    r = client.delete("/rest/workspaces/cite")
    assert r.status_code == 404 and r.text == "Workspace 'cite' not found"


def test_delete_default_moves_the_default(client):
    assert client.delete("/rest/workspaces/default?recurse=true").status_code == 200
    assert client.get("/rest/workspaces/default.json").json()["workspace"]["name"] == "cite"


def test_wrong_methods_are_405(client):
    assert client.put("/rest/workspaces", content="x").status_code == 405
    assert client.delete("/rest/workspaces").status_code == 405
    assert client.post("/rest/workspaces/sf", content="x").status_code == 405


def test_unknown_extension_is_406(client):
    assert client.get("/rest/workspaces/sf.yaml").status_code == 404
    assert client.get("/rest/workspaces.csv").status_code == 406


def test_anonymous_is_refused(anon):
    assert anon.get("/rest/workspaces.json").status_code == 401


def test_namespaces_list_get_create_update_delete(client):
    items = client.get("/rest/namespaces.json").json()["namespaces"]["namespace"]
    assert items[2] == {"name": "ne", "href": f"{BASE}/namespaces/ne.json"}
    root = etree.fromstring(client.get("/rest/namespaces/topp.xml").content)
    assert root.findtext("prefix") == "topp"
    assert root.findtext("uri") == "http://www.openplans.org/topp"
    body = "<namespace><prefix>nsx</prefix><uri>http://x.example</uri></namespace>"
    r = client.post("/rest/namespaces", content=body, headers=XML)
    assert r.status_code == 201 and r.headers["location"] == f"{BASE}/namespaces/nsx"
    assert client.get("/rest/workspaces/nsx.json").status_code == 200
    r = client.put(
        "/rest/namespaces/nsx",
        content='{"namespace":{"uri":"http://y.example"}}',
        headers={"Content-Type": "application/json"},
    )
    assert r.status_code == 200
    assert client.get("/rest/namespaces/nsx.json").json()["namespace"]["uri"] == "http://y.example"
    assert client.delete("/rest/namespaces/nsx").status_code == 200
    assert client.get("/rest/namespaces/nsx.json").status_code == 404


def test_namespace_errors(client):
    r = client.get("/rest/namespaces/nope.json")
    assert r.status_code == 404 and r.text == "No such namespace: 'nope' found"
    r = client.put(
        "/rest/namespaces/sf", content="<namespace><prefix>zz</prefix></namespace>", headers=XML
    )
    assert r.status_code == 403 and r.text == "Can't change name of namespace"
    r = client.delete("/rest/namespaces/sf")
    assert r.status_code == 401 and r.text == "Namespace not empty"
    assert client.delete("/rest/namespaces/default").status_code == 405
    body = "<namespace><prefix>dup</prefix><uri>http://www.openplans.org/topp</uri></namespace>"
    r = client.post("/rest/namespaces", content=body, headers=XML)
    assert r.status_code == 500
    assert r.text == "Namespace with URI 'http://www.openplans.org/topp' already exists."


def test_namespace_uri_change_follows_into_store_parameters(client):
    r = client.put(
        "/rest/namespaces/tiger",
        content="<namespace><uri>http://tiger.example</uri></namespace>",
        headers=XML,
    )
    assert r.status_code == 200
    store = client.get("/rest/workspaces/tiger/datastores/nyc.json").json()["dataStore"]
    entries = {e["@key"]: e["$"] for e in store["connectionParameters"]["entry"]}
    assert entries["namespace"] == "http://tiger.example"


def test_html_pages_for_objects(client):
    r = client.get("/rest/workspaces/sf.html")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/html")
    assert f"{BASE}/workspaces/sf/datastores.html" in r.text
    r = client.get("/rest/layers/topp:states.html")
    assert "population" in r.text and r.headers["content-type"].startswith("text/html")


def test_names_with_spaces_are_encoded(client):
    r = client.post("/rest/workspaces", json={"workspace": {"name": "my ws"}})
    assert r.status_code == 201
    assert r.headers["location"] == f"{BASE}/workspaces/my%20ws"
    items = client.get("/rest/workspaces.json").json()["workspaces"]["workspace"]
    assert {"name": "my ws", "href": f"{BASE}/workspaces/my+ws.json"} in items
    assert client.get("/rest/workspaces/my ws.json").json()["workspace"]["name"] == "my ws"


@pytest.mark.parametrize("path", ["/rest/reload", "/rest/reset"])
def test_reload_and_reset(client, anon, emu, path):
    before = emu.dump_scenario()
    for method in ("POST", "PUT"):
        r = client.request(method, path)
        assert r.status_code == 200 and r.content == b""
    assert emu.dump_scenario() == before
    r = client.get(path)
    assert r.status_code == 405 and set(r.headers["allow"].split(", ")) >= {"POST", "PUT"}
    assert anon.post(path).status_code == 401


def test_list_endpoints_keep_an_array_for_one_item_and_write_empty_as_a_string(client_for):
    """GeoServer's list converter writes a one-item list as an array (unlike collections
    inside one object) and an empty list as ``""``."""
    client = client_for(emulator=Emulator("empty"))
    assert client.get("/rest/workspaces.json").json() == {"workspaces": ""}
    assert client.post("/rest/workspaces", json={"workspace": {"name": "solo"}}).status_code == 201
    items = client.get("/rest/workspaces.json").json()["workspaces"]["workspace"]
    href = "http://localhost:8080/geoserver/rest/workspaces/solo.json"
    assert items == [{"name": "solo", "href": href}]
    assert client.get("/rest/workspaces/solo/datastores.json").json() == {"dataStores": ""}
    namespaces = client.get("/rest/namespaces.json").json()["namespaces"]["namespace"]
    assert [ns["name"] for ns in namespaces] == ["solo"]
