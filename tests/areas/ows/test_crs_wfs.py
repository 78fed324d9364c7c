"""WFS in any CRS: ``srsName`` (output coordinates, their axis order and the ``srsName``
written per spelling, as GeoServer's own ``SrsNameRequestTest`` tabulates), ``BBOX`` with and
without a CRS, GeoJSON, ``featureBounding``, the capabilities' CRSs, a transaction in another
CRS, and unknown CRSs. Expected coordinates come from pyproj called directly."""

from __future__ import annotations

import functools

import pytest
from lxml import etree
from pyproj import Transformer

GML32 = "http://www.opengis.net/gml/3.2"
GML = "http://www.opengis.net/gml"
WFS20 = "http://www.opengis.net/wfs/2.0"
WFS = "http://www.opengis.net/wfs"
OWS11 = "http://www.opengis.net/ows/1.1"
LON, LAT = 34.94, -10.52
POINTS = (
    "_=name:String,geom:Point:srid=4326\n"
    f"spot.1=one|POINT({LON} {LAT})\n"
    "spot.2=two|POINT(30 -5)\n"
    "spot.3=three|POINT(40 -20)\n"
)
UTM = ((591000.0, 4915000.0), (605000.0, 4925000.0))  # two points near Spearfish


@functools.cache
def proj(source: str, target: str) -> Transformer:
    return Transformer.from_crs(source, target, always_xy=True)


@pytest.fixture
def spots(client) -> str:
    r = client.put(
        "/rest/workspaces/sf/datastores/spot/file.properties",
        content=POINTS.encode(),
        headers={"Content-Type": "text/plain"},
    )
    assert r.status_code == 201, r.text
    return "sf:spot"


@pytest.fixture
def sites(client) -> str:
    rows = ["_=name:String,geom:Point:srid=26713"]
    rows += [f"site.{i + 1}=s{i + 1}|POINT({x!r} {y!r})" for i, (x, y) in enumerate(UTM)]
    r = client.put(
        "/rest/workspaces/sf/datastores/site/file.properties",
        content=("\n".join(rows) + "\n").encode(),
        headers={"Content-Type": "text/plain"},
    )
    assert r.status_code == 201, r.text
    return "sf:site"


def get_feature(client, version: str, typename: str, **params: str) -> etree._Element:
    key = "typenames" if version == "2.0.0" else "typename"
    query = {"service": "WFS", "request": "GetFeature", "version": version, key: typename}
    r = client.get("/wfs", params={**query, **params})
    assert r.status_code == 200, r.text
    return etree.fromstring(r.content)


def points(root: etree._Element) -> dict[str, tuple[str | None, str]]:
    """fid -> (srsName, coordinates text) of each point."""
    out = {}
    for feature in root.iter():
        fid = feature.get(f"{{{GML32}}}id") or feature.get(f"{{{GML}}}id") or feature.get("fid")
        if not fid or "." not in fid or etree.QName(feature).localname == "Point":
            continue
        point = next((p for p in feature.iter() if etree.QName(p).localname == "Point"), None)
        if point is None:
            continue
        pos = next(p for p in point.iter() if etree.QName(p).localname in ("pos", "coordinates"))
        out[fid] = (point.get("srsName"), pos.text)
    return out


HTTP_URL = "http://www.opengis.net/gml/srs/epsg.xml#4326"
URN = "urn:ogc:def:crs:EPSG::4326"
LON_LAT = f"{LON} {LAT}"
LAT_LON = f"{LAT} {LON}"


@pytest.mark.parametrize(
    ("srs_name", "written", "data"),
    [
        (None, URN, LAT_LON),
        ("EPSG:4326", HTTP_URL, LON_LAT),
        (HTTP_URL, HTTP_URL, LON_LAT),
        ("urn:x-ogc:def:crs:EPSG::4326", URN, LAT_LON),
        (URN, URN, LAT_LON),
        ("http://www.opengis.net/def/crs/EPSG/0/4326", URN, LAT_LON),
    ],
)
def test_wfs_20_srs_name_decides_spelling_and_axis_order(anon, spots, srs_name, written, data):
    extra = {"srsName": srs_name} if srs_name else {}
    found = points(get_feature(anon, "2.0.0", spots, **extra))
    assert found["spot.1"] == (written, data)


@pytest.mark.parametrize(
    ("srs_name", "bbox", "count"),
    [
        ("EPSG:4326", "-10.521,34.939,-10.519,34.941", 1),  # no CRS: the type's, latitude first
        ("EPSG:4326", "34.939,-10.521,34.941,-10.519", 0),
        ("EPSG:4326", "34.939,-10.521,34.941,-10.519,EPSG:4326", 1),
        ("EPSG:4326", "-10.521,34.939,-10.519,34.941,EPSG:4326", 0),
        (URN, f"-10.521,34.939,-10.519,34.941,{URN}", 1),
        (URN, f"34.939,-10.521,34.941,-10.519,{URN}", 0),
        (HTTP_URL, f"34.939,-10.521,34.941,-10.519,{HTTP_URL}", 1),
    ],
)
def test_wfs_20_bbox_axis_order(anon, spots, srs_name, bbox, count):
    root = get_feature(anon, "2.0.0", spots, srsName=srs_name, bbox=bbox)
    assert root.get("numberReturned") == str(count)


def test_wfs_10_is_longitude_first_whatever_the_spelling(anon, spots):
    found = points(get_feature(anon, "1.0.0", spots))
    assert found["spot.1"] == (HTTP_URL, f"{LON},{LAT}")
    root = get_feature(anon, "1.0.0", spots, bbox="34.9,-10.6,35,-10.5")
    assert len(points(root)) == 1


def test_projected_data_is_written_in_the_requested_crs(anon, sites):
    to = proj("EPSG:26713", "EPSG:4326")
    lon, lat = to.transform(*UTM[0])
    found = points(get_feature(anon, "1.1.0", sites, srsName="EPSG:4326"))
    srs, text = found["site.1"]
    assert srs == HTTP_URL
    assert [float(v) for v in text.split()] == pytest.approx([lon, lat], abs=1e-7)
    found = points(get_feature(anon, "1.1.0", sites, srsName="urn:x-ogc:def:crs:EPSG:4326"))
    srs, text = found["site.1"]
    assert srs == "urn:x-ogc:def:crs:EPSG:4326"
    assert [float(v) for v in text.split()] == pytest.approx([lat, lon], abs=1e-7)
    x, y = proj("EPSG:26713", "EPSG:3857").transform(*UTM[0])
    found = points(get_feature(anon, "2.0.0", sites, srsName="EPSG:3857"))
    srs, text = found["site.1"]
    assert srs == "http://www.opengis.net/gml/srs/epsg.xml#3857"
    assert [float(v) for v in text.split()] == pytest.approx([x, y], abs=1e-3)


def test_projected_data_in_its_own_crs(anon, sites):
    found = points(get_feature(anon, "1.1.0", sites))
    assert found["site.1"] == ("urn:x-ogc:def:crs:EPSG:26713", "591000 4915000")
    found = points(get_feature(anon, "1.0.0", sites))
    assert found["site.1"] == ("http://www.opengis.net/gml/srs/epsg.xml#26713", "591000,4915000")


def test_bbox_in_another_crs_is_transformed_into_the_datas(anon, sites):
    lon, lat = proj("EPSG:26713", "EPSG:4326").transform(*UTM[1])
    box = f"{lon - 0.001},{lat - 0.001},{lon + 0.001},{lat + 0.001},EPSG:4326"
    root = get_feature(anon, "2.0.0", sites, bbox=box)
    assert list(points(root)) == ["site.2"]
    x, y = proj("EPSG:26713", "EPSG:3857").transform(*UTM[0])
    box = f"{x - 50},{y - 50},{x + 50},{y + 50},urn:ogc:def:crs:EPSG::3857"
    assert list(points(get_feature(anon, "1.1.0", sites, bbox=box))) == ["site.1"]
    native = f"{UTM[0][0] - 1},{UTM[0][1] - 1},{UTM[0][0] + 1},{UTM[0][1] + 1}"
    assert list(points(get_feature(anon, "1.1.0", sites, bbox=native))) == ["site.1"]


def test_geojson_is_longitude_first_in_the_requested_crs(anon, sites):
    r = anon.get(
        "/wfs",
        params={
            "service": "WFS",
            "request": "GetFeature",
            "version": "2.0.0",
            "typenames": sites,
            "outputFormat": "application/json",
            "srsName": "urn:ogc:def:crs:EPSG::4326",
        },
    )
    doc = r.json()
    assert doc["crs"]["properties"]["name"] == "urn:ogc:def:crs:EPSG::4326"
    lon, lat = proj("EPSG:26713", "EPSG:4326").transform(*UTM[0])
    assert doc["features"][0]["geometry"]["coordinates"] == pytest.approx([lon, lat], abs=1e-7)


def test_feature_bounding_writes_each_features_box_in_the_output_crs(settings, anon, sites):
    settings.services[("wfs", None)] = {"featureBounding": True}
    root = get_feature(anon, "1.1.0", sites, srsName="urn:x-ogc:def:crs:EPSG:4326")
    envelopes = [e for e in root.iter(f"{{{GML}}}Envelope")]
    assert len(envelopes) == 2
    lon, lat = proj("EPSG:26713", "EPSG:4326").transform(*UTM[0])
    assert envelopes[0].get("srsName") == "urn:x-ogc:def:crs:EPSG:4326"
    lower = envelopes[0].findtext(f"{{{GML}}}lowerCorner")
    assert [float(v) for v in lower.split()] == pytest.approx([lat, lon], abs=1e-7)
    old = get_feature(anon, "1.0.0", sites)
    boxes = list(old.iter(f"{{{GML}}}Box"))
    assert len(boxes) == 3  # the collection's, then one per feature
    collection = boxes[0].findtext(f"{{{GML}}}coordinates")
    assert collection == "591000,4915000 605000,4925000"


def test_unknown_crss_are_invalid_parameter_values(anon):
    r = anon.get(
        "/wfs",
        params={
            "service": "WFS",
            "request": "GetFeature",
            "version": "2.0.0",
            "typenames": "topp:states",
            "srsName": "EPSG:XYZ",
        },
    )
    assert r.status_code == 400
    root = etree.fromstring(r.content)
    e = root.find(f"{{{OWS11}}}Exception")
    assert (e.get("exceptionCode"), e.get("locator")) == ("InvalidParameterValue", "srsName")
    assert "EPSG:XYZ" in e.findtext(f"{{{OWS11}}}ExceptionText")
    r = anon.get(
        "/wfs",
        params={
            "service": "WFS",
            "request": "GetFeature",
            "version": "1.1.0",
            "typename": "topp:states",
            "bbox": "0,0,1,1,EPSG:999999",
        },
    )
    assert r.status_code == 200
    assert b'exceptionCode="InvalidParameterValue"' in r.content and b'locator="bbox"' in r.content


def test_capabilities_list_the_other_crss_of_the_settings_and_the_type(settings, client, anon):
    settings.services[("wfs", None)] = {"srs": ["EPSG:3857", "EPSG:4326", "EPSG:26713"]}
    root = etree.fromstring(
        anon.get(
            "/wfs", params={"service": "WFS", "request": "GetCapabilities", "version": "2.0.0"}
        ).content
    )
    roads = next(
        f
        for f in root.iter(f"{{{WFS20}}}FeatureType")
        if f.findtext(f"{{{WFS20}}}Name") == "sf:roads"
    )
    assert roads.findtext(f"{{{WFS20}}}DefaultCRS") == "urn:ogc:def:crs:EPSG::26713"
    others = [e.text for e in roads.iterfind(f"{{{WFS20}}}OtherCRS")]
    assert others == ["urn:ogc:def:crs:EPSG::3857", "urn:ogc:def:crs:EPSG::4326"]
    r = client.put(
        "/rest/workspaces/sf/datastores/sf/featuretypes/roads",
        json={
            "featureType": {"overridingServiceSRS": True, "responseSRS": {"string": ["EPSG:32613"]}}
        },
    )
    assert r.status_code == 200, r.text
    root = etree.fromstring(
        anon.get(
            "/wfs", params={"service": "WFS", "request": "GetCapabilities", "version": "1.1.0"}
        ).content
    )
    roads = next(
        f for f in root.iter(f"{{{WFS}}}FeatureType") if f.findtext(f"{{{WFS}}}Name") == "sf:roads"
    )
    assert roads.findtext(f"{{{WFS}}}DefaultSRS") == "urn:x-ogc:def:crs:EPSG:26713"
    assert [e.text for e in roads.iterfind(f"{{{WFS}}}OtherSRS")] == [
        "urn:x-ogc:def:crs:EPSG:32613"
    ]


def test_the_srs_name_style_setting_spells_the_crss(settings, anon, spots):
    settings.services[("wfs", None)] = {"gml": {"V_20": {"srsNameStyle": "URL"}}}
    found = points(get_feature(anon, "2.0.0", spots))
    assert found["spot.1"] == ("http://www.opengis.net/def/crs/EPSG/0/4326", LAT_LON)


def test_a_transaction_in_another_crs_is_stored_in_the_types(client, spots):
    x, y = proj("EPSG:4326", "EPSG:3857").transform(12.5, 41.9)
    body = f"""<wfs:Transaction service="WFS" version="1.1.0" xmlns:wfs="{WFS}"
        xmlns:gml="{GML}" xmlns:sf="http://www.openplans.org/spearfish">
      <wfs:Insert><sf:spot><sf:name>rome</sf:name><sf:geom>
        <gml:Point srsName="EPSG:3857"><gml:pos>{x!r} {y!r}</gml:pos></gml:Point>
      </sf:geom></sf:spot></wfs:Insert></wfs:Transaction>"""
    r = client.post("/wfs", content=body, headers={"Content-Type": "text/xml"})
    assert r.status_code == 200 and b"totalInserted>1<" in r.content, r.text
    found = points(get_feature(client, "1.0.0", spots, bbox="12,41,13,42"))
    (coords,) = [text for _, text in found.values()]
    assert [float(v) for v in coords.split(",")] == pytest.approx([12.5, 41.9], abs=1e-7)
