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


PROPS = (
    b"_=name:String,pop:Integer,geom:Point:srid=4326\n"
    b"spots.1=alpha|10|POINT(1 2)\n"
    b"spots.2=beta|20|POINT(3 4)\n"
)


@pytest.mark.parametrize("version", ["1.0.0", "1.1.0", "2.0.0"])
def test_web_feature_service_reads_the_catalog_and_the_features(emu, base_url, version):
    import requests

    owslib_wfs = pytest.importorskip("owslib.wfs")
    r = requests.put(
        f"{base_url}/rest/workspaces/sf/datastores/spots/file.properties",
        data=PROPS,
        headers={"Content-Type": "text/plain"},
        auth=("admin", "geoserver"),
        timeout=10,
    )
    assert r.status_code == 201, r.text
    wfs = owslib_wfs.WebFeatureService(f"{base_url}/wfs", version=version)
    assert wfs.identification.title == emu.state.settings.service("wfs")["title"]
    assert "topp:states" in wfs.contents and "sf:spots" in wfs.contents
    states = wfs.contents["topp:states"]
    assert states.title == emu.state.catalog.resources[("topp", "states")].title
    box = emu.state.catalog.resources[("topp", "states")].latlon_bbox
    # OWSLib reads WFS 1.0.0's LatLongBoundingBox into boundingBox (WGS84 only with pyproj)
    found = states.boundingBox[:4] if version == "1.0.0" else states.boundingBoxWGS84
    assert found == pytest.approx((box.minx, box.miny, box.maxx, box.maxy))
    kwargs = {"typename": ["sf:spots"], "outputFormat": "application/json"}
    if version != "1.0.0":
        kwargs["maxfeatures"] = 5
    got = wfs.getfeature(**kwargs).read()
    doc = __import__("json").loads(got)
    assert [f["properties"]["name"] for f in doc["features"]] == ["alpha", "beta"]
    schema = wfs.get_schema("sf:spots")
    assert set(schema["properties"]) == {"name", "pop"}


# OWSLib's WCS 1.1 reader truth-tests an lxml element (a FutureWarning of lxml's)
@pytest.mark.filterwarnings("ignore::FutureWarning")
@pytest.mark.parametrize("version", ["1.0.0", "1.1.1", "2.0.1"])
def test_web_coverage_service_reads_the_coverages(emu, base_url, version):
    owslib_wcs = pytest.importorskip("owslib.wcs")
    wcs = owslib_wcs.WebCoverageService(f"{base_url}/wcs", version=version)
    catalog = emu.state.catalog
    names = {
        f"{ws}:{n}"
        for (ws, n), r in catalog.resources.items()
        if r.kind == "coverage" and r.enabled and (ws, n) in catalog.layers
    }
    if version == "2.0.1":
        names = {n.replace(":", "__") for n in names}
    assert set(wcs.contents) == names
    key = "nurc__Arc_Sample" if version == "2.0.1" else "nurc:Arc_Sample"
    if version != "2.0.1":  # OWSLib's WCS 2.0 summary reads no title and no WGS84 box
        resource = catalog.resources[("nurc", "Arc_Sample")]
        box = resource.latlon_bbox
        assert wcs.contents[key].title == resource.title
        expected = (box.minx, box.miny, box.maxx, box.maxy)
        assert wcs.contents[key].boundingBoxWGS84 == pytest.approx(expected)


def test_web_map_tile_service_reads_the_tile_layers(emu, base_url):
    owslib_wmts = pytest.importorskip("owslib.wmts")
    wmts = owslib_wmts.WebMapTileService(f"{base_url}/gwc/service/wmts")
    assert "topp:states" in wmts.contents
    layer = wmts.contents["topp:states"]
    assert layer.title == emu.state.catalog.resources[("topp", "states")].title
    assert set(layer.tilematrixsetlinks) == {"EPSG:4326", "EPSG:900913"}
    matrix = wmts.tilematrixsets["EPSG:4326"].tilematrix["EPSG:4326:0"]
    assert (matrix.matrixwidth, matrix.matrixheight, matrix.tilewidth) == (2, 1, 256)
    tile = wmts.gettile(
        layer="topp:states",
        tilematrixset="EPSG:4326",
        tilematrix="EPSG:4326:1",
        row=0,
        column=0,
        format="image/png",
    )
    assert tile.read()[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.parametrize("version", ["1.1.1", "1.3.0"])
def test_web_map_service_getmap_and_legend(emu, base_url, version):
    from io import BytesIO

    from PIL import Image

    wms = owslib_wms.WebMapService(f"{base_url}/wms", version=version)
    img = wms.getmap(
        layers=["topp:states"],
        styles=["population"],
        srs="EPSG:4326",
        bbox=(-125.0, 24.0, -66.0, 50.0),
        size=(120, 60),
        format="image/png",
        transparent=True,
    )
    picture = Image.open(BytesIO(img.read()))
    assert picture.size == (120, 60)
    legend_url = wms["topp:states"].styles["population"]["legend"]
    import requests

    legend = requests.get(legend_url, timeout=10)
    assert legend.headers["content-type"] == "image/png"
    from owslib.util import ServiceException

    with pytest.raises(ServiceException, match="Could not find layer nope"):
        wms.getmap(
            layers=["nope"], srs="EPSG:4326", bbox=(0, 0, 1, 1), size=(10, 10), format="image/png"
        )
