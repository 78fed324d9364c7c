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
            layers="topp:states",
            srs="EPSG:4326",
            bbox="-130,20,-60,50",
            width=64,
            height=64,
        )
    )
    assert img.convert("RGB").getcolors() == [(64 * 64, (255, 255, 255))]


@pytest.mark.parametrize(
    "params,code",
    [
        ({"layers": ""}, "LayerNotDefined"),
        ({"layers": "nope"}, "LayerNotDefined"),
        ({"styles": "nope"}, "StyleNotDefined"),
        ({"styles": "a,b"}, "StyleNotDefined"),
        ({"srs": "nonsense"}, "InvalidSRS"),
        ({"bbox": "1,2,3"}, "InvalidParameterValue"),
        ({"bbox": "10,0,0,10"}, "InvalidParameterValue"),
        ({"width": "0"}, "InvalidParameterValue"),
        ({"width": "abc"}, "InvalidParameterValue"),
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
    r = getmap(anon, **{**base, **params})
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
    assert h.exception(r)[0] == "MissingParameterValue"
