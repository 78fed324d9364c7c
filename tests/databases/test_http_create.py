"""Creating a feature type with attributes on a PostGIS store creates its table, as
GeoTools' ``createSchema`` does; publishing an existing table reads it."""

from __future__ import annotations

from typing import Any

import psycopg

from .conftest import STORE

FT = {
    "featureType": {
        "name": "roads",
        "srs": "EPSG:4326",
        "attributes": {
            "attribute": [
                {"name": "geom", "binding": "org.locationtech.jts.geom.LineString"},
                {"name": "name", "binding": "java.lang.String", "length": 50},
                {"name": "lanes", "binding": "java.lang.Integer", "nillable": False},
                {"name": "opened", "binding": "java.sql.Date"},
            ]
        },
    }
}


def columns(pg: psycopg.Connection[Any], table: str) -> list[tuple[str, str, bool]]:
    return pg.execute(
        "SELECT a.attname, format_type(a.atttypid, a.atttypmod), a.attnotnull"
        " FROM pg_attribute a WHERE a.attrelid = %s::regclass AND a.attnum > 0"
        " AND NOT a.attisdropped ORDER BY a.attnum",
        (f'public."{table}"',),
    ).fetchall()


def test_a_new_feature_type_creates_its_table(client, pg):
    r = client.post(f"{STORE}/featuretypes", json=FT)
    assert r.status_code == 201, r.text
    assert columns(pg, "roads") == [
        ("fid", "integer", True),
        ("geom", "geometry(LineString,4326)", False),
        ("name", "character varying(50)", False),
        ("lanes", "integer", True),
        ("opened", "date", False),
    ]
    pk = pg.execute(
        "SELECT a.attname FROM pg_index i JOIN pg_attribute a ON a.attrelid = i.indrelid"
        " AND a.attnum = ANY(i.indkey) WHERE i.indrelid = 'public.roads'::regclass"
        " AND i.indisprimary"
    ).fetchall()
    assert pk == [("fid",)]
    index = pg.execute(
        "SELECT indexdef FROM pg_indexes WHERE tablename = 'roads' AND indexname LIKE 'spatial%'"
    ).fetchall()
    assert index == [("CREATE INDEX spatial_roads_geom ON public.roads USING gist (geom)",)]
    assert pg.execute(
        "SELECT type, srid FROM geometry_columns WHERE f_table_name = 'roads'"
    ).fetchall() == [("LINESTRING", 4326)]


def test_the_created_type_reports_the_tables_attributes(client, pg):
    client.post(f"{STORE}/featuretypes", json=FT)
    ft = client.get(f"{STORE}/featuretypes/roads.json").json()["featureType"]
    attrs = ft["attributes"]["attribute"]
    assert [(a["name"], a["binding"]) for a in attrs] == [
        ("geom", "org.locationtech.jts.geom.LineString"),
        ("name", "java.lang.String"),
        ("lanes", "java.lang.Integer"),
        ("opened", "java.sql.Date"),
    ]
    assert ft["srs"] == "EPSG:4326"
    bbox = ft["nativeBoundingBox"]
    assert (bbox["minx"], bbox["maxx"], bbox["miny"], bbox["maxy"]) == (0, -1, 0, -1)
