"""``list=available`` and ``available_with_geom`` from the database, and bounds that follow
the rows (``recalculate``)."""

from __future__ import annotations

import pytest

from .conftest import STORE


@pytest.fixture
def tables(pg):
    pg.execute("CREATE TABLE b_roads (id serial PRIMARY KEY, geom geometry(LineString, 4326))")
    pg.execute("CREATE TABLE a_codes (id serial PRIMARY KEY, code text)")
    pg.execute("CREATE VIEW z_view AS SELECT id, geom FROM b_roads")
    return pg


def test_list_available_names_the_unpublished_tables_and_views(client, tables):
    r = client.get(f"{STORE}/featuretypes.json", params={"list": "available"})
    assert r.status_code == 200
    assert r.json() == {"list": {"string": ["a_codes", "b_roads", "z_view"]}}
    client.post(f"{STORE}/featuretypes", json={"featureType": {"name": "b_roads"}})
    r = client.get(f"{STORE}/featuretypes.json", params={"list": "available"})
    assert r.json() == {"list": {"string": ["a_codes", "z_view"]}}
    r = client.get(f"{STORE}/featuretypes.json", params={"list": "all"})
    assert r.json() == {"list": {"string": ["a_codes", "b_roads", "z_view"]}}


def test_available_with_geom_leaves_out_tables_without_a_geometry(client, tables):
    r = client.get(f"{STORE}/featuretypes.xml", params={"list": "available_with_geom"})
    assert r.status_code == 200
    assert "<featureTypeName>b_roads</featureTypeName>" in r.text
    assert "<featureTypeName>z_view</featureTypeName>" in r.text
    assert "a_codes" not in r.text
    assert "spatial_ref_sys" not in r.text and "geometry_columns" not in r.text


def test_the_workspace_level_list_names_no_store(client, tables):
    r = client.get("/rest/workspaces/ws/featuretypes.json", params={"list": "available"})
    assert r.status_code == 404
    assert r.text == "No such data store: ws,null"


def test_an_unknown_store_is_404(client, tables):
    r = client.get("/rest/workspaces/ws/datastores/nope/featuretypes.json?list=available")
    assert r.status_code == 404
    assert r.text == "No such data store: ws,nope"


def test_rows_inserted_later_move_the_bounds_on_recalculate(client, pg):
    pg.execute("CREATE TABLE pts (id serial PRIMARY KEY, geom geometry(Point, 3857))")
    pg.execute("INSERT INTO pts (geom) VALUES ('SRID=3857;POINT(0 0)')")
    client.post(f"{STORE}/featuretypes", json={"featureType": {"name": "pts"}})
    pg.execute("INSERT INTO pts (geom) VALUES ('SRID=3857;POINT(1000000 2000000)')")
    before = client.get(f"{STORE}/featuretypes/pts.json").json()["featureType"]
    assert before["nativeBoundingBox"]["maxx"] == 0
    r = client.put(
        f"{STORE}/featuretypes/pts",
        params={"recalculate": "nativebbox,latlonbbox"},
        json={"featureType": {"name": "pts"}},
    )
    assert r.status_code == 200, r.text
    after = client.get(f"{STORE}/featuretypes/pts.json").json()["featureType"]
    native = after["nativeBoundingBox"]
    assert (native["minx"], native["maxx"], native["miny"], native["maxy"]) == (
        0,
        1000000,
        0,
        2000000,
    )
    latlon = after["latLonBoundingBox"]
    assert latlon["minx"] == 0 and round(latlon["maxx"], 4) == 8.9832
    assert round(latlon["maxy"], 4) == 17.6789


def test_recalculate_latlonbbox_alone_keeps_the_native_bounds(client, pg):
    pg.execute("CREATE TABLE q (id serial PRIMARY KEY, geom geometry(Point, 4326))")
    pg.execute("INSERT INTO q (geom) VALUES ('SRID=4326;POINT(1 1)'), ('SRID=4326;POINT(2 2)')")
    client.post(f"{STORE}/featuretypes", json={"featureType": {"name": "q"}})
    pg.execute("INSERT INTO q (geom) VALUES ('SRID=4326;POINT(9 9)')")
    client.put(
        f"{STORE}/featuretypes/q",
        params={"recalculate": "latlonbbox"},
        json={"featureType": {"name": "q"}},
    )
    ft = client.get(f"{STORE}/featuretypes/q.json").json()["featureType"]
    assert ft["nativeBoundingBox"]["maxx"] == 2
    assert ft["latLonBoundingBox"]["maxx"] == 2
