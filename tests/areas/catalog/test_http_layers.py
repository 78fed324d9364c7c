"""Layers and layer groups over HTTP."""

from __future__ import annotations

import pytest
from lxml import etree

from geoserver_emulator.areas.catalog.entities import StyleRef

BASE = "http://localhost:8080/geoserver/rest"
ATOM = "{http://www.w3.org/2005/Atom}link"
XML = {"Content-Type": "application/xml"}


def test_global_list_uses_prefixed_names_and_encoded_links(client):
    items = client.get("/rest/layers.json").json()["layers"]["layer"]
    assert len(items) == 24
    assert items[0] == {
        "name": "ne:boundary_lines",
        "href": f"{BASE}/layers/ne%3Aboundary_lines.json",
    }
    root = etree.fromstring(client.get("/rest/layers.xml").content)
    assert root.find("layer").find(ATOM).get("type") == "application/atom+xml"


def test_workspace_list_uses_bare_names(client):
    items = client.get("/rest/workspaces/topp/layers.json").json()["layers"]["layer"]
    assert items[0] == {"name": "states", "href": f"{BASE}/workspaces/topp/layers/states.json"}
    assert client.get("/rest/workspaces/cite/layers.json").json() == {"layers": ""}
    assert client.get("/rest/workspaces/nope/layers.json").json() == {"layers": ""}


def test_get_layer_json(client):
    layer = client.get("/rest/layers/topp:states.json").json()["layer"]
    assert layer["type"] == "VECTOR"
    assert layer["defaultStyle"] == {"name": "population", "href": f"{BASE}/styles/population.json"}
    assert [s["name"] for s in layer["styles"]["style"]] == ["pophatch", "polygon"]
    assert layer["styles"]["@class"] == "linked-hash-set"
    assert layer["resource"]["@class"] == "featureType"
    assert (
        layer["resource"]["href"]
        == f"{BASE}/workspaces/topp/datastores/states_shapefile/featuretypes/states.json"
    )


def test_get_layer_by_encoded_and_workspace_paths(client):
    assert client.get("/rest/layers/topp%3Astates.json").status_code == 200
    assert (
        client.get("/rest/workspaces/topp/layers/states.json").json()["layer"]["name"] == "states"
    )
    # a bare name is looked up in the default workspace (ne) first
    assert (
        client.get("/rest/layers/countries.json").json()["layer"]["resource"]["name"]
        == "ne:countries"
    )
    assert (
        client.get("/rest/layers/states.json").json()["layer"]["resource"]["name"] == "topp:states"
    )


def test_workspace_style_reference(client):
    root = etree.fromstring(client.get("/rest/layers/ne:populated_places.xml").content)
    ds = root.find("defaultStyle")
    assert ds.findtext("name") == "ne:populated_places"
    assert ds.findtext("workspace") == "ne"
    assert ds.find(ATOM).get("href") == f"{BASE}/workspaces/ne/styles/populated_places.xml"


def test_raster_layer(client):
    layer = client.get("/rest/layers/nurc:Arc_Sample.json").json()["layer"]
    assert layer["type"] == "RASTER"
    assert layer["resource"]["@class"] == "coverage"
    assert layer["resource"]["href"].endswith(
        "/workspaces/nurc/coveragestores/arcGridSample/coverages/Arc_Sample.json"
    )


def test_missing_layer(client):
    r = client.get("/rest/layers/topp:nope.json")
    assert r.status_code == 404 and r.text == "No such layer: topp:nope"
    assert client.get("/rest/workspaces/topp/layers/nope.json").text == "No such layer: topp:nope"
    r = client.delete("/rest/layers/topp:nope")
    assert r.status_code == 404 and r.text == "topp:nope"


def test_put_default_style_xml_and_json(client, emu):
    body = "<layer><defaultStyle><name>polygon</name></defaultStyle></layer>"
    assert client.put("/rest/layers/topp:states", content=body, headers=XML).status_code == 200
    layer = client.get("/rest/layers/topp:states.json").json()["layer"]
    assert layer["defaultStyle"]["name"] == "polygon"
    assert len(layer["styles"]["style"]) == 2
    body2 = {"layer": {"defaultStyle": {"name": "ne:countries", "workspace": "ne"}, "styles": ""}}
    assert client.put("/rest/workspaces/topp/layers/states.json", json=body2).status_code == 200
    layer = client.get("/rest/layers/topp:states.json").json()["layer"]
    assert layer["defaultStyle"]["href"] == f"{BASE}/workspaces/ne/styles/countries.json"
    assert "styles" not in layer
    assert emu.state.catalog.layers_using_style(("ne", "countries"))[0].prefixed == "ne:countries"


@pytest.mark.parametrize(
    "body",
    [
        "<layer><defaultStyle><name>nope</name></defaultStyle></layer>",
        "<layer><defaultStyle><name>ne:nope</name></defaultStyle></layer>",
        "<layer><defaultStyle><name>nope</name><workspace>ne</workspace></defaultStyle></layer>",
        "<layer><defaultStyle/></layer>",
        '{"layer": {"defaultStyle": {"name": "nope"}}}',
        '{"layer": {"defaultStyle": "nope"}}',
    ],
)
def test_put_of_a_default_style_that_does_not_exist_changes_nothing(client, emu, body):
    """GeoServer resolves the name to no style (null), and its update skips nulls: 200."""
    headers = XML if body.startswith("<") else {"Content-Type": "application/json"}
    before = emu.state.catalog.layer("topp", "states")
    r = client.put("/rest/layers/topp:states", content=body, headers=headers)
    assert (r.status_code, r.text) == (200, "")
    after = emu.state.catalog.layer("topp", "states")
    assert after.default_style == before.default_style == StyleRef(None, "population")
    assert emu.state.catalog.problems() == []


def test_put_style_names_resolve_as_geoserver_looks_them_up(client, emu):
    put = lambda style: client.put("/rest/layers/topp:states", json={"layer": style})  # noqa: E731
    layer = lambda: emu.state.catalog.layer("topp", "states")  # noqa: E731
    # a bare name: global first, then any workspace holding one of that name
    assert put({"defaultStyle": {"name": "countries"}}).status_code == 200
    assert layer().default_style == StyleRef("ne", "countries")
    # a workspace given but no such style there: looked up again by name (global)
    assert put({"defaultStyle": {"name": "polygon", "workspace": "ne"}}).status_code == 200
    assert layer().default_style == StyleRef(None, "polygon")
    # names that find no style are left out of `styles`
    styles = {"styles": {"style": [{"name": "nope"}, {"name": "ne:coastline"}, "line"]}}
    assert put(styles).status_code == 200
    assert layer().styles == [StyleRef("ne", "coastline"), StyleRef(None, "line")]
    got = client.get("/rest/layers/topp:states.json").json()["layer"]
    assert got["defaultStyle"]["name"] == "polygon"
    assert [s["name"] for s in got["styles"]["style"]] == ["ne:coastline", "line"]


def test_put_missing_layer_and_bad_body(client):
    assert client.put("/rest/layers/topp:nope", content="<layer/>", headers=XML).status_code == 404
    r = client.put(
        "/rest/layers/topp:states", content="<layer><enabled>maybe</enabled></layer>", headers=XML
    )
    assert r.status_code == 400


def test_delete_layer_keeps_the_resource(client, emu):
    assert client.delete("/rest/layers/topp:states").status_code == 200
    assert client.get("/rest/layers/topp:states.json").status_code == 404
    assert client.get("/rest/workspaces/topp/featuretypes/states.json").status_code == 200
    assert "topp:states" not in emu.state.seeding.tile_layers


def test_delete_layer_in_group(client, emu):
    r = client.delete("/rest/layers/sf:roads")
    assert r.status_code == 500
    assert r.text == "Unable to delete layer referenced by layer group 'spearfish'"
    assert client.delete("/rest/layers/sf:roads?recurse=true").status_code == 200
    assert client.get("/rest/workspaces/sf/featuretypes/roads.json").status_code == 404
    group = client.get("/rest/layergroups/spearfish.json").json()["layerGroup"]
    assert len(group["publishables"]["published"]) == 5 and len(group["styles"]["style"]) == 5
    assert emu.state.catalog.problems() == []


def test_layer_group_lists(client):
    names = [
        g["name"] for g in client.get("/rest/layergroups.json").json()["layerGroups"]["layerGroup"]
    ]
    assert names == ["spearfish", "tasmania", "tiger-ny"]
    r = client.get("/rest/workspaces/ne/layergroups.json").json()
    assert r == {
        "layerGroups": {
            "layerGroup": [
                {"name": "world", "href": f"{BASE}/workspaces/ne/layergroups/world.json"}
            ]
        }
    }
    assert client.get("/rest/workspaces/sf/layergroups.json").json() == {"layerGroups": ""}
    r = client.get("/rest/workspaces/nope/layergroups.json")
    assert r.status_code == 404 and r.text == "Workspace nope not found"


def test_get_layer_group(client):
    root = etree.fromstring(client.get("/rest/layergroups/tasmania.xml").content)
    assert root.findtext("mode") == "SINGLE"
    pubs = root.find("publishables").findall("published")
    assert pubs[0].get("type") == "layer"
    assert pubs[0].findtext("name") == "topp:tasmania_state_boundaries"
    assert (
        pubs[0].find(ATOM).get("href")
        == f"{BASE}/workspaces/topp/layers/tasmania_state_boundaries.xml"
    )
    assert [len(s) for s in root.find("styles")] == [0, 0, 0, 0]
    assert root.find("bounds").findtext("crs") == "EPSG:4326"
    world = client.get("/rest/workspaces/ne/layergroups/world.json").json()["layerGroup"]
    assert world["mode"] == "NAMED" and world["title"] == "World Map"
    assert world["workspace"] == {"name": "ne"}
    assert world["styles"]["style"][0]["name"] == "ne:countries_basemap"
    assert world["styles"]["style"][1] == ""


def test_missing_layer_group(client):
    r = client.get("/rest/layergroups/nope.json")
    assert r.status_code == 404 and r.text == "No such layer group nope"
    r = client.get("/rest/workspaces/ne/layergroups/nope.json")
    assert r.text == "No such layer group nope in workspace ne"


def test_create_global_group_and_nested(client, emu):
    body = (
        "<layerGroup><name>combo</name><layers><layer>topp:states</layer>"
        "<layer>tiger:poi</layer></layers><styles><style>population</style><style/></styles></layerGroup>"
    )
    r = client.post("/rest/layergroups", content=body, headers=XML)
    assert r.status_code == 201
    assert r.headers["location"] == f"{BASE}/layergroups/combo"
    assert r.text == "combo"
    g = client.get("/rest/layergroups/combo.json").json()["layerGroup"]
    assert g["mode"] == "SINGLE"
    assert g["bounds"]["crs"] == "EPSG:4326" and g["bounds"]["minx"] == -124.73364306703067
    assert g["styles"]["style"][0]["name"] == "population"
    assert "combo" in emu.state.seeding.tile_layers
    nested = {
        "layerGroup": {
            "name": "outer",
            "publishables": {
                "published": [
                    {"@type": "layerGroup", "name": "combo"},
                    {"@type": "layer", "name": "sf:roads"},
                ]
            },
        }
    }
    assert client.post("/rest/layergroups.json", json=nested).status_code == 201
    r = client.delete("/rest/layergroups/combo")
    assert r.status_code == 500
    assert r.text == "Unable to delete layer group referenced by layer group 'outer'"


def test_create_workspace_group(client):
    body = {
        "layerGroup": {
            "name": "ws_group",
            "mode": "CONTAINER",
            "publishables": {"published": {"@type": "layer", "name": "sf:roads"}},
        }
    }
    r = client.post("/rest/workspaces/sf/layergroups", json=body)
    assert r.status_code == 201
    assert r.headers["location"] == f"{BASE}/layergroups/ws_group"
    g = client.get("/rest/workspaces/sf/layergroups/ws_group.json").json()["layerGroup"]
    assert g["bounds"]["crs"] == {"@class": "projected", "$": "EPSG:26713"}
    bad = {
        "layerGroup": {
            "name": "mixed",
            "publishables": {"published": [{"@type": "layer", "name": "topp:states"}]},
        }
    }
    r = client.post("/rest/workspaces/sf/layergroups", json=bad)
    assert r.status_code == 500
    assert r.text == (
        "Layer group within a workspace (sf) can not contain resources from other workspace: topp"
    )


def test_create_group_errors(client):
    r = client.post(
        "/rest/layergroups", content="<layerGroup><name>e</name></layerGroup>", headers=XML
    )
    assert r.status_code == 400 and r.text == "layer group must not be empty"
    body = (
        "<layerGroup><name>tasmania</name><layers><layer>topp:states</layer></layers></layerGroup>"
    )
    r = client.post("/rest/layergroups", content=body, headers=XML)
    assert r.status_code == 500 and r.text == "Layer group named 'tasmania' already exists"
    body = "<layerGroup><name>x</name><layers><layer>topp:nope</layer></layers></layerGroup>"
    assert client.post("/rest/layergroups", content=body, headers=XML).status_code == 400
    body = (
        "<layerGroup><name>x</name><layers><layer>topp:states</layer></layers>"
        "<styles><style/><style/></styles></layerGroup>"
    )
    r = client.post("/rest/layergroups", content=body, headers=XML)
    assert (
        r.status_code == 500 and r.text == "Layer group has different number of styles than layers"
    )
    assert (
        client.post("/rest/workspaces/nope/layergroups", content=body, headers=XML).status_code
        == 404
    )


def test_put_layer_group(client):
    body = {"layerGroup": {"title": "Tassie", "mode": "NAMED"}}
    assert client.put("/rest/layergroups/tasmania.json", json=body).status_code == 200
    g = client.get("/rest/layergroups/tasmania.json").json()["layerGroup"]
    assert (
        g["title"] == "Tassie" and g["mode"] == "NAMED" and len(g["publishables"]["published"]) == 4
    )
    r = client.put("/rest/layergroups/tasmania", json={"layerGroup": {"name": "other"}})
    assert r.status_code == 403 and r.text == "Can't change name of a layer group"
    r = client.put(
        "/rest/layergroups/tasmania", json={"layerGroup": {"workspace": {"name": "topp"}}}
    )
    assert r.status_code == 403
    assert client.put("/rest/layergroups/nope", json={"layerGroup": {}}).status_code == 404


def test_put_layer_group_members(client):
    body = {
        "layerGroup": {"publishables": {"published": [{"@type": "layer", "name": "topp:states"}]}}
    }
    assert client.put("/rest/layergroups/tasmania", json=body).status_code == 200
    g = client.get("/rest/layergroups/tasmania.json").json()["layerGroup"]
    # Jettison's mapped convention, as GeoServer writes one object: a lone member is an object
    assert g["publishables"]["published"]["name"] == "topp:states"
    assert g["styles"]["style"] == ""
    assert g["bounds"]["minx"] == -124.73364306703067


@pytest.mark.parametrize("single", [True, False], ids=["object", "array"])
def test_one_member_group_reads_either_json_form_and_round_trips(client, emu, single):
    pub = {"@type": "layer", "name": "topp:states"}
    style = {"name": "polygon"}
    body = {
        "layerGroup": {
            "name": "solo",
            "publishables": {"published": pub if single else [pub]},
            "styles": {"style": style if single else [style]},
            "keywords": {"string": "k" if single else ["k"]},
        }
    }
    assert client.post("/rest/layergroups", json=body).status_code == 201
    group = emu.state.catalog.layer_group(None, "solo")
    assert [m.prefixed for m in group.publishables] == ["topp:states"]
    assert [s.name for s in group.styles] == ["polygon"] and group.keywords == ["k"]
    got = client.get("/rest/layergroups/solo.json").json()
    g = got["layerGroup"]
    assert g["publishables"]["published"]["@type"] == "layer"
    assert g["styles"]["style"]["name"] == "polygon" and g["keywords"] == {"string": "k"}
    assert client.put("/rest/layergroups/solo", json=got).status_code == 200
    after = emu.state.catalog.layer_group(None, "solo")
    assert (after.publishables, after.styles, after.keywords) == (
        group.publishables,
        group.styles,
        group.keywords,
    )


def test_delete_layer_group(client, emu):
    assert client.delete("/rest/workspaces/ne/layergroups/world").status_code == 200
    assert client.get("/rest/workspaces/ne/layergroups/world.json").status_code == 404
    assert "ne:world" not in emu.state.seeding.tile_layers
    assert client.delete("/rest/layergroups/nope").status_code == 404


def test_layer_methods(client):
    assert client.post("/rest/layers", content="x").status_code == 405
    assert client.post("/rest/layers/topp:states", content="x").status_code == 405


def test_group_mode_is_read_case_insensitively(client):
    # XStream's EnumConverter falls back to a case-insensitive match: geoserver-rest sends
    # <mode>single</mode> and reads back SINGLE.
    body = (
        "<layerGroup><name>lower</name><mode>single</mode><publishables>"
        "<published type='layer'><name>sf:roads</name></published></publishables></layerGroup>"
    )
    assert client.post("/rest/layergroups", content=body, headers=XML).status_code == 201
    assert client.get("/rest/layergroups/lower.json").json()["layerGroup"]["mode"] == "SINGLE"
    r = client.put("/rest/layergroups/lower", json={"layerGroup": {"mode": "Named"}})
    assert r.status_code == 200
    assert client.get("/rest/layergroups/lower.json").json()["layerGroup"]["mode"] == "NAMED"
    r = client.put("/rest/layergroups/lower", json={"layerGroup": {"mode": "sideways"}})
    assert r.status_code == 400 and "sideways" in r.text
    assert client.get("/rest/layergroups/lower.json").json()["layerGroup"]["mode"] == "NAMED"


def test_projection_policy_is_read_case_insensitively(client):
    url = "/rest/workspaces/sf/datastores/sf/featuretypes/roads"
    r = client.put(url, json={"featureType": {"projectionPolicy": "reproject_to_declared"}})
    assert r.status_code == 200
    policy = client.get(url + ".json").json()["featureType"]["projectionPolicy"]
    assert policy == "REPROJECT_TO_DECLARED"


def test_group_keywords_any_child_name(client):
    # GeoServer's keyword list converter takes every child of <keywords>, whatever its name;
    # geoserver-rest sends <keyword> items and reads back keywords.string.
    body = (
        "<layerGroup><name>kw</name><publishables><published type='layer'>"
        "<name>sf:roads</name></published></publishables>"
        "<keywords><keyword>a</keyword><keyword>b</keyword></keywords></layerGroup>"
    )
    assert client.post("/rest/layergroups", content=body, headers=XML).status_code == 201
    group = client.get("/rest/layergroups/kw.json").json()["layerGroup"]
    assert group["keywords"] == {"string": ["a", "b"]}
    root = etree.fromstring(client.get("/rest/layergroups/kw.xml").content)
    assert [k.text for k in root.find("keywords")] == ["a", "b"]
    body = "<layerGroup><keywords><string>c</string></keywords></layerGroup>"
    r = client.put("/rest/layergroups/kw", content=body, headers=XML)
    assert r.status_code == 200
    assert client.get("/rest/layergroups/kw.json").json()["layerGroup"]["keywords"] == {
        "string": "c"
    }


def test_feature_type_keywords_any_child_name(client):
    url = "/rest/workspaces/sf/datastores/sf/featuretypes/roads"
    body = "<featureType><keywords><keyword>x</keyword><string>y</string></keywords></featureType>"
    assert client.put(url, content=body, headers=XML).status_code == 200
    keywords = client.get(url + ".json").json()["featureType"]["keywords"]["string"]
    assert sorted(keywords) == ["x", "y"]
