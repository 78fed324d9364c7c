"""WFS-T on a PostGIS table: Insert, Update and Delete in one database transaction per WFS
Transaction, all or nothing (checked with psycopg), new ids from the key's sequence."""

from __future__ import annotations

import pytest
from lxml import etree

from .conftest import STORE

WFS_NS = "http://www.opengis.net/wfs"
ROADS = {
    "featureType": {
        "name": "roads",
        "srs": "EPSG:4326",
        "attributes": {
            "attribute": [
                {"name": "geom", "binding": "org.locationtech.jts.geom.MultiLineString"},
                {"name": "name", "binding": "java.lang.String", "nillable": False},
                {"name": "lanes", "binding": "java.lang.Integer"},
            ]
        },
    }
}


def insert(*features: str, version: str = "1.1.0", idgen: str | None = None) -> bytes:
    attr = f' idgen="{idgen}"' if idgen else ""
    ns = "http://www.opengis.net/wfs/2.0" if version == "2.0.0" else WFS_NS
    gml = "http://www.opengis.net/gml/3.2" if version == "2.0.0" else "http://www.opengis.net/gml"
    return (
        f'<wfs:Transaction xmlns:wfs="{ns}" xmlns:gml="{gml}" xmlns:ws="http://ws"'
        f' service="WFS" version="{version}"><wfs:Insert{attr}>'
        + "".join(features)
        + "</wfs:Insert></wfs:Transaction>"
    ).encode()


def road(name: str | None, lanes: int | None = 2, fid: str | None = None, x: float = 0) -> str:
    ident = f' gml:id="{fid}"' if fid else ""
    parts = [
        "<ws:geom><gml:LineString srsName='EPSG:4326'>"
        f"<gml:posList>{x} 0 {x + 1} 1</gml:posList></gml:LineString></ws:geom>"
    ]
    if name is not None:
        parts.append(f"<ws:name>{name}</ws:name>")
    if lanes is not None:
        parts.append(f"<ws:lanes>{lanes}</ws:lanes>")
    return f"<ws:roads{ident}>" + "".join(parts) + "</ws:roads>"


@pytest.fixture
def roads(client, pg):
    body = dict(ROADS)
    r = client.post(f"{STORE}/featuretypes", json=body)
    assert r.status_code == 201, r.text
    return pg


def table(pg):
    return pg.execute("SELECT fid, name, lanes, ST_AsText(geom) FROM roads ORDER BY fid").fetchall()


def post(client, body: bytes):
    r = client.post("/ws/wfs", content=body, headers={"Content-Type": "text/xml"})
    return r, etree.fromstring(r.content)


def test_insert_writes_rows_and_returns_their_ids(client, roads):
    r, root = post(client, insert(road("a"), road("b", 4, x=5)))
    assert r.status_code == 200, r.text
    fids = [el.get("fid") for el in root.iter("{http://www.opengis.net/ogc}FeatureId")]
    assert fids == ["roads.1", "roads.2"]
    assert table(roads) == [
        (1, "a", 2, "MULTILINESTRING((0 0,1 1))"),  # a line made a collection of one
        (2, "b", 4, "MULTILINESTRING((5 0,6 1))"),
    ]
    # the sequence goes on from rows the test inserted itself
    roads.execute("INSERT INTO roads (name) VALUES ('mine')")
    r, root = post(client, insert(road("c"), version="2.0.0"))
    rids = [el.get("rid") for el in root.iter("{http://www.opengis.net/fes/2.0}ResourceId")]
    assert rids == ["roads.4"]


def test_use_existing_keeps_the_given_ids(client, roads):
    r, root = post(client, insert(road("a", fid="roads.40"), idgen="UseExisting"))
    assert r.status_code == 200, r.text
    assert [el.get("fid") for el in root.iter("{http://www.opengis.net/ogc}FeatureId")] == [
        "roads.40"
    ]
    assert table(roads)[0][:2] == (40, "a")


def update(prop: str, value: str, flt: str, version: str = "1.1.0") -> bytes:
    return (
        f'<wfs:Transaction xmlns:wfs="{WFS_NS}" xmlns:ogc="http://www.opengis.net/ogc"'
        f' service="WFS" version="{version}"><wfs:Update typeName="ws:roads">'
        f"<wfs:Property><wfs:Name>{prop}</wfs:Name><wfs:Value>{value}</wfs:Value></wfs:Property>"
        f"<ogc:Filter>{flt}</ogc:Filter></wfs:Update></wfs:Transaction>"
    ).encode()


def delete(flt: str) -> bytes:
    return (
        f'<wfs:Transaction xmlns:wfs="{WFS_NS}" xmlns:ogc="http://www.opengis.net/ogc"'
        ' service="WFS" version="1.1.0"><wfs:Delete typeName="ws:roads">'
        f"<ogc:Filter>{flt}</ogc:Filter></wfs:Delete></wfs:Transaction>"
    ).encode()


def eq(prop: str, value: str) -> str:
    return (
        f"<ogc:PropertyIsEqualTo><ogc:PropertyName>{prop}</ogc:PropertyName>"
        f"<ogc:Literal>{value}</ogc:Literal></ogc:PropertyIsEqualTo>"
    )


def test_update_and_delete_by_id_and_by_filter(client, roads):
    roads.execute("INSERT INTO roads (name, lanes) VALUES ('a', 1), ('b', 2), ('c', 2), ('d', 3)")
    r, root = post(client, update("lanes", "6", '<ogc:FeatureId fid="roads.1"/>'))
    assert root.findtext(f".//{{{WFS_NS}}}totalUpdated") == "1"
    r, root = post(client, update("name", "two", eq("lanes", "2")))
    assert root.findtext(f".//{{{WFS_NS}}}totalUpdated") == "2"
    # a filter SQL cannot answer (a function) is evaluated in Python, then written by row
    func = (
        "<ogc:PropertyIsEqualTo><ogc:Function name='strToUpperCase'>"
        "<ogc:PropertyName>name</ogc:PropertyName></ogc:Function>"
        "<ogc:Literal>D</ogc:Literal></ogc:PropertyIsEqualTo>"
    )
    r, root = post(client, delete(func))
    assert r.status_code == 200, r.text
    assert root.findtext(f".//{{{WFS_NS}}}totalDeleted") == "1"
    assert [(f, n, lanes) for f, n, lanes, _ in table(roads)] == [
        (1, "a", 6),
        (2, "two", 2),
        (3, "two", 2),
    ]
    r, root = post(client, delete('<ogc:FeatureId fid="roads.2"/><ogc:FeatureId fid="roads.3"/>'))
    assert root.findtext(f".//{{{WFS_NS}}}totalDeleted") == "2"
    assert [row[0] for row in table(roads)] == [1]


def test_a_refused_operation_rolls_the_database_back(client, roads):
    roads.execute("INSERT INTO roads (name, lanes) VALUES ('keep', 1)")
    before = table(roads)
    # the second insert breaks NOT NULL: the first one and the update go too
    body = (
        f'<wfs:Transaction xmlns:wfs="{WFS_NS}" xmlns:ogc="http://www.opengis.net/ogc"'
        ' xmlns:gml="http://www.opengis.net/gml" xmlns:ws="http://ws" service="WFS"'
        ' version="1.1.0">'
        f"<wfs:Insert>{road('fine')}</wfs:Insert>"
        '<wfs:Update typeName="ws:roads"><wfs:Property><wfs:Name>lanes</wfs:Name>'
        "<wfs:Value>9</wfs:Value></wfs:Property></wfs:Update>"
        f"<wfs:Insert>{road(None)}</wfs:Insert>"
        "</wfs:Transaction>"
    ).encode()
    r, root = post(client, body)
    assert b"ExceptionReport" in r.content
    assert b"null value in column" in r.content
    assert table(roads) == before
    # a value the column type refuses, in WFS 2.0 (an HTTP error status)
    r, _ = post(
        client,
        insert(
            road("x", lanes=None).replace("</ws:roads>", "<ws:lanes>many</ws:lanes></ws:roads>"),
            version="2.0.0",
        ),
    )
    assert r.status_code == 400
    assert table(roads) == before
    # the emulator's connection is usable afterwards (the sequence moved on: PostgreSQL's
    # sequences are not rolled back, for GeoServer neither)
    r, root = post(client, insert(road("after")))
    (fid,) = [el.get("fid") for el in root.iter("{http://www.opengis.net/ogc}FeatureId")]
    assert fid == f"roads.{table(roads)[-1][0]}" and table(roads)[-1][1] == "after"


def test_two_tables_commit_together(client, roads):
    other = {"featureType": {**ROADS["featureType"], "name": "paths"}}
    assert client.post(f"{STORE}/featuretypes", json=other).status_code == 201
    path = road("p").replace("ws:roads", "ws:paths")
    bad = road(None)
    r, _ = post(client, insert(path, bad))
    assert b"ExceptionReport" in r.content
    assert roads.execute("SELECT count(*) FROM paths").fetchone() == (0,)
    r, root = post(client, insert(path, road("r")))
    assert r.status_code == 200, r.text
    assert roads.execute("SELECT count(*) FROM paths").fetchone() == (1,)
    assert roads.execute("SELECT count(*) FROM roads").fetchone() == (1,)


def test_an_sql_view_is_read_only(client, pg):
    pg.execute("CREATE TABLE towns (id serial PRIMARY KEY, name text, geom geometry(Point, 4326))")
    view = {
        "featureType": {
            "name": "vtowns",
            "metadata": {
                "entry": {
                    "@key": "JDBC_VIRTUAL_TABLE",
                    "virtualTable": {
                        "name": "vtowns",
                        "sql": "select * from towns",
                        "keyColumn": "id",
                    },
                }
            },
        }
    }
    assert client.post(f"{STORE}/featuretypes", json=view).status_code == 201
    body = insert(road("x", lanes=None).replace("ws:roads", "ws:vtowns"))
    r, root = post(client, body)
    assert b"is read only" in r.content
    assert pg.execute("SELECT count(*) FROM towns").fetchone() == (0,)
