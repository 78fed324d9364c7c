"""Data store uploads over HTTP: shapefiles, property files, GeoPackages."""

from __future__ import annotations

import io
import zipfile

import pytest
from lxml import etree

from geoserver_emulator import Emulator

from .conftest import (
    PROPERTIES,
    TEXT,
    WS,
    ZIP,
    geopackage,
    make_zip,
    shapefile_files,
    shapefile_zip,
)


def test_zipped_shapefile_creates_store_type_and_layer(client, emu: Emulator) -> None:
    r = client.put(f"{WS}/sf/datastores/lanes/file.shp", content=shapefile_zip(), headers=ZIP)
    assert r.status_code == 201, r.text
    assert r.content == b""
    store = client.get(f"{WS}/sf/datastores/lanes.json").json()["dataStore"]
    assert store["type"] == "Shapefile"
    params = {e["@key"]: e["$"] for e in store["connectionParameters"]["entry"]}
    assert params["url"] == "file:/opt/geoserver_data/data/sf/lanes/"
    assert params["namespace"] == "http://www.openplans.org/spearfish"
    ft = client.get(f"{WS}/sf/datastores/lanes/featuretypes/lanes.json").json()["featureType"]
    assert ft["nativeName"] == "lanes"
    assert ft["srs"] == "EPSG:4326"
    assert ft["projectionPolicy"] == "FORCE_DECLARED"
    attrs = {a["name"]: a for a in ft["attributes"]["attribute"]}
    assert attrs["the_geom"]["binding"] == "org.locationtech.jts.geom.Point"
    assert attrs["NAME"]["binding"] == "java.lang.String"
    assert attrs["NAME"]["length"] == 20
    assert attrs["LANES"]["binding"] == "java.lang.Integer"
    assert attrs["WIDTH"]["binding"] == "java.lang.Double"
    assert attrs["OPENED"]["binding"] == "java.util.Date"
    box = ft["nativeBoundingBox"]
    assert (box["minx"], box["maxx"], box["miny"], box["maxy"]) == (1.0, 3.0, 2.0, 5.0)
    layer = client.get(f"{WS}/sf/layers/lanes.json").json()["layer"]
    assert layer["defaultStyle"]["name"] == "point"
    table = emu.state.features.get("sf", "lanes", "lanes")
    assert table is not None and [f.fid for f in table.features] == ["lanes.1", "lanes.2"]
    assert table.features[1].properties["NAME"] == "High"
    assert table.features[1].properties["the_geom"].wkt == "POINT (3 5)"
    assert "data/sf/lanes/lanes.shp" in emu.state.datadir.files


def test_configure_all_and_first(client) -> None:
    body = shapefile_zip("a", "b")
    r = client.put(f"{WS}/sf/datastores/two/file.shp?configure=all", content=body, headers=ZIP)
    assert r.status_code == 201
    names = client.get(f"{WS}/sf/datastores/two/featuretypes.json").json()
    listed = [f["name"] for f in names["featureTypes"]["featureType"]]
    assert listed == ["a", "b"]
    r = client.put(f"{WS}/sf/datastores/one/file.shp", content=shapefile_zip("c", "d"), headers=ZIP)
    assert r.status_code == 201
    listed = client.get(f"{WS}/sf/datastores/one/featuretypes.json").json()
    assert [f["name"] for f in listed["featureTypes"]["featureType"]] == ["c"]
    available = client.get(f"{WS}/sf/datastores/one/featuretypes.json?list=available").json()
    assert available["list"]["string"] == ["d"]


def test_configure_none_creates_only_the_store(client, emu: Emulator) -> None:
    r = client.put(
        f"{WS}/sf/datastores/lanes/file.shp?configure=none", content=shapefile_zip(), headers=ZIP
    )
    assert r.status_code == 201
    assert emu.state.catalog.data_store("sf", "lanes") is not None
    assert emu.state.catalog.list_resources("sf", store="lanes") == []
    assert emu.state.features.get("sf", "lanes", "lanes") is not None


def test_taken_name_is_renamed(client) -> None:
    client.put(f"{WS}/sf/datastores/s1/file.shp", content=shapefile_zip("bt"), headers=ZIP)
    r = client.put(f"{WS}/sf/datastores/s2/file.shp", content=shapefile_zip("bt"), headers=ZIP)
    assert r.status_code == 201
    listed = client.get(f"{WS}/sf/datastores/s2/featuretypes.json").json()
    assert [f["name"] for f in listed["featureTypes"]["featureType"]] == ["bt1"]


def test_property_file_upload_and_download(client, emu: Emulator) -> None:
    assert client.get(f"{WS}/sf/datastores/pds/file.properties").status_code == 404
    r = client.put(f"{WS}/sf/datastores/pds/file.properties", content=PROPERTIES, headers=TEXT)
    assert r.status_code == 201
    store = client.get(f"{WS}/sf/datastores/pds.json").json()["dataStore"]
    assert store["type"] == "Properties"
    ft = client.get(f"{WS}/sf/datastores/pds/featuretypes/pds.json").json()["featureType"]
    assert [a["binding"] for a in ft["attributes"]["attribute"]] == [
        "java.lang.String",
        "org.locationtech.jts.geom.Point",
    ]
    table = emu.state.features.get("sf", "pds", "pds")
    assert [f.fid for f in table.features] == ["pds.0", "pds.1"]
    got = client.get(f"{WS}/sf/datastores/pds/file.properties")
    assert got.status_code == 200
    assert got.headers["content-type"] == "application/zip"
    assert zipfile.ZipFile(io.BytesIO(got.content)).namelist() == ["pds.properties"]


def test_geopackage_upload(client, emu: Emulator) -> None:
    body = geopackage({"cities": [("Rome", 12.5, 41.9)], "towns": [("Ulm", 10.0, 48.4)]})
    r = client.put(f"{WS}/sf/datastores/gp/file.gpkg?configure=all", content=body)
    assert r.status_code == 201, r.text
    store = client.get(f"{WS}/sf/datastores/gp.json").json()["dataStore"]
    params = {e["@key"]: e["$"] for e in store["connectionParameters"]["entry"]}
    assert store["type"] == "GeoPackage"
    assert params["database"] == "/opt/geoserver_data/data/sf/gp/gp.gpkg"
    assert params["dbtype"] == "geopkg"
    ft = client.get(f"{WS}/sf/datastores/gp/featuretypes/cities.json").json()["featureType"]
    attrs = [(a["name"], a["binding"]) for a in ft["attributes"]["attribute"]]
    assert attrs == [
        ("geom", "org.locationtech.jts.geom.Point"),
        ("label", "java.lang.String"),
        ("population", "java.lang.Integer"),
        ("founded", "java.sql.Date"),
    ]
    table = emu.state.features.get("sf", "gp", "towns")
    assert table.features[0].fid == "towns.1"
    assert table.features[0].properties["geom"].wkt == "POINT (10 48.4)"


@pytest.mark.parametrize(
    ("path", "body", "headers", "status", "words"),
    [
        ("file.xyz", b"x", TEXT, 400, "Unsupported format: xyz"),
        ("file.shp", b"PK not a zip", ZIP, 400, "not a ZIP"),
        ("file.gpkg", b"not sqlite", TEXT, 400, "not an SQLite database"),
        ("file.properties", b"a=b\n", TEXT, 400, "no schema line"),
        ("external.shp", b"file:///etc/passwd", TEXT, 400, "outside the data directory"),
        ("external.shp", b"data/none/x.shp", TEXT, 400, "does not exist"),
        ("url.shp", b"http://example.com/x.zip", TEXT, 400, "URL checks"),
        ("bogus.shp", b"x", TEXT, 400, "Unrecognized file upload method: bogus"),
    ],
)
def test_refusals_store_nothing(client, emu: Emulator, path, body, headers, status, words) -> None:
    emu.host_read = "outside" not in words  # host paths outside: with host reading off
    before = (dict(emu.state.catalog.stores), set(emu.state.datadir.files))
    r = client.put(f"{WS}/sf/datastores/bad/{path}", content=body, headers=headers)
    assert r.status_code == status, r.text
    assert words in r.text
    assert (dict(emu.state.catalog.stores), set(emu.state.datadir.files)) == before


def test_truncated_shapefile_is_refused(client, emu: Emulator) -> None:
    files = shapefile_files()
    files["lanes.shp"] = files["lanes.shp"][:-10]

    r = client.put(f"{WS}/sf/datastores/bad/file.shp", content=make_zip(files), headers=ZIP)
    assert r.status_code == 400
    assert "lanes.shp is truncated" in r.text
    assert emu.state.catalog.data_store("sf", "bad") is None


def test_delete_store_drops_features(client, emu: Emulator) -> None:
    client.put(f"{WS}/sf/datastores/lanes/file.shp", content=shapefile_zip(), headers=ZIP)
    assert client.delete(f"{WS}/sf/datastores/lanes?recurse=true").status_code == 200
    assert emu.state.features.get("sf", "lanes", "lanes") is None


def test_renaming_goes_past_nine_as_the_newest_geoserver(client) -> None:
    """DataStoreFileUploadTest.testRenamingFeatureTypeAlreadyInCatalog: bt, bt1…bt9 taken."""
    names = ["bt", *(f"bt{i}" for i in range(1, 10))]
    body = make_zip({k: v for n in names for k, v in shapefile_files(n).items()})
    r = client.put(f"{WS}/sf/datastores/10bt/file.shp?configure=all", content=body, headers=ZIP)
    assert r.status_code == 201
    r = client.put(f"{WS}/sf/datastores/bt/file.shp?configure=all", content=shapefile_zip("bt"),
                   headers=ZIP)  # fmt: skip
    assert r.status_code == 201
    listed = client.get(f"{WS}/sf/datastores/bt/featuretypes.json").json()
    assert [f["name"] for f in listed["featureTypes"]["featureType"]] == ["bt10"]


def test_features_follow_store_and_workspace_renames(client, emu: Emulator) -> None:
    assert client.post("/rest/workspaces", json={"workspace": {"name": "w"}}).status_code == 201
    client.put(f"{WS}/w/datastores/lanes/file.shp", content=shapefile_zip(), headers=ZIP)
    r = client.put(f"{WS}/w/datastores/lanes", json={"dataStore": {"name": "roads2"}})
    assert r.status_code == 200
    assert emu.state.features.get("w", "lanes", "lanes") is None
    assert emu.state.features.get("w", "roads2", "lanes") is not None
    r = client.put(f"{WS}/w", json={"workspace": {"name": "w2"}})
    assert r.status_code == 200
    assert emu.state.features.get("w2", "roads2", "lanes") is not None
    assert emu.state.features.of_store("w", "roads2") == []


def test_feature_type_posted_by_name_is_filled_from_the_data(client) -> None:
    client.put(
        f"{WS}/sf/datastores/lanes/file.shp?configure=none", content=shapefile_zip(), headers=ZIP
    )
    body = {"featureType": {"name": "mylanes", "nativeName": "lanes", "title": "Mine"}}
    r = client.post(f"{WS}/sf/datastores/lanes/featuretypes", json=body)
    assert r.status_code == 201, r.text
    ft = client.get(f"{WS}/sf/datastores/lanes/featuretypes/mylanes.json").json()["featureType"]
    assert ft["title"] == "Mine"
    assert ft["nativeBoundingBox"]["minx"] == 1.0
    assert [a["name"] for a in ft["attributes"]["attribute"]][0] == "the_geom"


def test_list_available_with_geom_leaves_out_types_without_geometry(client) -> None:
    """FeatureTypeController's ``list=available_with_geom``: only the types the store offers
    that have a geometry attribute."""
    body = make_zip(
        {
            "places.properties": b"_=the_geom:Point:srid=4326,NAME:String\n"
            b"places.1=POINT (1 2)|a\n",
            "codes.properties": b"_=CODE:String,LABEL:String\ncodes.1=x|y\n",
        }
    )
    r = client.put(f"{WS}/sf/datastores/mixed/file.properties?configure=none", content=body,
                   headers=ZIP)  # fmt: skip
    assert r.status_code == 201, r.text
    base = f"{WS}/sf/datastores/mixed/featuretypes"
    assert client.get(f"{base}.json?list=available").json() == {
        "list": {"string": ["codes", "places"]}
    }
    assert client.get(f"{base}.json?list=available_with_geom").json() == {
        "list": {"string": ["places"]}
    }
    root = etree.fromstring(client.get(f"{base}.xml?list=AVAILABLE_WITH_GEOM").content)
    assert [e.text for e in root] == ["places"]


def test_other_list_values_list_the_configured_types(client) -> None:
    """Any other ``list`` value is GeoServer's default, the configured types."""
    r = client.get(f"{WS}/topp/datastores/states_shapefile/featuretypes.json?list=bogus")
    assert r.json() == client.get(f"{WS}/topp/datastores/states_shapefile/featuretypes.json").json()


def test_available_without_a_store_names_it_null(client) -> None:
    r = client.get(f"{WS}/sf/featuretypes.json?list=available")
    assert r.status_code == 404
    assert r.text == "No such data store: sf,null"
