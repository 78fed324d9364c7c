"""The CRSs capabilities documents list (the whole EPSG database unless the service settings
limit it, in GeoServer's order and spellings) and their bounding boxes in other CRSs."""

from __future__ import annotations

import pytest
from lxml import etree
from pyproj import Transformer

from geoserver_emulator.crs import lists, registry

WMS = "http://www.opengis.net/wms"
WCS20 = "http://www.opengis.net/wcs/2.0"
CRS_EXT = "http://www.opengis.net/wcs/crs/1.0"


def caps_text(client, service: str, version: str, path: str | None = None) -> bytes:
    r = client.get(
        path or f"/{service}",
        params={"service": service.upper(), "request": "GetCapabilities", "version": version},
    )
    assert r.status_code == 200, r.text
    return r.content


def root_layer(content: bytes, v13: bool) -> etree._Element:
    root = etree.fromstring(content)
    return root.find(f"{{{WMS}}}Capability/{{{WMS}}}Layer" if v13 else "Capability/Layer")


def test_wms_111_root_lists_every_code_of_the_database(anon):
    content = caps_text(anon, "wms", "1.1.1")
    top = root_layer(content, False)
    codes = [e.text for e in top.iterfind("SRS")]
    assert codes == list(lists.codes(lists.WMS_111))
    assert codes[:2] == ["AUTO:42001", "AUTO:42002"] and "EPSG:26713" in codes
    assert len(codes) == 8 + len(registry.codes("EPSG"))
    assert b"<!--All supported EPSG projections:-->\n      <SRS>AUTO:42001</SRS>" in content


def test_wms_130_root_lists_auto_crs_and_epsg(anon):
    content = caps_text(anon, "wms", "1.3.0")
    codes = [e.text for e in root_layer(content, True).iterfind(f"{{{WMS}}}CRS")]
    assert codes == list(lists.codes(lists.WMS_130))
    assert codes.count("CRS:84") == 1
    assert codes[8:12] == ["CRS:27", "CRS:83", "CRS:84", "EPSG:2000"]
    assert b"<!--All supported Coordinate Reference Systems:-->" in content


@pytest.mark.parametrize("version", ["1.1.1", "1.3.0"])
def test_a_limited_list_keeps_the_settings_order(settings, anon, version):
    settings.services[("wms", None)] = {"srs": ["EPSG:3857", "4326", "EPSG:3857", "CRS:84"]}
    v13 = version == "1.3.0"
    content = caps_text(anon, "wms", version)
    tag = f"{{{WMS}}}CRS" if v13 else "SRS"
    codes = [e.text for e in root_layer(content, v13).iterfind(tag)]
    assert codes == ["EPSG:3857", "EPSG:4326", "CRS:84"]
    assert b"<!--Limited list of EPSG projections:-->" in content


def test_wms_130_boxes_follow_the_databases_axis_order(settings, anon):
    settings.services[("wms", None)] = {
        "srs": ["EPSG:3035", "EPSG:26713", "EPSG:3857"],
        "bboxForEachCRS": True,
    }
    root = etree.fromstring(caps_text(anon, "wms", "1.3.0"))
    roads = next(
        layer
        for layer in root.iter(f"{{{WMS}}}Layer")
        if layer.findtext(f"{{{WMS}}}Name") == "sf:roads"
    )
    boxes = {b.get("CRS"): b for b in roads.iterfind(f"{{{WMS}}}BoundingBox")}
    assert list(boxes) == ["CRS:84", "EPSG:26713", "EPSG:3035", "EPSG:3857"]
    native = (589434.8564686741, 4914006.337837095, 609527.2102150217, 4928063.398014731)
    utm = boxes["EPSG:26713"]
    assert float(utm.get("minx")) == pytest.approx(native[0])  # easting first in EPSG too
    t = Transformer.from_crs("EPSG:26713", "EPSG:3035", always_xy=True)
    east, north = t.transform_bounds(*native, densify_pts=50)[:2]
    laea = boxes["EPSG:3035"]  # ETRS89-LAEA: northing first
    assert float(laea.get("minx")) == pytest.approx(north, rel=1e-6)
    assert float(laea.get("miny")) == pytest.approx(east, rel=1e-6)
    t = Transformer.from_crs("EPSG:26713", "EPSG:3857", always_xy=True)
    merc = t.transform_bounds(*native, densify_pts=50)
    assert float(boxes["EPSG:3857"].get("maxy")) == pytest.approx(merc[3], rel=1e-7)


def test_wms_111_boxes_are_x_first(settings, anon):
    settings.services[("wms", None)] = {"srs": ["EPSG:3035"], "bboxForEachCRS": True}
    root = etree.fromstring(caps_text(anon, "wms", "1.1.1"))
    roads = next(x for x in root.iter("Layer") if x.findtext("Name") == "sf:roads")
    laea = next(b for b in roads.iterfind("BoundingBox") if b.get("SRS") == "EPSG:3035")
    assert float(laea.get("minx")) < float(laea.get("miny"))  # easting ~ -3e6, northing ~ 7e6


def test_a_group_with_projected_bounds_gets_its_geographic_box_by_transformation(anon):
    root = etree.fromstring(caps_text(anon, "wms", "1.3.0"))
    group = next(
        layer
        for layer in root.iter(f"{{{WMS}}}Layer")
        if layer.findtext(f"{{{WMS}}}Name") == "spearfish"
    )
    native = next(
        b for b in group.iterfind(f"{{{WMS}}}BoundingBox") if b.get("CRS") == "EPSG:26713"
    )
    box = [float(native.get(k)) for k in ("minx", "miny", "maxx", "maxy")]
    t = Transformer.from_crs("EPSG:26713", "EPSG:4326", always_xy=True)
    expected = t.transform_bounds(*box, densify_pts=50)
    west = float(group.findtext(f"{{{WMS}}}EX_GeographicBoundingBox/{{{WMS}}}westBoundLongitude"))
    assert west == pytest.approx(expected[0], abs=1e-6)


def test_wcs_201_crs_extension_lists_the_database(anon):
    root = etree.fromstring(caps_text(anon, "wcs", "2.0.1"))
    supported = [e.text for e in root.iter(f"{{{CRS_EXT}}}crsSupported")]
    assert supported == list(lists.codes(lists.WCS_20))
    assert supported[0] == "http://www.opengis.net/def/crs/EPSG/0/2000"
    meta = root.find(f"{{{WCS20}}}ServiceMetadata")
    assert etree.QName(meta[-1]).localname == "Extension"


def test_wcs_201_crs_extension_limited_by_the_settings(settings, anon):
    settings.services[("wcs", None)] = {"srs": ["EPSG:4326", "EPSG:26713"]}
    root = etree.fromstring(caps_text(anon, "wcs", "2.0.1"))
    supported = [e.text for e in root.iter(f"{{{CRS_EXT}}}crsSupported")]
    assert supported == [
        "http://www.opengis.net/def/crs/EPSG/0/4326",
        "http://www.opengis.net/def/crs/EPSG/0/26713",
    ]
    interpolations = [
        e.text
        for e in root.iter("{https://www.opengis.net/wcs/interpolation/1.0}InterpolationSupported")
    ]
    assert interpolations[0] == "http://www.opengis.net/def/interpolation/OGC/1/nearest-neighbor"


def test_owslib_reads_the_whole_list(anon):
    wms_module = pytest.importorskip("owslib.map.wms130")
    content = caps_text(anon, "wms", "1.3.0")
    reader = wms_module.WebMapService_1_3_0("http://localhost/wms", xml=content)
    states = reader["topp:states"]
    assert "EPSG:4326" in states.crsOptions
    assert len(reader["topp:states"].crsOptions) >= 2
