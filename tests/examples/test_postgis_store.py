"""A downstream test with a throwaway PostGIS (pytest-postgresql) and a store pointing at it.

Included in ``docs/databases.md``. pytest-postgresql's ``postgresql`` fixture gives each test
a fresh database; a downstream conftest enables PostGIS in the template it clones from::

    # conftest.py
    from pytest_postgresql import factories

    def enable_postgis(host, port, user, dbname, password, **_):
        import psycopg

        with psycopg.connect(host=host, port=port, user=user, dbname=dbname,
                             password=password, autocommit=True) as conn:
            conn.execute("CREATE EXTENSION IF NOT EXISTS postgis")

    postgresql_proc = factories.postgresql_proc(load=[enable_postgis])

(This repository's own tests override ``postgresql_proc`` in ``tests/conftest.py`` so that
the cluster also runs as root, with PostGIS in its template.)

The flow: a feature type created over REST makes its table; the test INSERTs rows with
psycopg; WFS (GeoJSON and GML, and OWSLib's client) and WMS read them live; WFS-T writes
are in the table at once.
"""

from __future__ import annotations

from io import BytesIO
from xml.etree import ElementTree

import httpx
import pytest
from owslib.wfs import WebFeatureService
from PIL import Image

AUTH = ("admin", "geoserver")


@pytest.fixture
def sites(geoserver_url, postgresql):
    """Workspace ``demo``, a PostGIS store ``db`` on the test's database, and a feature type
    ``sites`` created over REST (GeoServer creates its table)."""
    info = postgresql.info
    postgresql.autocommit = True  # the rows the test inserts are seen at once
    rest = f"{geoserver_url}/rest"
    httpx.post(f"{rest}/workspaces", auth=AUTH, json={"workspace": {"name": "demo"}})
    params = {
        "dbtype": "postgis",
        "host": info.host,
        "port": str(info.port),
        "database": info.dbname,
        "user": info.user,
        "passwd": info.password or "",
    }
    store = {
        "dataStore": {
            "name": "db",
            "connectionParameters": {"entry": [{"@key": k, "$": v} for k, v in params.items()]},
        }
    }
    r = httpx.post(f"{rest}/workspaces/demo/datastores", auth=AUTH, json=store)
    assert r.status_code == 201
    feature_type = {
        "featureType": {
            "name": "sites",
            "srs": "EPSG:4326",
            "attributes": {
                "attribute": [
                    {"name": "geom", "binding": "org.locationtech.jts.geom.Polygon"},
                    {"name": "label", "binding": "java.lang.String"},
                ]
            },
        }
    }
    r = httpx.post(
        f"{rest}/workspaces/demo/datastores/db/featuretypes", auth=AUTH, json=feature_type
    )
    assert r.status_code == 201
    return postgresql


@pytest.mark.geoserver_scenario("empty")
def test_rows_inserted_with_psycopg_are_read_through_wfs(geoserver_url, sites):
    # the test's own INSERT finds the table GeoServer made, with its generated key
    sites.execute(
        "INSERT INTO sites (geom, label) VALUES"
        " (ST_GeomFromText('POLYGON((0 0,0 4,4 4,4 0,0 0))', 4326), 'a')"
    )
    wfs = f"{geoserver_url}/wfs"
    query = {
        "service": "WFS",
        "version": "2.0.0",
        "request": "GetFeature",
        "typeNames": "demo:sites",
    }

    geojson = httpx.get(wfs, params={**query, "outputFormat": "application/json"}).json()
    (feature,) = geojson["features"]
    assert feature["id"] == "sites.1" and feature["properties"] == {"label": "a"}

    gml = ElementTree.fromstring(httpx.get(wfs, params=query).content)
    ids = [
        el.get("{http://www.opengis.net/gml/3.2}id")
        for el in gml.iter()
        if el.tag.endswith("}sites")
    ]
    assert ids == ["sites.1"]

    # OWSLib's client reads the same
    client = WebFeatureService(wfs, version="2.0.0")
    assert "demo:sites" in client.contents
    response = client.getfeature(typename=["demo:sites"], outputFormat="application/json")
    assert b'"sites.1"' in response.read()

    # a row inserted now is seen by the next request: nothing is cached
    sites.execute("INSERT INTO sites (label) VALUES ('b')")
    geojson = httpx.get(wfs, params={**query, "outputFormat": "application/json"}).json()
    assert [f["id"] for f in geojson["features"]] == ["sites.1", "sites.2"]


@pytest.mark.geoserver_scenario("empty")
def test_wms_draws_the_rows(geoserver_url, sites):
    sites.execute(
        "INSERT INTO sites (geom, label) VALUES"
        " (ST_GeomFromText('POLYGON((0 0,0 4,4 4,4 0,0 0))', 4326), 'a')"
    )
    r = httpx.get(
        f"{geoserver_url}/wms",
        params={
            "service": "WMS",
            "version": "1.1.1",
            "request": "GetMap",
            "layers": "demo:sites",
            "styles": "",
            "srs": "EPSG:4326",
            "bbox": "0,0,8,8",
            "width": "8",
            "height": "8",
            "format": "image/png",
        },
    )
    img = Image.open(BytesIO(r.content)).convert("RGB")
    assert img.getpixel((1, 6)) != (255, 255, 255)  # the polygon, lower left
    assert img.getpixel((6, 1)) == (255, 255, 255)  # nothing upper right


@pytest.mark.geoserver_scenario("empty")
def test_wfs_transactions_change_the_table(geoserver_url, sites):
    ns = 'xmlns:wfs="http://www.opengis.net/wfs" xmlns:ogc="http://www.opengis.net/ogc"'
    ns += ' xmlns:gml="http://www.opengis.net/gml" xmlns:demo="http://demo"'

    def transaction(body: str) -> str:
        doc = f'<wfs:Transaction {ns} service="WFS" version="1.1.0">{body}</wfs:Transaction>'
        r = httpx.post(f"{geoserver_url}/wfs", content=doc, auth=AUTH)
        assert r.status_code == 200
        return r.text

    answer = transaction(
        "<wfs:Insert><demo:sites><demo:label>new</demo:label></demo:sites></wfs:Insert>"
    )
    assert '<ogc:FeatureId fid="sites.1"/>' in answer
    assert sites.execute("SELECT fid, label FROM sites").fetchall() == [(1, "new")]

    transaction(
        '<wfs:Update typeName="demo:sites"><wfs:Property><wfs:Name>label</wfs:Name>'
        "<wfs:Value>renamed</wfs:Value></wfs:Property>"
        '<ogc:Filter><ogc:FeatureId fid="sites.1"/></ogc:Filter></wfs:Update>'
    )
    assert sites.execute("SELECT label FROM sites").fetchall() == [("renamed",)]

    transaction(
        '<wfs:Delete typeName="demo:sites">'
        '<ogc:Filter><ogc:FeatureId fid="sites.1"/></ogc:Filter></wfs:Delete>'
    )
    assert sites.execute("SELECT count(*) FROM sites").fetchone() == (0,)
