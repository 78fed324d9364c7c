"""WFS GetFeature over a PostGIS table: rows read live, ids ``{type}.{key}``, filters,
sorting, paging and property selection pushed down to SQL."""

from __future__ import annotations

import pytest

from .conftest import STORE

SITES = {
    "featureType": {
        "name": "sites",
        "srs": "EPSG:4326",
        "attributes": {
            "attribute": [
                {"name": "geom", "binding": "org.locationtech.jts.geom.Point"},
                {"name": "label", "binding": "java.lang.String"},
                {"name": "pop", "binding": "java.lang.Integer"},
            ]
        },
    }
}


@pytest.fixture
def sites(client, pg):
    assert client.post(f"{STORE}/featuretypes", json=SITES).status_code == 201
    pg.execute(
        "INSERT INTO sites (geom, label, pop) VALUES"
        " ('SRID=4326;POINT(1 1)', 'a', 10), ('SRID=4326;POINT(2 2)', 'b', NULL),"
        " ('SRID=4326;POINT(3 3)', 'c', 30)"
    )
    return pg


def features(client, **params):
    base = {"service": "WFS", "version": "2.0.0", "request": "GetFeature", "typeNames": "ws:sites"}
    r = client.get("/wfs", params={**base, "outputFormat": "application/json", **params})
    assert r.status_code == 200, r.text
    return r.json()


def test_rows_are_read_live(client, sites):
    got = features(client)
    assert [f["id"] for f in got["features"]] == ["sites.1", "sites.2", "sites.3"]
    assert got["features"][0]["properties"] == {"label": "a", "pop": 10}
    sites.execute("INSERT INTO sites (geom, label, pop) VALUES ('SRID=4326;POINT(4 4)', 'd', 4)")
    assert len(features(client)["features"]) == 4
