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
"""

from __future__ import annotations

import httpx
import pytest


@pytest.mark.geoserver_scenario("empty")
def test_publish_a_table_then_see_the_rows_it_holds(geoserver_url, postgresql):
    info = postgresql.info
    auth = ("admin", "geoserver")
    rest = f"{geoserver_url}/rest"
    httpx.post(f"{rest}/workspaces", auth=auth, json={"workspace": {"name": "demo"}})
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
    assert (
        httpx.post(f"{rest}/workspaces/demo/datastores", auth=auth, json=store).status_code == 201
    )

    # GeoServer creates the table for a new feature type with attributes
    feature_type = {
        "featureType": {
            "name": "sites",
            "srs": "EPSG:4326",
            "attributes": {
                "attribute": [
                    {"name": "geom", "binding": "org.locationtech.jts.geom.Point"},
                    {"name": "label", "binding": "java.lang.String"},
                ]
            },
        }
    }
    r = httpx.post(
        f"{rest}/workspaces/demo/datastores/db/featuretypes", auth=auth, json=feature_type
    )
    assert r.status_code == 201

    # the test's own INSERT finds the table GeoServer made, with its generated key
    postgresql.execute(
        "INSERT INTO sites (geom, label) VALUES (ST_SetSRID(ST_MakePoint(5, 45), 4326), 'a')"
    )
    postgresql.commit()

    # and the bounds GeoServer recalculates come from those rows
    r = httpx.put(
        f"{rest}/workspaces/demo/datastores/db/featuretypes/sites",
        params={"recalculate": "nativebbox,latlonbbox"},
        auth=auth,
        json={"featureType": {"name": "sites"}},
    )
    assert r.status_code == 200
    ft = httpx.get(f"{rest}/workspaces/demo/featuretypes/sites.json", auth=auth).json()
    assert ft["featureType"]["nativeBoundingBox"]["minx"] == 5
