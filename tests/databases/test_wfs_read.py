"""WFS GetFeature over a PostGIS table: rows read live, ids ``{type}.{key}`` as GeoServer's
JDBC store writes them, filters, sorting, paging, property selection and hits, in GeoJSON
and GML."""

from __future__ import annotations

from xml.etree import ElementTree

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
                {"name": "seen", "binding": "java.sql.Timestamp"},
            ]
        },
    }
}
WFS = {"service": "WFS", "request": "GetFeature"}
GML = "{http://www.opengis.net/gml}"
GML32 = "{http://www.opengis.net/gml/3.2}"


@pytest.fixture
def sites(client, pg):
    assert client.post(f"{STORE}/featuretypes", json=SITES).status_code == 201
    pg.execute(
        "INSERT INTO sites (geom, label, pop, seen) VALUES"
        " ('SRID=4326;POINT(1 1)', 'alpha', 10, '2020-01-01 00:00'),"
        " ('SRID=4326;POINT(2 2)', 'beta', NULL, '2020-06-01 12:00'),"
        " ('SRID=4326;POINT(3 3)', 'gamma', 30, NULL),"
        " ('SRID=4326;POINT(4 4)', 'a_b%c', 5, '2021-01-01 00:00')"
    )
    return pg


def geojson(client, **params):
    query = {**WFS, "version": "2.0.0", "typeNames": "ws:sites"}
    r = client.get("/wfs", params={**query, "outputFormat": "application/json", **params})
    assert r.status_code == 200, r.text
    assert r.headers["content-type"].startswith("application/json")
    return r.json()


def ids(client, **params):
    return [f["id"] for f in geojson(client, **params)["features"]]


def test_rows_are_read_live_with_geoservers_ids(client, sites):
    got = geojson(client)
    assert [f["id"] for f in got["features"]] == ["sites.1", "sites.2", "sites.3", "sites.4"]
    first = got["features"][0]
    assert first["geometry"] == {"type": "Point", "coordinates": [1, 1]}
    assert first["properties"]["label"] == "alpha"
    assert first["properties"]["pop"] == 10
    assert first["properties"]["seen"].startswith("2020-01-01T00:00:00")
    assert got["totalFeatures"] == 4 or got.get("numberMatched") == 4
    sites.execute("INSERT INTO sites (geom, label) VALUES ('SRID=4326;POINT(9 9)', 'new')")
    assert ids(client)[-1] == "sites.5"  # no rows cached across requests


@pytest.mark.parametrize(
    ("version", "fmt", "id_attr"),
    [
        ("1.0.0", None, "fid"),
        ("1.1.0", None, GML + "id"),
        ("2.0.0", None, GML32 + "id"),
        ("1.1.0", "text/xml; subtype=gml/2.1.2", "fid"),
    ],
)
def test_gml_carries_the_same_ids(client, sites, version, fmt, id_attr):
    params = {**WFS, "version": version, "typeName": "ws:sites", "sortBy": "pop D"}
    if fmt:
        params["outputFormat"] = fmt
    r = client.get("/wfs", params=params)
    assert r.status_code == 200, r.text
    root = ElementTree.fromstring(r.content)
    found = [el.get(id_attr) for el in root.iter("{http://ws}sites")]
    if not any(found):  # the namespace URI of workspace ws is its own
        found = [el.get(id_attr) for el in root.iter() if el.tag.endswith("}sites")]
    # descending: empty values first (GeoTools' order), then 30, 10, 5
    assert found == ["sites.2", "sites.3", "sites.1", "sites.4"]


@pytest.mark.parametrize(
    ("cql", "expected"),
    [
        ("pop > 9", ["sites.1", "sites.3"]),
        ("pop = '30'", ["sites.3"]),  # the literal converted to the column's type
        ("pop <> 10", ["sites.3", "sites.4"]),  # an empty value matches no comparison
        ("pop BETWEEN 5 AND 10", ["sites.1", "sites.4"]),
        ("pop IN (5, 30)", ["sites.3", "sites.4"]),
        ("pop IS NULL", ["sites.2"]),
        ("pop IS NOT NULL", ["sites.1", "sites.3", "sites.4"]),
        ("label LIKE 'a%'", ["sites.1", "sites.4"]),
        ("label LIKE 'a\\_b\\%c'", ["sites.4"]),  # escaped wildcards are literal
        ("label LIKE 'a_b%c'", ["sites.4"]),
        ("label LIKE '_eta'", ["sites.2"]),
        ("label ILIKE 'GAM%'", ["sites.3"]),
        ("label NOT LIKE '%a'", ["sites.4"]),
        ("pop > 9 AND label LIKE 'g%'", ["sites.3"]),
        ("pop < 9 OR label = 'beta'", ["sites.2", "sites.4"]),
        ("NOT (label = 'beta')", ["sites.1", "sites.3", "sites.4"]),
        ("BBOX(geom, 1.5, 1.5, 3.5, 3.5)", ["sites.2", "sites.3"]),
        ("INTERSECTS(geom, POLYGON((0 0, 0 2.5, 2.5 2.5, 2.5 0, 0 0)))", ["sites.1", "sites.2"]),
        ("DWITHIN(geom, POINT(4 4), 1.5, meters)", ["sites.3", "sites.4"]),
        ("seen BEFORE 2020-03-01T00:00:00Z", ["sites.1"]),
        ("seen AFTER 2020-03-01T00:00:00Z", ["sites.2", "sites.4"]),
        ("seen DURING 2019-12-31T00:00:00Z/2020-12-31T00:00:00Z", ["sites.1", "sites.2"]),
        ("seen > '2020-05-01'", ["sites.2", "sites.4"]),
        # functions are evaluated in Python over what SQL selected
        ("strToUpperCase(label) = 'BETA'", ["sites.2"]),
        ("strLength(label) = 5 AND pop > 9", ["sites.1", "sites.3"]),
        ("missing = 1", []),
        ("INCLUDE", ["sites.1", "sites.2", "sites.3", "sites.4"]),
        ("EXCLUDE", []),
    ],
)
def test_filters(client, sites, cql, expected):
    assert ids(client, cql_filter=cql) == expected


def test_an_ogc_filter_reads_the_same(client, sites):
    xml = (
        '<Filter xmlns="http://www.opengis.net/ogc"><And>'
        "<PropertyIsGreaterThan><PropertyName>pop</PropertyName><Literal>9</Literal>"
        "</PropertyIsGreaterThan>"
        '<PropertyIsLike wildCard="*" singleChar="." escapeChar="!">'
        "<PropertyName>label</PropertyName><Literal>g*</Literal></PropertyIsLike>"
        "</And></Filter>"
    )
    assert ids(client, filter=xml) == ["sites.3"]


def test_feature_ids_select_rows(client, sites):
    assert ids(client, resourceId="sites.3,sites.1") == ["sites.1", "sites.3"]
    assert ids(client, resourceId="sites.99") == []
    assert ids(client, resourceId="sites.x") == []  # a key that is not a number
    got = geojson(client, version="1.1.0", featureId="sites.2")
    assert [f["id"] for f in got["features"]] == ["sites.2"]


def test_sorting_puts_empty_values_as_geotools_does(client, sites):
    assert ids(client, sortBy="pop A") == ["sites.4", "sites.1", "sites.3", "sites.2"]
    assert ids(client, sortBy="pop D") == ["sites.2", "sites.3", "sites.1", "sites.4"]
    assert ids(client, sortBy="seen D,label A") == ["sites.3", "sites.4", "sites.2", "sites.1"]


def test_paging_and_hits(client, sites):
    assert ids(client, sortBy="label", startIndex=1, count=2) == ["sites.1", "sites.2"]
    page = geojson(client, count=1, startIndex=1, cql_filter="strLength(label) > 4")
    assert [f["id"] for f in page["features"]] == ["sites.3"]  # paged after Python's filter
    r = client.get(
        "/wfs",
        params={**WFS, "version": "2.0.0", "typeNames": "ws:sites", "resultType": "hits"},
    )
    assert 'numberMatched="4"' in r.text
    r = client.get(
        "/wfs",
        params={
            **WFS,
            "version": "1.1.0",
            "typeName": "ws:sites",
            "resultType": "hits",
            "cql_filter": "strLength(label) = 4",
        },
    )
    assert 'numberOfFeatures="1"' in r.text


def test_property_selection(client, sites):
    got = geojson(client, propertyName="label", resourceId="sites.1")
    assert got["features"][0]["properties"] == {"label": "alpha"}
    assert got["features"][0]["geometry"] is None


def test_a_table_without_a_key_gets_stable_ids(client, pg):
    pg.execute("CREATE TABLE nokey (label text, geom geometry(Point, 4326))")
    pg.execute("INSERT INTO nokey VALUES ('a', 'SRID=4326;POINT(0 0)'), ('b', NULL)")
    body = {"featureType": {"name": "nokey"}}
    assert client.post(f"{STORE}/featuretypes", json=body).status_code == 201
    first = ids(client, typeNames="ws:nokey")
    assert len(first) == 2 and all(i.startswith("nokey.fid-") for i in first)
    assert ids(client, typeNames="ws:nokey") == first
    assert ids(client, typeNames="ws:nokey", resourceId=first[1]) == [first[1]]


def test_a_key_of_two_columns(client, pg):
    pg.execute(
        "CREATE TABLE pairs (a int, b text, label text, geom geometry(Point, 4326),"
        " PRIMARY KEY (a, b))"
    )
    pg.execute("INSERT INTO pairs VALUES (1, 'x', 'one', NULL), (2, 'y', 'two', NULL)")
    assert (
        client.post(f"{STORE}/featuretypes", json={"featureType": {"name": "pairs"}}).status_code
        == 201
    )
    assert ids(client, typeNames="ws:pairs") == ["pairs.1.x", "pairs.2.y"]
    assert ids(client, typeNames="ws:pairs", resourceId="pairs.2.y") == ["pairs.2.y"]


def test_a_published_name_prefixes_the_ids(client, sites):
    body = {"featureType": {"name": "places", "nativeName": "sites"}}
    assert client.post(f"{STORE}/featuretypes", json=body).status_code == 201
    got = ids(client, typeNames="ws:places", resourceId="places.2")
    assert got == ["places.2"]


def test_a_missing_table_is_the_databases_error(client, sites):
    sites.execute("DROP TABLE sites")
    query = {**WFS, "version": "2.0.0", "typeNames": "ws:sites"}
    r = client.get("/wfs", params=query)
    assert r.status_code == 500
    assert "Error occurred getting features" in r.text
    assert "does not exist" in r.text
    r = client.get("/wfs", params={**query, "version": "1.1.0"})
    assert r.status_code == 200 and "ExceptionReport" in r.text


def test_the_journal_says_which_back_end_a_request_read(client, sites):
    geojson(client)
    journal = client.get("/__emulator/requests").json()["requests"]
    assert journal[-1]["databases"] == {"ws:pg": "postgis"}
