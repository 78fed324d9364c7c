"""Data, coverage, WMS and WMTS stores over HTTP."""

from __future__ import annotations

from lxml import etree

BASE = "http://localhost:8080/geoserver/rest"
ATOM = "{http://www.w3.org/2005/Atom}link"
XML = {"Content-Type": "application/xml"}
JSON = {"Content-Type": "application/json"}


def test_list_one_element_is_an_array_and_empty_is_empty_string(client):
    r = client.get("/rest/workspaces/sf/datastores.json").json()
    assert r == {
        "dataStores": {
            "dataStore": [{"name": "sf", "href": f"{BASE}/workspaces/sf/datastores/sf.json"}]
        }
    }
    assert client.get("/rest/workspaces/cite/datastores.json").json() == {"dataStores": ""}
    assert client.get("/rest/workspaces/cite/datastores.xml").content == b"<dataStores/>"


def test_links_keep_the_path_as_requested(client):
    r = client.get("/rest/workspaces/default/datastores.json").json()
    assert (
        r["dataStores"]["dataStore"][0]["href"]
        == f"{BASE}/workspaces/default/datastores/NaturalEarth.json"
    )


def test_list_of_missing_workspace(client):
    r = client.get("/rest/workspaces/nope/datastores.json")
    assert r.status_code == 404 and r.text == "No such workspace : nope"
    assert client.get("/rest/workspaces/nope/coveragestores.xml").text == "No such workspace : nope"


def test_get_datastore_xml(client):
    root = etree.fromstring(
        client.get("/rest/workspaces/topp/datastores/states_shapefile.xml").content
    )
    assert root.tag == "dataStore"
    assert root.findtext("name") == "states_shapefile"
    assert root.findtext("enabled") == "true"
    assert root.find("workspace").findtext("name") == "topp"
    assert root.find("workspace").find(ATOM).get("href") == f"{BASE}/workspaces/topp.xml"
    params = {e.get("key"): e.text for e in root.find("connectionParameters")}
    assert params == {
        "namespace": "http://www.openplans.org/topp",
        "url": "file:data/shapefiles/states.shp",
    }
    assert root.findtext("__default") == "false"
    link = root.find("featureTypes").find(ATOM).get("href")
    assert link.endswith("/workspaces/topp/datastores/states_shapefile/featuretypes.xml")


def test_get_datastore_json(client):
    ds = client.get("/rest/workspaces/ne/datastores/NaturalEarth.json").json()["dataStore"]
    assert ds["type"] == "GeoPackage"
    assert ds["_default"] is False
    assert {"@key": "dbtype", "$": "geopkg"} in ds["connectionParameters"]["entry"]
    assert ds["featureTypes"] == f"{BASE}/workspaces/ne/datastores/NaturalEarth/featuretypes.json"
    assert ds["dateCreated"] == "2022-08-21 15:20:30.885 UTC"


def test_missing_datastore(client):
    r = client.get("/rest/workspaces/sf/datastores/nope.json")
    assert r.status_code == 404 and r.text == "No such datastore: sf,nope"
    assert client.get("/rest/workspaces/sf/datastores/nope?quietOnNotFound=true").text == ""


def test_create_datastore_xml_with_two_parameter_spellings(client, emu):
    body = (
        "<dataStore><name>pg</name><connectionParameters>"
        '<host>localhost</host><entry key="port">5432</entry>'
        "<entry><string>dbtype</string><string>postgis</string></entry>"
        "</connectionParameters></dataStore>"
    )
    r = client.post("/rest/workspaces/sf/datastores", content=body, headers=XML)
    assert r.status_code == 201
    assert r.text == "pg"
    assert r.headers["location"] == f"{BASE}/workspaces/sf/datastores/pg"
    ds = client.get("/rest/workspaces/sf/datastores/pg.json").json()["dataStore"]
    params = {e["@key"]: e["$"] for e in ds["connectionParameters"]["entry"]}
    assert params == {
        "host": "localhost",
        "port": "5432",
        "dbtype": "postgis",
        "namespace": "http://www.openplans.org/spearfish",
    }
    assert ds["type"] == "PostGIS" and ds["enabled"] is True
    assert ds["dateCreated"].endswith(" UTC")


def test_create_datastore_json(client):
    body = {
        "dataStore": {
            "name": "gpkg",
            "workspace": {"name": "cite"},
            "connectionParameters": {
                "entry": [
                    {"@key": "database", "$": "file:x.gpkg"},
                    {"@key": "dbtype", "$": "geopkg"},
                ]
            },
        }
    }
    r = client.post("/rest/workspaces/cite/datastores.json", json=body)
    assert r.status_code == 201
    names = client.get("/rest/workspaces/cite/datastores.json").json()["dataStores"]["dataStore"]
    assert [n["name"] for n in names] == ["gpkg"]


def test_create_datastore_type_comes_from_the_factory(client):
    # GeoServer sets the type from the factory the parameters select, over the client's
    # (geoserver-restconfig sends an empty <type/>); without a known factory it keeps it.
    body = (
        "<dataStore><name>pg</name><type/><connectionParameters>"
        '<entry key="dbtype">postgis</entry><entry key="host">db</entry>'
        "</connectionParameters></dataStore>"
    )
    url = "/rest/workspaces/sf/datastores"

    def created_type(body: str, name: str) -> str:
        assert client.post(url, content=body, headers=XML).status_code == 201
        return client.get(f"{url}/{name}.json").json()["dataStore"]["type"]

    assert created_type(body, "pg") == "PostGIS"
    body = body.replace("<type/>", "<type>Oracle NG</type>").replace("<name>pg", "<name>pg2")
    assert created_type(body, "pg2") == "PostGIS"
    assert created_type("<dataStore><name>odd</name><type>Custom</type></dataStore>", "odd") == (
        "Custom"
    )


def test_create_datastore_errors(client):
    body = "<dataStore><name>x</name><workspace><name>topp</name></workspace></dataStore>"
    r = client.post("/rest/workspaces/sf/datastores", content=body, headers=XML)
    assert r.status_code == 403
    assert r.text == "Expected workspace sf but client specified topp"
    r = client.post(
        "/rest/workspaces/sf/datastores",
        content="<dataStore><name>sf</name></dataStore>",
        headers=XML,
    )
    assert r.status_code == 500
    assert r.text == "Store 'sf' already exists in workspace 'sf'"
    r = client.post(
        "/rest/workspaces/nope/datastores",
        content="<dataStore><name>x</name></dataStore>",
        headers=XML,
    )
    assert r.status_code == 404
    r = client.post("/rest/workspaces/sf/datastores", content="<dataStore/>", headers=XML)
    assert r.status_code == 400


def test_put_is_a_merge(client):
    r = client.put(
        "/rest/workspaces/topp/datastores/states_shapefile",
        content="<dataStore><enabled>false</enabled></dataStore>",
        headers=XML,
    )
    assert r.status_code == 200
    ds = client.get("/rest/workspaces/topp/datastores/states_shapefile.json").json()["dataStore"]
    assert ds["enabled"] is False
    assert len(ds["connectionParameters"]["entry"]) == 2
    assert ds["dateModified"].endswith(" UTC")


def test_put_replaces_the_parameter_map(client):
    body = {
        "dataStore": {"connectionParameters": {"entry": [{"@key": "url", "$": "file:other.shp"}]}}
    }
    assert (
        client.put("/rest/workspaces/topp/datastores/states_shapefile.json", json=body).status_code
        == 200
    )
    ds = client.get("/rest/workspaces/topp/datastores/states_shapefile.json").json()["dataStore"]
    assert ds["connectionParameters"]["entry"] == {"@key": "url", "$": "file:other.shp"}


def test_put_rename_keeps_feature_types(client, emu):
    r = client.put(
        "/rest/workspaces/topp/datastores/states_shapefile",
        content="<dataStore><name>states2</name></dataStore>",
        headers=XML,
    )
    assert r.status_code == 200
    ft = client.get("/rest/workspaces/topp/datastores/states2/featuretypes/states.json")
    assert ft.status_code == 200
    assert ft.json()["featureType"]["store"]["name"] == "topp:states2"
    assert emu.state.catalog.problems() == []


def test_put_missing_store(client):
    r = client.put("/rest/workspaces/sf/datastores/nope", content="<dataStore/>", headers=XML)
    assert r.status_code == 404


def test_delete_non_empty_store(client, emu):
    r = client.delete("/rest/workspaces/sf/datastores/sf")
    assert r.status_code == 403
    assert r.text == "Unable to delete non-empty store."
    assert client.delete("/rest/workspaces/sf/datastores/sf?recurse=true").status_code == 200
    assert client.get("/rest/layers/sf:roads.json").status_code == 404
    group = client.get("/rest/layergroups/spearfish.json").json()["layerGroup"]
    assert group["publishables"]["published"]["name"] == "sf:sfdem"
    assert "sf:roads" not in emu.state.seeding.tile_layers
    assert emu.state.catalog.problems() == []


def test_delete_coverage_store_non_empty_is_401(client):
    r = client.delete("/rest/workspaces/nurc/coveragestores/mosaic")
    assert r.status_code == 401
    assert r.text == "coveragestore not empty"
    assert (
        client.delete(
            "/rest/workspaces/nurc/coveragestores/mosaic?recurse=true&purge=all"
        ).status_code
        == 200
    )
    assert client.get("/rest/workspaces/nurc/coveragestores/mosaic.json").status_code == 404


def test_coverage_store_get_and_create(client):
    cs = client.get("/rest/workspaces/nurc/coveragestores/mosaic.json").json()["coverageStore"]
    assert cs["type"] == "ImageMosaic"
    assert cs["url"] == "file:coverages/mosaic_sample/mosaic.shp"
    assert cs["coverages"] == f"{BASE}/workspaces/nurc/coveragestores/mosaic/coverages.json"
    body = (
        "<coverageStore><name>dem2</name><type>GeoTIFF</type><enabled>true</enabled>"
        "<workspace>sf</workspace><url>file:data/dem2.tif</url></coverageStore>"
    )
    r = client.post("/rest/workspaces/sf/coveragestores", content=body, headers=XML)
    assert r.status_code == 201
    assert r.headers["location"] == f"{BASE}/workspaces/sf/coveragestores/dem2"
    root = etree.fromstring(client.get("/rest/workspaces/sf/coveragestores/dem2.xml").content)
    assert root.findtext("url") == "file:data/dem2.tif"
    r = client.get("/rest/workspaces/sf/coveragestores/nope.json")
    assert r.status_code == 404 and r.text == "No such coverage store: sf,nope"


def test_coverage_store_keeps_connection_parameters(client):
    # every StoreInfo has a connection parameter map, coverage stores included
    params = "<connectionParameters><a>b</a></connectionParameters>"
    body = f"<coverageStore><name>x</name>{params}</coverageStore>"
    r = client.post("/rest/workspaces/sf/coveragestores", content=body, headers=XML)
    assert r.status_code == 201
    got = client.get("/rest/workspaces/sf/coveragestores/x.json").json()["coverageStore"]
    assert got["connectionParameters"] == {"entry": {"@key": "a", "$": "b"}}


def test_reset(client):
    assert client.post("/rest/workspaces/sf/datastores/sf/reset").status_code == 200
    assert client.put("/rest/workspaces/sf/coveragestores/sfdem/reset").status_code == 200
    assert client.post("/rest/workspaces/sf/datastores/nope/reset").status_code == 404


def test_wms_and_wmts_store_lists_are_empty(client):
    assert client.get("/rest/workspaces/sf/wmsstores.json").json() == {"wmsStores": ""}
    assert client.get("/rest/workspaces/sf/wmtsstores.xml").content == b"<wmtsStores/>"
    assert client.get("/rest/workspaces/sf/wmsstores/x.json").status_code == 404
    assert client.get("/rest/workspaces/nope/wmsstores.json").status_code == 404


def test_wms_store_from_scenario(tmp_path, client_for):
    from geoserver_emulator import Emulator

    path = tmp_path / "s.json"
    path.write_text(
        '{"extends": "empty", "catalog": {"workspaces": [{"name": "w"}]},'
        ' "cascade": {"wmsStores": [{"workspace": "w", "name": "remote", "type": "WMS",'
        ' "capabilitiesUrl": "http://example.org/wms?request=GetCapabilities"}]}}'
    )
    c = client_for(emulator=Emulator(str(path)))
    items = c.get("/rest/workspaces/w/wmsstores.json").json()["wmsStores"]["wmsStore"]
    assert items == [{"name": "remote", "href": f"{BASE}/workspaces/w/wmsstores/remote.json"}]
    store = c.get("/rest/workspaces/w/wmsstores/remote.json").json()["wmsStore"]
    assert store["capabilitiesURL"] == "http://example.org/wms?request=GetCapabilities"


def test_store_methods(client):
    assert client.delete("/rest/workspaces/sf/datastores").status_code == 405
    assert client.post("/rest/workspaces/sf/datastores/sf", content="x").status_code == 405
