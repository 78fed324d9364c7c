"""GetLegendGraphic (PNG, JPEG, GIF, GeoServer's JSON legend) and DescribeLayer."""

from __future__ import annotations

import json
from io import BytesIO

import pytest
from lxml import etree
from PIL import Image

LEGEND = {"service": "WMS", "version": "1.1.1", "request": "GetLegendGraphic"}


def legend(client, **params):
    return client.get("/wms", params={**LEGEND, **params})


def picture(r) -> Image.Image:
    assert r.status_code == 200 and r.headers["content-type"].startswith("image/"), r.text
    return Image.open(BytesIO(r.content))


def blend(hex_colour: str, opacity: float) -> tuple[int, int, int]:
    rgb = [int(hex_colour[i : i + 2], 16) for i in (1, 3, 5)]
    return tuple(round(c * opacity + 255 * (1 - opacity)) for c in rgb)


def test_one_rule_legend_is_the_icon_alone(anon):
    img = picture(legend(anon, layer="sf:archsites", format="image/png", style="point"))
    assert img.size == (20, 20)
    assert img.convert("RGB").getpixel((10, 10)) == (255, 0, 0)  # the red square mark
    assert img.convert("RGB").getpixel((0, 0)) == (255, 255, 255)


def test_rules_are_rows_with_their_titles(anon):
    img = picture(legend(anon, layer="topp:states", format="image/png")).convert("RGB")
    assert img.height == 80 and img.width > 20
    for row, colour in enumerate(("#4DFF4D", "#FF4D4D", "#4D4DFF")):
        got = img.getpixel((10, row * 20 + 10))
        assert all(abs(a - b) <= 1 for a, b in zip(got, blend(colour, 0.7), strict=True))
    # a title is drawn right of the icon (some dark pixels there)
    text = [img.getpixel((x, y)) for x in range(22, img.width) for y in range(0, 20)]
    assert any(sum(p) < 200 for p in text)


def test_size_rule_scale_and_forced_labels(anon):
    assert (
        picture(legend(anon, layer="topp:states", format="image/png", width=30, height=10)).height
        == 40
    )
    one = legend(anon, layer="sf:archsites", format="application/json", style="point", rule="rule1")
    assert [r["name"] for r in one.json()["Legend"][0]["rules"]] == ["rule1"]
    near = legend(anon, layer="tiger:poi", format="application/json", scale="10000").json()
    assert len(near["Legend"][0]["rules"]) == 1
    assert legend(anon, layer="tiger:poi", format="application/json", scale="50000").json() == {}
    plain = picture(legend(anon, layer="sf:archsites", format="image/png", style="point"))
    forced = picture(
        legend(
            anon,
            layer="sf:archsites",
            format="image/png",
            style="point",
            legend_options="forceLabels:on",
        )
    )
    assert plain.width == 20 and forced.width > 20


@pytest.mark.parametrize(
    "params,code",
    [
        ({"format": "image/png"}, "LayerNotDefined"),
        ({"layer": "topp:states"}, "MissingFormat"),
        ({"layer": "nope", "format": "image/png"}, "LayerNotDefined"),
        ({"layer": "topp:states", "format": "image/bmp"}, "InvalidFormat"),
        ({"layer": "topp:states", "format": "image/png", "style": "nope"}, "StyleNotDefined"),
        ({"layer": "topp:states", "format": "image/png", "width": "x"}, "InvalidParameterValue"),
    ],
)
def test_refusals(anon, h, params, code):
    r = legend(anon, **params)
    assert r.status_code == 200
    assert h.exception(r)[0] == code


def test_unknown_rule(anon, h):
    r = legend(anon, layer="topp:states", format="image/png", rule="nope")
    assert h.exception(r)[2] == "Specified style does not contains a rule named nope"


def test_formats(anon):
    assert legend(anon, layer="topp:states", format="image/jpeg").content[:2] == b"\xff\xd8"
    assert legend(anon, layer="topp:states", format="image/gif").content[:4] == b"GIF8"
    png = picture(
        legend(anon, layer="sf:archsites", format="image/png", style="point", transparent="true")
    )
    assert png.mode == "RGBA" and png.getpixel((0, 0))[3] == 0


def test_json_legend_structure(anon):
    r = legend(anon, layer="topp:states", format="application/json")
    assert r.headers["content-type"] == "application/json"
    doc = r.json()
    (layer,) = doc["Legend"]
    assert list(layer) == ["layerName", "title", "rules"]
    assert layer["layerName"] == "states" and layer["title"] == "USA Population"
    first = layer["rules"][0]
    assert first["title"] == "< 2M"
    assert first["filter"] == "[PERSONS < 2000000]"
    polygon = first["symbolizers"][0]["Polygon"]
    assert polygon["fill"] == "#4DFF4D" and polygon["fill-opacity"] == "0.7"
    assert "stroke" not in polygon  # the release popshade.sld strokes in its Boundary rule
    boundary = layer["rules"][3]["symbolizers"]
    assert (
        boundary[0]["Line"]["stroke"] == "#000000" and boundary[0]["Line"]["stroke-width"] == "0.2"
    )
    assert boundary[1]["Text"]["label"] == "[STATE_ABBR]"


def test_json_legend_of_points_and_rasters(anon):
    point = legend(anon, layer="tiger:poi", format="application/json").json()
    graphic = point["Legend"][0]["rules"][0]["symbolizers"][0]["Point"]
    assert graphic["size"] == "11" and graphic["graphics"][0]["mark"] == "circle"
    raster = legend(anon, layer="sf:sfdem", format="application/json").json()
    cmap = raster["Legend"][0]["rules"][0]["symbolizers"][0]["Raster"]["colormap"]
    assert cmap["type"] == "ramp"
    assert cmap["entries"][1] == {"label": None, "quantity": "1000", "color": "#00FF00"}


def test_group_legend_stacks_its_layers(anon):
    doc = legend(anon, layer="tasmania", format="application/json").json()
    assert [x["layerName"] for x in doc["Legend"]] == [
        "tasmania_state_boundaries",
        "tasmania_water_bodies",
        "tasmania_roads",
        "tasmania_cities",
    ]


def test_legend_of_a_hidden_layer(emu, anon, reader, h):
    emu.state.security.replace_rules("layers", {"*.*.r": "*", "topp.*.r": "ROLE_READER"})
    assert (
        h.exception(legend(anon, layer="topp:states", format="image/png"))[0] == "LayerNotDefined"
    )
    assert picture(legend(reader, layer="topp:states", format="image/png"))
    # a legend reads the layer's description only: CHALLENGE mode serves it (GeoServer's
    # secured feature type gives its schema at the metadata level), MIXED challenges
    emu.state.security.set_catalog_mode("CHALLENGE")
    assert picture(legend(anon, layer="topp:states", format="image/png"))
    emu.state.security.set_catalog_mode("MIXED")
    assert legend(anon, layer="topp:states", format="image/png").status_code == 401


def test_legends_are_deterministic(anon):
    a = legend(anon, layer="topp:states", format="image/png").content
    assert a == legend(anon, layer="topp:states", format="image/png").content


DESCRIBE = {"service": "WMS", "version": "1.1.1", "request": "DescribeLayer"}


def test_describe_layer_xml(anon):
    r = anon.get("/wms", params={**DESCRIBE, "layers": "topp:states,sf:sfdem"})
    assert r.headers["content-type"] == "application/vnd.ogc.wms_xml;charset=UTF-8"
    root = etree.fromstring(r.content)
    assert root.tag == "WMS_DescribeLayerResponse" and root.get("version") == "1.1.1"
    states, dem = root.findall("LayerDescription")
    assert states.attrib == {
        "name": "topp:states",
        "wfs": "http://localhost:8080/geoserver/wfs?",
        "owsURL": "http://localhost:8080/geoserver/wfs?",
        "owsType": "WFS",
    }
    assert states.find("Query").get("typeName") == "topp:states"
    assert dem.get("owsType") == "WCS" and dem.get("owsURL").endswith("/wcs?")


def test_describe_layer_json_and_errors(anon, h):
    r = anon.get(
        "/wms", params={**DESCRIBE, "layers": "topp:states", "outputFormat": "application/json"}
    )
    assert json.loads(r.content)["layerDescriptions"][0]["owsType"] == "WFS"
    assert h.exception(anon.get("/wms", params=DESCRIBE))[:2] == ("MissingParameterValue", "layers")
    r = anon.get("/wms", params={**DESCRIBE, "layers": "nope"})
    assert h.exception(r)[0] == "LayerNotDefined"


LOCALIZED = """<?xml version="1.0" encoding="UTF-8"?>
<StyledLayerDescriptor version="1.0.0" xmlns="http://www.opengis.net/sld">
  <NamedLayer><Name>localized</Name><UserStyle><Name>{name}</Name><FeatureTypeStyle>
    <Rule><Name>only</Name>
      <Title>{default}<Localized lang="en">English</Localized>
        <Localized lang="de">Deutsch</Localized><Localized lang="it">Italiano</Localized>
      </Title>
      <PointSymbolizer><Graphic><Mark><WellKnownName>circle</WellKnownName></Mark>
        <Size>6</Size></Graphic></PointSymbolizer>
    </Rule>
  </FeatureTypeStyle></UserStyle></NamedLayer>
</StyledLayerDescriptor>"""


@pytest.mark.parametrize(
    "style,language,expected",
    [
        ("with_default", "en", "English"),
        ("with_default", "de", "Deutsch"),
        ("with_default", "it", "Italiano"),
        ("with_default", "rm", "Default label"),
        ("with_default", None, "Default label"),
        ("with_default", "it,fr,de", "Default label"),  # one locale, not a list
        ("no_default", "it", "Italiano"),
        ("no_default", "rm", ""),
        ("no_default", None, ""),
    ],
)
def test_localized_rule_titles_follow_the_language(client, anon, style, language, expected):
    body = LOCALIZED.format(name=style, default="Default label" if style == "with_default" else "")
    r = client.post(
        f"/rest/styles?name={style}",
        content=body.encode(),
        headers={"Content-Type": "application/vnd.ogc.sld+xml"},
    )
    assert r.status_code == 201, r.text
    params = {"layer": "sf:archsites", "format": "application/json", "style": style}
    if language is not None:
        params["language"] = language
    doc = legend(anon, **params).json()
    assert doc["Legend"][0]["rules"][0]["title"] == expected
