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
        ({"layer": ""}, "MissingParameterValue", "layer"),
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
