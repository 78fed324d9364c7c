"""GetCoverage's exceptions: codes, locators and statuses per version, the WCS output
limits, and refusals that change nothing."""

from __future__ import annotations

import numpy as np
import pytest

SOURCE = np.arange(20 * 30, dtype=np.uint8).reshape(1, 20, 30)


@pytest.fixture(autouse=True)
def small(client, g):
    g.upload(client, "small", g.geotiff(SOURCE, maxy=20.0))


def wcs(client, version: str, **params):
    return client.get(
        "/wcs", params={"service": "WCS", "version": version, "request": "GetCoverage", **params}
    )


V20 = {"coverageId": "sf__small"}


@pytest.mark.parametrize(
    ("params", "status", "code", "locator"),
    [
        ({"coverageId": "sf__nothere"}, 404, "NoSuchCoverage", "coverageId"),
        ({}, 400, "MissingParameterValue", "coverageId"),
        ({**V20, "subset": "Lat(1,2"}, 400, "InvalidEncodingSyntax", "subset"),
        ({**V20, "subset": "Lat(a,2)"}, 400, "InvalidEncodingSyntax", "subset"),
        ({**V20, "subset": "Lat(*)"}, 400, "InvalidEncodingSyntax", "subset"),
        ({**V20, "subset": "Lat,EPSG:4326,x(1,2)"}, 400, "InvalidEncodingSyntax", "subset"),
        ({**V20, "subset": "foo(1,2)"}, 404, "InvalidAxisLabel", "foo"),
        ({**V20, "subset": ["Lat(1,2)", "Lat(3,4)"]}, 404, "InvalidAxisLabel", "Lat"),
        ({**V20, "subset": 'time("2020-01-01")'}, 404, "InvalidAxisLabel", None),
        ({**V20, "subset": "Lat(5,1)"}, 404, "InvalidSubsetting", "5"),
        ({**V20, "subset": "Lat(50,60)"}, 404, "InvalidSubsetting", None),
        ({**V20, "subset": "Long(99)"}, 404, "InvalidSubsetting", "99"),
        ({**V20, "subset": ["Lat(1,2)", "Long(1,2)", "E(1,2)"]}, 404, "InvalidSubsetting", "3"),
        ({**V20, "scalefactor": "0"}, 404, "InvalidScaleFactor", "0.0"),
        ({**V20, "scalefactor": "-2"}, 404, "InvalidScaleFactor", "-2.0"),
        ({**V20, "scaleaxes": "k(2)"}, 404, "ScaleAxisUndefined", "k"),
        ({**V20, "scalesize": "i(0),j(5)"}, 404, "InvalidExtent", "0"),
        ({**V20, "scalesize": "i(5)"}, 404, "InvalidExtent", "Null"),
        ({**V20, "scaleextent": "i(5:1),j(0:3)"}, 404, "InvalidExtent", "1"),
        ({**V20, "rangesubset": "NOPE"}, 404, "NoSuchField", "NOPE"),
        (
            {**V20, "interpolation": "http://x/quadratic"},
            404,
            "InterpolationMethodNotSupported",
            "interpolation",
        ),  # fmt: skip
        ({**V20, "outputCrs": "EPSG:999999"}, 404, "OutputCrs-NotSupported", "EPSG:999999"),
        ({**V20, "subsettingCrs": "nonsense"}, 404, "SubsettingCrs-NotSupported", "nonsense"),
        ({**V20, "format": "application/x-nope"}, 400, "InvalidParameterValue", "format"),
        ({**V20, "mediaType": "multipart/related"}, 400, "InvalidParameterValue", "mediaType"),
    ],
)
def test_201_exceptions(anon, g, params, status, code, locator):
    r = wcs(anon, "2.0.1", **params)
    assert r.status_code == status, r.text
    assert r.headers["content-type"] == "application/xml"
    assert g.ows_error(r)[:2] == (code, locator)


B10 = {"coverage": "sf:small", "crs": "EPSG:4326", "bbox": "0,0,30,20", "width": "30",
       "height": "20", "format": "GeoTIFF"}  # fmt: skip


@pytest.mark.parametrize(
    ("change", "code", "locator", "text"),
    [
        (
            {"coverage": None},
            "MissingParameterValue",
            "source coverage",
            "source coverage parameter is mandatory",
        ),  # fmt: skip
        ({"crs": None}, "MissingParameterValue", "crs", "CRS parameter is mandatory"),
        ({"crs": "EPSG:0"}, "InvalidParameterValue", "crs", "Could not recognize crs EPSG:0"),
        ({"bbox": None}, "MissingParameterValue", "bbox", "bbox parameter is mandatory"),
        (
            {"bbox": "40,40,50,50"},
            "InvalidParameterValue",
            "bbox",
            "The request bbox is outside of the coverage area",
        ),  # fmt: skip
        (
            {"bbox": "10,0,0,20"},
            "InvalidParameterValue",
            "bbox",
            "illegal bbox, minX: 10.0 is greater than maxX: 0.0",
        ),  # fmt: skip
        (
            {"width": None, "height": None},
            "InvalidParameterValue",
            None,
            "Could not recognize grid resolution",
        ),  # fmt: skip
        (
            {"width": "-3"},
            "InvalidParameterValue",
            "width",
            "Invalid width: -3, it must be positive",
        ),
        ({"depth": "3"}, "InvalidParameterValue", "depth", "3D grids are not supported."),
        ({"format": None}, "MissingParameterValue", "format", "format parameter is mandatory"),
        (
            {"format": "NetCDF"},
            "InvalidParameterValue",
            "format",
            "format NetCDF is not supported for this coverage",
        ),  # fmt: skip
        (
            {"interpolation": "lost area"},
            "InvalidParameterValue",
            "interpolation",
            "Invalid interpolation method: lost area",
        ),  # fmt: skip
        (
            {"band": "7"},
            "NoApplicableCode",
            None,
            "Band Select Operation: band index out of range 1..1: 7",
        ),  # fmt: skip
    ],
)
def test_100_exceptions(anon, g, change, code, locator, text):
    params = {k: v for k, v in {**B10, **change}.items() if v is not None}
    r = wcs(anon, "1.0.0", **params)
    assert r.status_code == 200
    assert g.ows_error(r) == (code, locator, text)


B11 = {"identifier": "sf:small", "boundingbox": "0,0,30,20", "format": "image/tiff"}


@pytest.mark.parametrize(
    ("change", "code", "locator"),
    [
        ({"identifier": None}, "MissingParameterValue", "identifier"),
        ({"boundingbox": None}, "MissingParameterValue", "BoundingBox"),
        ({"boundingbox": "30,0,0,20"}, "InvalidParameterValue", "BoundingBox"),
        ({"format": None}, "MissingParameterValue", "format"),
        ({"GridBaseCRS": "urn:ogc:def:crs:EPSG::3857"}, "InvalidParameterValue", "GridBaseCrs"),
        ({"GridType": "urn:ogc:def:method:WCS:1.1:nope"}, "InvalidParameterValue", "GridType"),
        ({"GridCS": "urn:ogc:def:cs:OGC:0.0:Other"}, "InvalidParameterValue", "GridCS"),
        ({"GridOffsets": "1,2,3"}, "InvalidParameterValue", "GridOffsets"),
        ({"GridOrigin": "1,2,3"}, "InvalidParameterValue", "GridOrigin"),
        ({"RangeSubset": "other"}, "InvalidParameterValue", "RangeSubset"),
        ({"RangeSubset": "contents[Bands[NOPE]]"}, "InvalidParameterValue", "RangeSubset"),
        (
            {"RangeSubset": "contents:lost[Bands[GRAY_INDEX]]"},
            "InvalidParameterValue",
            "RangeSubset",
        ),  # fmt: skip
    ],
)
def test_111_exceptions(anon, g, change, code, locator):
    params = {k: v for k, v in {**B11, **change}.items() if v is not None}
    r = wcs(anon, "1.1.1", **params)
    assert r.status_code == 200
    assert g.ows_error(r)[:2] == (code, locator)


def test_output_limit_from_the_settings(client, anon, g):
    r = client.put(
        "/rest/services/wcs/settings",
        json={"wcs": {"maxOutputMemory": 1}},
    )
    assert r.status_code == 200, r.text
    r = wcs(anon, "2.0.1", coverageId="sf__small", scalefactor="3")
    assert r.status_code == 500
    assert g.ows_error(r) == (
        "NoApplicableCode",
        None,
        "This request is trying to generate too much data, the limit is 1KB but the actual"
        " amount of bytes to be written in the output is 5.27KB",
    )
    assert wcs(anon, "2.0.1", coverageId="sf__small").status_code == 200  # 600 bytes


def test_input_limit_from_the_settings(client, anon, g):
    big = np.zeros((1, 40, 40), dtype=np.uint8)
    g.upload(client, "big", g.geotiff(big, maxy=40.0))  # uploads read the same budget
    r = client.put("/rest/services/wcs/settings", json={"wcs": {"maxInputMemory": 1}})
    assert r.status_code == 200
    r = wcs(anon, "2.0.1", coverageId="sf__big")
    assert g.ows_error(r)[2] == (
        "This request is trying to read too much data, the limit is 1KB but the actual amount"
        " of bytes to be read is 1.56KB"
    )
    assert wcs(anon, "2.0.1", coverageId="sf__big", subset="Lat(0,10)").status_code == 200


@pytest.mark.parametrize(
    ("version", "params"),
    [
        ("2.0.1", {"coverageId": "sf__small", "scalesize": "i(100000),j(100000)"}),
        ("1.0.0", {**B10, "width": "100000", "height": "100000"}),
        ("1.1.1", {**B11, "GridOffsets": "0.0003,0,0,-0.0002"}),
    ],
)
def test_a_huge_answer_is_refused_before_anything_is_allocated(anon, g, version, params):
    r = wcs(anon, version, **params)
    code, _, text = g.ows_error(r)
    assert code == "NoApplicableCode"
    assert text.startswith("This request is trying to generate too much data, the limit is 256MB")


def test_a_float_coverage_is_no_png(anon, client, g):
    g.upload(client, "floats", g.geotiff(np.zeros((1, 4, 4), np.float32), maxy=4.0))
    r = wcs(anon, "2.0.1", coverageId="sf__floats", format="image/png")
    assert r.status_code == 500
    assert g.ows_error(r)[2] == (
        "Could not encode the coverage as image/png: PNG cannot hold 1 band(s) of float32 samples"
    )


def test_a_disabled_service_and_an_unreadable_layer(client, anon, g):
    r = client.put("/rest/services/wcs/settings", json={"wcs": {"enabled": False}})
    assert r.status_code == 200
    r = wcs(anon, "2.0.1", coverageId="sf__small")
    assert g.ows_error(r)[0] == "ServiceUnavailable"


@pytest.mark.parametrize(("mode", "status"), [("HIDE", 404), ("MIXED", 401), ("CHALLENGE", 401)])
def test_layer_security_and_catalog_mode(client, anon, g, mode, status):
    r = client.post("/rest/security/acl/layers", json={"sf.small.r": "ROLE_ADMINISTRATOR"})
    assert r.status_code in (200, 201), r.text
    r = client.put("/rest/security/acl/catalog", json={"mode": mode})
    assert r.status_code == 200, r.text
    r = wcs(anon, "2.0.1", coverageId="sf__small")
    assert r.status_code == status
    if mode == "HIDE":
        assert g.ows_error(r)[0] == "NoSuchCoverage"
    assert wcs(client, "2.0.1", coverageId="sf__small").status_code == 200
