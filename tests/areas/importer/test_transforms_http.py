"""Transforms over HTTP (``…/tasks/<id>/transforms``) and their effect on the features an
indirect import copies; a direct import copies nothing, so there they change nothing."""

from __future__ import annotations

import io

import pytest
import shapefile

from .files import (
    BASE,
    JSON,
    WGS84_PRJ,
    client,
    digest,
    emulator,
    lanes_import,
    make_zip,
    new_import,
    upload_zip,
)

HREF = BASE + "/rest/imports"


@pytest.fixture
def emu():
    return emulator()


@pytest.fixture
def c(emu):
    return client(emu)


def events_zip() -> bytes:
    """A point shapefile ``events`` with a text date, a year and a latitude/longitude."""
    shp, shx, dbf = io.BytesIO(), io.BytesIO(), io.BytesIO()
    w = shapefile.Writer(shp=shp, shx=shx, dbf=dbf, shapeType=1)
    w.field("WHEN", "C", 20)
    w.field("YEAR", "N", 4, 0)
    w.field("LAT", "N", 10, 4)
    w.field("LON", "N", 10, 4)
    w.field("CODE", "C", 5)
    for when, year, lat, lon, code in (("2020-05-17", 1999, 45.5, 9.25, "12"),
                                        ("17/06/2021", 2004, 46.0, 10.0, "x")):  # fmt: skip
        w.point(lon, lat)
        w.record(when, year, lat, lon, code)
    w.close()
    return make_zip({"events.shp": shp.getvalue(), "events.shx": shx.getvalue(),
                     "events.dbf": dbf.getvalue(), "events.prj": WGS84_PRJ.encode()})  # fmt: skip


def indirect(c) -> int:
    i = new_import(c, {"import": {"targetStore": {"dataStore": {"name": "taz_shapes"}}}})
    assert upload_zip(c, i, "events.zip", events_zip()).status_code == 201
    return i


def add(c, i: int, transform: dict) -> None:
    r = c.post(f"/rest/imports/{i}/tasks/0/transforms", json=transform)
    assert r.status_code == 201, r.text


def features(c, layer: str) -> list[dict]:
    r = c.get("/wfs", params={"service": "WFS", "version": "2.0.0", "request": "GetFeature",
                              "typeNames": layer, "outputFormat": "application/json"})  # fmt: skip
    return list(r.json()["features"])


def test_create_list_read_update_delete(c):
    i = lanes_import(c)
    base = f"/rest/imports/{i}/tasks/0/transforms"
    r = c.post(base, json={"type": "DateFormatTransform", "field": "NAME", "format": "yyyy"})
    assert (r.status_code, r.headers["location"], r.text) == (201, f"{BASE}{base}/0", "")
    add(c, i, {"type": "ReprojectTransform", "target": "EPSG:3857"})
    chain = c.get(base).json()
    assert chain == {"transformChain": {"type": "vector", "transforms": [
        {"type": "DateFormatTransform", "href": f"{BASE}{base}/0", "field": "NAME",
         "format": "yyyy"},
        {"type": "ReprojectTransform", "href": f"{BASE}{base}/1", "source": None,
         "target": "EPSG:3857"},
    ]}}  # fmt: skip
    r = c.put(f"{base}/0", json={"field": "LANES"})
    assert r.status_code == 200 and r.json()["field"] == "LANES" and r.json()["format"] == "yyyy"
    assert c.get(f"{base}/1", params={"expand": "0"}).json() == {
        "type": "ReprojectTransform", "href": f"{BASE}{base}/1"
    }  # fmt: skip
    assert (c.delete(f"{base}/0").status_code, c.delete(f"{base}/0").status_code) == (200, 200)
    assert c.get(base).json()["transformChain"]["transforms"] == []
    for bad in ("0", "x", "-1"):
        r = c.get(f"{base}/{bad}")
        assert (r.status_code, r.text) == (404, "No such transform")


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({"type": "AttributeRenameTransform", "field": "a"},
         "Invalid transform type 'AttributeRenameTransform'"),
        ({"type": "DateFormatTransform"}, 'JSONObject["field"] not found.'),
        ({"type": "DateFormatTransform", "field": "a", "format": "yyyy-qq"},
         "Invalid date parsing format"),
        ({"type": "AttributeRemapTransform", "field": "a", "target": "java.lang.Nope"},
         "unable to locate target class java.lang.Nope"),
        ({"type": "ReprojectTransform", "target": "EPSG:0"}, "Failing parsing srs: EPSG:0"),
        ({"field": "a"}, 'JSONObject["type"] not found.'),
    ],
)  # fmt: skip
def test_bad_transforms_are_400_and_change_nothing(emu, c, body, message):
    i = lanes_import(c)
    before = digest(emu)
    r = c.post(f"/rest/imports/{i}/tasks/0/transforms", json=body)
    assert (r.status_code, r.text) == (400, message)
    assert digest(emu) == before


def test_transform_bodies_must_be_json(c):
    i = lanes_import(c)
    r = c.post(f"/rest/imports/{i}/tasks/0/transforms", content=b"<x/>",
               headers={"Content-Type": "text/xml"})  # fmt: skip
    assert r.status_code == 415
    r = c.post(f"/rest/imports/{i}/tasks/0/transforms", content=b"{", headers=JSON)
    assert r.status_code == 400


def test_stored_only_transforms_are_read_and_written(c):
    i = lanes_import(c)
    for body in (
        {"type": "CreateIndexTransform", "field": "NAME"},
        {"type": "GdalAddoTransform", "options": ["-r", "average"], "levels": [2, 4]},
        {"type": "AttributeComputeTransform", "field": "n", "fieldType": "java.lang.Integer",
         "cql": "LANES * 2"},
    ):  # fmt: skip
        add(c, i, body)
    listed = c.get(f"/rest/imports/{i}/tasks/0/transforms").json()["transformChain"]["transforms"]
    assert listed[1]["levels"] == [2, 4] and listed[1]["options"] == ["-r", "average"]
    assert listed[2]["cql"] == "LANES * 2"


def test_date_year_remap_and_point_transforms_change_the_copied_features(c):
    i = indirect(c)
    add(c, i, {"type": "DateFormatTransform", "field": "WHEN", "format": "dd/MM/yyyy"})
    add(c, i, {"type": "IntegerFieldToDateTransform", "field": "YEAR"})
    add(c, i, {"type": "AttributeRemapTransform", "field": "CODE", "target": "java.lang.Integer"})
    add(c, i, {"type": "AttributesToPointGeometryTransform", "latField": "LAT",
               "lngField": "LON"})  # fmt: skip
    assert c.post(f"/rest/imports/{i}").status_code == 204
    t = c.get(f"/rest/imports/{i}/tasks/0").json()["task"]
    assert t["state"] == "COMPLETE", t
    ft = c.get("/rest/workspaces/topp/featuretypes/events.json").json()["featureType"]
    bindings = {a["name"]: a["binding"] for a in ft["attributes"]["attribute"]}
    assert bindings["WHEN"] == bindings["YEAR"] == "java.util.Date"
    assert bindings["CODE"] == "java.lang.Integer"
    assert bindings["location"] == "org.locationtech.jts.geom.Point"
    assert "LAT" not in bindings and "LON" not in bindings
    time = ft["metadata"]["entry"]
    assert time["@key"] == "time" and time["dimensionInfo"]["attribute"] == "WHEN"
    got = features(c, "topp:events")
    props = [f["properties"] for f in got]
    assert [p["WHEN"] for p in props] == ["2020-05-17T00:00:00.000Z", "2021-06-17T00:00:00.000Z"]
    assert [p["YEAR"] for p in props] == ["1999-01-01T00:00:00.000Z", "2004-01-01T00:00:00.000Z"]
    assert [p["CODE"] for p in props] == [12, None]
    assert got[0]["geometry"]["coordinates"] == [9.25, 45.5]


def test_an_unparseable_date_fails_the_task_with_geoservers_message(emu, c):
    i = indirect(c)
    add(c, i, {"type": "DateFormatTransform", "field": "WHEN", "format": "yyyy-MM-dd"})
    c.put(f"/rest/imports/{i}/tasks/0/transforms/0", json={"format": "yyyy"})
    r = c.post(f"/rest/imports/{i}")
    assert r.status_code == 204
    t = c.get(f"/rest/imports/{i}/tasks/0").json()["task"]
    assert (t["state"], t["errorMessage"]) == ("ERROR", "Invalid date '17/06/2021'")
    assert emu.state.features.get("topp", "taz_shapes", "events") is None


def test_reproject_moves_features_and_layer(c):
    i = indirect(c)
    add(c, i, {"type": "ReprojectTransform", "target": "EPSG:3857"})
    c.post(f"/rest/imports/{i}")
    ft = c.get("/rest/workspaces/topp/featuretypes/events.json").json()["featureType"]
    assert ft["srs"] == "EPSG:3857"
    assert ft["nativeBoundingBox"]["minx"] == pytest.approx(1029705.29, abs=0.1)
    assert ft["latLonBoundingBox"]["minx"] == pytest.approx(9.25)
    got = features(c, "topp:events")
    assert got[0]["geometry"]["coordinates"][0] == pytest.approx(1029705.29, abs=0.1)


def test_transforms_of_a_direct_import_change_nothing(c):
    i = new_import(c, {"import": {"targetWorkspace": {"workspace": {"name": "topp"}}}})
    upload_zip(c, i, "events.zip", events_zip())
    add(c, i, {"type": "AttributeRemapTransform", "field": "CODE", "target": "java.lang.Integer"})
    c.post(f"/rest/imports/{i}")
    ft = c.get("/rest/workspaces/topp/featuretypes/events.json").json()["featureType"]
    bindings = {a["name"]: a["binding"] for a in ft["attributes"]["attribute"]}
    assert bindings["CODE"] == "java.lang.String"


def test_default_transforms_of_an_import_go_to_its_tasks(c):
    body = {"import": {"targetWorkspace": {"workspace": {"name": "topp"}},
                       "transforms": [{"type": "CreateIndexTransform", "field": "NAME"},
                                      {"type": "GdalWarpTransform", "options": []}]}}  # fmt: skip
    i = new_import(c, body)
    doc = c.get(f"/rest/imports/{i}").json()["import"]
    assert [t["href"] for t in doc["transforms"]] == [
        f"{HREF}/{i}/transforms/0", f"{HREF}/{i}/transforms/1"
    ]  # fmt: skip
    upload_zip(c, i, "events.zip", events_zip())
    chain = c.get(f"/rest/imports/{i}/tasks/0/transforms").json()["transformChain"]
    assert [t["type"] for t in chain["transforms"]] == ["CreateIndexTransform"]  # vector only


def test_a_date_without_pattern_reads_the_usual_forms(c):
    i = indirect(c)
    add(c, i, {"type": "DateFormatTransform", "field": "YEAR"})
    c.post(f"/rest/imports/{i}")
    props = [f["properties"] for f in features(c, "topp:events")]
    assert [p["YEAR"] for p in props] == ["1999-01-01T00:00:00.000Z", "2004-01-01T00:00:00.000Z"]
