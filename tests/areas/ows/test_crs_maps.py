"""Maps in any CRS: data held in one CRS (the Spearfish layers' EPSG:26713, ETRS89) drawn where
it belongs in a map of another (EPSG:4326 both ways round, EPSG:3857, AUTO), GetFeatureInfo
on such a map, WMTS tiles of a gridset in a projected CRS, and the CRS errors per version.
Expected pixels come from pyproj called directly."""

from __future__ import annotations

import functools
from io import BytesIO

import pytest
from PIL import Image
from pyproj import Transformer

RED = (255, 0, 0)
WHITE = (255, 255, 255)
STYLE = b"""<?xml version="1.0" encoding="UTF-8"?>
<StyledLayerDescriptor version="1.0.0" xmlns="http://www.opengis.net/sld">
  <NamedLayer><Name>red</Name><UserStyle><Title>Red</Title><FeatureTypeStyle><Rule>
    <PolygonSymbolizer><Fill><CssParameter name="fill">#FF0000</CssParameter></Fill>
    </PolygonSymbolizer></Rule></FeatureTypeStyle></UserStyle></NamedLayer>
</StyledLayerDescriptor>"""
SQUARES = {  # lon/lat squares (their true place), each stored in the data's CRS
    "sf": [(-103.80, 44.40), (-103.70, 44.46)],
    "eu": [(10.0, 50.0), (12.0, 52.0)],
}
HALF = {"sf": 0.02, "eu": 0.5}


@functools.cache
def proj(source: str, target: str) -> Transformer:
    return Transformer.from_crs(source, target, always_xy=True)


def _ring(lon: float, lat: float, half: float, srid: int) -> str:
    corners = [(-1, -1), (-1, 1), (1, 1), (1, -1), (-1, -1)]
    to = proj("EPSG:4326", f"EPSG:{srid}")
    points = [to.transform(lon + dx * half, lat + dy * half) for dx, dy in corners]
    return ",".join(f"{x!r} {y!r}" for x, y in points)


def upload(client, name: str, srid: int, place: str) -> str:
    rows = [f"_=name:String,geom:Polygon:srid={srid}"]
    for i, (lon, lat) in enumerate(SQUARES[place]):
        rows.append(f"{name}.{i + 1}=square{i}|POLYGON(({_ring(lon, lat, HALF[place], srid)}))")
    r = client.put(
        f"/rest/workspaces/sf/datastores/{name}/file.properties",
        content=("\n".join(rows) + "\n").encode(),
        headers={"Content-Type": "text/plain"},
    )
    assert r.status_code == 201, r.text
    r = client.post(
        "/rest/styles?name=red",
        content=STYLE,
        headers={"Content-Type": "application/vnd.ogc.sld+xml"},
    )
    assert r.status_code == 201, r.text
    r = client.put(f"/rest/layers/sf:{name}", json={"layer": {"defaultStyle": {"name": "red"}}})
    assert r.status_code == 200, r.text
    return f"sf:{name}"


@pytest.fixture
def spearfish(client) -> str:
    """Two squares near Spearfish, held in EPSG:26713 (NAD27 / UTM 13N, as sf:* are)."""
    return upload(client, "spear", 26713, "sf")


def image(r) -> Image.Image:
    assert r.status_code == 200 and r.headers["content-type"] == "image/png", r.text
    return Image.open(BytesIO(r.content)).convert("RGB")


def getmap(client, **params: object):
    base = {"service": "WMS", "request": "GetMap", "styles": "", "format": "image/png"}
    return client.get("/wms", params={**base, **params})


def pixel(lon: float, lat: float, crs: str, bbox: tuple[float, ...], size: int) -> tuple[int, int]:
    """Where the map of ``bbox`` (x/y in ``crs``) of ``size`` pixels square draws a lon/lat."""
    x, y = proj("EPSG:4326", crs).transform(lon, lat)
    minx, miny, maxx, maxy = bbox
    return int((x - minx) / (maxx - minx) * size), int((maxy - y) / (maxy - miny) * size)


def around(crs: str, lon: float, lat: float, half: float) -> tuple[float, float, float, float]:
    """A map box (x/y in ``crs``) around a lon/lat."""
    to = proj("EPSG:4326", crs)
    x0, y0 = to.transform(lon - half, lat - half)
    x1, y1 = to.transform(lon + half, lat + half)
    return min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1)


@pytest.mark.parametrize("crs", ["EPSG:4326", "EPSG:3857", "EPSG:26713", "EPSG:32613"])
def test_spearfish_data_is_drawn_where_it_belongs_in_any_crs(anon, spearfish, crs):
    bbox = around(crs, -103.75, 44.43, 0.12)
    img = image(
        getmap(
            anon,
            version="1.1.1",
            layers=spearfish,
            srs=crs,
            bbox=",".join(map(repr, bbox)),
            width=300,
            height=300,
        )
    )
    for lon, lat in SQUARES["sf"]:
        assert img.getpixel(pixel(lon, lat, crs, bbox, 300)) == RED, (crs, lon, lat)
    assert img.getpixel(pixel(-103.75, 44.43, crs, bbox, 300)) == WHITE  # between the squares
    assert img.getpixel(pixel(-103.85, 44.34, crs, bbox, 300)) == WHITE


def test_wms_130_reads_epsg_4326_latitude_first(anon, spearfish):
    lonlat = around("EPSG:4326", -103.75, 44.43, 0.12)
    latlon = (lonlat[1], lonlat[0], lonlat[3], lonlat[2])
    img = image(
        getmap(
            anon,
            version="1.3.0",
            layers=spearfish,
            crs="EPSG:4326",
            bbox=",".join(map(repr, latlon)),
            width=300,
            height=300,
        )
    )
    for lon, lat in SQUARES["sf"]:
        assert img.getpixel(pixel(lon, lat, "EPSG:4326", lonlat, 300)) == RED
    flipped = image(
        getmap(
            anon,
            version="1.3.0",
            layers=spearfish,
            crs="CRS:84",
            bbox=",".join(map(repr, lonlat)),
            width=300,
            height=300,
        )
    )
    assert flipped.tobytes() == img.tobytes()  # CRS:84 is longitude first


def test_wms_130_reads_a_northing_first_projection_northing_first(client, anon):
    layer = upload(client, "europe", 4258, "eu")  # ETRS89, drawn in ETRS89-LAEA
    box = around("EPSG:3035", 11.0, 51.0, 3.0)
    north_first = (box[1], box[0], box[3], box[2])
    img = image(
        getmap(
            anon,
            version="1.3.0",
            layers=layer,
            crs="EPSG:3035",
            bbox=",".join(map(repr, north_first)),
            width=200,
            height=200,
        )
    )
    for lon, lat in SQUARES["eu"]:
        assert img.getpixel(pixel(lon, lat, "EPSG:3035", box, 200)) == RED
    same = image(
        getmap(
            anon,
            version="1.1.1",
            layers=layer,
            srs="EPSG:3035",  # 1.1.1: x/y whatever the database says
            bbox=",".join(map(repr, box)),
            width=200,
            height=200,
        )
    )
    assert same.tobytes() == img.tobytes()


def test_an_automatic_projection_centred_on_the_data(anon, spearfish):
    crs = "AUTO:42003,9001,-103.75,44.43"  # orthographic, centred on Spearfish
    img = image(
        getmap(
            anon,
            version="1.1.1",
            layers=spearfish,
            srs=crs,
            bbox="-10000,-10000,10000,10000",
            width=200,
            height=200,
        )
    )
    ortho = "+proj=ortho +lat_0=44.43 +lon_0=-103.75 +datum=WGS84 +type=crs"
    for lon, lat in SQUARES["sf"]:
        x, y = Transformer.from_crs("EPSG:4326", ortho, always_xy=True).transform(lon, lat)
        assert img.getpixel((int((x + 10000) / 100), int((10000 - y) / 100))) == RED


def test_data_past_the_maps_crs_domain_is_clipped_not_lost(client, anon):
    layer = upload(client, "north", 4326, "eu")
    img = image(
        getmap(
            anon,
            version="1.1.1",
            layers=layer,
            srs="EPSG:3857",
            bbox="-20037508,-20037508,20037508,20037508",
            width=256,
            height=256,
        )
    )
    x, y = pixel(11.0, 51.0, "EPSG:3857", (-20037508, -20037508, 20037508, 20037508), 256)
    # the square is about a pixel wide at this scale: antialiased, it tints its neighbours
    near = [img.getpixel((x + dx, y + dy)) for dx in (-1, 0, 1) for dy in (-1, 0, 1)]
    assert any(r > 200 and g < 200 and b < 200 for r, g, b in near[:9]), near


def test_feature_info_on_a_reprojected_map(anon, spearfish):
    bbox = around("EPSG:4326", -103.75, 44.43, 0.12)
    i, j = pixel(-103.80, 44.40, "EPSG:4326", bbox, 300)
    params = {
        "service": "WMS",
        "request": "GetFeatureInfo",
        "version": "1.1.1",
        "layers": spearfish,
        "query_layers": spearfish,
        "styles": "",
        "srs": "EPSG:4326",
        "bbox": ",".join(map(repr, bbox)),
        "width": 300,
        "height": 300,
        "x": i,
        "y": j,
        "info_format": "application/json",
    }
    doc = anon.get("/wms", params=params).json()
    assert [f["properties"]["name"] for f in doc["features"]] == ["square0"]
    assert doc["crs"]["properties"]["name"] == "urn:ogc:def:crs:EPSG::4326"
    ring = doc["features"][0]["geometry"]["coordinates"][0]
    lons, lats = [p[0] for p in ring], [p[1] for p in ring]
    assert min(lons) == pytest.approx(-103.82, abs=1e-4)  # the map's CRS, longitude first
    assert max(lats) == pytest.approx(44.42, abs=1e-4)
    nothing = anon.get("/wms", params={**params, "x": 150, "y": 150}).json()
    assert nothing["features"] == []


def test_feature_info_keeps_the_datas_crs_when_reprojection_is_disabled(settings, anon, spearfish):
    settings.services[("wms", None)] = {"featuresReprojectionDisabled": True}
    bbox = around("EPSG:4326", -103.75, 44.43, 0.12)
    i, j = pixel(-103.80, 44.40, "EPSG:4326", bbox, 300)
    doc = anon.get(
        "/wms",
        params={
            "service": "WMS",
            "request": "GetFeatureInfo",
            "version": "1.1.1",
            "layers": spearfish,
            "query_layers": spearfish,
            "styles": "",
            "srs": "EPSG:4326",
            "bbox": ",".join(map(repr, bbox)),
            "width": 300,
            "height": 300,
            "x": i,
            "y": j,
            "info_format": "application/json",
        },
    ).json()
    assert doc["crs"]["properties"]["name"] == "urn:ogc:def:crs:EPSG::26713"
    x = doc["features"][0]["geometry"]["coordinates"][0][0][0]
    assert 590000 < x < 610000  # UTM eastings


@pytest.mark.parametrize(
    ("version", "key", "code", "locator", "message"),
    [
        ("1.1.1", "srs", "InvalidSRS", "srs", "Error occurred decoding the espg code EPSG:999999"),
        ("1.3.0", "crs", "InvalidCRS", "crs", "Error occurred decoding the espg code EPSG:999999"),
    ],
)
def test_an_undecodable_crs(anon, h, version, key, code, locator, message):
    r = getmap(
        anon,
        version=version,
        layers="topp:states",
        bbox="0,0,1,1",
        width=10,
        height=10,
        **{key: "EPSG:999999"},
    )
    assert r.status_code == 200
    assert h.exception(r) == (code, locator, message)


def test_wmts_tiles_of_a_gridset_in_the_datas_projected_crs(client, anon, spearfish):
    gridset = """<gridSet><name>utm13</name><srs><number>26713</number></srs>
      <extent><coords><double>580000</double><double>4900000</double><double>620000</double>
      <double>4940000</double></coords></extent><alignTopLeft>false</alignTopLeft>
      <resolutions><double>156.25</double><double>78.125</double></resolutions>
      <metersPerUnit>1.0</metersPerUnit><pixelSize>2.8E-4</pixelSize>
      <scaleNames><string>utm13:0</string><string>utm13:1</string></scaleNames>
      <tileHeight>256</tileHeight><tileWidth>256</tileWidth>
      <yCoordinateFirst>false</yCoordinateFirst></gridSet>"""
    r = client.put(
        "/gwc/rest/gridsets/utm13", content=gridset, headers={"Content-Type": "text/xml"}
    )
    assert r.status_code in (200, 201), r.text
    layer = f"""<GeoServerLayer><name>{spearfish}</name><enabled>true</enabled>
      <mimeFormats><string>image/png</string></mimeFormats>
      <gridSubsets><gridSubset><gridSetName>utm13</gridSetName></gridSubset></gridSubsets>
      </GeoServerLayer>"""
    r = client.put(
        f"/gwc/rest/layers/{spearfish}.xml", content=layer, headers={"Content-Type": "text/xml"}
    )
    assert r.status_code == 200, r.text
    caps = anon.get("/gwc/service/wmts", params={"request": "GetCapabilities"}).text
    assert "<ows:SupportedCRS>urn:ogc:def:crs:EPSG::26713</ows:SupportedCRS>" in caps
    assert "<TopLeftCorner>580000.0 4940000.0</TopLeftCorner>" in caps  # x first: GWC's flag
    tile = anon.get(
        "/gwc/service/wmts",
        params={
            "service": "WMTS",
            "request": "GetTile",
            "version": "1.0.0",
            "layer": spearfish,
            "style": "",
            "tilematrixset": "utm13",
            "tilematrix": "utm13:0",
            "tilerow": 0,
            "tilecol": 0,
            "format": "image/png",
        },
    )
    assert tile.status_code == 200, tile.text
    img = Image.open(BytesIO(tile.content)).convert("RGBA")
    for lon, lat in SQUARES["sf"]:
        x, y = proj("EPSG:4326", "EPSG:26713").transform(lon, lat)
        px, py = int((x - 580000) / 156.25), int((4940000 - y) / 156.25)
        assert img.getpixel((px, py))[:3] == RED
