"""WMS GetMap, GetFeatureInfo and GetLegendGraphic parameters checked as GeoServer's
``GetMapKvpRequestReader``, ``GetMap.assertMandatory``, ``GetFeatureInfoKvpReader`` and its
dispatcher check them (the classes GeoServer's ``GetMapIntegrationTest``, ``GetMapTest``
and ``GetFeatureInfoTest`` assert): codes, locators, texts and the report's content type.
"""

from __future__ import annotations

import pytest
from lxml import etree

MAP = {
    "service": "WMS",
    "version": "1.1.1",
    "request": "GetMap",
    "layers": "topp:states",
    "styles": "",
    "format": "image/png",
    "bbox": "-125,24,-66,50",
    "width": "64",
    "height": "32",
    "srs": "EPSG:4326",
}
MAP_130 = {**MAP, "version": "1.3.0", "crs": "EPSG:4326", "bbox": "24,-125,50,-66"}
del MAP_130["srs"]
INFO = {
    **MAP,
    "request": "GetFeatureInfo",
    "query_layers": "topp:states",
    "info_format": "application/json",
    "x": "10",
    "y": "10",
}


def query(base: dict[str, str], **changes: str | None) -> dict[str, str]:
    """``base`` with keys changed, and removed where the change is None."""
    out = {**base, **changes}
    return {k: v for k, v in out.items() if v is not None}


def is_png(r) -> bool:
    return r.status_code == 200 and r.headers["content-type"] == "image/png"


# -- the CRS -------------------------------------------------------------------------------


@pytest.mark.parametrize("code", ["NotACRS", "EPSG:99999999", "EPSG:", ""])
def test_an_undecodable_crs_is_invalid_srs_in_111(anon, h, code):
    r = anon.get("/wms", params=query(MAP, srs=code))
    assert r.headers["content-type"].startswith("application/vnd.ogc.se_xml")
    assert h.exception(r) == (
        "InvalidSRS",
        "srs",
        f"Error occurred decoding the espg code {code}".strip(),
    )


def test_an_undecodable_crs_is_invalid_crs_in_130(anon, h):
    r = anon.get("/wms", params=query(MAP_130, crs="NotACRS"))
    assert r.headers["content-type"].startswith("text/xml")
    assert h.exception(r)[:2] == ("InvalidCRS", "crs")


@pytest.mark.parametrize("code", ["EPSG:4326", "EPSG:3857", "EPSG:26713", "AUTO:42001,9001,0,0"])
def test_a_crs_in_the_epsg_database_is_drawn(anon, code):
    bbox = {"EPSG:3857": "-1e6,-1e6,1e6,1e6", "EPSG:26713": "590000,4910000,610000,4930000"}
    r = anon.get("/wms", params=query(MAP, srs=code, bbox=bbox.get(code, "-10,-10,10,10")))
    assert is_png(r), r.text[:300]


@pytest.mark.parametrize("base", [MAP, MAP_130])
def test_a_map_naming_no_crs_is_drawn_in_wgs84_longitude_first(anon, base):
    # GeoServer's GetMap falls back on WGS84 when the request names no CRS
    r = anon.get("/wms", params=query(base, srs=None, crs=None, bbox="-125,24,-66,50"))
    assert is_png(r), r.text[:300]


# -- size and bounding box -----------------------------------------------------------------


@pytest.mark.parametrize(
    "changes,shown",
    [
        ({"width": None}, "WIDTH=0, HEIGHT=32"),
        ({"height": None}, "WIDTH=64, HEIGHT=0"),
        ({"width": "0"}, "WIDTH=0, HEIGHT=32"),
        ({"height": "-3"}, "WIDTH=64, HEIGHT=-3"),
    ],
)
def test_missing_or_non_positive_sizes(anon, h, changes, shown):
    r = anon.get("/wms", params=query(MAP, **changes))
    assert h.exception(r) == (
        "MissingOrInvalidParameter",
        None,
        "Missing or invalid requested map size. Parameters WIDTH and HEIGHT shall be present"
        f" and be integers > 0. Got {shown}",
    )


def test_a_size_that_is_no_java_integer_fails_as_its_parser_does(anon, h):
    for value in ("abc", "1.5", "2147483648"):
        code, locator, text = h.exception(anon.get("/wms", params=query(MAP, width=value)))
        assert (code, locator) == (None, None)
        assert text == f'For input string: "{value}"'


def test_a_missing_bbox_is_missing_bbox(anon, h):
    r = anon.get("/wms", params=query(MAP, bbox=None))
    assert h.exception(r) == ("MissingBBox", None, "GetMap requests must include a BBOX parameter.")


@pytest.mark.parametrize(
    "bbox,shown",
    [("1,1,1,1", "1.0 : 1.0, 1.0 : 1.0"), ("0,5,10,5", "0.0 : 10.0, 5.0 : 5.0")],
)
def test_a_zero_area_bbox_is_invalid_bbox(anon, h, bbox, shown):
    r = anon.get("/wms", params=query(MAP, bbox=bbox))
    assert h.exception(r) == (
        "InvalidBBox",
        None,
        f"The request bounding box has zero area: SRSEnvelope[{shown}]",
    )


@pytest.mark.parametrize(
    "bbox,text",
    [
        ("10,0,0,10", "illegal bbox, minX: 10.0 is greater than maxX: 0.0"),
        ("0,10,10,0", "illegal bbox, minY: 10.0 is greater than maxY: 0.0"),
        ("1,2,3", "Requested bounding box contains wrong number of coordinates (should have 4): 3"),
        ("a,0,1,1", "Bounding box coordinate 0 is not parsable:a"),
    ],
)
def test_the_bbox_parser_refusals(anon, h, bbox, text):
    assert h.exception(anon.get("/wms", params=query(MAP, bbox=bbox))) == (None, None, text)


# -- layers, styles and format -------------------------------------------------------------


@pytest.mark.parametrize("path", ["/wms", "/sf/wms"])
@pytest.mark.parametrize("value", ["", "*"])
def test_an_empty_layers_list_is_the_readers_own_refusal(anon, h, path, value):
    r = anon.get(path, params=query(MAP, layers=value))
    assert h.exception(r) == (
        "org.geoserver.wms.map.GetMapKvpRequestReader",
        None,
        "No LAYERS has been requested",
    )


def test_no_layers_parameter_at_all(anon, h):
    r = anon.get("/wms", params=query(MAP, layers=None))
    assert h.exception(r) == ("LayerNotDefined", None, "No layers have been requested")


def test_a_layer_of_another_workspace_is_not_found_in_a_workspace_service(anon, h):
    r = anon.get("/sf/wms", params=query(MAP, layers="states"))
    assert h.exception(r) == ("LayerNotDefined", "layers", "Could not find layer states")
    assert is_png(anon.get("/topp/wms", params=query(MAP, layers="states")))


def test_an_unknown_format(anon, h):
    r = anon.get("/wms", params=query(MAP, format="image/bmp"))
    assert h.exception(r) == (
        "InvalidFormat",
        None,
        "There is no support for creating maps in image/bmp format",
    )
    r = anon.get("/wms", params=query(MAP, format=None))
    assert h.exception(r) == ("InvalidFormat", None, "No output map format requested")


def _group(client, name: str, mode: str) -> None:
    body = {
        "layerGroup": {
            "name": name,
            "mode": mode,
            "publishables": {
                "published": [
                    {"@type": "layer", "name": "topp:states"},
                    {"@type": "layer", "name": "topp:tasmania_roads"},
                ]
            },
        }
    }
    assert client.post("/rest/layergroups", json=body).status_code == 201


@pytest.mark.parametrize("base,media", [(MAP, "application/vnd.ogc.se_xml"), (MAP_130, "text/xml")])
def test_a_container_group_cannot_be_requested(client, anon, h, base, media):
    _group(client, "box", "CONTAINER")
    r = anon.get("/wms", params=query(base, layers="box"))
    assert r.headers["content-type"].split(";")[0] == media
    assert h.exception(r) == ("LayerNotDefined", "layers", "Could not find layer box")
    r = anon.get("/wms", params=query(INFO, layers="box", query_layers="box"))
    assert h.exception(r)[:2] == ("LayerNotDefined", "layers")


@pytest.mark.parametrize("mode", ["SINGLE", "NAMED", "OPAQUE_CONTAINER"])
def test_the_other_groups_are_drawn(client, anon, mode):
    _group(client, "box", mode)
    assert is_png(anon.get("/wms", params=query(MAP, layers="box")))


# -- repeated parameters -------------------------------------------------------------------


def test_a_parameter_repeated_with_the_same_value_is_fine(anon):
    pairs = [*query(MAP_130).items(), ("format", "image/png"), ("FORMAT", "image/png")]
    assert is_png(anon.get("/wms", params=pairs))


@pytest.mark.parametrize("base", [MAP, MAP_130, INFO])
def test_a_parameter_repeated_with_different_values_is_refused(anon, h, base):
    r = anon.get("/wms", params=[*base.items(), ("format", "image/jpeg")])
    assert h.exception(r) == (
        "InvalidParameterValue",
        "FORMAT",
        f"Found multiple, inconsistent values for parameter FORMAT: [{base['format']}, image/jpeg]",
    )


def test_repeated_parameters_in_legend_and_describe_layer_requests(anon, h):
    legend = {"service": "WMS", "request": "GetLegendGraphic", "format": "image/png"}
    r = anon.get("/wms", params=[*legend.items(), ("layer", "topp:states"), ("layer", "x")])
    assert h.exception(r)[:2] == ("InvalidParameterValue", "LAYER")
    describe = {"service": "WMS", "version": "1.1.1", "request": "DescribeLayer"}
    r = anon.get("/wms", params=[*describe.items(), ("layers", "a"), ("LAYERS", "b")])
    assert h.exception(r)[:2] == ("InvalidParameterValue", "LAYERS")


# -- GetFeatureInfo ------------------------------------------------------------------------


def test_feature_info_reads_the_map_part_as_getmap(anon, h):
    r = anon.get("/wms", params=query(INFO, srs="NotACRS"))
    assert h.exception(r)[:2] == ("InvalidSRS", "srs")
    r = anon.get("/wms", params=query(INFO, layers=""))
    assert h.exception(r) == (
        "org.geoserver.wms.featureinfo.GetFeatureInfoKvpReader$GetFeatureInfoKvpRequestReader",
        None,
        "No LAYERS has been requested",
    )


def test_an_unknown_query_layer(anon, h):
    r = anon.get("/wms", params=query(INFO, query_layers="topp:nope"))
    assert h.exception(r) == (
        "LayerNotDefined",
        "GetFeatureInfoKvpParser",
        "topp:nope: no such layer on this server",
    )


@pytest.mark.parametrize("version,code", [("1.1.1", "OperationNotSupported"), ("1.3.0", None)])
def test_no_queryable_query_layer(client, anon, h, version, code):
    body = "<layer><queryable>false</queryable></layer>"
    r = client.put("/rest/layers/topp:states", content=body, headers={"Content-Type": "text/xml"})
    assert r.status_code == 200
    params = query(INFO, version=version, i="10", j="10")
    r = anon.get("/wms", params=params)
    assert h.exception(r) == (
        code or "LayerNotQueryable",
        "QUERY_LAYERS",
        "Either no layer was queryable, or no layers were specified using QUERY_LAYERS",
    )
    r = anon.get("/wms", params=query(params, query_layers=None))
    assert h.exception(r)[1] == "QUERY_LAYERS"


def test_query_layers_must_be_among_the_map_layers(anon, h):
    r = anon.get("/wms", params=query(INFO, query_layers="topp:tasmania_roads"))
    assert h.exception(r) == (
        None,
        None,
        "QUERY_LAYERS contains layers not cited in LAYERS. It should be a proper subset of"
        " those instead",
    )


@pytest.mark.parametrize(
    "x,y,text",
    [
        ("65", "10", "65, 10 not in dimensions of image: 64, 32"),
        ("-1", "10", "-1, 10 not in dimensions of image: 64, 32"),
        ("1", "33", "1, 33 not in dimensions of image: 64, 32"),
        ("a", "10", "X and Y incorrectly specified"),
        (None, "10", "X and Y incorrectly specified"),
    ],
)
def test_the_pixel_must_lie_in_the_map(anon, h, x, y, text):
    r = anon.get("/wms", params=query(INFO, x=x, y=y))
    assert h.exception(r) == ("InvalidPoint", None, text)


def test_the_edge_pixel_is_in_the_map(anon):
    r = anon.get("/wms", params=query(INFO, x="64", y="32"))
    assert r.status_code == 200
    assert r.json()["type"] == "FeatureCollection"


def test_130_falls_back_on_x_and_y(anon):
    params = query(INFO, version="1.3.0", srs=None, crs="EPSG:4326", bbox="24,-125,50,-66")
    assert anon.get("/wms", params=params).json()["type"] == "FeatureCollection"


def test_an_unknown_info_format_lists_the_formats_as_java_does(anon, h):
    code, locator, text = h.exception(anon.get("/wms", params=query(INFO, info_format="x/y")))
    assert (code, locator) == ("InvalidFormat", "info_format")
    assert text.startswith("Invalid format 'x/y', supported formats are [text/plain, ")


# -- headers -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "changes,header",
    [
        ({}, "inline; filename=topp-states.png"),
        ({"layers": "topp:states,topp:tasmania_roads"}, "inline; filename=topp-states_topp-"
         "tasmania_roads.png"),
        ({"format": "image/jpeg"}, "inline; filename=topp-states.jpg"),
        ({"format": "image/geotiff"}, "inline; filename=topp-states.tif"),
        ({"format": "image/png8"}, "inline; filename=topp-states.png"),
        ({"content-disposition": "attachment"}, "attachment; filename=topp-states.png"),
        ({"filename": "dude.png"}, "inline; filename=dude.png"),
        ({"filename": "dude.png", "content-disposition": "attachment"},
         "attachment; filename=dude.png"),
        ({"content-disposition": "evil"}, "inline; filename=topp-states.png"),
    ],
)  # fmt: skip
def test_a_map_is_named_after_its_layers(anon, changes, header):
    r = anon.get("/wms", params=query(MAP, **changes))
    assert r.status_code == 200
    assert r.headers["content-disposition"] == header


def test_a_file_name_cannot_inject_headers(anon):
    r = anon.get("/wms", params=query(MAP, filename="a\r\nSet-Cookie: x=1 \u2603.png"))
    assert r.headers["content-disposition"] == "inline; filename=aSet-Cookie: x=1 ?.png"
    assert "set-cookie" not in r.headers


def test_other_answers_get_geoservers_default_file_name(anon):
    r = anon.get("/wms", params=INFO)
    assert (
        r.headers["content-disposition"] == "inline; filename=geoserver-GetFeatureInfo.application"
    )
    legend = {"service": "WMS", "request": "GetLegendGraphic", "format": "image/png",
              "layer": "topp:states"}  # fmt: skip
    r = anon.get("/wms", params=legend)
    assert r.headers["content-disposition"] == "inline; filename=geoserver-GetLegendGraphic.image"


def test_reports_carry_no_disposition(anon):
    r = anon.get("/wms", params=query(MAP, layers="nope"))
    assert etree.fromstring(r.content).tag == "ServiceExceptionReport"
    assert "content-disposition" not in r.headers
    assert "cache-control" not in r.headers
