"""Feature types and coverages over HTTP."""

from __future__ import annotations

import pytest
from lxml import etree

from geoserver_emulator import Emulator

BASE = "http://localhost:8080/geoserver/rest"
ATOM = "{http://www.w3.org/2005/Atom}link"
XML = {"Content-Type": "application/xml"}
FT_PATH = "/rest/workspaces/topp/datastores/states_shapefile/featuretypes"


def test_list_by_store_and_by_workspace(client):
    r = client.get("/rest/workspaces/topp/datastores/taz_shapes/featuretypes.json").json()
    names = [f["name"] for f in r["featureTypes"]["featureType"]]
    assert names == [
        "tasmania_cities",
        "tasmania_roads",
        "tasmania_state_boundaries",
        "tasmania_water_bodies",
    ]
    r = client.get("/rest/workspaces/topp/featuretypes.json").json()
    assert len(r["featureTypes"]["featureType"]) == 5
    assert (
        r["featureTypes"]["featureType"][0]["href"]
        == f"{BASE}/workspaces/topp/featuretypes/states.json"
    )
    assert client.get("/rest/workspaces/cite/featuretypes.json").json() == {"featureTypes": ""}


def test_get_feature_type_xml(client):
    root = etree.fromstring(client.get(f"{FT_PATH}/states.xml").content)
    assert root.findtext("name") == "states"
    assert root.findtext("title") == "USA Population"
    assert root.find("namespace").find(ATOM).get("href") == f"{BASE}/namespaces/topp.xml"
    assert [k.text for k in root.find("keywords")] == [
        "census",
        "united",
        "boundaries",
        "state",
        "states",
    ]
    bbox = root.find("latLonBoundingBox")
    assert bbox.findtext("minx") == "-124.73364306703067" and bbox.findtext("crs") == "EPSG:4326"
    store = root.find("store")
    assert store.get("class") == "dataStore" and store.findtext("name") == "topp:states_shapefile"
    attrs = root.find("attributes").findall("attribute")
    assert attrs[0].findtext("binding") == "org.locationtech.jts.geom.MultiPolygon"
    assert len(attrs) == 23


def test_projected_crs_is_marked(client):
    root = etree.fromstring(
        client.get("/rest/workspaces/sf/datastores/sf/featuretypes/roads.xml").content
    )
    crs = root.find("nativeBoundingBox").find("crs")
    assert crs.text == "EPSG:26713" and crs.get("class") == "projected"
    ft = client.get("/rest/workspaces/sf/featuretypes/roads.json").json()["featureType"]
    assert ft["nativeBoundingBox"]["crs"] == {"@class": "projected", "$": "EPSG:26713"}
    assert ft["latLonBoundingBox"]["crs"] == "EPSG:4326"


def test_missing_feature_types(client):
    r = client.get(f"{FT_PATH}/nope.json")
    assert r.status_code == 404 and r.text == "No such feature type: topp,states_shapefile,nope"
    r = client.get("/rest/workspaces/topp/featuretypes/nope.json")
    assert r.text == "No such feature type: topp,nope"
    r = client.get("/rest/workspaces/topp/datastores/nope/featuretypes/states.json")
    assert r.status_code == 404 and r.text == "No such data store: topp,nope"


def test_available_lists_from_scenario(tmp_path, client_for):
    from geoserver_emulator import Emulator

    path = tmp_path / "s.json"
    path.write_text(
        '{"extends": "stock", "catalog": {"dataStores": [{"workspace": "cite", "name": "db",'
        ' "available": ["roads", "lakes"], "featureTypes": [{"name": "roads"}]}]}}'
    )
    c = client_for(emulator=Emulator(str(path)))
    base = "/rest/workspaces/cite/datastores/db/featuretypes.json"
    assert c.get(base + "?list=available").json() == {"list": {"string": ["lakes"]}}
    assert c.get(base + "?list=all").json() == {"list": {"string": ["lakes", "roads"]}}
    root = etree.fromstring(c.get(base.replace(".json", ".xml") + "?list=available").content)
    assert root.tag == "list" and [e.text for e in root] == ["lakes"]
    assert [e.tag for e in root] == ["featureTypeName"]


def test_create_feature_type_publishes_a_layer(client, emu):
    body = (
        "<featureType><name>places</name><nativeName>places</nativeName><title>Places</title>"
        "<srs>EPSG:4326</srs><nativeBoundingBox><minx>0</minx><maxx>1</maxx><miny>0</miny>"
        "<maxy>1</maxy></nativeBoundingBox><attributes><attribute><name>geom</name>"
        "<binding>org.locationtech.jts.geom.Point</binding></attribute></attributes></featureType>"
    )
    r = client.post(FT_PATH, content=body, headers=XML)
    assert r.status_code == 201
    assert (
        r.headers["location"]
        == f"{BASE}/workspaces/topp/datastores/states_shapefile/featuretypes/places"
    )
    assert r.text == ""
    layer = client.get("/rest/layers/topp:places.json").json()["layer"]
    assert layer["type"] == "VECTOR"
    assert layer["defaultStyle"]["name"] == "point"
    assert "topp:places" in emu.state.seeding.tile_layers
    ft = client.get(f"{FT_PATH}/places.json").json()["featureType"]
    assert ft["latLonBoundingBox"]["maxx"] == 1.0 and ft["enabled"] is True


def test_create_feature_type_json_under_workspace(client):
    body = {"featureType": {"name": "extra", "srs": "EPSG:4326"}}
    r = client.post("/rest/workspaces/tiger/featuretypes", json=body)
    assert r.status_code == 201
    assert r.headers["location"] == f"{BASE}/workspaces/tiger/featuretypes/extra"
    assert (
        client.get("/rest/layers/tiger:extra.json").json()["layer"]["defaultStyle"]["name"]
        == "generic"
    )


def test_create_feature_type_errors(client):
    r = client.post(FT_PATH, content="<featureType><name>states</name></featureType>", headers=XML)
    assert r.status_code == 500
    assert r.text == "Resource named 'states' already exists in store: 'states_shapefile'"
    r = client.post(
        FT_PATH,
        content="<featureType><name>x</name><store>other</store></featureType>",
        headers=XML,
    )
    assert (
        r.status_code == 403
        and r.text == "Expected datastore states_shapefile but client specified other"
    )
    body = "<featureType><name>x</name><namespace><name>sf</name></namespace></featureType>"
    r = client.post(FT_PATH, content=body, headers=XML)
    assert r.status_code == 403 and r.text == "Expected workspace topp but client specified sf"
    r = client.post(FT_PATH, content="<featureType/>", headers=XML)
    assert r.status_code == 400
    r = client.post(
        "/rest/workspaces/topp/datastores/nope/featuretypes",
        content="<featureType><name>x</name></featureType>",
        headers=XML,
    )
    assert r.status_code == 404


def test_put_feature_type_merges_and_renames(client, emu):
    r = client.put(
        f"{FT_PATH}/states", content="<featureType><title>New</title></featureType>", headers=XML
    )
    assert r.status_code == 200
    ft = client.get(f"{FT_PATH}/states.json").json()["featureType"]
    assert ft["title"] == "New" and ft["abstract"] == "This is some census data on the states."
    r = client.put(f"{FT_PATH}/states", json={"featureType": {"name": "usa"}})
    assert r.status_code == 200
    assert client.get("/rest/layers/topp:usa.json").status_code == 200
    assert (
        "topp:usa" in emu.state.seeding.tile_layers
        and "topp:states" not in emu.state.seeding.tile_layers
    )


def test_delete_feature_type(client, emu):
    r = client.delete(f"{FT_PATH}/states")
    assert r.status_code == 403 and r.text == "feature type referenced by layer(s)"
    assert client.delete(f"{FT_PATH}/states?recurse=true").status_code == 200
    assert client.get(f"{FT_PATH}/states.json").status_code == 404
    assert client.get("/rest/layers/topp:states.json").status_code == 404
    assert client.delete(f"{FT_PATH}/states").status_code == 404


def test_delete_feature_type_in_a_group_fails_even_with_recurse(client):
    r = client.delete("/rest/workspaces/sf/datastores/sf/featuretypes/roads?recurse=true")
    assert r.status_code == 500
    assert r.text == "Unable to delete layer referenced by layer group 'spearfish'"


def test_coverages(client):
    r = client.get("/rest/workspaces/nurc/coveragestores/mosaic/coverages.json").json()
    assert r["coverages"]["coverage"] == [
        {
            "name": "mosaic",
            "href": f"{BASE}/workspaces/nurc/coveragestores/mosaic/coverages/mosaic.json",
        }
    ]
    names = [
        c["name"]
        for c in client.get("/rest/workspaces/nurc/coverages.json").json()["coverages"]["coverage"]
    ]
    assert names == ["Arc_Sample", "Img_Sample", "Pk50095", "mosaic"]
    cov = client.get("/rest/workspaces/nurc/coveragestores/mosaic/coverages/mosaic.json").json()[
        "coverage"
    ]
    assert cov["nativeFormat"] == "ImageMosaic"
    assert cov["store"] == {
        "@class": "coverageStore",
        "name": "nurc:mosaic",
        "href": f"{BASE}/workspaces/nurc/coveragestores/mosaic.json",
    }
    assert len(cov["dimensions"]["coverageDimension"]) == 3
    root = etree.fromstring(client.get("/rest/workspaces/nurc/coverages/Pk50095.xml").content)
    assert root.findtext("srs") == "EPSG:32633" and root.findtext("enabled") == "false"


def test_coverage_errors(client):
    r = client.get("/rest/workspaces/nope/coverages.json")
    assert r.status_code == 404 and r.text == "Name space not found for workspace 'nope'."
    r = client.get("/rest/workspaces/nurc/coveragestores/mosaic/coverages/x.json")
    assert r.text == "No such coverage: nurc,mosaic,x"
    assert client.get("/rest/workspaces/nurc/coverages/x.json").text == "No such coverage: nurc,x"
    r = client.delete("/rest/workspaces/nurc/coveragestores/mosaic/coverages/x")
    assert r.status_code == 404 and r.text == "Coverage 'x' not found."
    r = client.delete("/rest/workspaces/nurc/coveragestores/mosaic/coverages/mosaic")
    assert r.status_code == 403 and r.text == "coverage referenced by layer(s)"
    assert client.put("/rest/workspaces/nurc/coverages/mosaic", content="x").status_code == 405


def test_create_and_delete_coverage(client, emu):
    body = "<coverage><name>dem</name><nativeCoverageName>dem</nativeCoverageName></coverage>"
    r = client.post("/rest/workspaces/sf/coveragestores/sfdem/coverages", content=body, headers=XML)
    assert r.status_code == 201
    assert r.text == "dem"
    assert r.headers["location"] == f"{BASE}/workspaces/sf/coveragestores/sfdem/coverages/dem"
    layer = client.get("/rest/layers/sf:dem.json").json()["layer"]
    assert layer["type"] == "RASTER" and layer["defaultStyle"]["name"] == "raster"
    r = client.put(
        "/rest/workspaces/sf/coveragestores/sfdem/coverages/dem",
        json={"coverage": {"title": "DEM"}},
    )
    assert r.status_code == 200
    assert client.get("/rest/workspaces/sf/coverages/dem.json").json()["coverage"]["title"] == "DEM"
    assert (
        client.delete(
            "/rest/workspaces/sf/coveragestores/sfdem/coverages/dem?recurse=true"
        ).status_code
        == 200
    )
    assert "sf:dem" not in emu.state.seeding.tile_layers


def test_coverage_list_all(tmp_path, client_for):
    from geoserver_emulator import Emulator

    path = tmp_path / "s.json"
    path.write_text(
        '{"extends": "empty", "catalog": {"workspaces": [{"name": "w"}], "coverageStores": '
        '[{"workspace": "w", "name": "m", "type": "ImageMosaic", "available": ["a", "b"],'
        ' "coverages": [{"name": "a"}]}]}}'
    )
    c = client_for(emulator=Emulator(str(path)))
    r = c.get("/rest/workspaces/w/coveragestores/m/coverages.json?list=all").json()
    assert r == {"list": {"string": ["b", "a"]}}
    root = etree.fromstring(c.get("/rest/workspaces/w/coverages.xml?list=all").content)
    assert [e.tag for e in root] == ["coverageName", "coverageName"]
    r = c.post("/rest/workspaces/w/coveragestores/m/coverages", json={"coverage": {"name": "zzz"}})
    assert r.status_code == 500


@pytest.mark.parametrize(
    "path",
    [
        f"{FT_PATH}/states/reset",
        "/rest/workspaces/nurc/coveragestores/mosaic/coverages/mosaic/reset",
    ],
)
def test_resource_reset(client, path):
    assert client.post(path).status_code == 200


TIME_XML = (
    "<coverage><metadata><entry key='time'><dimensionInfo><enabled>true</enabled>"
    "<presentation>LIST</presentation><units>ISO8601</units>"
    "<defaultValue><strategy>MINIMUM</strategy></defaultValue></dimensionInfo></entry>"
    "</metadata></coverage>"
)


def test_structured_metadata_entry_from_xml(client):
    # geoserver-rest's publish_time_dimension_to_coveragestore and geoserver-restconfig's
    # dimension writers send a dimensionInfo inside a metadata entry: it is kept and written
    # back, in XML and in JSON, instead of being flattened to an empty entry.
    url = "/rest/workspaces/sf/coveragestores/sfdem/coverages/sfdem"
    r = client.put(url, content=TIME_XML, headers={"Content-Type": "application/xml"})
    assert r.status_code == 200
    root = etree.fromstring(client.get(url + ".xml").content)
    info = root.find("metadata/entry[@key='time']/dimensionInfo")
    assert info.findtext("presentation") == "LIST"
    assert info.findtext("defaultValue/strategy") == "MINIMUM"
    entry = client.get(url + ".json").json()["coverage"]["metadata"]["entry"]
    assert entry == {
        "@key": "time",
        "dimensionInfo": {
            "enabled": "true",
            "presentation": "LIST",
            "units": "ISO8601",
            "defaultValue": {"strategy": "MINIMUM"},
        },
    }


def test_structured_metadata_entry_from_json_and_text_entries(client):
    url = "/rest/workspaces/sf/datastores/sf/featuretypes/roads"
    body = {
        "featureType": {
            "metadata": {
                "entry": [
                    {"@key": "elevation", "dimensionInfo": {"enabled": True, "units": "m"}},
                    {"@key": "cachingEnabled", "$": "false"},
                ]
            }
        }
    }
    assert client.put(url, json=body).status_code == 200
    entries = client.get(url + ".json").json()["featureType"]["metadata"]["entry"]
    assert entries == [
        {"@key": "elevation", "dimensionInfo": {"enabled": True, "units": "m"}},
        {"@key": "cachingEnabled", "$": "false"},
    ]
    root = etree.fromstring(client.get(url + ".xml").content)
    assert root.findtext("metadata/entry[@key='elevation']/dimensionInfo/enabled") == "true"
    assert root.findtext("metadata/entry[@key='cachingEnabled']") == "false"


def test_virtual_table_metadata_keeps_repeated_elements(client, emu, tmp_path):
    body = (
        "<featureType><name>v1</name><metadata><entry key='JDBC_VIRTUAL_TABLE'><virtualTable>"
        "<name>v1</name><sql>select 1</sql><keyColumn>id</keyColumn>"
        "<geometry><name>geom</name><type>Point</type><srid>4326</srid></geometry>"
        "<parameter><name>a</name><defaultValue>1</defaultValue></parameter>"
        "<parameter><name>b</name></parameter></virtualTable></entry></metadata></featureType>"
    )
    r = client.post(
        "/rest/workspaces/sf/datastores/sf/featuretypes",
        content=body,
        headers={"Content-Type": "text/xml"},
    )
    assert r.status_code == 201
    url = "/rest/workspaces/sf/datastores/sf/featuretypes/v1.xml"
    vt = etree.fromstring(client.get(url).content).find(
        "metadata/entry[@key='JDBC_VIRTUAL_TABLE']/virtualTable"
    )
    assert [p.findtext("name") for p in vt.findall("parameter")] == ["a", "b"]
    assert vt.findtext("geometry/srid") == "4326"
    path = tmp_path / "dump.json"
    emu.save_scenario(path)
    again = Emulator(str(path)).state.catalog.resource("sf", "v1")
    assert again.metadata == emu.state.catalog.resource("sf", "v1").metadata
