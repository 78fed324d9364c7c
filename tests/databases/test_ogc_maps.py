"""WMS GetMap and GetFeatureInfo, WMTS tiles and the time dimension over a PostGIS table:
every reader goes through the PostGIS source with its selection (bbox, TIME, ELEVATION,
viewparams) in the query, answered in SQL."""

from __future__ import annotations

from io import BytesIO

import pytest
from PIL import Image

from geoserver_emulator.features import postgis

from .conftest import STORE

PARCELS = {
    "featureType": {
        "name": "parcels",
        "srs": "EPSG:4326",
        "attributes": {
            "attribute": [
                {"name": "geom", "binding": "org.locationtech.jts.geom.Polygon"},
                {"name": "owner", "binding": "java.lang.String"},
                {"name": "day", "binding": "java.sql.Timestamp"},
                {"name": "depth", "binding": "java.lang.Double"},
            ]
        },
    }
}
MAP = {
    "service": "WMS",
    "version": "1.1.1",
    "request": "GetMap",
    "layers": "ws:parcels",
    "styles": "",
    "srs": "EPSG:4326",
    "bbox": "0,0,40,40",
    "width": "40",
    "height": "40",
    "format": "image/png",
}


@pytest.fixture
def parcels(client, pg):
    assert client.post(f"{STORE}/featuretypes", json=PARCELS).status_code == 201
    pg.execute(
        "INSERT INTO parcels (geom, owner, day, depth) VALUES"
        " ('SRID=4326;POLYGON((0 0,0 10,10 10,10 0,0 0))', 'ann', '2020-01-01', 0),"
        " ('SRID=4326;POLYGON((20 20,20 30,30 30,30 20,20 20))', 'bob', '2020-01-02', 10)"
    )
    return pg


@pytest.fixture
def plans(monkeypatch):
    """Every (query, plan) the PostGIS source made during the test."""
    seen: list[tuple[object, postgis.Plan]] = []
    original = postgis.PostgisSource.plan

    def spy(self, rel, query):
        plan = original(self, rel, query)
        seen.append((query, plan))
        return plan

    monkeypatch.setattr(postgis.PostgisSource, "plan", spy)
    return seen


def image(r) -> Image.Image:
    assert r.status_code == 200 and r.headers["content-type"].startswith("image/"), r.text
    return Image.open(BytesIO(r.content)).convert("RGB")


def painted(img: Image.Image, x: int, y: int) -> bool:
    return img.getpixel((x, y)) != (255, 255, 255)


def test_getmap_draws_the_rows_and_reads_by_bbox(client, parcels, plans):
    img = image(client.get("/wms", params=MAP))
    assert painted(img, 5, 35) and painted(img, 25, 15)  # both parcels (y grows down)
    assert not painted(img, 35, 5)
    query, plan = plans[-1]
    assert query.bbox is not None and plan.python is None  # the area read, in SQL
    parcels.execute(
        "INSERT INTO parcels (geom, owner) VALUES"
        " ('SRID=4326;POLYGON((30 30,30 40,40 40,40 30,30 30))', 'new')"
    )
    assert painted(image(client.get("/wms", params=MAP)), 35, 5)  # seen at once


def test_getfeatureinfo_reads_the_pixel_area(client, parcels, plans):
    params = {
        **MAP,
        "request": "GetFeatureInfo",
        "query_layers": "ws:parcels",
        "info_format": "application/json",
        "x": "5",
        "y": "35",
    }
    r = client.get("/wms", params=params)
    assert r.status_code == 200, r.text
    (feature,) = r.json()["features"]
    assert feature["id"] == "parcels.1" and feature["properties"]["owner"] == "ann"
    query, plan = plans[-1]
    assert query.bbox is not None and query.count == 1 and plan.python is None


def test_wmts_tile_reads_its_area(client, parcels, plans):
    tile = {
        "service": "WMTS",
        "request": "GetTile",
        "version": "1.0.0",
        "layer": "ws:parcels",
        "style": "",
        "tilematrixset": "EPSG:4326",
        "tilematrix": "EPSG:4326:2",
        "tilerow": 1,
        "tilecol": 4,
        "format": "image/png",
    }
    r = client.get("/gwc/service/wmts", params=tile)
    assert r.status_code == 200, r.text
    img = Image.open(BytesIO(r.content))
    assert img.getpixel((20, 240))[3] == 255  # the first parcel, lower left of tile (1, 4)
    query, plan = plans[-1]
    assert query.bbox is not None and plan.python is None


TIME = (
    "<featureType><metadata><entry key='time'><dimensionInfo><enabled>true</enabled>"
    "<attribute>day</attribute><presentation>LIST</presentation></dimensionInfo></entry>"
    "<entry key='elevation'><dimensionInfo><enabled>true</enabled><attribute>depth</attribute>"
    "<presentation>LIST</presentation></dimensionInfo></entry></metadata></featureType>"
)


def test_time_and_elevation_are_selected_in_sql(client, parcels, plans):
    r = client.put(
        f"{STORE}/featuretypes/parcels", content=TIME, headers={"Content-Type": "text/xml"}
    )
    assert r.status_code == 200, r.text
    caps = client.get("/wms", params={"service": "WMS", "request": "GetCapabilities"}).text
    assert "2020-01-01T00:00:00.000Z,2020-01-02T00:00:00.000Z" in caps  # values from SQL
    img = image(client.get("/wms", params={**MAP, "time": "2020-01-02", "elevation": "10"}))
    assert not painted(img, 5, 35) and painted(img, 25, 15)
    query, plan = plans[-1]
    assert query.filter is not None and plan.python is None
    # no TIME: the default (the latest... by GeoServer's nearest-to-now strategy) and the
    # lowest elevation: only parcel 1 has elevation 0
    img = image(client.get("/wms", params={**MAP, "time": "2020-01-01/2020-01-02"}))
    assert painted(img, 5, 35) and not painted(img, 25, 15)


VIEW = {
    "featureType": {
        "name": "deep",
        "metadata": {
            "entry": {
                "@key": "JDBC_VIRTUAL_TABLE",
                "virtualTable": {
                    "name": "deep",
                    "sql": "select fid, owner, geom from parcels where depth >= %min%",
                    "keyColumn": "fid",
                    "geometry": {"name": "geom", "type": "Polygon", "srid": 4326},
                    "parameter": {
                        "name": "min",
                        "defaultValue": "0",
                        "regexpValidator": "^[\\d]+$",
                    },
                },
            }
        },
    }
}


@pytest.fixture
def deep(client, parcels):
    r = client.post(f"{STORE}/featuretypes", json=VIEW)
    assert r.status_code == 201, r.text
    return parcels


def wfs_ids(client, **params):
    query = {
        "service": "WFS",
        "version": "2.0.0",
        "request": "GetFeature",
        "typeNames": "ws:deep",
        "outputFormat": "application/json",
    }
    r = client.get("/wfs", params={**query, **params})
    assert r.status_code == 200, r.text
    return [f["id"] for f in r.json()["features"]]


def test_viewparams_in_wfs_and_wms(client, deep):
    assert wfs_ids(client) == ["deep.1", "deep.2"]
    assert wfs_ids(client, viewparams="min:5") == ["deep.2"]
    img = image(client.get("/wms", params={**MAP, "layers": "ws:deep", "viewparams": "min:5"}))
    assert not painted(img, 5, 35) and painted(img, 25, 15)
    # one set of parameters for two layers applies to both; two sets, one each
    two = {**MAP, "layers": "ws:deep,ws:deep"}
    assert image(client.get("/wms", params={**two, "viewparams": "min:5"}))
    assert image(client.get("/wms", params={**two, "viewparams": "min:5,min:0"}))


def test_viewparams_for_the_wrong_number_of_layers(client, deep):
    r = client.get("/wms", params={**MAP, "layers": "ws:deep", "viewparams": "min:1,min:2"})
    assert "1 layers requested, but found 2 view params specified." in r.text
    assert "org.geoserver.wms.map.GetMapKvpRequestReader" in r.text
    query = {"service": "WFS", "version": "1.1.0", "request": "GetFeature"}
    r = client.get("/wfs", params={**query, "typeName": "ws:deep", "viewparams": "min:1,min:2"})
    assert "1 feature types requested, but found 2 view params specified." in r.text


def test_a_refused_view_parameter_never_reaches_sql(client, deep, monkeypatch):
    import psycopg

    sent: list[str] = []
    original = psycopg.Connection.execute

    def spy(self, query, params=None, **kw):
        sent.append(query if isinstance(query, str) else query.as_string(self))
        return original(self, query, params, **kw)

    monkeypatch.setattr(psycopg.Connection, "execute", spy)
    evil = "1\\; DROP TABLE parcels"  # the semicolon escaped, so that it reaches the view
    query = {"service": "WFS", "version": "2.0.0", "request": "GetFeature"}
    r = client.get("/wfs", params={**query, "typeNames": "ws:deep", "viewparams": f"min:{evil}"})
    assert r.status_code == 500  # WFS 2.0: NoApplicableCode
    assert "Error occurred getting features" in r.text
    assert "Invalid value for parameter min" in r.text
    r = client.get("/wms", params={**MAP, "layers": "ws:deep", "viewparams": f"min:{evil}"})
    assert "Rendering process failed" in r.text and 'code="internalError"' in r.text
    assert not any("DROP" in s for s in sent)
    assert deep.execute("SELECT count(*) FROM parcels").fetchone() == (2,)
