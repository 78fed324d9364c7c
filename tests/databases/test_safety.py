"""Safety of the PostGIS source: injection attempts through every user-supplied name, filter,
sort key, property name and view parameter never reach SQL as text; statements under the
time limit; a database that fails mid-request or stops answers GeoServer's errors and the
emulator recovers; an exhausted pool answers after its wait; a refused transaction leaves
the table as it was (checked with psycopg)."""

from __future__ import annotations

import pytest

from geoserver_emulator.databases.params import read

from .conftest import STORE, client_of, params_of
from .test_modes_and_failures import _until_it_accepts
from .test_wfs_read import SITES

EVIL = "x'; DROP TABLE sites; --"
WFS = {"service": "WFS", "version": "2.0.0", "request": "GetFeature", "typeNames": "ws:sites"}


@pytest.fixture
def sites(client, pg):
    assert client.post(f"{STORE}/featuretypes", json=SITES).status_code == 201
    pg.execute(
        "INSERT INTO sites (geom, label, pop) VALUES"
        " ('SRID=4326;POINT(1 1)', 'alpha', 10), ('SRID=4326;POINT(2 2)', 'beta', 20)"
    )
    return pg


def intact(pg) -> bool:
    return pg.execute("SELECT count(*) FROM sites").fetchone() == (2,)


@pytest.mark.parametrize(
    "params",
    [
        {"typeNames": f"ws:sites{EVIL}"},
        {"propertyName": f"label{EVIL}"},
        {"propertyName": 'label,"label"'},
        {"sortBy": f"label{EVIL}"},
        {"sortBy": 'pop";DROP TABLE sites;--'},
        {"cql_filter": f"label = '{EVIL.replace(chr(39), chr(39) * 2)}'"},
        {"cql_filter": f'"label{EVIL.replace(chr(39), "")}" = 1'},
        {"cql_filter": "label LIKE '%'' OR 1=1 --'"},
        {"cql_filter": "label IN ('a', 'b''); DROP TABLE sites; --')"},
        {"cql_filter": "pop = '1 OR 1=1'"},
        {"cql_filter": "INTERSECTS(geom, POINT(1 1)) OR label = 'x''--'"},
        {"resourceId": f"sites.1{EVIL}"},
        {"resourceId": "sites.1 OR 1=1"},
        {"bbox": "0,0,1,1,EPSG:4326'); DROP TABLE sites; --"},
        {"viewparams": f"a:{EVIL}"},
    ],
)
def test_injection_attempts_never_reach_sql(client, sites, params):
    r = client.get("/wfs", params={**WFS, "outputFormat": "application/json", **params})
    assert r.status_code in (200, 400, 500)
    if r.status_code == 200 and r.headers["content-type"].startswith("application/json"):
        for feature in r.json()["features"]:  # whatever matched, nothing was pasted
            assert feature["id"] in ("sites.1", "sites.2")
    assert intact(sites)


def test_odd_names_in_a_created_table_are_quoted(client, pg):
    body = {
        "featureType": {
            "name": "odd",
            "srs": "EPSG:4326",
            "attributes": {
                "attribute": [
                    {"name": "geom", "binding": "org.locationtech.jts.geom.Point"},
                    {"name": 'we"ird; DROP TABLE odd; --', "binding": "java.lang.String"},
                ]
            },
        }
    }
    assert client.post(f"{STORE}/featuretypes", json=body).status_code == 201
    pg.execute("""INSERT INTO odd ("we""ird; DROP TABLE odd; --") VALUES ('v')""")
    r = client.get(
        "/wfs", params={**WFS, "typeNames": "ws:odd", "outputFormat": "application/json"}
    )
    (feature,) = r.json()["features"]
    assert feature["properties"] == {'we"ird; DROP TABLE odd; --': "v"}
    flt = (
        '<Filter xmlns="http://www.opengis.net/ogc"><PropertyIsEqualTo>'
        '<PropertyName>we"ird; DROP TABLE odd; --</PropertyName><Literal>v</Literal>'
        "</PropertyIsEqualTo></Filter>"
    )
    r = client.get(
        "/wfs",
        params={**WFS, "typeNames": "ws:odd", "outputFormat": "application/json", "filter": flt},
    )
    # the emulator reads an OGC filter through its ECQL text, which cannot carry this name:
    # refused (400), and nothing reached SQL
    assert r.status_code in (200, 400), r.text
    assert pg.execute("SELECT count(*) FROM odd").fetchone() == (1,)


SLOW_VIEW = {
    "featureType": {
        "name": "slow",
        "metadata": {
            "entry": {
                "@key": "JDBC_VIRTUAL_TABLE",
                "virtualTable": {
                    "name": "slow",
                    "sql": "select fid, label, geom from sites where %go% = 1 and"
                    " pg_sleep(case when %go% = 1 then 5 else 0 end) is not null",
                    "keyColumn": "fid",
                    "geometry": {"name": "geom", "type": "Point", "srid": 4326},
                    "parameter": {"name": "go", "defaultValue": "0", "regexpValidator": "^[01]$"},
                },
            }
        },
    }
}


def test_a_statement_past_its_time_limit_answers_geoservers_error(emu, client, sites):
    assert client.post(f"{STORE}/featuretypes", json=SLOW_VIEW).status_code == 201
    emu.databases.close()  # pools made again, with a short limit
    emu.databases.statement_timeout = 0.3
    r = client.get("/wfs", params={**WFS, "typeNames": "ws:slow", "viewparams": "go:1"})
    assert r.status_code == 500
    assert "Error occurred getting features" in r.text
    assert "ERROR: canceling statement due to statement timeout" in r.text
    r = client.get("/wfs", params={**WFS, "typeNames": "ws:sites"})
    assert r.status_code == 200  # the pool goes on


def test_a_connection_lost_mid_request_then_recovery(client, sites):
    body = {
        "featureType": {
            "name": "dying",
            "metadata": {
                "entry": {
                    "@key": "JDBC_VIRTUAL_TABLE",
                    "virtualTable": {
                        "name": "dying",
                        "sql": "select fid, label, geom from sites"
                        " where %die% = 0 or pg_terminate_backend(pg_backend_pid())",
                        "keyColumn": "fid",
                        "geometry": {"name": "geom", "type": "Point", "srid": 4326},
                        "parameter": {
                            "name": "die",
                            "defaultValue": "0",
                            "regexpValidator": "^[01]$",
                        },
                    },
                }
            },
        }
    }
    assert client.post(f"{STORE}/featuretypes", json=body).status_code == 201
    r = client.get("/wfs", params={**WFS, "typeNames": "ws:dying", "viewparams": "die:1"})
    assert r.status_code == 500
    assert "An I/O error occurred while sending to the backend." in r.text
    for _ in range(3):  # the broken connection is never handed out again
        r = client.get("/wfs", params={**WFS, "typeNames": "ws:sites"})
        assert r.status_code == 200, r.text


def test_a_database_that_stops_answers_geoservers_error_and_comes_back(
    make_emu, pg, postgresql_proc
):
    emu = make_emu(databases="live")
    with client_of(emu) as c:
        assert c.post(f"{STORE}/featuretypes", json=SITES).status_code == 201
        get = {**WFS, "outputFormat": "application/json"}
        assert c.get("/wfs", params=get).status_code == 200
        postgresql_proc.stop()
        try:
            r = c.get("/wfs", params=get)
            assert r.status_code == 500
            assert "Unable to obtain connection" in r.text
            r = c.get(
                "/wms",
                params={
                    "service": "WMS",
                    "request": "GetMap",
                    "layers": "ws:sites",
                    "styles": "",
                    "srs": "EPSG:4326",
                    "bbox": "0,0,1,1",
                    "width": "8",
                    "height": "8",
                    "format": "image/png",
                },
            )
            assert "Rendering process failed" in r.text
        finally:
            postgresql_proc.start()
            _until_it_accepts(pg)
        r = c.get("/wfs", params=get)
        assert r.status_code == 200, r.text
        assert r.json()["features"] == []


def test_an_exhausted_pool_answers_after_its_wait(make_emu, pg):
    params = params_of(pg, **{"max connections": "1", "Connection timeout": "1"})
    emu = make_emu(params)
    with client_of(emu) as c:
        assert c.post(f"{STORE}/featuretypes", json=SITES).status_code == 201
        pool = emu.databases.pool(read(params))
        held = pool.acquire()  # the only connection, busy
        try:
            r = c.get("/wfs", params=WFS)
            assert r.status_code == 500
            assert "Cannot get a connection, pool error Timeout waiting for idle object" in r.text
        finally:
            pool.release(held)
        assert c.get("/wfs", params=WFS).status_code == 200


def test_a_refused_transaction_leaves_the_table_as_it_was(client, sites):
    before = sites.execute("SELECT fid, label, pop, ST_AsText(geom) FROM sites").fetchall()
    body = (
        '<wfs:Transaction xmlns:wfs="http://www.opengis.net/wfs"'
        ' xmlns:ogc="http://www.opengis.net/ogc" xmlns:gml="http://www.opengis.net/gml"'
        ' xmlns:ws="http://ws" service="WFS" version="1.1.0">'
        "<wfs:Delete typeName='ws:sites'><ogc:Filter><ogc:FeatureId fid='sites.1'/>"
        "</ogc:Filter></wfs:Delete>"
        "<wfs:Update typeName='ws:sites'><wfs:Property><wfs:Name>label</wfs:Name>"
        "<wfs:Value>changed</wfs:Value></wfs:Property></wfs:Update>"
        "<wfs:Insert><ws:sites><ws:pop>many</ws:pop></ws:sites></wfs:Insert>"
        "</wfs:Transaction>"
    )
    r = client.post("/ws/wfs", content=body.encode(), headers={"Content-Type": "text/xml"})
    assert b"ExceptionReport" in r.content
    assert sites.execute("SELECT fid, label, pop, ST_AsText(geom) FROM sites").fetchall() == before
