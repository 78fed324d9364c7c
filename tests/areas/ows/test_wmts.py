"""WMTS 1.0.0 at /gwc/service/wmts: capabilities from the tile layers and gridsets, tiles."""

from __future__ import annotations

from io import BytesIO

import pytest
from lxml import etree
from PIL import Image

WMTS = "http://www.opengis.net/wmts/1.0"
OWS = "http://www.opengis.net/ows/1.1"
PROPS = b"_=name:String,geom:Polygon:srid=4326\nblocks.1=alpha|POLYGON((0 0,0 10,10 10,10 0,0 0))\n"
TILE = {
    "service": "WMTS",
    "request": "GetTile",
    "version": "1.0.0",
    "style": "",
    "tilematrixset": "EPSG:4326",
    "tilematrix": "EPSG:4326:2",
    "tilerow": 1,
    "tilecol": 4,
    "format": "image/png",
}


@pytest.fixture
def blocks(client):
    r = client.put(
        "/rest/workspaces/sf/datastores/blocks/file.properties",
        content=PROPS,
        headers={"Content-Type": "text/plain"},
    )
    assert r.status_code == 201, r.text
    return "sf:blocks"


def caps(client):
    r = client.get("/gwc/service/wmts", params={"service": "WMTS", "request": "GetCapabilities"})
    assert r.status_code == 200, r.text
    return etree.fromstring(r.content)


def test_capabilities_list_the_tile_layers_and_gridsets(emu, anon):
    root = caps(anon)
    assert root.tag == f"{{{WMTS}}}Capabilities" and root.get("version") == "1.0.0"
    ids = [e.text for e in root.iterfind(f"{{{WMTS}}}Contents/{{{WMTS}}}Layer/{{{OWS}}}Identifier")]
    catalog = emu.state.catalog
    visible = {x.prefixed for k, x in catalog.layers.items() if catalog.resources[k].enabled}
    visible |= {g.prefixed for g in catalog.layer_groups.values()}
    expected = sorted(n for n in emu.state.seeding.tile_layers if n in visible)
    assert ids == expected
    states = root.find(f".//{{{WMTS}}}Layer[{{{OWS}}}Identifier='topp:states']")
    assert states.findtext(f"{{{OWS}}}Title") == "USA Population"
    assert [f.text for f in states.iterfind(f"{{{WMTS}}}Format")] == ["image/png", "image/jpeg"]
    links = [
        t.text for t in states.iterfind(f"{{{WMTS}}}TileMatrixSetLink/{{{WMTS}}}TileMatrixSet")
    ]
    assert links == ["EPSG:4326", "EPSG:900913"]
    sets = {
        s.findtext(f"{{{OWS}}}Identifier"): s
        for s in root.iterfind(f"{{{WMTS}}}Contents/{{{WMTS}}}TileMatrixSet")
    }
    first = sets["EPSG:4326"].find(f"{{{WMTS}}}TileMatrix")
    assert first.findtext(f"{{{OWS}}}Identifier") == "EPSG:4326:0"
    assert first.findtext(f"{{{WMTS}}}TopLeftCorner") == "90.0 -180.0"
    assert (
        first.findtext(f"{{{WMTS}}}MatrixWidth"),
        first.findtext(f"{{{WMTS}}}MatrixHeight"),
    ) == ("2", "1")
    assert first.findtext(f"{{{WMTS}}}ScaleDenominator") == "2.795411320143589E8"
    assert len(sets["EPSG:900913"].findall(f"{{{WMTS}}}TileMatrix")) == 31


def test_a_disabled_tile_layer_is_not_listed(emu, anon):
    emu.state.seeding.tile_layers["topp:states"].enabled = False
    assert b"topp:states" not in etree.tostring(caps(anon))


def test_get_tile_draws_the_features_in_the_tile(anon, blocks):
    r = anon.get("/gwc/service/wmts", params={**TILE, "layer": blocks})
    img = Image.open(BytesIO(r.content))
    assert r.headers["content-type"] == "image/png" and img.size == (256, 256)
    assert img.getpixel((20, 240))[3] == 255  # the block, lower left of tile (1, 4)
    assert img.getpixel((200, 20))[3] == 0  # transparent elsewhere
    rest = anon.get(
        f"/gwc/service/wmts/rest/{blocks}/polygon/EPSG:4326/EPSG:4326:2/1/4?format=image/png"
    )
    assert rest.content == r.content
    jpeg = anon.get("/gwc/service/wmts", params={**TILE, "layer": blocks, "format": "image/jpeg"})
    assert jpeg.headers["content-type"] == "image/jpeg"


@pytest.mark.parametrize(
    "params,code,locator",
    [
        ({"tilerow": 9}, "TileOutOfRange", "TILEROW"),
        ({"tilecol": 99}, "TileOutOfRange", "TILECOL"),
        ({"layer": "nope"}, "InvalidParameterValue", "LAYER"),
        ({"tilematrixset": "nope"}, "InvalidParameterValue", "TILEMATRIXSET"),
        ({"tilematrix": "EPSG:4326:99"}, "InvalidParameterValue", "TILEMATRIX"),
        ({"format": "image/bmp"}, "InvalidParameterValue", "FORMAT"),
        ({"layer": ""}, "InvalidParameterValue", "LAYER"),  # GeoWebCache: "LAYER  is not known."
    ],
)
def test_tile_exceptions(anon, blocks, params, code, locator):
    r = anon.get("/gwc/service/wmts", params={**TILE, "layer": blocks, **params})
    assert r.status_code == 400
    e = etree.fromstring(r.content).find(f"{{{OWS}}}Exception")
    assert (e.get("exceptionCode"), e.get("locator")) == (code, locator)


def test_hidden_tile_layers(emu, anon, reader, blocks):
    emu.state.security.replace_rules("layers", {"*.*.r": "*", "sf.*.r": "ROLE_READER"})
    assert b"sf:blocks" not in etree.tostring(caps(anon))
    assert b"sf:blocks" in etree.tostring(caps(reader))
    r = anon.get("/gwc/service/wmts", params={**TILE, "layer": blocks})
    assert r.status_code == 400
    emu.state.security.set_catalog_mode("CHALLENGE")
    assert anon.get("/gwc/service/wmts", params={**TILE, "layer": blocks}).status_code == 401


def test_get_feature_info_on_a_tile(anon, blocks):
    params = {
        **TILE,
        "layer": blocks,
        "request": "GetFeatureInfo",
        "infoformat": "application/json",
    }
    doc = anon.get("/gwc/service/wmts", params={**params, "i": 20, "j": 240}).json()
    assert [f["id"] for f in doc["features"]] == ["blocks.1"]
    doc = anon.get("/gwc/service/wmts", params={**params, "i": 200, "j": 20}).json()
    assert doc["features"] == []
    r = anon.get("/gwc/service/wmts", params={**params, "i": 999, "j": 20})
    assert r.status_code == 400


def test_a_workspace_style_is_named_prefixed_and_served_by_that_name(client):
    r = client.get("/gwc/service/wmts", params={"service": "WMTS", "request": "GetCapabilities"})
    root = etree.fromstring(r.content)
    layer = next(
        el
        for el in root.iter(f"{{{WMTS}}}Layer")
        if el.findtext(f"{{{OWS}}}Identifier") == "ne:boundary_lines"
    )
    assert layer.findtext(f"{{{WMTS}}}Style/{{{OWS}}}Identifier") == "ne:boundary_lines"
    params = {**TILE, "layer": "ne:boundary_lines", "style": "ne:boundary_lines"}
    r = client.get("/gwc/service/wmts", params=params)
    assert r.status_code == 200 and r.headers["content-type"] == "image/png", r.text[:300]


# -- dimensions: the tile layer's parameter filters -------------------------------------------

TIMED = (
    b"_=name:String,obs:java.util.Date,depth:Double,geom:Polygon:srid=4326\n"
    b"tb.1=a|2020-01-01T00:00:00Z|5|POLYGON((0 0,0 10,10 10,10 0,0 0))\n"
    b"tb.2=b|2020-01-02T00:00:00Z|5|POLYGON((0 0,0 10,10 10,10 0,0 0))\n"
)
XML = {"Content-Type": "application/xml"}
T1, T2 = "2020-01-01T00:00:00.000Z", "2020-01-02T00:00:00.000Z"


@pytest.fixture
def timed(client):
    r = client.put(
        "/rest/workspaces/sf/datastores/tb/file.properties",
        content=TIMED,
        headers={"Content-Type": "text/plain"},
    )
    assert r.status_code == 201, r.text
    body = (
        "<featureType><metadata><entry key='time'><dimensionInfo><enabled>true</enabled>"
        "<attribute>obs</attribute><presentation>LIST</presentation></dimensionInfo></entry>"
        "<entry key='elevation'><dimensionInfo><enabled>true</enabled><attribute>depth"
        "</attribute><presentation>LIST</presentation></dimensionInfo></entry>"
        "</metadata></featureType>"
    )
    r = client.put("/rest/workspaces/sf/datastores/tb/featuretypes/tb", content=body, headers=XML)
    assert r.status_code == 200, r.text
    assert client.get("/gwc/rest/layers/sf:tb.xml").status_code == 200
    return "sf:tb"


def _filters(client, name, filters_xml):
    body = (
        f"<GeoServerLayer><enabled>true</enabled><name>{name}</name>"
        "<mimeFormats><string>image/png</string></mimeFormats><gridSubsets>"
        "<gridSubset><gridSetName>EPSG:4326</gridSetName></gridSubset></gridSubsets>"
        f"<parameterFilters>{filters_xml}</parameterFilters></GeoServerLayer>"
    )
    r = client.put(f"/gwc/rest/layers/{name}.xml", content=body, headers=XML)
    assert r.status_code == 200, r.text


def _info_ids(client, name, **extra):
    params = {
        **TILE,
        "layer": name,
        "request": "GetFeatureInfo",
        "infoformat": "application/json",
        "i": 20,
        "j": 240,
        **extra,
    }
    r = client.get("/gwc/service/wmts", params=params)
    assert r.status_code == 200, r.text
    return sorted(f["id"] for f in r.json()["features"])


def test_without_a_time_filter_gettile_ignores_time(client, timed):
    # GeoWebCache passes on only the parameters its filters name: the layer's default time
    assert _info_ids(client, timed) == ["tb.2"]
    assert _info_ids(client, timed, time=T1) == ["tb.2"]
    layer = next(
        e
        for e in caps(client).iter(f"{{{WMTS}}}Layer")
        if e.findtext(f"{{{OWS}}}Identifier") == timed
    )
    assert layer.find(f"{{{WMTS}}}Dimension") is None
    assert "&TIME=" not in layer.find(f"{{{WMTS}}}ResourceURL").get("template")


def test_time_and_elevation_filters_are_wmts_dimensions(client, timed):
    _filters(
        client,
        timed,
        "<styleParameterFilter><key>STYLES</key><defaultValue></defaultValue>"
        "</styleParameterFilter>"
        f"<stringParameterFilter><key>TIME</key><defaultValue>{T1}</defaultValue>"
        f"<values><string>{T1}</string><string>{T2}</string></values></stringParameterFilter>"
        "<floatParameterFilter><key>ELEVATION</key><defaultValue></defaultValue>"
        "<values><float>5.0</float><float>7.5</float></values><threshold>0.5</threshold>"
        "</floatParameterFilter>"
        "<regexParameterFilter><key>CQL_FILTER</key><defaultValue></defaultValue>"
        "<regex>.*</regex></regexParameterFilter>",
    )
    layer = next(
        e
        for e in caps(client).iter(f"{{{WMTS}}}Layer")
        if e.findtext(f"{{{OWS}}}Identifier") == timed
    )
    dims = layer.findall(f"{{{WMTS}}}Dimension")
    # no STYLES, and no regular expression filter (it has no legal values)
    assert [d.findtext(f"{{{OWS}}}Identifier") for d in dims] == ["TIME", "ELEVATION"]
    assert dims[0].findtext(f"{{{WMTS}}}Default") == T1
    assert [v.text for v in dims[0].findall(f"{{{WMTS}}}Value")] == [T1, T2]
    assert dims[1].findtext(f"{{{WMTS}}}Default") == "_empty"
    assert [v.text for v in dims[1].findall(f"{{{WMTS}}}Value")] == ["5.0", "7.5"]
    # the schema's order: after the formats, before the matrix set links
    names = [etree.QName(c).localname for c in layer if isinstance(c.tag, str)]
    assert names.index("InfoFormat") < names.index("Dimension") < names.index("TileMatrixSetLink")
    template = layer.find(f"{{{WMTS}}}ResourceURL").get("template")
    assert template.endswith("?format=image/png&TIME={TIME}&ELEVATION={ELEVATION}")
    # GetTile and GetFeatureInfo: the filter's default, or the value as the filter applies it
    assert _info_ids(client, timed) == ["tb.1"]
    assert _info_ids(client, timed, time=T2) == ["tb.2"]
    assert _info_ids(client, timed, time=T2, elevation="5.2") == ["tb.2"]
    assert _info_ids(client, timed, time=T2, elevation="7.5") == []
    tile = {**TILE, "layer": timed}
    first = client.get("/gwc/service/wmts", params=tile).content
    assert client.get("/gwc/service/wmts", params={**tile, "time": T1}).content == first
    rest = f"/gwc/service/wmts/rest/{timed}/polygon/EPSG:4326/EPSG:4326:2/1/4?format=image/png"
    assert client.get(rest + f"&TIME={T1}").content == first
    # a value a filter refuses: GeoWebCache's ParameterException (500, NoApplicableCode)
    for extra, message in (
        ({"time": "2021-01-01"}, "2021-01-01 violates filter for parameter TIME"),
        (
            {"elevation": "9"},
            "Closest match for ELEVATION=9 is 7.5, but this exceeds the threshold of 0.5",
        ),
    ):
        r = client.get("/gwc/service/wmts", params={**tile, **extra})
        assert r.status_code == 500
        e = etree.fromstring(r.content).find(f"{{{OWS}}}Exception")
        assert e.get("exceptionCode") == "NoApplicableCode"
        assert e.findtext(f"{{{OWS}}}ExceptionText") == message


def test_an_integer_filter_refuses_a_value_beyond_any_number(client, timed):
    # a value no number holds is refused as any other value the filter cannot read
    _filters(
        client,
        timed,
        "<integerParameterFilter><key>ELEVATION</key><defaultValue></defaultValue>"
        "<values><int>5</int></values><threshold>1</threshold></integerParameterFilter>",
    )
    huge = "9" * 400
    for value in (huge, "1.5"):
        r = client.get("/gwc/service/wmts", params={**TILE, "layer": timed, "elevation": value})
        assert r.status_code == 500
        e = etree.fromstring(r.content).find(f"{{{OWS}}}Exception")
        assert e.get("exceptionCode") == "NoApplicableCode"
        assert e.findtext(f"{{{OWS}}}ExceptionText") == (
            f"{value} violates filter for parameter ELEVATION"
        )
