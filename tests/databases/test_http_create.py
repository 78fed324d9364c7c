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


FT_XML = b"""<featureType><name>parcels</name><nativeCRS>EPSG:3857</nativeCRS>
<attributes>
  <attribute><name>the_geom</name><binding>org.locationtech.jts.geom.MultiPolygon</binding>
    <nillable>false</nillable></attribute>
  <attribute><name>id</name><binding>java.lang.Long</binding></attribute>
  <attribute><name>area</name><binding>java.lang.Double</binding></attribute>
  <attribute><name>owner</name><binding>java.lang.String</binding></attribute>
  <attribute><name>ok</name><binding>java.lang.Boolean</binding></attribute>
  <attribute><name>seen</name><binding>java.sql.Timestamp</binding></attribute>
</attributes></featureType>"""


def test_xml_creation_maps_every_binding_and_picks_a_free_key_name(client, pg):
    r = client.post(
        f"{STORE}/featuretypes", content=FT_XML, headers={"Content-Type": "application/xml"}
    )
    assert r.status_code == 201, r.text
    assert columns(pg, "parcels") == [
        ("fid", "integer", True),
        ("the_geom", "geometry(MultiPolygon,3857)", True),
        ("id", "bigint", False),
        ("area", "double precision", False),
        ("owner", "character varying", False),
        ("ok", "boolean", False),
        ("seen", "timestamp without time zone", False),
    ]
    xml = client.get(f"{STORE}/featuretypes/parcels.xml").text
    assert "<srs>EPSG:3857</srs>" in xml


def test_an_attribute_named_fid_moves_the_key_to_fid_1(client, pg):
    body = {
        "featureType": {
            "name": "t",
            "attributes": {"attribute": [{"name": "FID", "binding": "java.lang.String"}]},
        }
    }
    assert client.post(f"{STORE}/featuretypes", json=body).status_code == 201
    assert [c[0] for c in columns(pg, "t")] == ["fid_1", "FID"]


def test_the_store_schema_is_where_the_table_goes(make_emu, pg):
    from .conftest import client_of, params_of

    pg.execute("CREATE SCHEMA other")
    emu = make_emu(params_of(pg, schema="other"))
    with client_of(emu) as c:
        assert c.post(f"{STORE}/featuretypes", json=FT).status_code == 201
    assert pg.execute(
        "SELECT table_schema FROM information_schema.tables WHERE table_name = 'roads'"
    ).fetchall() == [("other",)]


def test_publishing_an_existing_table_reads_columns_geometry_srid_and_bounds(client, pg):
    pg.execute(
        "CREATE TABLE places (gid serial PRIMARY KEY, label text NOT NULL, pop int8,"
        " geom geometry(Point, 4326))"
    )
    pg.execute(
        "INSERT INTO places (label, pop, geom) VALUES ('a', 1, 'SRID=4326;POINT(1 2)'),"
        " ('b', 2, 'SRID=4326;POINT(3 5)')"
    )
    r = client.post(f"{STORE}/featuretypes", json={"featureType": {"name": "places"}})
    assert r.status_code == 201, r.text
    ft = client.get("/rest/workspaces/ws/featuretypes/places.json").json()["featureType"]
    assert [(a["name"], a["binding"], a["nillable"]) for a in ft["attributes"]["attribute"]] == [
        ("label", "java.lang.String", False),
        ("pop", "java.lang.Long", True),
        ("geom", "org.locationtech.jts.geom.Point", True),
    ]
    assert ft["srs"] == "EPSG:4326"
    box = ft["nativeBoundingBox"]
    assert (box["minx"], box["maxx"], box["miny"], box["maxy"]) == (1, 3, 2, 5)
    latlon = ft["latLonBoundingBox"]
    assert (latlon["minx"], latlon["maxx"], latlon["miny"], latlon["maxy"]) == (1, 3, 2, 5)
    assert columns(pg, "places")[0][0] == "gid"  # the table is left as it was


def test_expose_primary_keys_makes_the_key_an_attribute(make_emu, pg):
    from .conftest import client_of, params_of

    pg.execute("CREATE TABLE k (gid serial PRIMARY KEY, geom geometry(Point, 4326))")
    emu = make_emu(params_of(pg, **{"Expose primary keys": "true"}))
    with client_of(emu) as c:
        assert (
            c.post(f"{STORE}/featuretypes", json={"featureType": {"name": "k"}}).status_code == 201
        )
        attrs = c.get(f"{STORE}/featuretypes/k.json").json()["featureType"]["attributes"]
    assert [a["name"] for a in attrs["attribute"]] == ["gid", "geom"]


def test_a_view_is_published_too(client, pg):
    pg.execute("CREATE TABLE base (id serial PRIMARY KEY, geom geometry(Polygon, 3857))")
    pg.execute("CREATE VIEW v AS SELECT id, geom FROM base")
    r = client.post(f"{STORE}/featuretypes", json={"featureType": {"name": "v"}})
    assert r.status_code == 201
    ft = client.get(f"{STORE}/featuretypes/v.json").json()["featureType"]
    assert ft["attributes"]["attribute"][-1]["binding"] == "org.locationtech.jts.geom.Polygon"
    assert ft["srs"] == "EPSG:3857"


def test_no_attributes_and_no_table_is_geoservers_400(client, pg):
    r = client.post(f"{STORE}/featuretypes", json={"featureType": {"name": "nothing"}})
    assert r.status_code == 400
    assert "no attributes were specified" in r.text
    assert client.get(f"{STORE}/featuretypes/nothing.json").status_code == 404


def test_a_refused_creation_leaves_the_database_as_it_was(client, pg):
    assert client.post(f"{STORE}/featuretypes", json=FT).status_code == 201
    again = {"featureType": {**FT["featureType"], "nativeName": "roads2"}}
    r = client.post(f"{STORE}/featuretypes", json=again)  # the name is taken: refused
    assert r.status_code == 500
    assert "already exists" in r.text
    exists = pg.execute("SELECT to_regclass('public.roads2')").fetchone()[0]
    assert exists is None  # the table the refused request created was rolled back


def test_an_unmappable_binding_is_refused_and_creates_nothing(client, pg):
    body = {
        "featureType": {
            "name": "odd",
            "attributes": {"attribute": [{"name": "x", "binding": "java.awt.Color"}]},
        }
    }
    r = client.post(f"{STORE}/featuretypes", json=body)
    assert r.status_code == 400
    assert "Unable to map x( java.awt.Color)" in r.text
    assert pg.execute("SELECT to_regclass('public.odd')").fetchone()[0] is None


def test_deleting_a_feature_type_or_the_store_never_drops_the_table(client, pg):
    assert client.post(f"{STORE}/featuretypes", json=FT).status_code == 201
    r = client.delete(f"{STORE}/featuretypes/roads", params={"recurse": "true"})
    assert r.status_code == 200
    assert client.delete(STORE, params={"recurse": "true"}).status_code == 200
    assert pg.execute("SELECT to_regclass('public.roads')").fetchone()[0] == "roads"
