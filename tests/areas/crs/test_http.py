"""``/rest/crs`` over HTTP: the list, the authorities, one CRS as WKT and JSON, every error."""

from __future__ import annotations

import pytest

from geoserver_emulator import Emulator
from geoserver_emulator.crs import registry, wkt


def test_list_is_paged_with_links_to_wkt(client):
    doc = client.get("/rest/crs.json?offset=10&limit=10").json()
    assert len(doc["crs"]) == 10
    first = doc["crs"][0]
    assert first["href"].endswith(f"/rest/crs/{first['id']}.wkt")
    assert doc["page"]["offset"] == 10 and doc["page"]["returned"] == 10
    assert doc["page"]["total"] >= 1000
    second = client.get("/rest/crs?offset=20&limit=10").json()
    assert second["crs"][0]["id"] != first["id"]


def test_list_filters_by_authority_and_query(client):
    doc = client.get("/rest/crs?authority=epsg&query=3263&limit=200").json()
    ids = [c["id"] for c in doc["crs"]]
    assert ids[:2] == ["EPSG:3263", "EPSG:32630"] and all("3263" in i for i in ids)
    assert client.get("/rest/crs?authority=CRS").json()["page"]["total"] == 3
    assert client.get("/rest/crs?authority=NOPE").json() == {
        "crs": [],
        "page": {"offset": 0, "limit": 50, "returned": 0, "total": 0},
    }


def test_authorities(client):
    doc = client.get("/rest/crs/authorities").json()
    assert [a["name"] for a in doc["authorities"]] == ["CRS", "EPSG"]
    assert doc["authorities"][1]["href"].endswith("/rest/crs?authority=EPSG")


def test_one_as_wkt_as_geotools_writes_it(client):
    r = client.get("/rest/crs/EPSG:4326.wkt")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/plain")
    assert r.text.startswith('GEOGCS["WGS 84", \n  DATUM["World Geodetic System 1984", \n')
    assert 'AXIS["Geodetic longitude", EAST]' in r.text
    assert r.text.endswith('AUTHORITY["EPSG","4326"]]')


@pytest.mark.parametrize("spelling", ["EPSG:32632", "urn:ogc:def:crs:EPSG::32632", "epsg:32632"])
def test_one_as_json_with_extents(client, spelling):
    doc = client.get(f"/rest/crs/{spelling}.json").json()
    assert doc["id"] == spelling and doc["format"] == "wkt"
    assert doc["name"] == "WGS 84 / UTM zone 32N"
    assert doc["bboxWGS84"] == {"minX": 6.0, "minY": 0.0, "maxX": 12.0, "maxY": 84.0}
    assert 166000 < doc["bbox"]["minX"] < doc["bbox"]["maxX"] < 834000
    assert "Transverse_Mercator" in doc["definition"]


@pytest.mark.parametrize(
    ("path", "status", "says"),
    [
        ("/rest/crs/EPSG:303030303.wkt", 404, "CRS not found: EPSG:303030303"),
        ("/rest/crs/NOPE:1.json", 404, "CRS not found: NOPE:1"),
        ("/rest/crs/EPSG:4326", 404, "No such resource"),
        ("/rest/crs.xml", 404, "No such resource"),
        ("/rest/crs?limit=x", 400, "For input string"),
    ],
)
def test_errors(client, path, status, says):
    r = client.get(path)
    assert r.status_code == status and says in r.text


@pytest.mark.parametrize(
    ("path", "says"),
    [
        ("/rest/crs?limit=0", "limit must be > 0"),
        ("/rest/crs?limit=201", "limit must be <= 200"),
        ("/rest/crs?offset=-1", "offset must be >= 0"),
        ("/rest/crs/4326.wkt", "Invalid CRS identifier, expected AUTHORITY:CODE"),
    ],
)
@pytest.mark.parametrize(("profile", "status"), [("spec", 400), ("geoserver", 500)])
def test_arguments_geoserver_refuses_with_500(client_for, path, says, profile, status):
    r = client_for(emulator=Emulator("stock", profile=profile)).get(path)
    assert (r.status_code, r.text) == (status, says)


def test_other_formats_and_methods(client, anon):
    assert client.get("/rest/crs", headers={"Accept": "application/xml"}).status_code == 406
    assert client.post("/rest/crs", content=b"{}").status_code == 405
    assert client.put("/rest/crs/EPSG:4326.json", content=b"{}").status_code == 405
    assert anon.get("/rest/crs").status_code == 401


@pytest.mark.parametrize(
    ("x", "shown"),
    [
        (1.0, "1.0"),
        (0.9996, "0.9996"),
        (1e7, "1.0E7"),
        (12345678.9, "1.23456789E7"),
        (1.5e-4, "1.5E-4"),
        (-0.0, "-0.0"),
        (500000.0, "500000.0"),
    ],  # fmt: skip
)
def test_java_double(x, shown):
    assert wkt.java_double(x) == shown


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("EPSG:4326", "EPSG:4326"),
        ("urn:x-ogc:def:crs:EPSG:6.11:4326", "EPSG:4326"),
        ("http://www.opengis.net/def/crs/EPSG/0/4326", "EPSG:4326"),
        ("http://www.opengis.net/gml/srs/epsg.xml#4326", "EPSG:4326"),
        ("crs:84", "CRS:84"),
    ],
)
def test_identifier_spellings(text, code):
    assert registry.parse(text).id == code
    assert registry.lookup(text).name
