"""The index: schema, granule listings (GML and GeoJSON) with filter and paging, single
granules, deletion by id and by filter with each purge mode, and their errors."""

from __future__ import annotations

import pytest
from lxml import etree

ATOM = "{http://www.w3.org/2005/Atom}link"


@pytest.fixture
def mosaic(wcs, client, m):
    """watertemp with four granules: elevations 0 and 100, days 2008-10-31 and 2008-11-01."""
    r = m.put_mosaic(client, m.watertemp(elevations=(0, 100)))
    assert r.status_code == 200, r.text
    return client


def locations(client, url: str) -> list[str]:
    r = client.get(url)
    assert r.status_code == 200, r.text
    return [f["properties"]["location"] for f in r.json()["features"]]


# -- schema -----------------------------------------------------------------------------------


def test_schema_xml(mosaic, m):
    r = mosaic.get(f"{m.INDEX}.xml")
    assert r.status_code == 200
    assert r.headers["content-type"] == "application/xml"
    doc = etree.fromstring(r.content)
    assert doc.tag == "Schema"
    attrs = doc.findall("attributes/Attribute")
    assert [a.findtext("name") for a in attrs] == ["the_geom", "location", "ingestion", "elevation"]
    assert [a.findtext("binding") for a in attrs] == [
        "org.locationtech.jts.geom.MultiPolygon",
        "java.lang.String",
        "java.util.Date",
        "java.lang.Integer",
    ]
    assert attrs[1].findtext("length") == "254"
    assert attrs[0].findtext("minOccurs") == "0" and attrs[0].findtext("nillable") == "true"
    link = doc.find(ATOM)
    assert link.get("href") == f"http://localhost:8080/geoserver{m.INDEX}/granules.xml"


def test_schema_json_and_negotiation(mosaic, m):
    body = mosaic.get(f"{m.INDEX}.json").json()
    attrs = body["Schema"]["attributes"]["Attribute"]
    assert len(attrs) == 4 and attrs[0]["binding"] == "org.locationtech.jts.geom.MultiPolygon"
    assert body["Schema"]["href"].endswith("/index/granules.json")
    assert mosaic.get(m.INDEX, headers={"Accept": "application/json"}).json() == body
    assert mosaic.get(m.INDEX).headers["content-type"] == "application/xml"
    assert mosaic.get(f"{m.INDEX}.html").status_code == 406


def test_schema_of_a_database_index(wcs, client, m):
    files = m.watertemp()
    files["datastore.properties"] = (
        "SPI=org.geotools.data.postgis.PostgisNGDataStoreFactory\nhost=db\n"
    )
    files["indexer.properties"] = (
        "TimeAttribute=time\n"
        "Schema=the_geom:Polygon,location:String,imageindex:Integer,time:java.util.Date,"
        "elevation:Double,fileDate:java.util.Date,updated:java.util.Date\n"
        "PropertyCollectors=TimestampFileNameExtractorSPI[timeregex](time),"
        "FSDateExtractorSPI(fileDate),CurrentDateExtractorSPI(updated),"
        "DoubleFileNameExtractorSPI[elevationregex](elevation)\n"
    )
    assert m.put_mosaic(client, files).status_code == 200
    attrs = client.get(f"{m.INDEX}.json").json()["Schema"]["attributes"]["Attribute"]
    assert [(a["name"], a["binding"]) for a in attrs] == [
        ("the_geom", "org.locationtech.jts.geom.Polygon"),
        ("location", "java.lang.String"),
        ("imageindex", "java.lang.Integer"),
        ("time", "java.sql.Timestamp"),
        ("elevation", "java.lang.Double"),
        ("fileDate", "java.sql.Timestamp"),
        ("updated", "java.sql.Timestamp"),
    ]
    assert all("length" not in a for a in attrs)
    feature = client.get(f"{m.INDEX}/granules.json").json()["features"][0]
    assert feature["geometry"]["type"] == "Polygon"
    props = feature["properties"]
    assert props["imageindex"] == 0 and props["elevation"] == 0.0
    assert props["time"] == "2008-10-31T00:00:00.000+0000"
    # the emulated clock starts at 2026-01-01: the upload time is both the file and the index date
    assert props["fileDate"] == props["updated"] == "2026-01-01T00:00:00.000+0000"
    xml = client.get(f"{m.INDEX}/granules.xml").content
    assert b"<gf:elevation>0.0</gf:elevation>" in xml


def test_schema_errors(mosaic, m, client):
    r = client.get(
        "/rest/workspaces/nowhere/coveragestores/watertemp/coverages/watertemp/index.xml"
    )
    assert (r.status_code, r.text) == (404, "No such workspace : nowhere")
    r = client.get("/rest/workspaces/wcs/coveragestores/nope/coverages/watertemp/index.xml")
    assert (r.status_code, r.text) == (404, "No such coverage store: nope")
    r = client.get(f"{m.ROOT}/coverages/nope/index.xml")
    assert (r.status_code, r.text) == (404, "No such coverage in store: nope")
    for method in ("POST", "PUT", "DELETE"):
        assert client.request(method, f"{m.INDEX}.xml").status_code == 405


def test_schema_of_a_coverage_that_is_not_a_mosaic(client):
    r = client.get(
        "/rest/workspaces/nurc/coveragestores/arcGridSample/coverages/Arc_Sample/index.xml"
    )
    assert r.status_code == 500
    assert "not a structured grid coverage reader" in r.text


def test_schema_follows_a_renamed_coverage(mosaic, m):
    body = "<coverage><name>renamed</name></coverage>"
    r = mosaic.put(
        f"{m.ROOT}/coverages/watertemp", content=body, headers={"Content-Type": "text/xml"}
    )
    assert r.status_code == 200
    assert mosaic.get(f"{m.ROOT}/coverages/renamed/index.xml").status_code == 200
    fids = [
        f["id"]
        for f in mosaic.get(f"{m.ROOT}/coverages/renamed/index/granules.json").json()["features"]
    ]
    assert fids[0] == "watertemp.1"


# -- granule listings -------------------------------------------------------------------------


def test_granules_gml(mosaic, m):
    r = mosaic.get(f"{m.INDEX}/granules.xml")
    assert r.status_code == 200 and r.headers["content-type"] == "application/xml"
    doc = etree.fromstring(r.content)
    assert doc.tag == "{http://www.opengis.net/wfs}FeatureCollection"
    members = doc.findall(f"{m.GML}featureMember/{m.GF}watertemp")
    assert [f.get("fid") for f in members] == [
        "watertemp.1",
        "watertemp.2",
        "watertemp.3",
        "watertemp.4",
    ]
    first = members[0]
    assert first.findtext(f"{m.GF}location") == m.granule_name(0, "20081031")
    assert first.findtext(f"{m.GF}ingestion") == "2008-10-31T00:00:00Z"
    assert first.findtext(f"{m.GF}elevation") == "0"
    ring = first.findtext(
        f"{m.GF}the_geom/{m.GML}MultiPolygon/{m.GML}polygonMember/{m.GML}Polygon/"
        f"{m.GML}outerBoundaryIs/{m.GML}LinearRing/{m.GML}coordinates"
    )
    assert ring == "0.0,44.0 0.0,45.0 1.0,45.0 1.0,44.0 0.0,44.0"
    box = doc.find(f"{m.GML}boundedBy/{m.GML}Box")
    assert box.get("srsName") == "http://www.opengis.net/gml/srs/epsg.xml#4326"
    assert [c.findtext(f"{m.GML}X") for c in box] == ["0.0", "4.0"]
    assert members[3].findtext(f"{m.GF}elevation") == "100"


def test_granules_geojson(mosaic, m):
    body = mosaic.get(f"{m.INDEX}/granules.json").json()
    assert body["type"] == "FeatureCollection"
    assert body["bbox"] == [0.0, 44.0, 4.0, 45.0]
    assert body["crs"] == {"type": "name", "properties": {"name": "EPSG:4326"}}
    f = body["features"][1]
    assert f["id"] == "watertemp.2"
    assert f["properties"] == {
        "location": m.granule_name(0, "20081101"),
        "ingestion": "2008-11-01T00:00:00.000+0000",
        "elevation": 0,
    }
    assert f["geometry"]["type"] == "MultiPolygon"


def test_limit_and_offset(mosaic, m):
    names = locations(mosaic, f"{m.INDEX}/granules.json?limit=2&offset=1")
    assert names == [m.granule_name(0, "20081101"), m.granule_name(100, "20081031")]
    assert len(locations(mosaic, f"{m.INDEX}/granules.json?offset=10")) == 0


@pytest.mark.parametrize(
    ("query", "message"),
    [
        ("offset=-1", "Invalid offset value: -1"),
        ("limit=0", "Invalid limit value: null"),
        ("limit=0&offset=3", "Invalid limit value: 3"),
        (
            "limit=x",
            "Failed to convert value of type 'java.lang.String' to required type "
            "'java.lang.Integer'; For input string: \"x\"",
        ),
        ("filter=location%20LIKE", None),
    ],
)
def test_listing_errors(mosaic, m, query, message):
    r = mosaic.get(f"{m.INDEX}/granules.xml?{query}")
    assert r.status_code == 400
    if message is None:
        assert r.text.startswith("Invalid cql syntax: ")
    else:
        assert r.text == message


@pytest.mark.parametrize(
    ("cql", "expected"),
    [
        ("ingestion=2008-11-01T00:00:00Z", [("000", "20081101"), ("100", "20081101")]),
        ("elevation = 100 AND ingestion BEFORE 2008-11-01T00:00:00Z", [("100", "20081031")]),
        ("location LIKE '%_100_%'", [("100", "20081031"), ("100", "20081101")]),
        ("NOT (elevation > 0)", [("000", "20081031"), ("000", "20081101")]),
        ("elevation IN (100) OR location = 'nothing'", [("100", "20081031"), ("100", "20081101")]),
        ("BBOX(the_geom, 0.5, 44, 1.5, 45)", [("000", "20081031"), ("000", "20081101")]),
        (
            "ingestion DURING 2008-10-30T00:00:00Z/2008-11-01T00:00:00Z "
            "AND elevation BETWEEN 50 AND 150",
            [("100", "20081031")],
        ),
    ],
)
def test_filters(mosaic, m, cql, expected):
    names = locations(mosaic, f"{m.INDEX}/granules.json?filter={cql}")
    assert names == [m.granule_name(int(e), d) for e, d in expected]


# -- single granules ------------------------------------------------------------------------------


def test_single_granule_xml_and_json(mosaic, m):
    r = mosaic.get(f"{m.INDEX}/granules/watertemp.2.xml")
    doc = etree.fromstring(r.content)
    (feature,) = doc.findall(f"{m.GML}featureMember/{m.GF}watertemp")
    assert feature.get("fid") == "watertemp.2"
    assert mosaic.get(f"{m.INDEX}/granules/watertemp.2").content == r.content
    body = mosaic.get(f"{m.INDEX}/granules/watertemp.2.json").json()
    assert [f["id"] for f in body["features"]] == ["watertemp.2"]


def test_missing_granule(mosaic, m):
    r = mosaic.get(f"{m.INDEX}/granules/notThere")
    assert (r.status_code, r.text) == (
        404,
        "Could not find a granule with id notThere in coverage watertemp",
    )
    r = mosaic.get(f"{m.INDEX}/granules/notThere?quietOnNotFound=true")
    assert (r.status_code, r.text) == (404, "")


def test_delete_single_granule(mosaic, m):
    assert mosaic.delete(f"{m.INDEX}/granules/watertemp.1").status_code == 200
    assert mosaic.get(f"{m.INDEX}/granules/watertemp.1").status_code == 404
    assert len(locations(mosaic, f"{m.INDEX}/granules.json")) == 3
    # gsconfig's style, with a trailing "/.json"
    assert mosaic.delete(f"{m.INDEX}/granules/watertemp.2/.json").status_code == 200
    assert len(locations(mosaic, f"{m.INDEX}/granules.json")) == 2
    # deleting what is not there is not an error
    assert mosaic.delete(f"{m.INDEX}/granules/watertemp.2").status_code == 200
    # the file stays (purge defaults to none)
    assert (
        mosaic.get(f"/rest/resource/data/wcs/watertemp/{m.granule_name(0, '20081031')}").status_code
        == 200
    )


def test_delete_single_granule_purging(mosaic, m):
    r = mosaic.delete(f"{m.INDEX}/granules/watertemp.1?purge=all")
    assert r.status_code == 200
    assert (
        mosaic.get(f"/rest/resource/data/wcs/watertemp/{m.granule_name(0, '20081031')}").status_code
        == 404
    )


# -- deletion by filter ------------------------------------------------------------------------


def test_delete_by_filter(mosaic, m):
    r = mosaic.delete(f"{m.INDEX}/granules?filter=ingestion=2008-11-01T00:00:00Z")
    assert r.status_code == 200
    assert locations(mosaic, f"{m.INDEX}/granules.json") == [
        m.granule_name(0, "20081031"),
        m.granule_name(100, "20081031"),
    ]


def test_delete_everything(mosaic, m):
    assert mosaic.delete(f"{m.INDEX}/granules.xml").status_code == 200
    doc = etree.fromstring(mosaic.get(f"{m.INDEX}/granules.xml").content)
    assert doc.findall(f"{m.GML}featureMember") == []
    assert doc.findtext(f"{m.GML}boundedBy/{m.GML}null") == "unknown"


@pytest.fixture
def sidecars(wcs, client, m):
    """Four world-file granules g1..g4 with overviews and PAM metadata beside them."""
    files = {}
    for i in range(1, 5):
        files[f"g{i}.tif"] = m.geotiff(tiepoint=False, epsg=None)
        files[f"g{i}.tfw"] = m.world(float(i), 10.0, 1.0, 1.0)
        files[f"g{i}.tif.ovr"] = b"overview"
        files[f"g{i}.tif.aux.xml"] = "<PAMDataset/>"
    assert m.put_mosaic(client, files).status_code == 200
    return client


def remaining(client) -> set[str]:
    listing = client.get("/rest/resource/data/wcs/watertemp?format=json").json()
    return {c["name"] for c in listing["ResourceDirectory"]["children"]["child"]}


@pytest.mark.parametrize(
    ("purge", "gone"),
    [
        ("none", set()),
        ("NONE", set()),
        ("metadata", {"g3.tif.aux.xml"}),
        ("all", {"g3.tif", "g3.tif.ovr", "g3.tif.aux.xml", "g3.tfw"}),
    ],
)
def test_purge_modes(sidecars, m, purge, gone):
    before = remaining(sidecars)
    r = sidecars.delete(f"{m.INDEX}/granules?filter=location LIKE 'g3%25'&purge={purge}")
    assert r.status_code == 200
    assert locations(sidecars, f"{m.INDEX}/granules.json") == ["g1.tif", "g2.tif", "g4.tif"]
    assert before - remaining(sidecars) == gone


def test_bad_purge_value(sidecars, m):
    r = sidecars.delete(f"{m.INDEX}/granules?purge=some")
    assert r.status_code == 400
    assert r.text == "Invalid purge value some, allowed values are [NONE, METADATA, ALL]"
    assert len(locations(sidecars, f"{m.INDEX}/granules.json")) == 4


def test_delete_with_bad_filter_changes_nothing(mosaic, m):
    r = mosaic.delete(f"{m.INDEX}/granules?filter=elevation ==")
    assert r.status_code == 400 and r.text.startswith("Invalid cql syntax: ")
    assert len(locations(mosaic, f"{m.INDEX}/granules.json")) == 4


def test_update_bbox_after_delete(mosaic, m):
    mosaic.delete(f"{m.INDEX}/granules?filter=BBOX(the_geom, 2.5, 44, 4, 45)")
    box = mosaic.get(f"{m.ROOT}/coverages/watertemp.json").json()["coverage"]["nativeBoundingBox"]
    assert box["maxx"] == 4.0  # not updated by default
    mosaic.delete(f"{m.INDEX}/granules?filter=BBOX(the_geom, 1.5, 44, 4, 45)&updateBBox=true")
    box = mosaic.get(f"{m.ROOT}/coverages/watertemp.json").json()["coverage"]["nativeBoundingBox"]
    assert box["maxx"] == 1.0


def test_granule_methods_not_allowed(mosaic, m):
    assert mosaic.post(f"{m.INDEX}/granules", content=b"").status_code == 405
    assert mosaic.put(f"{m.INDEX}/granules.xml", content=b"").status_code == 405
    assert mosaic.put(f"{m.INDEX}/granules/watertemp.1", content=b"").status_code == 405


def test_anonymous_cannot_read_the_index(mosaic, anon, m):
    assert anon.get(f"{m.INDEX}.xml").status_code == 401
