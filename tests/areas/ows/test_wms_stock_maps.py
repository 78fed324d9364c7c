"""Maps of the stock layers with their default styles: the colours the styles give at known
points, raster colour maps, labels without overlaps, and the drawing pieces (expressions,
dashes) the stock styles use."""

from __future__ import annotations

import json
from io import BytesIO

import numpy as np
import pytest
from PIL import Image

from geoserver_emulator import Emulator, stockdata
from geoserver_emulator.areas.wms import expressions, glyphs, labels, paint, symbolizers

MAP = {"service": "WMS", "version": "1.1.1", "request": "GetMap", "styles": "",
       "srs": "EPSG:4326", "format": "image/png"}  # fmt: skip
RECODE = {1: "#8dd3c7", 2: "#ffffb3", 3: "#bebada", 4: "#fb8072", 5: "#80b1d3",
          6: "#fdb462", 7: "#b3de69", 8: "#fccde5", 9: "#d9d9d9"}  # fmt: skip
INSERT_ROAD = """<wfs:Transaction service="WFS" version="1.1.0" xmlns:wfs="http://www.opengis.net/wfs"
    xmlns:gml="http://www.opengis.net/gml" xmlns:sf="http://www.openplans.org/spearfish">
  <wfs:Insert><sf:roads><sf:the_geom><gml:MultiLineString srsName="EPSG:26713">
    <gml:lineStringMember><gml:LineString>
      <gml:posList>590000 4920000 608000 4920000</gml:posList>
    </gml:LineString></gml:lineStringMember>
  </gml:MultiLineString></sf:the_geom><sf:label>Main</sf:label></sf:roads></wfs:Insert>
</wfs:Transaction>"""


def getmap(client, **params) -> Image.Image:
    r = client.get("/wms", params={**MAP, **params})
    assert r.status_code == 200 and r.headers["content-type"] == "image/png", r.text[:300]
    return Image.open(BytesIO(r.content)).convert("RGB")


def over_white(hex_colour: str, opacity: float) -> tuple[int, int, int]:
    rgb = paint.colour(hex_colour)[:3]
    return tuple(round(c * opacity + 255 * (1 - opacity)) for c in rgb)


def near(found, expected, tolerance: int = 3) -> bool:
    return all(abs(a - b) <= tolerance for a, b in zip(found, expected, strict=True))


def at(image: Image.Image, bbox: tuple[float, ...], lon: float, lat: float):
    x = (lon - bbox[0]) / (bbox[2] - bbox[0]) * image.width
    y = (bbox[3] - lat) / (bbox[3] - bbox[1]) * image.height
    return image.getpixel((int(x), int(y)))


def mapcolor9(client, iso: str) -> int:
    params = {"service": "WFS", "version": "2.0.0", "request": "GetFeature",
              "typeNames": "ne:countries", "CQL_FILTER": f"ADM0_A3='{iso}'",
              "outputFormat": "application/json", "propertyName": "MAPCOLOR9"}  # fmt: skip
    r = client.get("/wfs", params=params)
    return json.loads(r.content)["features"][0]["properties"]["MAPCOLOR9"]


def test_countries_are_filled_by_their_map_colour_and_the_sea_is_the_background(client):
    bbox = (-180.0, -90.0, 180.0, 90.0)
    image = getmap(client, layers="ne:countries", bbox="-180,-90,180,90", width=720, height=360)
    for iso, lon, lat in (("BRA", -62, -8), ("RUS", 130, 65), ("AUS", 120, -25), ("USA", -110, 35)):
        expected = over_white(RECODE[mapcolor9(client, iso)], 0.75)
        assert near(at(image, bbox, lon, lat), expected), iso
    assert at(image, bbox, -30, 0) == (255, 255, 255)  # the Atlantic
    assert at(image, bbox, -150, -30) == (255, 255, 255)  # the Pacific


def test_country_labels_are_drawn_in_the_styles_grey_without_overlaps(client):
    bbox = "-12,34,32,60"  # about 1:30,000,000 at 600 pixels: the last label rule
    image = np.asarray(getmap(client, layers="ne:countries", bbox=bbox, width=600, height=360))
    greys = np.all(np.abs(image.astype(int) - 0x77) <= 8, axis=2)
    assert greys.sum() > 20  # the labels' text (#777777), antialiased over the fills
    plain = np.asarray(getmap(client, layers="ne:countries", styles="ne:countries_basemap",
                              bbox=bbox, width=600, height=360))  # fmt: skip
    assert np.all(np.abs(plain.astype(int) - 0x77) <= 8, axis=2).sum() == 0


def test_the_label_cache_places_the_higher_priority_label_and_drops_what_overlaps():
    from shapely.geometry import Point

    cache = labels.LabelCache(200, 100)
    image = Image.new("RGBA", (40, 10), (0, 0, 0, 255))
    cache.add(Point(50, 50), image, None, 0.0, False, priority=1.0, space=0.0)
    cache.add(Point(60, 50), image, None, 0.0, False, priority=5.0, space=0.0)
    cache.add(Point(150, 50), image, None, 0.0, False, priority=1.0, space=0.0)
    cache.add(Point(199, 50), image, None, 0.0, False, priority=9.0, space=0.0)  # partial
    placed: list[tuple[float, float]] = []
    assert cache.place(lambda im, x, y: placed.append((x, y))) == 2
    assert placed == [(40.0, 45.0), (130.0, 45.0)]


def test_the_states_population_classes_in_a_tile(client):
    r = client.get("/gwc/service/wmts", params={
        "service": "WMTS", "request": "GetTile", "version": "1.0.0", "layer": "topp:states",
        "tilematrixset": "EPSG:4326", "tilematrix": "EPSG:4326:0", "tilerow": "0",
        "tilecol": "0", "format": "image/png", "style": ""})  # fmt: skip
    assert r.status_code == 200, r.text
    image = Image.open(BytesIO(r.content)).convert("RGBA")  # transparent: the fills' alpha
    colours = {c for _, c in image.getcolors(1 << 16)}
    for hex_colour in ("#4D4DFF", "#4DFF4D", "#FF4D4D"):
        assert any(near(c, paint.colour(hex_colour, 0.7)) for c in colours), hex_colour


def test_arc_sample_draws_its_precipitation_through_the_rain_colour_map(client):
    bbox = (-180.0, -90.0, 180.0, 90.0)
    image = getmap(client, layers="nurc:Arc_Sample", bbox="-180,-90,180,90", width=720, height=360)
    grid = stockdata.load_grid("nurc", "Arc_Sample")
    quantities = [0, 100, 2000, 5000]
    rgb = np.array([paint.colour(c)[:3] for c in ("#FF0000", "#FFFFFF", "#00FF00", "#0000FF")])
    for lon, lat in ((10.25, 22.25), (-60.25, -3.25), (120.25, 45.25), (0.25, -60.25)):
        col, row = int((lon + 180) * 2), int((90 - lat) * 2)
        value = float(grid.pixels[0, row, col])
        expected = [round(np.interp(value, quantities, rgb[:, i])) for i in range(3)]
        assert near(at(image, bbox, lon, lat), expected, 2), (lon, lat, value)
    assert at(image, bbox, 0, 89) == (255, 255, 255)  # no-data north of 87°N: not drawn


def test_a_feature_inserted_into_an_empty_stock_layer_is_drawn_with_its_style(emu, client_for):
    other = Emulator("stock")
    mine, theirs = client_for(), client_for(emulator=other)
    r = mine.post("/wfs", content=INSERT_ROAD)
    assert r.status_code == 200 and b"totalInserted>1<" in r.content, r.text
    stock = stockdata.load("sf", "roads")
    assert stock is not None and stock.features == ()
    params = {"layers": "sf:roads", "srs": "EPSG:26713", "width": 200, "height": 100,
              "bbox": "589000,4915000,609000,4925000"}  # fmt: skip
    drawn = np.asarray(getmap(mine, **params))
    assert (drawn != 255).any(axis=2)[50].sum() > 150  # the road across the middle
    assert (np.asarray(getmap(theirs, **params)) == 255).all()


def test_svg_maps_carry_the_labels_and_the_fills(client):
    params = {"layers": "topp:states", "bbox": "-125,24,-66,50", "width": 590, "height": 260}
    r = client.get("/wms", params={**MAP, **params, "format": "image/svg+xml"})
    assert r.status_code == 200
    text = r.text
    assert text.count("<path") > 49 and ">TX</text>" in text and 'fill="#4d4dff"' in text


@pytest.mark.parametrize(
    "xml,props,env,expected",
    [
        ('<Function name="Recode"><PropertyName>k</PropertyName><Literal>1</Literal>'
         "<Literal>one</Literal><Literal>2</Literal><Literal>two</Literal></Function>",
         {"k": 2.0}, {}, "two"),
        ('<Function name="Categorize"><PropertyName>k</PropertyName><Literal>low</Literal>'
         "<Literal>10</Literal><Literal>high</Literal></Function>", {"k": 10}, {}, "high"),
        ('<Function name="if_then_else"><Function name="lessThan"><PropertyName>n</PropertyName>'
         "<Literal>8</Literal></Function><Literal>short</Literal><Literal>long</Literal>"
         "</Function>", {"n": 9}, {}, "long"),
        ('<Function name="Recode"><Function name="language"/><Literal/><PropertyName>a'
         "</PropertyName><Literal>it</Literal><PropertyName>b</PropertyName></Function>",
         {"a": "Italy", "b": "Italia"}, {"language": "it"}, "Italia"),
        ("<Sub><Literal>50</Literal><PropertyName>r</PropertyName></Sub>", {"r": 6}, {}, 44.0),
        ("x <PropertyName>a</PropertyName> y", {"a": 3.0}, {}, "x3y"),
        ('<Function name="nosuchfunction"/>', {}, {}, None),
    ],
)  # fmt: skip
def test_expressions(xml, props, env, expected):
    from lxml import etree

    root = etree.fromstring(
        f'<CssParameter xmlns="http://www.opengis.net/ogc">{xml}</CssParameter>'
    )
    assert expressions.evaluate(expressions.parse(root), props, env) == expected


def test_dashes_and_strokes():
    pieces = paint.dashed([0.0, 0.0, 10.0, 0.0], (2.0, 1.0))
    assert [p[0] for p in pieces] == [0.0, 3.0, 6.0, 9.0]
    assert [p[-2] for p in pieces] == [2.0, 5.0, 8.0, 10.0]
    stroke = paint.stroke_of({"stroke": "#D3C2A8", "stroke-width": "0.5",
                              "stroke-dasharray": "3 1.5", "stroke-linecap": "round"})  # fmt: skip
    assert stroke == paint.Stroke((211, 194, 168, 255), 0.5, (3.0, 1.5), "round", "miter")
    assert paint.stroke_of({"stroke-dasharray": "1 2 3"}).dash == (1.0, 2.0, 3.0, 1.0, 2.0, 3.0)


def test_the_stock_styles_read_the_columns_the_stock_data_has():
    from pathlib import Path

    sld = (
        Path(stockdata.__file__).parents[1] / "scenarios/stock/styles/ne/countries.sld"
    ).read_bytes()
    names = {a.name for a in stockdata.load("ne", "countries").attributes}
    read = set()

    def walk(expr):
        if expr.kind == "property":
            read.add(expr.value)
        for a in expr.args:
            walk(a)

    for rule in symbolizers.rules(sld):
        for sym in rule.symbolizers:
            for _, _, expr in sym.dynamic:
                walk(expr)
            if sym.label_expr is not None:
                walk(sym.label_expr)
    assert read == {"MAPCOLOR9", "NAME", "NAME_IT", "NAME_FR", "NAME_LEN", "ABBREV"}
    assert read <= names
    assert glyphs.font_size("1e9") == glyphs.MAX_SIZE
