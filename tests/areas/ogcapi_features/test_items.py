"""``/items`` and ``/items/{featureId}`` over HTTP: GeoJSON and the other formats, paging,
``bbox``, ``datetime``, ``filter`` in its languages, ``crs``, and the parameters the WFS
settings switch on (``sortby``, ``properties``, ``ids``), with every error."""

from __future__ import annotations

import json
from urllib.parse import quote

import pytest
from lxml import etree
from lxml import html as lxml_html

BASE = "http://localhost:8080/geoserver"
ITEMS = "/ogc/features/v1/collections/sf:prims/items"


def test_items_as_geojson(anon, emu, prims, h):
    emu.clock.advance(90)
    r = anon.get(ITEMS)
    assert r.status_code == 200
    assert r.headers["content-type"] == "application/geo+json"
    assert r.headers["content-crs"] == "<http://www.opengis.net/def/crs/OGC/1.3/CRS84>"
    assert r.headers["content-disposition"] == "inline; filename=prims.json"
    doc = r.json()
    assert list(doc) == [
        "type",
        "features",
        "numberMatched",
        "numberReturned",
        "timeStamp",
        "links",
    ]
    assert doc["type"] == "FeatureCollection"
    assert (doc["numberMatched"], doc["numberReturned"]) == (5, 5)
    assert doc["timeStamp"] == emu.clock.datetime().strftime("%Y-%m-%dT%H:%M:%S.000Z")
    first = doc["features"][0]
    assert first == {
        "type": "Feature",
        "id": "prims.1",
        "geometry": {"type": "Point", "coordinates": [39, 2]},
        "geometry_name": "pointProperty",
        "properties": {
            "name": "name-f001",
            "intProperty": 155,
            "booleanProperty": True,
            "dateProperty": "2006-10-25Z",
        },
    }
    rels = [(x["rel"], x["type"]) for x in doc["links"]]
    assert rels[0] == ("self", "application/geo+json")
    assert [rel for rel, t in rels if t == "application/json"] == ["alternate", "collection"]
    collection = next(x for x in doc["links"] if x["rel"] == "collection")
    assert collection["href"].startswith(f"{BASE}/ogc/features/v1/collections/sf%3Aprims?")
    assert r.headers.get_list("link") == []


def test_items_in_a_workspace(anon, prims, h):
    r = anon.get("/sf/ogc/features/v1/collections/prims/items")
    assert r.status_code == 200
    doc = r.json()
    assert len(doc["features"]) == 5
    collection = next(x for x in doc["links"] if x["rel"] == "collection")
    assert collection["href"].startswith(f"{BASE}/sf/ogc/features/v1/collections/prims?")


def test_paging_first_middle_last(anon, prims):
    r = anon.get(ITEMS, params={"limit": 3})
    nxt = f"{BASE}/ogc/features/v1/collections/sf%3Aprims/items?limit=3&startIndex=3"
    assert r.headers.get_list("link") == [f'<{nxt}>; rel="next"; type="application/geo+json"']
    doc = r.json()
    assert len(doc["features"]) == 3 and doc["numberMatched"] == 5
    assert [x["href"] for x in doc["links"] if x["rel"] == "next"] == [nxt]
    assert not [x for x in doc["links"] if x["rel"] == "prev"]

    r = anon.get(ITEMS + "?startIndex=3&limit=1")
    prev = f"{BASE}/ogc/features/v1/collections/sf%3Aprims/items?startIndex=2&limit=1"
    nxt = f"{BASE}/ogc/features/v1/collections/sf%3Aprims/items?startIndex=4&limit=1"
    assert r.headers.get_list("link") == [
        f'<{prev}>; rel="prev"; type="application/geo+json"',
        f'<{nxt}>; rel="next"; type="application/geo+json"',
    ]
    assert [f["id"] for f in r.json()["features"]] == ["prims.4"]

    r = anon.get(ITEMS + "?startIndex=3&limit=3")
    prev = f"{BASE}/ogc/features/v1/collections/sf%3Aprims/items?startIndex=0&limit=3"
    assert r.headers.get_list("link") == [f'<{prev}>; rel="prev"; type="application/geo+json"']
    assert len(r.json()["features"]) == 2


def test_the_default_limit_is_the_wfs_max_features(anon, client, prims):
    assert len(anon.get(ITEMS).json()["features"]) == 5
    r = client.put("/rest/services/wfs/settings", json={"wfs": {"maxFeatures": 2}})
    assert r.status_code == 200
    doc = anon.get(ITEMS).json()
    assert doc["numberReturned"] == 2 and doc["numberMatched"] == 5
    assert anon.get(ITEMS, params={"limit": 4}).json()["numberReturned"] == 2
    assert any(x["rel"] == "next" for x in doc["links"])


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("bbox=35,0,60,3", ["prims.1", "prims.2"]),
        ("bbox=170,0,-160,10", ["prims.4", "prims.5"]),  # across the antimeridian
        ("bbox=35,0,0,60,3,0", ["prims.1", "prims.2"]),  # 3D
        (
            "bbox=35,0,60,3&bbox-crs=http://www.opengis.net/def/crs/OGC/1.3/CRS84",
            ["prims.1", "prims.2"],
        ),
        (
            "bbox=3896182.18,0,6679169.45,334111.17&bbox-crs=http://www.opengis.net/def/crs/EPSG/0/3857",
            ["prims.1", "prims.2"],
        ),
        ("datetime=2006-10-25", ["prims.1"]),
        ("datetime=2006-09-01/2006-10-23", ["prims.2", "prims.3"]),
        ("datetime=2006-09-01/P1M23DT12H31M12S", ["prims.2", "prims.3"]),
        ("datetime=2006-12-01/..", ["prims.4", "prims.5"]),
        ("datetime=../2006-09-30", ["prims.2"]),
        ("datetime=2006-09-01/2006-10-23&bbox=35,0,60,3", ["prims.2"]),
        ("filter=name='name-f001'", ["prims.1"]),
        ("filter=intProperty > 100 AND booleanProperty = TRUE", ["prims.1"]),
        ("filter=S_INTERSECTS(pointProperty, BBOX(38,1,40,3))", ["prims.1"]),
        ("filter=dateProperty > DATE('2006-12-01')", ["prims.4", "prims.5"]),
        ("filter=T_AFTER(dateProperty, TIMESTAMP('2006-12-01T00:00:00Z'))", ["prims.4", "prims.5"]),
        (
            "filter=CASEI(name) LIKE CASEI('NAME-F00%25')",
            ["prims.1", "prims.2", "prims.3", "prims.4", "prims.5"],
        ),
        ("filter=name IN ('name-f002','name-f008')", ["prims.2", "prims.5"]),
        ("filter=BBOX(pointProperty,38,1,40,3)&filter-lang=cql-text", ["prims.1"]),
        ("filter=INTERSECTS(pointProperty, POINT(55 1))&filter-lang=ecql-text", ["prims.2"]),
        (
            "filter="
            + quote('{"op":"=","args":[{"property":"name"},"name-f001"]}')
            + "&filter-lang=cql2-json",
            ["prims.1"],
        ),
        (
            "filter="
            + quote(
                '{"op":"s_intersects","args":[{"property":"pointProperty"},{"bbox":[38,1,40,3]}]}'
            )
            + "&filter-lang=cql2-json",
            ["prims.1"],
        ),
        (
            "filter=BBOX(pointProperty,4230140.65,111325.14,4452779.63,334111.17)"
            "&filter-crs=http://www.opengis.net/def/crs/EPSG/0/3857&filter-lang=cql-text",
            ["prims.1"],
        ),
        ("sortby=-name&limit=2", ["prims.1", "prims.2"]),  # sortby is off by default: ignored
        ("properties=name", ["prims.1", "prims.2", "prims.3", "prims.4", "prims.5"]),
        ("ids=prims.3", ["prims.1", "prims.2", "prims.3", "prims.4", "prims.5"]),  # ignored
    ],
)
def test_selection(anon, prims, query, expected):
    r = anon.get(f"{ITEMS}?{query}")
    assert r.status_code == 200, r.text
    assert [f["id"] for f in r.json()["features"]] == expected


def test_a_type_without_dates_matches_no_datetime(anon, client):
    props = b"_=name:String,geom:Point:srid=4326\nplain.1=a|POINT(0 0)\n"
    r = client.put(
        "/rest/workspaces/sf/datastores/plain/file.properties",
        content=props,
        headers={"Content-Type": "text/plain"},
    )
    assert r.status_code == 201
    url = "/ogc/features/v1/collections/sf:plain/items"
    assert len(anon.get(url).json()["features"]) == 1
    assert anon.get(url, params={"datetime": "2006-01-01"}).json()["features"] == []


def test_switched_on_parameters(anon, client, prims, h):
    h.put_wfs_metadata(client, h.switch(sortBy=True, propertySelection=True, ids=True))
    doc = h.items(anon, "sf:prims", sortby="-name", limit=2)
    assert h.ids(doc) == ["prims.5", "prims.4"]
    doc = h.items(anon, "sf:prims", sortby="booleanProperty,-intProperty")
    assert h.ids(doc) == ["prims.3", "prims.2", "prims.1", "prims.4", "prims.5"]
    doc = h.items(anon, "sf:prims", sortby="+intProperty", limit=1)
    assert h.ids(doc) == ["prims.2"]
    doc = h.items(anon, "sf:prims", properties="name")
    assert doc["features"][0]["properties"] == {"name": "name-f001"}
    assert doc["features"][0]["geometry"] is None
    doc = h.items(anon, "sf:prims", **{"exclude-properties": "name,dateProperty"})
    assert set(doc["features"][0]["properties"]) == {"intProperty", "booleanProperty"}
    doc = h.items(anon, "sf:prims", ids="prims.3,prims.1")
    assert h.ids(doc) == ["prims.1", "prims.3"]
    r = anon.get(ITEMS, params={"properties": "name", "exclude-properties": "name"})
    assert r.status_code == 400
    assert r.json()["description"] == (
        "You cannot use both properties and exclude-properties in the same request"
    )
    for key in ("properties", "sortby"):
        r = anon.get(ITEMS, params={key: "nope"})
        assert r.status_code == 400, r.text
        assert r.json() == {
            "code": "InvalidParameterValue",
            "description": "Illegal property name: nope for feature type sf:prims",
        }


def test_the_filter_class_off_ignores_filter(anon, client, prims, h):
    h.put_wfs_metadata(client, h.switch(filter=False))
    assert len(h.items(anon, "sf:prims", filter="name = 'name-f001'")["features"]) == 5
    h.put_wfs_metadata(
        client,
        '<entry key="cql2"><cql2><text>false</text><json>false</json></cql2></entry>'
        '<entry key="ecql"><ecql><text>false</text></ecql></entry>',
    )
    assert len(h.items(anon, "sf:prims", filter="name = 'name-f001'")["features"]) == 5


def test_filter_languages_follow_the_settings(anon, client, prims, h):
    h.put_wfs_metadata(client, '<entry key="cql2"><cql2><text>false</text></cql2></entry>')
    # cql2-text off: the default language is the first one left (cql2-json)
    r = anon.get(ITEMS, params={"filter": "name = 'name-f001'"})
    assert r.status_code == 400
    r = anon.get(ITEMS, params={"filter": "name = 'name-f001'", "filter-lang": "cql2-text"})
    assert r.status_code == 400
    assert r.json()["description"] == (
        "Invalid filter-lang 'cql2-text', supported values are [cql2-json, ecql-text]"
    )
    r = anon.get(ITEMS, params={"filter": "name = 'name-f001'", "filter-lang": "ecql-text"})
    assert [f["id"] for f in r.json()["features"]] == ["prims.1"]


def test_crs_of_the_answer(anon, prims):
    r = anon.get(ITEMS, params={"crs": "http://www.opengis.net/def/crs/EPSG/0/3857", "limit": 1})
    assert r.headers["content-crs"] == "<http://www.opengis.net/def/crs/EPSG/0/3857>"
    x, y = r.json()["features"][0]["geometry"]["coordinates"]
    assert x == pytest.approx(4341460.1, abs=1) and y == pytest.approx(222684.2, abs=1)
    r = anon.get(ITEMS, params={"crs": "http://www.opengis.net/def/crs/EPSG/0/4326", "limit": 1})
    assert r.json()["features"][0]["geometry"]["coordinates"] == [2, 39]  # authority order
    r = anon.get(ITEMS, params={"crs": "CRS:84", "limit": 1})
    assert r.headers["content-crs"] == "<http://www.opengis.net/def/crs/OGC/1.3/CRS84>"
    assert r.json()["features"][0]["geometry"]["coordinates"] == [39, 2]


def test_data_in_another_crs_is_answered_in_crs84(anon, client):
    props = b"_=name:String,geom:Point:srid=26713\npts.1=a|POINT(590000 4920000)\n"
    r = client.put(
        "/rest/workspaces/sf/datastores/pts/file.properties",
        content=props,
        headers={"Content-Type": "text/plain"},
    )
    assert r.status_code == 201
    url = "/ogc/features/v1/collections/sf:pts"
    doc = anon.get(url).json()
    assert doc["storageCrs"] == "http://www.opengis.net/def/crs/EPSG/0/26713"
    assert doc["crs"][0] == "http://www.opengis.net/def/crs/OGC/1.3/CRS84"
    x, y = anon.get(url + "/items").json()["features"][0]["geometry"]["coordinates"]
    assert x == pytest.approx(-103.8699, abs=1e-3) and y == pytest.approx(44.4296, abs=1e-3)
    assert len(anon.get(url + "/items", params={"bbox": "-104,44,-103,45"}).json()["features"]) == 1
    assert anon.get(url + "/items", params={"bbox": "-100,44,-99,45"}).json()["features"] == []


def test_one_item(anon, prims):
    r = anon.get(ITEMS + "/prims.2")
    assert r.status_code == 200
    assert r.headers["content-crs"] == "<http://www.opengis.net/def/crs/OGC/1.3/CRS84>"
    doc = r.json()
    assert (doc["type"], doc["id"]) == ("Feature", "prims.2")
    self_link = next(x for x in doc["links"] if x["type"] == "application/geo+json")
    assert self_link["rel"] == "self"
    assert self_link["href"] == (
        f"{BASE}/ogc/features/v1/collections/sf%3Aprims/items/prims.2?f=application%2Fgeo%2Bjson"
    )
    assert [x["rel"] for x in doc["links"] if x["type"] == "application/json"] == [
        "alternate",
        "collection",
    ]
    r = anon.get(ITEMS + "/prims.99")
    assert r.status_code == 404 and r.json()["code"] == "NotFound"


def test_other_formats(anon, prims):
    r = anon.get(ITEMS, params={"f": "application/json"})
    assert r.headers["content-type"] == "application/json"
    doc = r.json()
    assert doc["totalFeatures"] == 5 and doc["crs"]["properties"]["name"].endswith("4326")
    r = anon.get(ITEMS, params={"f": "application/gml+xml;version=3.2"})
    assert r.status_code == 200
    root = etree.fromstring(r.content)
    assert root.tag == "{http://www.opengis.net/wfs/2.0}FeatureCollection"
    assert root.get("numberMatched") == "5"
    pos = root.find(".//{http://www.opengis.net/gml/3.2}pos")
    assert pos.text.split() == ["2", "39"]  # EPSG:4326 in GML 3.2: latitude first
    for fmt in ("text/xml;subtype=gml/3.1.1", "text/xml; subtype=gml/2.1.2"):
        r = anon.get(ITEMS, params={"f": fmt})
        assert r.status_code == 200 and etree.fromstring(r.content) is not None


def test_items_as_html(anon, prims):
    r = anon.get(ITEMS, params={"f": "html"})
    assert r.status_code == 200
    assert r.headers["content-crs"] == "<http://www.opengis.net/def/crs/OGC/1.3/CRS84>"
    page = lxml_html.fromstring(r.content)
    cells = [td.text_content() for td in page.iter("td")]
    assert cells[cells.index("prims.2") + 1] == "name-f002"
    first = lxml_html.fromstring(anon.get(ITEMS + "?f=html&limit=2").content)
    with pytest.raises(KeyError):
        first.get_element_by_id("prevPage")
    assert first.get_element_by_id("nextPage").get("href") == (
        f"{BASE}/ogc/features/v1/collections/sf%3Aprims/items?f=html&limit=2&startIndex=2"
    )
    last = lxml_html.fromstring(anon.get(ITEMS + "?f=html&limit=2&startIndex=4").content)
    assert last.get_element_by_id("prevPage") is not None
    with pytest.raises(KeyError):
        last.get_element_by_id("nextPage")
    one = anon.get(ITEMS + "/prims.1", headers={"Accept": "text/html"})
    assert one.headers["content-type"].startswith("text/html") and "prims.1" in one.text


@pytest.mark.parametrize(
    ("query", "code", "says"),
    [
        ("limit=abc", "InvalidParameterValue", "Invalid syntax abc for parameter limit"),
        ("limit=-1", "InvalidParameterValue", "limit"),
        ("startIndex=x", "InvalidParameterValue", "Invalid syntax x for parameter startIndex"),
        ("bbox=1,2,3", "InvalidParameterValue", "wrong number of coordinates (should have 4): 3"),
        ("bbox=1,2,a,4", "InvalidParameterValue", "Bounding box coordinate 2 is not parsable:a"),
        (
            "bbox=0,10,5,5",
            "InvalidParameterValue",
            "illegal bbox, minY: 10.0 is greater than maxY: 5.0",
        ),
        (
            "bbox=35,0,60,3&bbox-crs=http://www.opengis.net/def/crs/OGC/1.3/INVALID",
            "InvalidParameterValue",
            "Invalid CRS: http://www.opengis.net/def/crs/OGC/1.3/INVALID",
        ),
        ("datetime=yesterday", "InvalidParameterValue", "Invalid time specification"),
        ("datetime=2006-01-01/2005-01-01", "InvalidParameterValue", "Invalid time specification"),
        ("datetime=../..", "InvalidParameterValue", "Invalid time specification"),
        ("filter=THIS IS NOT A FILTER", "InvalidParameterValue", "THIS IS NOT A FILTER"),
        ("filter=name='a'&filter-lang=foo-bar", "InvalidParameterValue", "foo-bar"),
        (
            "filter=BBOX(pointProperty,38,1,40,3)&filter-crs=http://www.opengis.net/def/crs/EPSG/0/0",
            "InvalidParameterValue",
            "EPSG:0",
        ),
        ("filter=INTERSECTS(pointProperty, POINT(1 2))", "InvalidParameterValue", "INTERSECTS"),
        ("filter=" + quote("{not json"), "InvalidParameterValue", "Parsing"),
        ("crs=EPSG:999999", "InvalidParameterValue", "Invalid CRS: EPSG:999999"),
    ],
)
def test_bad_parameters_are_400(anon, prims, query, code, says):
    r = anon.get(f"{ITEMS}?{query}")
    assert r.status_code == 400, r.text
    assert r.headers["content-type"] == "application/json"
    doc = r.json()
    assert doc["code"] == code and says in doc["description"], doc


def test_search_is_off_by_default_then_answers(anon, client, prims, h):
    url = "/ogc/features/v1/collections/sf:prims/search"
    r = anon.post(url, json={"bbox": [35, 0, 60, 3]})
    assert r.status_code == 404
    assert r.json() == {
        "code": "NotFound",
        "description": "Search is not supported by the service.",
    }
    h.put_wfs_metadata(client, h.switch(search=True, ids=True, sortBy=True))
    for body, expected in (
        ({"bbox": [35, 0, 60, 3]}, ["prims.1", "prims.2"]),
        ({"bbox": "35,0,60,3"}, ["prims.1", "prims.2"]),
        (
            {
                "filter": {"op": "=", "args": [{"property": "name"}, "name-f001"]},
                "filter-lang": "cql2-json",
            },
            ["prims.1"],
        ),
        ({"filter": "BBOX(pointProperty,38,1,40,3)", "filter-lang": "cql-text"}, ["prims.1"]),
        ({"ids": ["prims.2", "prims.4"]}, ["prims.2", "prims.4"]),
        ({"ids": "prims.2,prims.4"}, ["prims.2", "prims.4"]),
        ({"datetime": "2006-10-25"}, ["prims.1"]),
        ({"sortby": ["-intProperty"], "limit": 2}, ["prims.3", "prims.1"]),
        ({"sortby": "-intProperty", "limit": 2}, ["prims.3", "prims.1"]),
    ):
        r = anon.post(url, content=json.dumps(body), headers={"Content-Type": "application/json"})
        assert r.status_code == 200, (body, r.text)
        assert [f["id"] for f in r.json()["features"]] == expected, body
    for bad in (
        b"[1]",
        b"{nope",
        json.dumps({"limit": "x"}).encode(),
        json.dumps({"bbox": 5}).encode(),
    ):
        r = anon.post(url, content=bad, headers={"Content-Type": "application/json"})
        assert r.status_code == 400, (bad, r.text)


def test_one_item_reads_what_geoserver_reads_for_it(anon, prims):
    r = anon.get(ITEMS + "/prims.2", params={"bbox": "35,0,60,3", "time": "2006-09-01"})
    assert r.status_code == 200
    assert anon.get(ITEMS + "/prims.2", params={"bbox": "0,0,1,1"}).status_code == 404
    assert anon.get(ITEMS + "/prims.2", params={"time": "2006-10-25"}).status_code == 404
    r = anon.get(ITEMS + "/prims.2", params={"filter": "name = 'nope'"})  # not read here
    assert r.status_code == 200
