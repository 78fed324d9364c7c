"""The release sample mosaic ``nurc:mosaic`` of the stock scenario: its shapefile index
(``mosaic.shp``: ``the_geom`` and ``location``) with the 25 granules whose footprints come
from the release world files, served by the index endpoints."""

from __future__ import annotations

import pytest
from lxml import etree

from geoserver_emulator import Emulator
from geoserver_emulator.areas.mosaics.sources import store_root

INDEX = "/rest/workspaces/nurc/coveragestores/mosaic/coverages/mosaic/index"
GRANULES = f"{INDEX}/granules"
GF = "{http://www.geoserver.org/rest/granules}"
ATOM = "{http://www.w3.org/2005/Atom}link"

# ``global_mosaic_<n>.pgw`` of data/release/coverages/mosaic_sample, as the files write them:
# pixel size x, pixel size y, then the centre of the upper-left pixel (x0 by column, y0 by row)
SX = {0: "0.057934032977228433", 3: "0.0579340329772284", 4: "0.05793403297722847"}
SY = "-0.04039598061277999"
X0 = ["6.375141924963005", "9.271843573824427", "12.168545222685848", "15.06524687154727",
      "17.96194852040869"]  # fmt: skip
Y0 = ["38.491372862272705", "40.511171892911705", "42.530970923550704", "44.550769954189704",
      "46.570568984828704"]  # fmt: skip
# mosaic.properties: Envelope2D=6.34617490847439,36.4917718219401 20.8296831527815,46.5907669751351
ENVELOPE = [6.34617490847439, 36.4917718219401, 20.8296831527815, 46.5907669751351]


def world_file_footprint(n: int) -> list[float]:
    """Granule ``n``'s footprint: the world file's upper-left pixel centre moved half a pixel
    to the corner, and 50 × 50 pixels from there."""
    column, row = n % 5, n // 5
    sx, sy = float(SX.get(column, SX[0])), float(SY)
    minx, maxy = float(X0[column]) - sx / 2, float(Y0[row]) - sy / 2
    return [minx, maxy + 50 * sy, minx + 50 * sx, maxy]


LOCATIONS = sorted(f"global_mosaic_{n}.tif" for n in range(25))
"""the index order: the granule files sorted by name"""


def locations(client, url: str) -> list[str]:
    r = client.get(url)
    assert r.status_code == 200, r.text
    return [f["properties"]["location"] for f in r.json()["features"]]


# -- schema -----------------------------------------------------------------------------------


def test_schema_xml(client):
    r = client.get(f"{INDEX}.xml")
    assert r.status_code == 200
    assert r.headers["content-type"] == "application/xml"
    doc = etree.fromstring(r.content)
    attrs = doc.findall("attributes/Attribute")
    assert [(a.findtext("name"), a.findtext("binding"), a.findtext("length")) for a in attrs] == [
        ("the_geom", "org.locationtech.jts.geom.MultiPolygon", None),
        ("location", "java.lang.String", "254"),
    ]
    assert doc.find(ATOM).get("href") == f"http://localhost:8080/geoserver{GRANULES}.xml"
    assert client.get(INDEX).content == r.content


def test_schema_json(client):
    body = client.get(f"{INDEX}.json").json()
    assert body == {
        "Schema": {
            "attributes": {
                "Attribute": [
                    {
                        "name": "the_geom",
                        "minOccurs": 0,
                        "maxOccurs": 1,
                        "nillable": True,
                        "binding": "org.locationtech.jts.geom.MultiPolygon",
                    },
                    {
                        "name": "location",
                        "minOccurs": 0,
                        "maxOccurs": 1,
                        "nillable": True,
                        "binding": "java.lang.String",
                        "length": 254,
                    },
                ]
            },
            "href": f"http://localhost:8080/geoserver{GRANULES}.json",
        }
    }
    assert client.get(INDEX, headers={"Accept": "application/json"}).json() == body


def test_index_needs_an_administrator(anon):
    assert anon.get(f"{INDEX}.json").status_code == 401
    assert anon.get(f"{GRANULES}.json").status_code == 401


# -- granules ---------------------------------------------------------------------------------


def test_granules_geojson(client):
    body = client.get(f"{GRANULES}.json").json()
    assert body["type"] == "FeatureCollection"
    assert body["crs"] == {"type": "name", "properties": {"name": "EPSG:4326"}}
    assert body["bbox"] == ENVELOPE
    feats = body["features"]
    assert [f["id"] for f in feats] == [f"mosaic.{i}" for i in range(1, 26)]
    assert [f["properties"] for f in feats] == [{"location": loc} for loc in LOCATIONS]
    assert all(f["geometry"]["type"] == "MultiPolygon" for f in feats)


def test_granules_gml(client):
    r = client.get(f"{GRANULES}.xml")
    assert r.status_code == 200 and r.headers["content-type"] == "application/xml"
    doc = etree.fromstring(r.content)
    members = doc.findall("{http://www.opengis.net/gml}featureMember")
    assert len(members) == 25
    first = members[0].find(f"{GF}mosaic")
    assert first.get("fid") == "mosaic.1"
    assert first.findtext(f"{GF}location") == "global_mosaic_0.tif"
    assert [c.tag for c in first][1:] == [f"{GF}the_geom", f"{GF}location"]
    coords = first.findtext(".//{http://www.opengis.net/gml}LinearRing/{*}coordinates")
    assert coords == (
        "6.346175,36.491772 6.346175,38.511571 9.242877,38.511571 "
        "9.242877,36.491772 6.346175,36.491772"
    )
    assert client.get(GRANULES).content == r.content


def test_footprints_are_the_world_files(emu, client):
    """Every granule's footprint is its world file's (50 × 50 pixels); they tile the
    mosaic's envelope without gaps."""
    for i, location in enumerate(LOCATIONS, start=1):
        n = int(location.removeprefix("global_mosaic_").removesuffix(".tif"))
        body = client.get(f"{GRANULES}/mosaic.{i}.json").json()
        assert body["features"][0]["properties"] == {"location": location}
        assert body["bbox"] == world_file_footprint(n), location
    boxes = [world_file_footprint(n) for n in range(25)]
    for n in range(25):
        if n % 5 < 4:
            assert boxes[n][2] == boxes[n + 1][0]
        if n < 20:
            assert boxes[n][3] == boxes[n + 5][1]
    union = [min(b[0] for b in boxes), min(b[1] for b in boxes)]
    union += [max(b[2] for b in boxes), max(b[3] for b in boxes)]
    assert union == ENVELOPE


def test_limit_and_offset(client):
    assert locations(client, f"{GRANULES}.json?limit=3") == LOCATIONS[:3]
    assert locations(client, f"{GRANULES}.json?offset=23") == LOCATIONS[23:]
    assert locations(client, f"{GRANULES}.json?offset=10&limit=2") == LOCATIONS[10:12]
    assert locations(client, f"{GRANULES}.json?offset=30") == []
    doc = etree.fromstring(client.get(f"{GRANULES}.xml?offset=1&limit=2").content)
    assert [e.get("fid") for e in doc.iter(f"{GF}mosaic")] == ["mosaic.2", "mosaic.3"]
    r = client.get(f"{GRANULES}.json?limit=0")
    assert r.status_code == 400


@pytest.mark.parametrize(
    ("cql", "expected"),
    [
        ("location='global_mosaic_12.tif'", ["global_mosaic_12.tif"]),
        ("location LIKE 'global_mosaic_2%'", [loc for loc in LOCATIONS if "c_2" in loc]),
        ("location IN ('global_mosaic_0.tif', 'global_mosaic_24.tif')",
         ["global_mosaic_0.tif", "global_mosaic_24.tif"]),
        ("location='global_mosaic_0.png'", []),
        ("BBOX(the_geom, 6.5, 36.6, 6.6, 36.7)", ["global_mosaic_0.tif"]),
    ],
)  # fmt: skip
def test_filters(client, cql, expected):
    assert locations(client, f"{GRANULES}.json?filter={cql}") == expected


def test_filter_gml(client):
    doc = etree.fromstring(
        client.get(f"{GRANULES}.xml", params={"filter": "location='global_mosaic_7.tif'"}).content
    )
    (feature,) = doc.iter(f"{GF}mosaic")
    assert feature.get("fid") == f"mosaic.{LOCATIONS.index('global_mosaic_7.tif') + 1}"


def test_single_granule(client):
    body = client.get(f"{GRANULES}/mosaic.1.json").json()
    assert [f["id"] for f in body["features"]] == ["mosaic.1"]
    assert body["bbox"] == world_file_footprint(0)
    doc = etree.fromstring(client.get(f"{GRANULES}/mosaic.1.xml").content)
    assert [e.findtext(f"{GF}location") for e in doc.iter(f"{GF}mosaic")] == ["global_mosaic_0.tif"]
    r = client.get(f"{GRANULES}/mosaic.26")
    assert r.status_code == 404
    assert r.text == "Could not find a granule with id mosaic.26 in coverage mosaic"


def test_granules_can_be_deleted(client):
    assert client.delete(f"{GRANULES}?filter=location LIKE 'global_mosaic_1%'").status_code == 200
    assert len(locations(client, f"{GRANULES}.json")) == 25 - 11
    assert client.get(f"{GRANULES}/mosaic.2.json").status_code == 404


def test_a_coverage_configured_from_the_index(client):
    root = "/rest/workspaces/nurc/coveragestores/mosaic"
    r = client.post(
        f"{root}/coverages",
        content="<coverage><name>mosaic2</name></coverage>",
        headers={"Content-Type": "text/xml"},
    )
    assert r.status_code == 201, r.text
    cov = client.get(f"{root}/coverages/mosaic2.json").json()["coverage"]
    box = cov["nativeBoundingBox"]
    assert [box["minx"], box["miny"], box["maxx"], box["maxy"]] == ENVELOPE
    assert [d["name"] for d in cov["dimensions"]["coverageDimension"]] == [
        "RED_BAND",
        "GREEN_BAND",
        "BLUE_BAND",
    ]
    assert locations(client, f"{root}/coverages/mosaic2/index/granules.json") == LOCATIONS


# -- how it is declared -------------------------------------------------------------------------


def test_store_url_names_the_index_shapefile(emu):
    store = emu.state.catalog.coverage_store("nurc", "mosaic")
    assert store.url == "file:coverages/mosaic_sample/mosaic.shp"
    assert store_root(store.url) == "datadir:coverages/mosaic_sample"
    mosaic = emu.state.mosaics.get("datadir:coverages/mosaic_sample")
    assert mosaic is not None and mosaic.indexer.source is None
    # no indexer file is made up: the release folder has none
    assert not [p for p in emu.state.datadir.files if p.startswith("coverages/")]


def test_stock_mosaic_dumps_and_reloads(tmp_path, emu):
    import json

    doc = emu.dump_scenario()
    entry = doc["mosaics"]["stores"][0]
    assert entry["folder"] == "coverages/mosaic_sample"
    assert "parameters" not in entry and "collectors" not in entry
    path = tmp_path / "dumped.json"
    path.write_text(json.dumps(doc))
    assert Emulator(path).dump_scenario()["mosaics"] == doc["mosaics"]
