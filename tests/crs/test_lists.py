"""The capabilities' CRS lists (``crs.lists``): GeoServer's order and spellings, from the same
database ``/rest/crs`` lists."""

from __future__ import annotations

from pyproj.database import get_codes

from geoserver_emulator.crs import lists, registry


def test_wms_111_lists_auto_then_every_epsg_code_in_numeric_order():
    codes = lists.codes(lists.WMS_111)
    assert codes[:9] == (
        "AUTO:42001",
        "AUTO:42002",
        "AUTO:42003",
        "AUTO:42004",
        "AUTO:97001",
        "AUTO:97002",
        "AUTO:97003",
        "AUTO:97004",
        "EPSG:2000",
    )
    epsg = [int(c[5:]) for c in codes if c.startswith("EPSG:")]
    assert epsg == sorted(epsg)
    assert not any(c.startswith("CRS:") for c in codes)
    expected = set(get_codes("EPSG", "CRS")) | {"900913", "404000"}
    assert {c[5:] for c in codes if c.startswith("EPSG:")} == expected


def test_wms_130_adds_the_crs_authority_between_auto_and_epsg():
    codes = lists.codes(lists.WMS_130)
    at = codes.index("CRS:27")
    assert codes[at : at + 4] == ("CRS:27", "CRS:83", "CRS:84", "EPSG:2000")
    assert len(codes) == len(lists.codes(lists.WMS_111)) + 3


def test_wcs_lists_epsg_urls_only():
    codes = lists.codes(lists.WCS_20)
    assert codes[0] == "http://www.opengis.net/def/crs/EPSG/0/2000"
    assert all(c.startswith("http://www.opengis.net/def/crs/EPSG/0/") for c in codes)
    assert len(codes) == len(registry.codes("EPSG"))


def test_the_rest_crs_resource_lists_the_same_database(client):
    r = client.get("/rest/crs.json", params={"authority": "EPSG", "limit": 1})
    assert r.status_code == 200
    assert r.json()["page"]["total"] == len(registry.codes("EPSG"))
    listed = [c for c in lists.codes(lists.WMS_111) if c.startswith("EPSG:")]
    r = client.get("/rest/crs.json", params={"authority": "EPSG", "offset": 0, "limit": 200})
    assert [c["id"] for c in r.json()["crs"]] == listed[:200]
    for code in ("EPSG:900913", "EPSG:26713", "EPSG:404000"):
        assert client.get(f"/rest/crs/{code}.json").status_code == 200


def test_blocks_are_the_elements_at_one_depth():
    text = lists.block(lists.WMS_111, "SRS", 2)
    assert text.startswith("\n    <SRS>AUTO:42001</SRS>\n    <SRS>AUTO:42002</SRS>")
    assert text.count("<SRS>") == len(lists.codes(lists.WMS_111))
    assert lists.block(lists.WMS_111, "SRS", 2) is text  # made once per process


def test_ogc_api_lists():
    from geoserver_emulator.crs import axes, ogcapi

    full = ogcapi.service_crs([])
    assert full[0] == "http://www.opengis.net/def/crs/OGC/1.3/CRS84"
    assert full[1:] == list(lists.codes(lists.WCS_20))
    limited = ogcapi.service_crs(["EPSG:3857", "4326"])
    assert limited == [
        ogcapi.DEFAULT,
        "http://www.opengis.net/def/crs/EPSG/0/3857",
        "http://www.opengis.net/def/crs/EPSG/0/4326",
    ]
    own = ogcapi.collection_crs(True, ["EPSG:26713", "CRS:84"], limited)
    assert own == [ogcapi.DEFAULT, "http://www.opengis.net/def/crs/EPSG/0/26713"]
    assert ogcapi.collection_crs(False, ["EPSG:26713"], limited) is limited
    assert not axes.north_first(ogcapi.read(ogcapi.DEFAULT))
    assert axes.north_first(ogcapi.read("http://www.opengis.net/def/crs/EPSG/0/4326"))
