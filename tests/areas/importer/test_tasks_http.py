"""Tasks over HTTP: made by uploads (a file PUT, a multipart form, a URL form), read,
changed and deleted; their data, target, layer and progress."""

from __future__ import annotations

import io
import json
import zipfile

import pytest

from .files import (
    BASE,
    ZIP,
    client,
    digest,
    emulator,
    geopackage,
    geotiff,
    lanes_import,
    make_zip,
    new_import,
    png,
    shapefile_files,
    shapefile_zip,
    upload_zip,
)

HREF = BASE + "/rest/imports"


@pytest.fixture
def emu():
    return emulator()


@pytest.fixture
def c(emu):
    return client(emu)


def multipart_body(files: dict[str, bytes], boundary: str = "XyZ") -> tuple[bytes, dict[str, str]]:
    parts = []
    for name, data in files.items():
        parts.append(
            f'--{boundary}\r\nContent-Disposition: form-data; name="filedata"; '
            f'filename="{name}"\r\nContent-Type: application/octet-stream\r\n\r\n'.encode()
            + data
            + b"\r\n"
        )
    body = b"".join(parts) + f"--{boundary}--\r\n".encode()
    return body, {"Content-Type": f"multipart/form-data; boundary={boundary}"}


def test_a_zipped_shapefile_put_makes_one_ready_task(c):
    i = new_import(c, {"import": {"targetWorkspace": {"workspace": {"name": "topp"}}}})
    r = upload_zip(c, i, "lanes.zip", shapefile_zip("lanes"))
    assert r.status_code == 201
    assert r.headers["location"] == f"{HREF}/{i}/tasks/0"
    task = f"{HREF}/{i}/tasks/0"
    assert r.json() == {
        "task": {
            "id": 0,
            "href": task,
            "state": "READY",
            "updateMode": "CREATE",
            "data": {"type": "file", "format": "Shapefile", "file": "lanes.shp"},
            "target": {"href": task + "/target",
                       "dataStore": {"name": "lanes", "type": "Shapefile"}},
            "progress": task + "/progress",
            "layer": {"name": "lanes", "href": task + "/layer"},
            "transformChain": {"type": "vector", "transforms": []},
        }
    }  # fmt: skip


def test_expanded_task_data_target_and_layer(c):
    i = lanes_import(c)
    t = c.get(f"/rest/imports/{i}/tasks/0", params={"expand": "3"}).json()["task"]
    assert t["data"] == {
        "type": "file", "format": "Shapefile", "location": "/opt/geoserver_data/uploads/tmp0",
        "file": "lanes.shp", "href": f"{HREF}/{i}/tasks/0/data/files/lanes.shp",
        "prj": "lanes.prj", "other": ["lanes.dbf", "lanes.shx"],
    }  # fmt: skip
    store = t["target"]["dataStore"]
    assert store["connectionParameters"]["entry"] == {
        "@key": "url", "$": "file:/opt/geoserver_data/uploads/tmp0/lanes.shp"
    }  # fmt: skip
    layer = t["layer"]
    assert (layer["srs"], layer["originalName"], layer["nativeName"]) == (
        "EPSG:4326", "lanes", "lanes"
    )  # fmt: skip
    assert {k: layer["bbox"][k] for k in ("minx", "miny", "maxx", "maxy")} == {
        "minx": 1, "miny": 2, "maxx": 3, "maxy": 5
    }  # fmt: skip
    assert layer["bbox"]["crs"].startswith('GEOGCS["WGS 84"')
    assert [a["binding"] for a in layer["attributes"]] == [
        "org.locationtech.jts.geom.Point", "java.lang.String", "java.lang.Integer",
        "java.lang.Double", "java.util.Date",
    ]  # fmt: skip
    assert layer["style"] == {
        "name": "topp_lanes", "format": "sld", "languageVersion": {"version": "1.0.0"},
        "filename": "topp_lanes.sld", "href": f"{HREF}/{i}/tasks/0/layer/style",
    }  # fmt: skip


def test_a_multipart_form_of_files_makes_a_task_per_shapefile_in_one_new_store(c):
    i = new_import(c)
    files = {**shapefile_files("a"), **shapefile_files("b", kind="line")}
    body, headers = multipart_body(files)
    r = c.post(f"/rest/imports/{i}/tasks", content=body, headers=headers)
    assert r.status_code == 201 and "location" not in r.headers
    tasks = r.json()["tasks"]
    assert [t["id"] for t in tasks] == [0, 1] and set(tasks[0]) == {"id", "href", "state"}
    full = c.get(f"/rest/imports/{i}/tasks/1", params={"expand": "2"}).json()["task"]
    store = full["target"]["dataStore"]
    assert (store["name"], store["workspace"]["name"]) == ("tmp0", "ne")  # the default workspace
    assert store["connectionParameters"]["entry"]["$"] == "file:/opt/geoserver_data/uploads/tmp0/"
    assert full["layer"]["name"] == "b"


def test_a_url_form_names_a_folder_of_this_machine(c, tmp_path):
    for name, data in shapefile_files("roads").items():
        (tmp_path / name).write_bytes(data)
    (tmp_path / "dem.tif").write_bytes(geotiff())
    i = new_import(c)
    r = c.post(
        f"/rest/imports/{i}/tasks",
        content=f"url=file://{tmp_path}".encode(),
        headers={"Content-Type": "application/x-www-form-urlencoded"},
    )
    assert r.status_code == 201
    tasks = c.get(f"/rest/imports/{i}/tasks", params={"expand": "2"}).json()["tasks"]
    by_format = {t["data"]["format"]: t for t in tasks}
    assert set(by_format) == {"Shapefile", "GeoTIFF"}
    assert by_format["GeoTIFF"]["target"]["coverageStore"]["url"] == f"file:{tmp_path}/dem.tif"
    assert by_format["Shapefile"]["data"]["location"] == str(tmp_path)


@pytest.mark.parametrize(
    ("content", "status", "text"),
    [
        (b"url=http://example.com/x.zip", 400, "Invalid url in request"),
        (b"nourl=1", 400, "Invalid request"),
    ],
)
def test_bad_url_forms(emu, c, content, status, text):
    i = new_import(c)
    before = digest(emu)
    headers = {"Content-Type": "application/x-www-form-urlencoded"}
    r = c.post(f"/rest/imports/{i}/tasks", content=content, headers=headers)
    assert (r.status_code, r.text) == (status, text)
    assert digest(emu) == before


def test_other_post_bodies_are_415(c):
    i = new_import(c)
    r = c.post(
        f"/rest/imports/{i}/tasks",
        content=shapefile_zip(),
        headers={**ZIP, "Content-Disposition": "attachment; filename=lanes.zip"},
    )
    assert r.status_code == 415


def test_a_malformed_multipart_form_is_geoservers_500(emu, c):
    i = new_import(c)
    r = c.post(f"/rest/imports/{i}/tasks", content=b"junk",
               headers={"Content-Type": "multipart/form-data"})  # fmt: skip
    assert (r.status_code, r.text) == (500, "File upload failed")
    assert emu.internal_errors == []


def test_a_geopackage_gives_a_task_per_table(c):
    i = new_import(c, {"import": {"targetWorkspace": {"workspace": {"name": "sf"}}}})
    data = geopackage({"cities": [("Rome", 12.5, 41.9)], "towns": [("Ulm", 10.0, 48.4)]})
    r = c.put(f"/rest/imports/{i}/tasks/places.gpkg", content=data,
              headers={"Content-Type": "application/octet-stream"})  # fmt: skip
    assert r.status_code == 201
    tasks = c.get(f"/rest/imports/{i}/tasks", params={"expand": "2"}).json()["tasks"]
    assert [t["layer"]["name"] for t in tasks] == ["cities", "towns"]
    store = tasks[0]["target"]["dataStore"]
    assert (store["name"], store["type"]) == ("places", "GeoPackage")
    entries = {e["@key"]: e["$"] for e in store["connectionParameters"]["entry"]}
    assert entries == {"database": "/opt/geoserver_data/uploads/tmp0/places.gpkg",
                       "dbtype": "geopkg"}  # fmt: skip


def test_a_geotiff_and_a_world_image(c):
    i = new_import(c, {"import": {"targetWorkspace": {"workspace": {"name": "sf"}}}})
    r = c.put(f"/rest/imports/{i}/tasks/dem.tif", content=geotiff(),
              headers={"Content-Type": "image/tiff"})  # fmt: skip
    t = r.json()["task"]
    assert (t["state"], t["data"]["format"], t["transformChain"]["type"]) == (
        "READY", "GeoTIFF", "raster"
    )  # fmt: skip
    assert t["target"]["coverageStore"] == {"name": "dem", "type": "GeoTIFF"}
    world = make_zip({"usa.png": png(), "usa.pgw": b"0.5\n0\n0\n-0.5\n10\n50\n"})
    r = c.put(f"/rest/imports/{i}/tasks/usa.zip", content=world, headers=ZIP)
    assert r.json()["task"]["data"]["format"] == "WorldImage"


def test_files_of_unknown_format(c):
    i = new_import(c)
    r = upload_zip(c, i, "docs.zip", make_zip({"readme.txt": b"hi", "notes.md": b"x"}))
    tasks = r.json()["tasks"]
    assert [t["state"] for t in tasks] == ["NO_FORMAT", "NO_FORMAT"]
    one = c.get(f"/rest/imports/{i}/tasks/0").json()["task"]
    assert one["data"] == {"type": "file", "format": None, "file": "notes.md"}
    assert "target" not in one and "layer" not in one
    mixed = make_zip({**shapefile_files("lanes"), "readme.txt": b"hi"})
    r = upload_zip(c, new_import(c), "mixed.zip", mixed)
    assert r.json()["task"]["data"]["format"] == "Shapefile"  # the unknown file is left out


def test_an_upload_that_adds_no_task_is_200_and_empty(c):
    i = new_import(c)
    body, headers = multipart_body({})
    r = c.post(f"/rest/imports/{i}/tasks", content=body, headers=headers)
    assert (r.status_code, r.text) == (200, "")


def test_a_shapefile_without_prj_is_no_crs_until_its_srs_is_set(c):
    i = lanes_import(c, prj=None)
    task = f"/rest/imports/{i}/tasks/0"
    t = c.get(task, params={"expand": "2"}).json()["task"]
    assert t["state"] == "NO_CRS" and "srs" not in t["layer"]
    r = c.put(task, json={"layer": {"srs": "EPSG:4326"}})
    assert (r.status_code, r.text) == (204, "")
    t = c.get(task, params={"expand": "2"}).json()["task"]
    assert t["state"] == "READY" and t["layer"]["srs"] == "EPSG:4326"
    c.post(f"/rest/imports/{i}")
    ft = c.get("/rest/workspaces/topp/featuretypes/lanes.json").json()["featureType"]
    assert (ft["srs"], ft["projectionPolicy"]) == ("EPSG:4326", "FORCE_DECLARED")
    assert ft["latLonBoundingBox"]["minx"] == 1


def test_an_invalid_srs_is_400_with_an_errors_body(emu, c):
    i = lanes_import(c, prj=None)
    before = digest(emu)
    r = c.put(f"/rest/imports/{i}/tasks/0/layer", json={"layer": {"srs": "EPSG:999999"}})
    assert r.status_code == 400
    assert json.loads(r.text) == {"errors": ["Invalid SRS EPSG:999999"]}
    assert digest(emu) == before


def test_task_updates(c):
    i = lanes_import(c)
    task = f"/rest/imports/{i}/tasks/0"
    for body in (
        {"task": {"updateMode": "append"}},
        {"task": {"source": {"charset": "UTF-8"}}},
        {"task": {"transformChain": {"type": "vector", "transforms": [
            {"type": "CreateIndexTransform", "field": "NAME"}]}}},
    ):  # fmt: skip
        assert c.put(task, json=body).status_code == 204
    t = c.get(task, params={"expand": "3"}).json()["task"]
    assert t["updateMode"] == "APPEND"
    assert t["data"]["charset"] == "UTF-8"
    assert t["transformChain"]["transforms"][0]["field"] == "NAME"
    r = c.put(task, json={"task": {"updateMode": "SIDEWAYS"}})
    assert r.status_code == 400
    assert json.loads(r.text) == {
        "errors": ["No enum constant org.geoserver.importer.UpdateMode.SIDEWAYS"]
    }
    r = c.put(task, json={"task": {"transformChain": {"type": "odd", "transforms": []}}})
    assert json.loads(r.text) == {"errors": ["Unable to parse transformChain of type odd"]}


def test_a_json_put_to_a_file_name_uploads_it(c):
    i = new_import(c)
    r = c.put(f"/rest/imports/{i}/tasks/roads.json", json={"type": "FeatureCollection"})
    assert r.status_code == 201 and r.json()["task"]["state"] == "NO_FORMAT"


def test_unknown_tasks_and_deleting_one(c):
    i = lanes_import(c)
    r = c.get(f"/rest/imports/{i}/tasks/7")
    assert (r.status_code, r.text) == (404, f"No such task: 7 for import: {i}")
    assert c.delete(f"/rest/imports/{i}/tasks/0").status_code == 204
    assert c.get(f"/rest/imports/{i}/tasks").json() == {"tasks": []}
    assert c.get("/rest/imports/9/tasks").status_code == 404


def test_target_read_and_change(c):
    i = lanes_import(c)
    target = f"/rest/imports/{i}/tasks/0/target"
    doc = c.get(target).json()
    assert doc["href"] == BASE + target and doc["dataStore"]["name"] == "lanes"
    r = c.put(target, json={"dataStore": {"name": "nope"}})
    assert (r.status_code, r.text) == (400, "Unable to find referenced store")
    r = c.put(target, json={"dataStore": {"name": "taz_shapes", "workspace": {"name": "topp"}}})
    assert r.status_code == 204
    t = c.get(f"/rest/imports/{i}/tasks/0", params={"expand": "1"}).json()["task"]
    assert t["target"]["dataStore"]["name"] == "taz_shapes"
    r = c.put(target, json={"coverageStore": {"name": "sfdem", "workspace": "sf"}})
    assert r.status_code == 204
    t = c.get(f"/rest/imports/{i}/tasks/0", params={"expand": "1"}).json()["task"]
    assert (t["state"], t["errorMessage"]) == (
        "BAD_FORMAT", "Unable to import vector data into raster store"
    )  # fmt: skip


def test_a_disabled_target_is_refused(emu, c):
    emu.state.catalog.stores[("topp", "taz_shapes")].enabled = False
    i = lanes_import(c)
    r = c.put(f"/rest/imports/{i}/tasks/0/target", json={"dataStore": {"name": "taz_shapes"}})
    assert (r.status_code, r.text) == (400, "Proposed target store is not enabled")


def test_a_task_without_target_has_no_target_resource(c):
    i = new_import(c)
    upload_zip(c, i, "docs.zip", make_zip({"readme.txt": b"hi"}))
    r = c.get(f"/rest/imports/{i}/tasks/0/target")
    assert (r.status_code, r.text) == (404, "Task has no target store")
    assert c.get(f"/rest/imports/{i}/tasks/0/layer").status_code == 404


def test_layer_read_and_change(c):
    i = lanes_import(c)
    layer = f"/rest/imports/{i}/tasks/0/layer"
    assert c.get(layer).json()["layer"]["title"] == "lanes"
    r = c.put(layer, json={"layer": {"name": "roads", "title": "Roads", "abstract": "a",
                                     "style": {"name": "line"}}})  # fmt: skip
    assert r.status_code == 202
    doc = r.json()["layer"]
    assert (doc["name"], doc["title"], doc["abstract"], doc["style"]["name"]) == (
        "roads", "Roads", "a", "line"
    )  # fmt: skip
    r = c.put(layer, json={"layer": {"style": {"name": "nope"}}})
    assert (r.status_code, r.text) == (400, "No such style: nope")
    assert (
        c.put(layer, content=b"<layer/>", headers={"Content-Type": "text/xml"}).status_code == 415
    )


def test_progress_of_a_task(c):
    i = lanes_import(c)
    assert c.get(f"/rest/imports/{i}/tasks/0/progress").json() == {"state": "READY"}
    c.put(f"/rest/imports/{i}/tasks/0/target", json={"coverageStore": {"name": "sfdem"}})
    doc = c.get(f"/rest/imports/{i}/tasks/0/progress").json()
    assert doc == {"state": "BAD_FORMAT"}


def test_import_data_and_its_files(c):
    i = new_import(c, {"import": {"data": {"type": "directory"}}})
    upload_zip(c, i, "lanes.zip", shapefile_zip("lanes"))
    doc = c.get(f"/rest/imports/{i}/data").json()
    assert doc == {
        "type": "directory", "format": "Shapefile", "location": "/opt/geoserver_data/uploads/tmp0",
        "href": f"{HREF}/{i}/data",
        "files": [{"file": "lanes.shp", "href": f"{HREF}/{i}/data/files/lanes.shp"}],
    }  # fmt: skip
    assert c.get(f"/rest/imports/{i}/data/files").json()["files"][0]["file"] == "lanes.shp"
    one = c.get(f"/rest/imports/{i}/data/files/lanes.shp").json()
    assert one["prj"] == "lanes.prj"
    r = c.get(f"/rest/imports/{i}/data/files/nope.shp")
    assert (r.status_code, r.text) == (404, "No such file: nope.shp")
    assert c.delete(f"/rest/imports/{i}/data/files/lanes.shp").status_code == 204
    assert c.get(f"/rest/imports/{i}/data").json()["files"] == []
    task_data = c.get(f"/rest/imports/{i}/tasks/0/data").json()
    assert task_data == {"type": "file", "format": "Shapefile", "location":
                         "/opt/geoserver_data/uploads/tmp0", "file": "lanes.shp",
                         "href": f"{HREF}/{i}/tasks/0/data/files/lanes.shp",
                         "prj": "lanes.prj", "other": ["lanes.dbf", "lanes.shx"]}  # fmt: skip


def test_data_of_an_import_without_a_directory(c):
    i = new_import(c)
    assert c.get(f"/rest/imports/{i}/data").status_code == 404
    i = lanes_import(c)
    r = c.get(f"/rest/imports/{i}/data/files")
    assert (r.status_code, r.text) == (400, "Data is not a directory")


def test_uploads_are_files_of_the_data_directory(c):
    lanes_import(c)
    r = c.get("/rest/resource/uploads/tmp0/lanes.shp")
    assert r.status_code == 200 and r.content == shapefile_files("lanes")["lanes.shp"]


def test_a_zip_bomb_is_refused_before_anything_is_written(emu, c):
    i = new_import(c)
    before = digest(emu)
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("big.shp", b"\0" * (8 * 1024 * 1024))
    r = upload_zip(c, i, "bomb.zip", buf.getvalue())
    assert r.status_code == 413 and "compression ratio" in r.text
    assert digest(emu) == before


def test_a_corrupt_shapefile_is_400_or_geoservers_500(emu):
    for profile, status in (("spec", 400), ("geoserver", 500)):
        emu = emulator(profile)
        c = client(emu)
        i = new_import(c)
        before = digest(emu)
        files = shapefile_files("lanes")
        files["lanes.shp"] = files["lanes.shp"][:60]
        r = upload_zip(c, i, "lanes.zip", make_zip(files))
        assert r.status_code == status and r.text.startswith("Error updating context")
        assert digest(emu) == before and emu.internal_errors == []


def test_an_upload_file_name_stays_in_its_folder(emu, c):
    i = new_import(c)
    body, headers = multipart_body({"../../evil.txt": b"x"})
    r = c.post(f"/rest/imports/{i}/tasks", content=body, headers=headers)
    assert r.json()["task"]["data"]["file"] == "evil.txt"
    assert [p for p in emu.state.datadir.files if "evil" in p] == ["uploads/tmp0/evil.txt"]
    before = digest(emu)
    body, headers = multipart_body({"..": b"y"})
    r = c.post(f"/rest/imports/{i}/tasks", content=body, headers=headers)
    assert (r.status_code, r.text) == (400, "Invalid file name: ..")
    assert digest(emu) == before
