"""Image mosaics whose ``datastore.properties`` names a reachable PostGIS keep their granule
index in a table of it, as GeoServer's ImageMosaic does: made on the first granule, written
by harvests and granule deletes, read by the granules endpoint and the dimensions."""

from __future__ import annotations

import pytest
from lxml import etree

from ..areas.mosaics.conftest import (
    ELEVATIONREGEX,
    INDEXER,
    TIMEREGEX,
    geotiff,
    granule_name,
    zipped,
)

ZIP = {"Content-Type": "application/zip"}
URL = "/rest/workspaces/wcs/coveragestores/watertemp"
INDEX = f"{URL}/coverages/watertemp/index"


def datastore(pg) -> str:
    info = pg.info
    return (
        "SPI=org.geotools.data.postgis.PostgisNGDataStoreFactory\n"
        f"host={info.host}\nport={info.port}\ndatabase={info.dbname}\nschema=public\n"
        f"user={info.user}\npasswd=\nLoose\\ bbox=true\nEstimated\\ extends=false\n"
    )


def mosaic_files(pg, days=("20081031", "20081101")) -> dict[str, bytes | str]:
    files: dict[str, bytes | str] = {
        "datastore.properties": datastore(pg),
        "indexer.properties": INDEXER,
        "timeregex.properties": TIMEREGEX,
        "elevationregex.properties": ELEVATIONREGEX,
    }
    for i, day in enumerate(days):
        files[granule_name(0, day)] = geotiff(minx=float(i), maxy=45.0, px=0.25, py=0.25)
    return files


@pytest.fixture
def wcs(client):
    assert client.post("/rest/workspaces", json={"workspace": {"name": "wcs"}}).status_code == 201
    return client


@pytest.fixture
def watertemp(wcs, pg):
    r = wcs.put(f"{URL}/file.imagemosaic", content=zipped(mosaic_files(pg)), headers=ZIP)
    assert r.status_code == 200, r.text
    return pg


def granules(client, **params):
    r = client.get(f"{INDEX}/granules.json", params=params)
    assert r.status_code == 200, r.text
    return r.json()["features"]


def rows(pg):
    return pg.execute(
        "SELECT fid, location, ingestion, elevation FROM watertemp ORDER BY fid"
    ).fetchall()


def test_the_index_is_a_table_made_as_createschema_makes_it(watertemp):
    columns = watertemp.execute(
        "SELECT column_name, udt_name FROM information_schema.columns"
        " WHERE table_name = 'watertemp' ORDER BY ordinal_position"
    ).fetchall()
    assert columns == [
        ("fid", "int4"),
        ("the_geom", "geometry"),
        ("location", "varchar"),
        ("ingestion", "timestamp"),
        ("elevation", "int4"),
    ]
    assert watertemp.execute(
        "SELECT type, srid FROM geometry_columns WHERE f_table_name = 'watertemp'"
    ).fetchone() == ("POLYGON", 4326)
    assert [(f, loc) for f, loc, _, _ in rows(watertemp)] == [
        (1, granule_name(0, "20081031")),
        (2, granule_name(0, "20081101")),
    ]
    assert watertemp.execute(
        "SELECT ST_AsText(the_geom) FROM watertemp WHERE fid = 1"
    ).fetchone() == ("POLYGON((0 44,0 45,1 45,1 44,0 44))",)


def test_the_granules_endpoint_reads_the_table(client, watertemp):
    assert [g["id"] for g in granules(client)] == ["watertemp.1", "watertemp.2"]
    watertemp.execute(
        "INSERT INTO watertemp (the_geom, location, ingestion, elevation) VALUES"
        " (ST_GeomFromText('POLYGON((5 44,5 45,6 45,6 44,5 44))', 4326), 'mine.tif',"
        " '2008-11-05 00:00', 10)"
    )
    found = granules(client, filter="elevation = 10")
    assert [g["id"] for g in found] == ["watertemp.3"]
    assert found[0]["properties"]["location"] == "mine.tif"
    assert found[0]["properties"]["ingestion"].startswith("2008-11-05T00:00:00")
    xml = client.get(f"{INDEX}/granules.xml", params={"limit": 1, "offset": 2})
    assert b'fid="watertemp.3"' in xml.content
    one = client.get(f"{INDEX}/granules/watertemp.3.json")
    assert one.status_code == 200 and one.json()["features"][0]["id"] == "watertemp.3"


def test_granule_deletes_delete_rows(client, watertemp):
    assert client.delete(f"{INDEX}/granules/watertemp.1").status_code == 200
    assert [f for f, *_ in rows(watertemp)] == [2]
    watertemp.execute(
        "INSERT INTO watertemp (location, ingestion, elevation) VALUES ('x.tif', NULL, 5)"
    )
    r = client.delete(f"{INDEX}/granules", params={"filter": "elevation = 5"})
    assert r.status_code == 200
    assert [f for f, *_ in rows(watertemp)] == [2]
    assert [g["id"] for g in granules(client)] == ["watertemp.2"]


def test_a_harvest_inserts_rows(client, watertemp):
    more = {granule_name(0, "20081102"): geotiff(minx=2.0, maxy=45.0, px=0.25, py=0.25)}
    r = client.post(f"{URL}/file.imagemosaic", content=zipped(more), headers=ZIP)
    assert r.status_code in (201, 202), r.text
    assert [f for f, *_ in rows(watertemp)] == [1, 2, 3]
    assert rows(watertemp)[-1][1] == granule_name(0, "20081102")
    # harvesting the same file again replaces its entry (a new key, as ImageMosaic's)
    r = client.post(f"{URL}/file.imagemosaic", content=zipped(more), headers=ZIP)
    assert [f for f, *_ in rows(watertemp)] == [1, 2, 4]


def test_a_refused_harvest_leaves_the_table_as_it_was(client, watertemp):
    before = rows(watertemp)
    bad = {
        granule_name(0, "20081103"): geotiff(minx=2.0, maxy=45.0),
        "broken_20081104.tif": b"not a tiff",
    }
    r = client.post(f"{URL}/file.imagemosaic", content=zipped(bad), headers=ZIP)
    assert r.status_code == 400
    assert rows(watertemp) == before


def test_the_dimensions_read_the_table(client, watertemp):
    watertemp.execute(
        "INSERT INTO watertemp (the_geom, location, ingestion, elevation) VALUES"
        " (ST_GeomFromText('POLYGON((5 44,5 45,6 45,6 44,5 44))', 4326), 'mine.tif',"
        " '2008-11-05 00:00', 10)"
    )
    body = (
        "<coverage><enabled>true</enabled><metadata>"
        "<entry key='time'><dimensionInfo><enabled>true</enabled>"
        "<presentation>LIST</presentation></dimensionInfo></entry>"
        "<entry key='elevation'><dimensionInfo><enabled>true</enabled>"
        "<presentation>LIST</presentation></dimensionInfo></entry></metadata></coverage>"
    )
    r = client.put(f"{URL}/coverages/watertemp", content=body, headers={"Content-Type": "text/xml"})
    assert r.status_code == 200, r.text
    caps = client.get("/wms", params={"service": "WMS", "request": "GetCapabilities"}).text
    assert "2008-10-31T00:00:00.000Z,2008-11-01T00:00:00.000Z,2008-11-05T00:00:00.000Z" in caps
    assert ">0,10<" in caps or "0,10" in caps


def test_the_empty_mosaic_flow_of_the_spec(wcs, pg, tmp_path):
    """The definition only (datastore properties, an indexer with CanBeEmpty=true and an
    auxiliary file), uploaded with configure=none; the table comes with the first harvest;
    the coverage is configured after."""
    empty = {
        "datastore.properties": datastore(pg),
        "indexer.properties": (
            "CanBeEmpty=true\nName=NO2\nTimeAttribute=time\n"
            "Schema=*the_geom:Polygon,location:String,time:java.util.Date\n"
            "PropertyCollectors=TimestampFileNameExtractorSPI[timeregex](time)\n"
        ),
        "timeregex.properties": "regex=[0-9]{8}\n",
        "auxiliary.xml": "<auxiliary/>",
    }
    url = "/rest/workspaces/wcs/coveragestores/empty"
    r = wcs.put(f"{url}/file.imagemosaic?configure=none", content=zipped(empty), headers=ZIP)
    assert r.status_code == 200, r.text
    assert pg.execute("SELECT to_regclass('public.\"NO2\"')").fetchone() == (None,)
    for i, day in enumerate(("20130301", "20130302")):
        (tmp_path / f"no2_{day}.tif").write_bytes(geotiff(minx=5.0 + i, maxy=50.0))
    r = wcs.post(
        f"{url}/external.imagemosaic",
        content=tmp_path.as_uri(),
        headers={"Content-Type": "text/plain"},
    )
    assert r.status_code == 201, r.text
    assert pg.execute('SELECT count(*) FROM "NO2"').fetchone() == (2,)
    body = "<coverage><nativeCoverageName>NO2</nativeCoverageName><name>NO2</name></coverage>"
    r = wcs.post(f"{url}/coverages", content=body, headers={"Content-Type": "text/xml"})
    assert r.status_code == 201, r.text
    doc = etree.fromstring(wcs.get(f"{url}/coverages/NO2/index/granules.xml").content)
    fids = [f.get("fid") for f in doc.iter("{http://www.geoserver.org/rest/granules}NO2")]
    assert fids == ["NO2.1", "NO2.2"]
    cov = wcs.get(f"{url}/coverages/NO2.json").json()["coverage"]
    assert cov["nativeBoundingBox"]["minx"] == 5.0 and cov["nativeBoundingBox"]["maxx"] == 10.0
