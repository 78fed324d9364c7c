"""Reading WMS 1.1.1/1.3.0 and WMTS 1.0.0 capabilities documents."""

from __future__ import annotations

import pytest

from geoserver_emulator.areas.cascade import capabilities
from geoserver_emulator.areas.catalog.entities import BBox
from geoserver_emulator.core.errors import Invalid

from .conftest import payload


def test_wms_130_layers_inherit_and_unflip():
    caps = capabilities.parse(payload("wms130.xml"))
    assert (caps.service, caps.version) == ("WMS", "1.3.0")
    assert caps.formats == ("image/png", "image/jpeg", "image/gif")
    assert [lyr.name for lyr in caps.layers] == ["topp:states", "world4326", "anotherLayer"]
    states = caps.layer("topp:states")
    assert states is not None and states.keywords == ("census", "states")
    # EPSG:4326 in 1.3.0 is written latitude first: read back east/north
    assert states.bboxes == (BBox(-124.73, -66.97, 24.96, 49.37, "EPSG:4326"),)
    assert [s.name for s in states.styles] == ["default", "population", "pophatch"]
    assert states.styles[1].legend_width == 20 and states.styles[1].legend_format == "image/png"
    world = caps.layer("world4326")
    assert world is not None and world.bboxes == (BBox(-180, 180, -90, 90, "EPSG:4326"),)
    assert world.latlon == BBox(-180, 180, -90, 90, "EPSG:4326")
    assert caps.layer("nope") is None


def test_wms_111_with_its_dtd_doctype():
    caps = capabilities.parse(payload("wms111.xml"))
    assert (caps.service, caps.version) == ("WMS", "1.1.1")
    root, roads = caps.layers
    assert root.name == "root" and root.bboxes == ()
    assert roads.bboxes == (BBox(-10, 5, 35, 45, "EPSG:4326"),)  # 1.1.1: never flipped
    assert roads.latlon == root.latlon == BBox(-10, 5, 35, 45, "EPSG:4326")


def test_wmts_100():
    caps = capabilities.parse(payload("wmts100.xml"))
    assert (caps.service, caps.formats) == ("WMTS", ("image/png", "image/jpeg"))
    snow, basemap = caps.layers
    assert snow.name == "AMSR2_Snow_Water_Equivalent" and snow.abstract == "Daily snow"
    assert snow.styles[0].legend_url == "http://tiles.example.com/legend.png"
    assert basemap.bboxes[0].crs == "EPSG:3857" and basemap.latlon is not None


@pytest.mark.parametrize(
    ("name", "code"),
    [
        ("urn:ogc:def:crs:EPSG::3857", "EPSG:3857"),
        ("urn:ogc:def:crs:EPSG:6.18:3:4326", "EPSG:4326"),
        ("http://www.opengis.net/def/crs/EPSG/0/2154", "EPSG:2154"),
        ("urn:ogc:def:crs:OGC:1.3:CRS84", "CRS:84"),
        ("epsg:4326", "EPSG:4326"),
        ("AUTO:42001", "AUTO:42001"),
    ],
)
def test_crs_codes(name, code):
    assert capabilities.crs_code(name) == code


@pytest.mark.parametrize(
    ("document", "message"),
    [
        (b"", "Empty"),
        (b"<html><body>404</body></html>", "root element <html>"),
        (b"<WMS_Capabilities version='1.3.0'/>", "no <Capability>"),
        (b"<WMS_Capabilities", "Malformed"),
        (
            b'<!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]><x>&e;</x>',
            "DOCTYPE",
        ),
    ],
)
def test_refusals(document, message):
    with pytest.raises(Invalid) as caught:
        capabilities.parse(document)
    assert message in caught.value.message
