"""OWSLib, a real OGC client, against the live emulator: what it parses is what the
catalog holds."""

from __future__ import annotations

import pytest

owslib_wms = pytest.importorskip("owslib.wms")


@pytest.mark.parametrize("version", ["1.1.1", "1.3.0"])
def test_web_map_service_reads_the_catalog(emu, base_url, version):
    wms = owslib_wms.WebMapService(f"{base_url}/wms", version=version)
    assert wms.identification.type in ("OGC:WMS", "WMS")
    assert wms.identification.title == emu.state.settings.service("wms")["title"]
    catalog = emu.state.catalog
    published = {
        layer.prefixed for key, layer in catalog.layers.items() if catalog.resources[key].enabled
    } | {g.prefixed for g in catalog.layer_groups.values()}
    assert set(wms.contents) == published
    states = wms["topp:states"]
    resource = catalog.resources[("topp", "states")]
    assert states.title == resource.title
    assert states.abstract == resource.abstract
    assert states.keywords == resource.keywords
    box = resource.latlon_bbox
    assert states.boundingBoxWGS84 == pytest.approx((box.minx, box.miny, box.maxx, box.maxy))
    assert "EPSG:4326" in states.crsOptions
    assert list(states.styles) == ["population", "pophatch", "polygon"]
    legend = states.styles["population"]["legend"]
    assert "request=GetLegendGraphic" in legend and "layer=topp%3Astates" in legend
    assert [op.name for op in wms.operations][:3] == ["GetCapabilities", "GetMap", "GetFeatureInfo"]
    assert "image/png" in wms.getOperationByName("GetMap").formatOptions
    world = wms["ne:world"]
    assert [c.name for c in world.children] == [
        "ne:countries",
        "ne:coastlines",
        "ne:boundary_lines",
        "ne:populated_places",
    ]


def test_web_map_service_of_a_workspace(base_url):
    wms = owslib_wms.WebMapService(f"{base_url}/topp/wms", version="1.3.0")
    assert "states" in wms.contents and "topp:states" not in wms.contents
