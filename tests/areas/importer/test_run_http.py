"""Running imports: what GeoServer publishes (stores, feature types, coverages, layers,
generated styles), the data the OGC services then serve, direct and indirect imports, and
failed tasks."""

from __future__ import annotations

from io import BytesIO

import pytest
from PIL import Image

from .files import (
    client,
    emulator,
    geopackage,
    geotiff,
    lanes_import,
    make_zip,
    new_import,
    shapefile_files,
    shapefile_zip,
    upload_zip,
)


@pytest.fixture
def emu():
    return emulator()


@pytest.fixture
def c(emu):
    return client(emu)


def run(c, i: int) -> dict:
    r = c.post(f"/rest/imports/{i}")
    assert r.status_code == 204, r.text
    return c.get(f"/rest/imports/{i}", params={"expand": "3"}).json()["import"]


def test_a_direct_shapefile_import_publishes_store_type_layer_and_style(c):
    doc = run(c, lanes_import(c, kind="polygon"))
    assert doc["state"] == "COMPLETE"
    store = c.get("/rest/workspaces/topp/datastores/lanes.json").json()["dataStore"]
    params = {e["@key"]: e["$"] for e in store["connectionParameters"]["entry"]}
    assert params == {"namespace": "http://www.openplans.org/topp",
                      "url": "file:/opt/geoserver_data/uploads/tmp0/lanes.shp"}  # fmt: skip
    assert (store["type"], store["enabled"]) == ("Shapefile", True)
    ft = c.get("/rest/workspaces/topp/datastores/lanes/featuretypes/lanes.json").json()
    ft = ft["featureType"]
    assert (ft["nativeName"], ft["srs"], ft["projectionPolicy"]) == ("lanes", "EPSG:4326", "NONE")
    assert ft["nativeBoundingBox"]["maxy"] == 6
    layer = c.get("/rest/layers/topp:lanes.json").json()["layer"]
    assert layer["defaultStyle"]["name"] == "topp_lanes"
    sld = c.get("/rest/styles/topp_lanes.sld").text
    assert "<Title>A red polygon style</Title>" in sld
    assert '<CssParameter name="fill">#ff3300</CssParameter>' in sld
    assert "PolygonSymbolizer" in sld and "<Name>topp_lanes</Name>" in sld


def test_the_imported_features_are_served_by_wfs_and_drawn_by_wms(c):
    run(c, lanes_import(c, kind="polygon"))
    query = {"service": "WFS", "version": "2.0.0", "request": "GetFeature",
             "typeNames": "topp:lanes", "outputFormat": "application/json"}  # fmt: skip
    r = c.get("/wfs", params=query)
    features = r.json()["features"]
    assert [f["properties"]["NAME"] for f in features] == ["Main", "High"]
    r = c.get("/wms", params={"service": "WMS", "version": "1.1.1", "request": "GetMap",
                              "layers": "topp:lanes", "styles": "", "srs": "EPSG:4326",
                              "bbox": "0,1,5,7", "width": 50, "height": 60,
                              "format": "image/png"})  # fmt: skip
    assert r.status_code == 200 and r.headers["content-type"] == "image/png", r.text
    image = Image.open(BytesIO(r.content)).convert("RGB")
    colors = {image.getpixel((x, y)) for x in range(50) for y in range(60)}
    assert (255, 51, 0) in colors  # the generated style's red fill


def test_colours_roll_on_and_names_stay_unique(c):
    run(c, lanes_import(c))
    run(c, lanes_import(c))
    assert c.get("/rest/workspaces/topp/datastores/lanes0.json").status_code == 200
    ft = c.get("/rest/workspaces/topp/datastores/lanes0/featuretypes/lanes0.json").json()
    assert ft["featureType"]["nativeName"] == "lanes"
    layer = c.get("/rest/layers/topp:lanes0.json").json()["layer"]
    assert layer["defaultStyle"]["name"] == "topp_lanes1"
    assert "A orange point style" in c.get("/rest/styles/topp_lanes1.sld").text


def test_names_become_legal_layer_names(c):
    i = new_import(c, {"import": {"targetWorkspace": {"workspace": {"name": "topp"}}}})
    upload_zip(c, i, "x.zip", shapefile_zip("2nd-roads"))
    run(c, i)
    assert c.get("/rest/layers/topp:a_2nd_roads.json").status_code == 200


def test_geopackage_tables_share_one_store(c):
    i = new_import(c, {"import": {"targetWorkspace": {"workspace": {"name": "sf"}}}})
    data = geopackage({"cities": [("Rome", 12.5, 41.9)], "towns": [("Ulm", 10.0, 48.4)]})
    c.put(f"/rest/imports/{i}/tasks/places.gpkg", content=data,
          headers={"Content-Type": "application/octet-stream"})  # fmt: skip
    doc = run(c, i)
    assert [t["state"] for t in doc["tasks"]] == ["COMPLETE", "COMPLETE"]
    names = c.get("/rest/workspaces/sf/datastores/places/featuretypes.json").json()
    assert sorted(f["name"] for f in names["featureTypes"]["featureType"]) == ["cities", "towns"]
    assert c.get("/rest/workspaces/sf/datastores.json").text.count('"places"') == 1


def test_a_geotiff_import_publishes_a_coverage_served_by_wcs(c):
    i = new_import(c, {"import": {"targetWorkspace": {"workspace": {"name": "sf"}}}})
    c.put(f"/rest/imports/{i}/tasks/dem.tif", content=geotiff(),
          headers={"Content-Type": "image/tiff"})  # fmt: skip
    assert run(c, i)["state"] == "COMPLETE"
    store = c.get("/rest/workspaces/sf/coveragestores/dem.json").json()["coverageStore"]
    assert (store["type"], store["url"]) == (
        "GeoTIFF", "file:/opt/geoserver_data/uploads/tmp0/dem.tif"
    )  # fmt: skip
    cov = c.get("/rest/workspaces/sf/coveragestores/dem/coverages/dem.json").json()["coverage"]
    assert cov["nativeFormat"] == "GeoTIFF" and cov["srs"] == "EPSG:4326"
    assert c.get("/rest/layers/sf:dem.json").json()["layer"]["defaultStyle"]["name"] == "sf_dem"
    assert "RasterSymbolizer" in c.get("/rest/styles/sf_dem.sld").text
    r = c.get("/wcs", params={"service": "WCS", "version": "2.0.1",
                              "request": "DescribeCoverage", "coverageId": "sf__dem"})  # fmt: skip
    assert r.status_code == 200 and "sf__dem" in r.text


def test_exec_on_create_imports_data_named_by_path(c, tmp_path):
    for name, data in shapefile_files("roads").items():
        (tmp_path / name).write_bytes(data)
    body = {"import": {"targetWorkspace": {"workspace": {"name": "topp"}},
                       "data": {"type": "file", "file": str(tmp_path / "roads.shp")}}}  # fmt: skip
    r = c.post("/rest/imports", params={"exec": "true"}, json=body)
    assert r.status_code == 201 and r.json()["import"]["state"] == "COMPLETE"
    store = c.get("/rest/workspaces/topp/datastores/roads.json").json()["dataStore"]
    assert store["connectionParameters"]["entry"][1]["$"] == f"file:{tmp_path}/roads.shp"


def test_data_naming_no_file_gives_no_task(c):
    body = {"import": {"data": {"type": "file", "file": None, "charsetEncoding": "UTF-8"}}}
    doc = c.post("/rest/imports", json=body).json()["import"]
    assert doc["state"] == "PENDING" and doc["tasks"] == []
    full = c.get(f"/rest/imports/{doc['id']}", params={"expand": "3"}).json()["import"]
    assert full["data"]["file"] == "null" and full["data"]["format"] is None


def test_an_unreadable_file_named_by_path_is_init_error(c, tmp_path):
    files = shapefile_files("roads")
    files["roads.shp"] = files["roads.shp"][:50]
    for name, data in files.items():
        (tmp_path / name).write_bytes(data)
    body = {"import": {"data": {"type": "directory", "location": str(tmp_path)}}}
    doc = c.post("/rest/imports", json=body).json()["import"]
    assert doc["state"] == "INIT_ERROR" and "roads.shp" in doc["message"]


def test_an_indirect_import_creates_a_table_in_the_target_store(emu, c):
    body = {"import": {"targetStore": {"dataStore": {"name": "taz_shapes"}}}}
    i = new_import(c, body)
    t = upload_zip(c, i, "lanes.zip", shapefile_zip("lanes")).json()["task"]
    assert t["target"]["dataStore"]["name"] == "taz_shapes"
    doc = run(c, i)
    assert doc["tasks"][0]["state"] == "COMPLETE"
    ft = c.get("/rest/workspaces/topp/datastores/taz_shapes/featuretypes/lanes.json").json()
    assert ft["featureType"]["nativeName"] == "lanes"
    assert [f.fid for f in emu.state.features.get("topp", "taz_shapes", "lanes").features] == [
        "lanes.1", "lanes.2"
    ]  # fmt: skip
    i = new_import(c, body)
    upload_zip(c, i, "lanes.zip", shapefile_zip("lanes"))
    run(c, i)
    assert emu.state.features.get("topp", "taz_shapes", "lanes0") is not None
    assert c.get("/rest/layers/topp:lanes0.json").status_code == 200


@pytest.mark.parametrize(("mode", "count"), [("APPEND", 4), ("REPLACE", 2)])
def test_append_and_replace_into_an_existing_table(emu, c, mode, count):
    body = {"import": {"targetStore": {"dataStore": {"name": "taz_shapes"}}}}
    i = new_import(c, body)
    upload_zip(c, i, "lanes.zip", shapefile_zip("lanes"))
    run(c, i)
    i = new_import(c, body)
    upload_zip(c, i, "lanes.zip", shapefile_zip("lanes"))
    c.put(f"/rest/imports/{i}/tasks/0", json={"task": {"updateMode": mode}})
    doc = run(c, i)
    assert doc["tasks"][0]["state"] == "COMPLETE"
    table = emu.state.features.get("topp", "taz_shapes", "lanes")
    assert len(table.features) == count
    assert table.features[-1].fid == f"lanes.{count}"
    assert c.get("/rest/layers/topp:lanes0.json").status_code == 404  # nothing new published


def test_update_mode_update_and_a_missing_table_fail_the_task(emu, c):
    body = {"import": {"targetStore": {"dataStore": {"name": "taz_shapes"}}}}
    i = new_import(c, body)
    upload_zip(c, i, "lanes.zip", shapefile_zip("lanes"))
    c.put(f"/rest/imports/{i}/tasks/0", json={"task": {"updateMode": "UPDATE"}})
    t = run(c, i)["tasks"][0]
    assert (t["state"], t["errorMessage"]) == ("ERROR", "updateMode UPDATE is not supported yet")
    assert c.get(f"/rest/imports/{i}/tasks/0/progress").json() == {
        "state": "ERROR", "message": "updateMode UPDATE is not supported yet"
    }  # fmt: skip
    c.put(f"/rest/imports/{i}/tasks/0", json={"task": {"updateMode": "APPEND"}})
    c.post(f"/rest/imports/{i}")  # an ERROR task is not ready: it does not run again
    assert c.get(f"/rest/imports/{i}").json()["import"]["state"] == "PENDING"
    i = new_import(c, body)
    upload_zip(c, i, "lanes.zip", shapefile_zip("lanes"))
    c.put(f"/rest/imports/{i}/tasks/0", json={"task": {"updateMode": "APPEND"}})
    t = run(c, i)["tasks"][0]
    assert (t["state"], t["errorMessage"]) == ("ERROR", "Schema 'lanes' does not exist.")


def test_raster_data_into_a_plain_coverage_store_fails(c):
    i = new_import(c, {"import": {"targetStore": {"coverageStore": {"name": "sfdem"}}}})
    c.put(f"/rest/imports/{i}/tasks/dem.tif", content=geotiff(),
          headers={"Content-Type": "image/tiff"})  # fmt: skip
    t = run(c, i)["tasks"][0]
    assert t["layer"]["name"] == "sfdem"  # an indirect raster takes the store's name
    assert t["updateMode"] == "APPEND"  # the store has a coverage already
    assert t["state"] == "ERROR" and "structured grid coverage store" in t["errorMessage"]


def test_a_generated_style_name_taken_meanwhile_fails_the_task_and_changes_nothing(emu, c):
    i = lanes_import(c)
    sld = c.get("/rest/styles/point.sld").content
    c.post("/rest/styles?name=topp_lanes", content=sld,
           headers={"Content-Type": "application/vnd.ogc.sld+xml"})  # fmt: skip
    t = run(c, i)["tasks"][0]
    assert (t["state"], t["errorMessage"]) == ("ERROR", "Style named 'topp_lanes' already exists")
    assert c.get("/rest/workspaces/topp/datastores/lanes.json").status_code == 404


def test_a_style_uploaded_beside_the_data_is_the_layers_style(c):
    sld = c.get("/rest/styles/line.sld").content
    i = new_import(c, {"import": {"targetWorkspace": {"workspace": {"name": "topp"}}}})
    upload_zip(c, i, "lanes.zip", make_zip({**shapefile_files("lanes"), "lanes.sld": sld}))
    run(c, i)
    assert c.get("/rest/styles/topp_lanes.sld").content == sld


def test_a_workspace_set_on_the_target_moves_the_new_store(c):
    i = lanes_import(c)
    r = c.put(f"/rest/imports/{i}/tasks/0/target",
              json={"dataStore": {"enabled": True, "workspace": {"name": "sf"}}})  # fmt: skip
    assert r.status_code == 204
    run(c, i)
    assert c.get("/rest/workspaces/sf/datastores/lanes.json").status_code == 200
    assert c.get("/rest/layers/sf:lanes.json").status_code == 200


def test_with_host_reading_off_a_host_path_names_the_data_directory(tmp_path):
    for name, data in shapefile_files("roads").items():
        (tmp_path / name).write_bytes(data)
    emu = emulator(host_read=False)
    c = client(emu)
    body = {"import": {"data": {"type": "file", "file": str(tmp_path / "roads.shp")}}}
    doc = c.post("/rest/imports", json=body).json()["import"]
    assert doc["state"] == "PENDING" and doc["tasks"] == []  # nothing there: no task
    r = c.post(f"/rest/imports/{doc['id']}/tasks", content=f"url=file://{tmp_path}".encode(),
               headers={"Content-Type": "application/x-www-form-urlencoded"})  # fmt: skip
    assert (r.status_code, r.text) == (200, "")


def test_remote_data_comes_from_registered_content_only(emu, c):
    url = "http://data.example.com/lanes.zip"
    r = c.put("/__emulator/remote", params={"url": url}, content=shapefile_zip("lanes"))
    assert r.status_code == 204
    body = {"import": {"targetWorkspace": {"workspace": {"name": "topp"}},
                       "data": {"type": "remote", "location": url, "username": "u"}}}  # fmt: skip
    doc = c.post("/rest/imports", json=body, params={"exec": "true"}).json()["import"]
    assert doc["state"] == "COMPLETE" and doc["data"]["type"] == "directory"
    assert c.get("/rest/layers/topp:lanes.json").status_code == 200
    body["import"]["data"]["location"] = "ftp://elsewhere.example.com/x.zip"
    doc = c.post("/rest/imports", json=body).json()["import"]
    assert doc["state"] == "INIT_ERROR"
    assert doc["message"] == (  # the stock URL checks let no FTP URL through
        "Evaluation Failure: 'ftp://elsewhere.example.com/x.zip' was not accepted by external "
        "URL checks"
    )
    check = {"regexUrlCheck": {"name": "data", "regex": "^https://data[.]example[.]com/.*$",
                               "enabled": True}}  # fmt: skip
    assert c.post("/rest/urlchecks", json=check).status_code == 201
    body["import"]["data"]["location"] = "https://data.example.com/x.zip"
    doc = c.post("/rest/imports", json=body).json()["import"]
    assert doc["message"] == (
        "Error while downloading https://data.example.com/x.zip: the emulated server has no network"
    )
