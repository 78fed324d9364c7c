"""WMS GetMap (images of the requested size and format, the features held drawn with the
style's symbolizers) and GetFeatureInfo."""

from __future__ import annotations

from io import BytesIO

import pytest
from PIL import Image

PROPS = (
    b"_=name:String,pop:Integer,geom:Polygon:srid=4326\n"
    b"blocks.1=alpha|10|POLYGON((0 0,0 10,10 10,10 0,0 0))\n"
    b"blocks.2=beta|20|POLYGON((20 20,20 30,30 30,30 20,20 20))\n"
)
STYLE = b"""<?xml version="1.0" encoding="UTF-8"?>
<StyledLayerDescriptor version="1.0.0" xmlns="http://www.opengis.net/sld"
    xmlns:ogc="http://www.opengis.net/ogc">
  <NamedLayer><Name>blocks</Name><UserStyle><Title>Blocks</Title><FeatureTypeStyle>
    <Rule><Name>small</Name>
      <ogc:Filter><ogc:PropertyIsLessThan><ogc:PropertyName>pop</ogc:PropertyName>
        <ogc:Literal>15</ogc:Literal></ogc:PropertyIsLessThan></ogc:Filter>
      <PolygonSymbolizer><Fill><CssParameter name="fill">#FF0000</CssParameter></Fill>
      </PolygonSymbolizer></Rule>
    <Rule><Name>other</Name><ElseFilter/>
      <PolygonSymbolizer><Fill><CssParameter name="fill">#0000FF</CssParameter></Fill>
      </PolygonSymbolizer></Rule>
  </FeatureTypeStyle></UserStyle></NamedLayer>
</StyledLayerDescriptor>"""
MAP = {"service": "WMS", "request": "GetMap", "styles": "", "format": "image/png"}


@pytest.fixture
def blocks(client):
    r = client.put(
        "/rest/workspaces/sf/datastores/blocks/file.properties",
        content=PROPS,
        headers={"Content-Type": "text/plain"},
    )
    assert r.status_code == 201, r.text
    r = client.post(
        "/rest/styles?name=blocks",
        content=STYLE,
        headers={"Content-Type": "application/vnd.ogc.sld+xml"},
    )
    assert r.status_code == 201, r.text
    r = client.put("/rest/layers/sf:blocks", json={"layer": {"defaultStyle": {"name": "blocks"}}})
    assert r.status_code == 200, r.text
    return "sf:blocks"


def image(r) -> Image.Image:
    assert r.status_code == 200 and r.headers["content-type"].startswith("image/"), r.text
    return Image.open(BytesIO(r.content))


def getmap(client, **params):
    return client.get("/wms", params={**MAP, **params})


def test_111_map_draws_each_feature_with_its_rule(anon, blocks):
    img = image(
        getmap(
            anon,
            version="1.1.1",
            layers=blocks,
            srs="EPSG:4326",
            bbox="0,0,40,40",
            width=400,
            height=400,
        )
    ).convert("RGB")
    assert img.size == (400, 400)
    assert img.getpixel((50, 350)) == (255, 0, 0)  # alpha (pop 10): the "small" rule
    assert img.getpixel((250, 150)) == (0, 0, 255)  # beta: the ElseFilter rule
    assert img.getpixel((350, 50)) == (255, 255, 255)  # nothing there


def test_130_geographic_bbox_is_latitude_first(anon, blocks):
    img = image(
        getmap(
            anon,
            version="1.3.0",
            layers=blocks,
            crs="EPSG:4326",
            bbox="0,0,40,80",
            width=200,
            height=100,
        )
    ).convert("RGB")
    # x spans 0..80 (longitude), y 0..40: alpha is at the lower left
    assert img.getpixel((10, 90)) == (255, 0, 0)
    assert img.getpixel((150, 50)) == (255, 255, 255)


def test_mercator_request_of_geographic_data(anon, blocks):
    img = image(
        getmap(
            anon,
            version="1.3.0",
            layers=blocks,
            crs="EPSG:3857",
            bbox="0,0,1200000,1200000",
            width=100,
            height=100,
        )
    ).convert("RGB")
    assert img.getpixel((50, 50)) == (255, 0, 0)


def test_named_style_transparent_and_bgcolor(anon, blocks):
    img = image(
        getmap(
            anon,
            version="1.1.1",
            layers=blocks,
            styles="polygon",
            srs="EPSG:4326",
            bbox="0,0,40,40",
            width=40,
            height=40,
            transparent="true",
        )
    )
    assert img.mode == "RGBA" and img.getpixel((39, 0))[3] == 0
    assert img.getpixel((5, 35))[:3] == (170, 170, 170)  # the default polygon grey
    img = image(
        getmap(
            anon,
            version="1.1.1",
            layers=blocks,
            srs="EPSG:4326",
            bbox="0,0,40,40",
            width=40,
            height=40,
            bgcolor="0x00FF00",
        )
    )
    assert img.convert("RGB").getpixel((39, 0)) == (0, 255, 0)


def test_formats_and_sizes(anon, blocks):
    base = {"version": "1.1.1", "layers": blocks, "srs": "EPSG:4326", "bbox": "0,0,40,40"}
    assert image(getmap(anon, **base, width=256, height=128, format="image/jpeg")).format == "JPEG"
    assert image(getmap(anon, **base, width=10, height=20, format="image/gif")).size == (10, 20)
    assert image(getmap(anon, **base, width=10, height=20, format="image/png8")).mode == "P"


def test_a_layer_without_features_draws_nothing(anon):
    img = image(
        getmap(
            anon,
            version="1.1.1",
            layers="tiger:poi",
            srs="EPSG:4326",
            bbox="-74.02,40.70,-74.00,40.72",
            width=64,
            height=64,
        )
    )
    assert img.convert("RGB").getcolors() == [(64 * 64, (255, 255, 255))]


@pytest.mark.parametrize(
    "params,code",
    [
        # GeoServer's reader names itself as the code of an empty LAYERS
        ({"layers": ""}, "org.geoserver.wms.map.GetMapKvpRequestReader"),
        ({"layers": "nope"}, "LayerNotDefined"),
        ({"styles": "nope"}, "StyleNotDefined"),
        ({"styles": "a,b"}, "StyleNotDefined"),
        ({"srs": "nonsense"}, "InvalidSRS"),
        # the BBOX and WIDTH parsers' refusals are Java exceptions: no code
        ({"bbox": "1,2,3"}, None),
        ({"bbox": "10,0,0,10"}, None),
        ({"bbox": "nan,0,10,10"}, None),
        ({"bbox": "-inf,0,inf,10"}, None),
        ({"bbox": "0,0,0,10"}, "InvalidBBox"),
        ({"bbox": None}, "MissingBBox"),
        ({"width": "0"}, "MissingOrInvalidParameter"),
        ({"width": None}, "MissingOrInvalidParameter"),
        ({"width": "abc"}, None),
        ({"format": "image/bmp"}, "InvalidFormat"),
        ({"bgcolor": "zz"}, "InvalidParameterValue"),
    ],
)
def test_getmap_refusals(anon, h, params, code):
    base = {
        "version": "1.1.1",
        "layers": "topp:states",
        "srs": "EPSG:4326",
        "bbox": "-130,20,-60,50",
        "width": 10,
        "height": 10,
    }
    query = {k: v for k, v in {**base, **params}.items() if v is not None}
    r = getmap(anon, **query)
    assert r.status_code == 200
    assert h.exception(r)[0] == code


def test_130_uses_invalid_crs(anon, h):
    r = getmap(
        anon,
        version="1.3.0",
        layers="topp:states",
        crs="nonsense",
        bbox="0,0,1,1",
        width=10,
        height=10,
    )
    assert h.exception(r)[0] == "InvalidCRS"


def test_size_limit_of_the_wms_settings(settings, anon, h):
    settings.services[("wms", None)] = {"maxRequestMemory": 100}
    r = getmap(
        anon,
        version="1.1.1",
        layers="topp:states",
        srs="EPSG:4326",
        bbox="0,0,1,1",
        width=200,
        height=200,
    )
    assert "maximum memory allowed is 100KB" in h.exception(r)[2]


def test_hidden_layer_on_getmap(emu, anon, reader, h):
    emu.state.security.replace_rules("layers", {"*.*.r": "*", "topp.*.r": "ROLE_READER"})
    base = {
        "version": "1.1.1",
        "layers": "topp:states",
        "srs": "EPSG:4326",
        "bbox": "0,0,1,1",
        "width": 10,
        "height": 10,
    }
    assert h.exception(getmap(anon, **base))[0] == "LayerNotDefined"
    assert image(getmap(reader, **base))
    emu.state.security.set_catalog_mode("MIXED")
    assert getmap(anon, **base).status_code == 401


def test_maps_are_deterministic(anon, blocks):
    params = {
        "version": "1.1.1",
        "layers": blocks,
        "srs": "EPSG:4326",
        "bbox": "0,0,40,40",
        "width": 64,
        "height": 64,
    }
    assert getmap(anon, **params).content == getmap(anon, **params).content


INFO = {
    "service": "WMS",
    "request": "GetFeatureInfo",
    "version": "1.1.1",
    "styles": "",
    "srs": "EPSG:4326",
    "bbox": "0,0,40,40",
    "width": 400,
    "height": 400,
}


def test_feature_info_formats(anon, blocks):
    params = {**INFO, "layers": blocks, "query_layers": blocks, "x": 50, "y": 350}
    doc = anon.get("/wms", params={**params, "info_format": "application/json"}).json()
    assert [f["id"] for f in doc["features"]] == ["blocks.1"]
    assert doc["features"][0]["properties"] == {"name": "alpha", "pop": 10}
    text = anon.get("/wms", params={**params, "info_format": "text/plain"}).text
    assert text.startswith("Results for FeatureType 'http://www.openplans.org/spearfish:blocks':")
    assert "name = alpha" in text
    gml = anon.get("/wms", params={**params, "info_format": "application/vnd.ogc.gml"})
    assert b'fid="blocks.1"' in gml.content
    html = anon.get("/wms", params={**params, "info_format": "text/html"}).text
    assert "<td>alpha</td>" in html
    empty = anon.get(
        "/wms", params={**params, "x": 390, "y": 10, "info_format": "application/json"}
    ).json()
    assert empty["features"] == []


def test_feature_info_130_and_refusals(anon, h, blocks):
    params = {
        **INFO,
        "version": "1.3.0",
        "crs": "EPSG:4326",
        "layers": blocks,
        "query_layers": blocks,
    }
    doc = anon.get(
        "/wms", params={**params, "i": 50, "j": 350, "info_format": "application/json"}
    ).json()
    assert [f["id"] for f in doc["features"]] == ["blocks.1"]
    r = anon.get("/wms", params={**params, "info_format": "application/json"})
    assert h.exception(r)[0] == "InvalidPoint"
    r = anon.get("/wms", params={**params, "i": 1, "j": 1, "info_format": "x/y"})
    assert h.exception(r)[0] == "InvalidFormat"
    r = anon.get("/wms", params={**params, "i": 1, "j": 1, "query_layers": ""})
    assert h.exception(r)[:2] == ("LayerNotQueryable", "QUERY_LAYERS")


# -- TIFF, GeoTIFF, SVG and the OpenLayers page -------------------------------------------

BASE = {"version": "1.1.1", "srs": "EPSG:4326", "bbox": "0,0,40,40", "width": 40, "height": 40}


@pytest.mark.parametrize(
    "fmt,mode,media",
    [
        ("image/tiff", "RGB", "image/tiff"),
        ("image/tiff8", "P", "image/tiff"),
        ("image/geotiff", "RGB", "image/geotiff"),
        ("image/geotiff8", "P", "image/geotiff"),
    ],
)
def test_tiff_maps_draw_the_features(anon, blocks, fmt, mode, media):
    r = getmap(anon, **BASE, layers=blocks, format=fmt)
    assert r.headers["content-type"] == media
    img = image(r)
    assert (img.format, img.mode, img.size) == ("TIFF", mode, (40, 40))
    rgb = img.convert("RGB")
    assert rgb.getpixel((5, 35)) == (255, 0, 0)
    assert rgb.getpixel((25, 15)) == (0, 0, 255)
    assert rgb.getpixel((35, 5)) == (255, 255, 255)
    tags = img.tag_v2
    if "geotiff" in fmt:
        assert tags[33550][:2] == (1.0, 1.0)  # degrees per pixel
        assert tags[33922][3:5] == (0.0, 40.0)  # the top left corner
        keys = tags[34735]
        assert keys[4:8] == (1024, 0, 1, 2)  # geographic model
        assert keys[12:16] == (2048, 0, 1, 4326)
    else:
        assert 33550 not in tags and 34735 not in tags
    assert getmap(anon, **BASE, layers=blocks, format=fmt).content == r.content


def test_geotiff_of_a_projected_map_names_its_crs(anon, blocks):
    params = {**BASE, "srs": "EPSG:3857", "bbox": "0,0,4452779.6,4865942.3"}
    img = image(getmap(anon, **params, layers=blocks, format="image/geotiff"))
    keys = img.tag_v2[34735]
    assert keys[4:8] == (1024, 0, 1, 1) and keys[12:16] == (3072, 0, 1, 3857)


def test_svg_map_is_a_document_of_the_drawn_features(anon, blocks):
    r = getmap(anon, **BASE, layers=blocks, format="image/svg+xml")
    assert r.status_code == 200 and r.headers["content-type"] == "image/svg+xml"
    from lxml import etree

    root = etree.fromstring(r.content)
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    assert (root.get("width"), root.get("height")) == ("40", "40")
    paths = root.findall("{http://www.w3.org/2000/svg}path")
    assert [p.get("fill") for p in paths] == ["#ff0000", "#0000ff"]
    assert paths[0].get("d") == "M0 40 L0 30 L10 30 L10 40 L0 40 Z"
    # opaque: a white background first; transparent: none
    assert root.find("{http://www.w3.org/2000/svg}rect").get("fill") == "#ffffff"
    clear = getmap(anon, **BASE, layers=blocks, format="image/svg+xml", transparent="true")
    assert b"<rect" not in clear.content
    assert getmap(anon, **BASE, layers=blocks, format="image/svg+xml").content == r.content


@pytest.mark.parametrize(
    "fmt", ["text/html; subtype=openlayers", "application/openlayers", "openlayers"]
)
def test_openlayers_page_shows_the_same_map(anon, blocks, fmt):
    r = getmap(anon, **BASE, layers=blocks, format=fmt)
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/html")
    page = r.text
    assert "<title>OpenLayers map preview: sf:blocks</title>" in page
    assert "/openlayers3/ol.js" in page
    config = page.split("var config = ", 1)[1].split(";\n", 1)[0]
    import json

    data = json.loads(config)
    assert data["url"].endswith("/wms")
    assert data["params"]["LAYERS"] == "sf:blocks" and data["params"]["FORMAT"] == "image/png"
    assert data["extent"] == [0.0, 0.0, 40.0, 40.0] and data["projection"] == "EPSG:4326"
    assert getmap(anon, **BASE, layers=blocks, format=fmt).content == r.content


@pytest.mark.parametrize(
    "fmt",
    [
        "application/pdf",
        "application/vnd.google-earth.kml+xml",
        "application/json;type=utfgrid",
        "application/vnd.mapbox-vector-tile",
    ],
)
def test_formats_not_made_answer_invalid_format(anon, h, blocks, fmt):
    r = getmap(anon, **BASE, layers=blocks, format=fmt)
    assert h.exception(r)[0] == "InvalidFormat"


@pytest.mark.parametrize("version", ["1.1.1", "1.3.0"])
def test_style_filters_past_their_time_bound_are_a_service_exception(
    anon, blocks, monkeypatch, h, version
):
    """The bound on evaluating a style's rule filters (docs/security.md) answers in the
    service's exception report, as any refusal of a WMS request does."""
    from geoserver_emulator.core.budget import Budget

    monkeypatch.setattr(Budget, "left", lambda self: -1.0)  # every budget already spent
    crs = {"srs": "EPSG:4326"} if version == "1.1.1" else {"crs": "CRS:84"}
    r = getmap(anon, version=version, layers=blocks, bbox="0,0,40,40", width=40, height=40, **crs)
    code, _, text = h.exception(r)
    assert r.status_code == 200 and code == "InvalidParameterValue"
    assert "style rule filters" in text
