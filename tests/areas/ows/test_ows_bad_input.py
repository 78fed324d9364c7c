"""Bad input over every service's key-value parameters (hypothesis): random values,
missing and repeated keys, huge and negative numbers, odd CRSs and boxes, unknown formats.
Whatever comes, the answer is the service's exception report (or a normal answer), never
an unplanned server error, and nothing in the state changes."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from lxml import etree

MAP = {"bbox": "-125,24,-66,50", "width": "64", "height": "32", "srs": "EPSG:4326"}
CAPS = {"request": "GetCapabilities"}
TILE = {"tilematrixset": "EPSG:4326", "tilematrix": "EPSG:4326:1", "tilerow": "0", "tilecol": "0"}

# (path, a valid request's parameters)
REQUESTS = {
    "WMS GetCapabilities": ("/wms", {**CAPS, "service": "WMS", "version": "1.3.0"}),
    "WMS GetMap": ("/wms", {"service": "WMS", "version": "1.1.1", "request": "GetMap",
                            "layers": "topp:states", "styles": "", "format": "image/png", **MAP}),
    "WMS GetMap 1.3.0": ("/wms", {"service": "WMS", "version": "1.3.0", "request": "GetMap",
                                  "layers": "topp:states", "styles": "population",
                                  "format": "image/jpeg", "crs": "EPSG:4326",
                                  "bbox": "24,-125,50,-66", "width": "20", "height": "20",
                                  "transparent": "true", "bgcolor": "0xFF0000"}),
    "WMS GetFeatureInfo": ("/wms", {"service": "WMS", "version": "1.1.1",
                                    "request": "GetFeatureInfo", "layers": "topp:states",
                                    "query_layers": "topp:states", "styles": "",
                                    "format": "image/png", "info_format": "application/json",
                                    "x": "10", "y": "10", "feature_count": "5", **MAP}),
    "WMS GetLegendGraphic": ("/wms", {"service": "WMS", "version": "1.1.1",
                                      "request": "GetLegendGraphic", "layer": "topp:states",
                                      "format": "image/png", "width": "20", "height": "20",
                                      "rule": "", "scale": "1000"}),
    "WMS DescribeLayer": ("/wms", {"service": "WMS", "version": "1.1.1",
                                   "request": "DescribeLayer", "layers": "topp:states"}),
    "WFS GetCapabilities": ("/wfs", {**CAPS, "service": "WFS", "version": "2.0.0"}),
    "WFS DescribeFeatureType": ("/wfs", {"service": "WFS", "version": "1.1.0",
                                         "request": "DescribeFeatureType",
                                         "typeName": "topp:states"}),
    "WFS GetFeature": ("/wfs", {"service": "WFS", "version": "2.0.0", "request": "GetFeature",
                                "typeNames": "topp:states", "count": "2", "startIndex": "0",
                                "outputFormat": "application/json", "sortBy": "STATE_NAME A",
                                "bbox": "24,-125,50,-66", "propertyName": "STATE_NAME",
                                "cql_filter": "PERSONS > 0"}),
    "WFS GetFeature 1.0.0": ("/wfs", {"service": "WFS", "version": "1.0.0", "request": "GetFeature",
                                      "typeName": "topp:states", "maxFeatures": "1",
                                      "featureId": "states.1", "resultType": "hits"}),
    "WFS ListStoredQueries": ("/wfs", {"service": "WFS", "version": "2.0.0",
                                       "request": "DescribeStoredQueries"}),
    "WCS GetCapabilities": ("/wcs", {**CAPS, "service": "WCS", "version": "1.0.0"}),
    "WCS DescribeCoverage": ("/wcs", {"service": "WCS", "version": "2.0.1",
                                      "request": "DescribeCoverage",
                                      "coverageId": "nurc__Arc_Sample"}),
    "WCS DescribeCoverage 1.0.0": ("/wcs", {"service": "WCS", "version": "1.0.0",
                                            "request": "DescribeCoverage",
                                            "coverage": "nurc:Arc_Sample"}),
    "WCS GetCoverage": ("/wcs", {"service": "WCS", "version": "1.0.0", "request": "GetCoverage",
                                 "coverage": "nurc:Arc_Sample", "crs": "EPSG:4326",
                                 "bbox": "-180,-90,180,90", "width": "10", "height": "10",
                                 "format": "GeoTIFF"}),
    "WMTS GetCapabilities": ("/gwc/service/wmts", {**CAPS, "service": "WMTS"}),
    "WMTS GetTile": ("/gwc/service/wmts", {"service": "WMTS", "version": "1.0.0",
                                           "request": "GetTile", "layer": "topp:states",
                                           "style": "", "format": "image/png", **TILE}),
    "WMTS GetFeatureInfo": ("/gwc/service/wmts", {"service": "WMTS", "version": "1.0.0",
                                                  "request": "GetFeatureInfo",
                                                  "layer": "topp:states", "style": "",
                                                  "format": "image/png",
                                                  "infoformat": "text/plain", "i": "5",
                                                  "j": "5", **TILE}),
}  # fmt: skip

ODD = st.sampled_from(
    [
        "",
        " ",
        "-1",
        "0",
        "-0",
        "1e309",
        "-1e309",
        "NaN",
        "Infinity",
        "99999999999999999999999999",
        "2147483648",
        "-2147483649",
        "1.5",
        "0x10",
        "EPSG:",
        "EPSG:abc",
        "EPSG:99999999",
        "CRS:84",
        "AUTO:42001",
        "AUTO:42001,9001,-100,45",
        "AUTO2:97004,1,0,0",
        "AUTO:42003,9001,999,999",
        "EPSG:404000",
        "EPSG:26713",
        "urn:ogc:def:crs:EPSG::3035",
        "urn:ogc:def:crs:EPSG::4326",
        "1,2,3",
        "1,2,3,4,5",
        "10,10,0,0",
        "a,b,c,d",
        "-180,-90,180,90",
        "1,1,1,1",
        "nan,nan,nan,nan",
        "image/unknown",
        "application/vnd.bogus",
        "text/html; subtype=x",
        "topp:nope",
        "nope",
        ":",
        "topp:",
        ",,,",
        "(topp:states)",
        "states.1,states.x",
        "STATE_NAME Z",
        "PERSONS >",
        "INCLUDE",
        "1.0.0",
        "9.9.9",
        "true",
        "no",
        "\u00e9\u00e8\u2603",
        "<xml/>",
        "%00",
        "a" * 3000,
        "*",
        "attachment",
        "a\r\nX-Evil: 1",
        "\u2603.png",
        "1,1,1,1,EPSG:4326",
        "0,0,0,0,0,0",
        "All",
        "Bogus",
        "/WCS_Capabilities/Service",
    ]
)
VALUE = st.one_of(ODD, st.text(max_size=40), st.integers(-(10**12), 10**12).map(str))
KEYS = sorted(
    {k for _, params in REQUESTS.values() for k in params}
    | {"exceptions", "sld_body", "time", "elevation", "language", "crs", "filename", "srsname"}
    | {"content-disposition", "i", "j", "acceptformats", "sections", "section", "namespace"}
)

# one change to a valid request: a key set to an odd value, removed, or repeated
CHANGE = st.one_of(
    st.tuples(st.just("set"), st.sampled_from(KEYS), VALUE),
    st.tuples(st.just("drop"), st.sampled_from(KEYS), st.just("")),
    st.tuples(st.just("repeat"), st.sampled_from(KEYS), VALUE),
    st.tuples(st.just("set"), st.text(min_size=1, max_size=12), VALUE),
)


def _request(base: dict[str, str], changes) -> list[tuple[str, str]]:
    params = dict(base)
    extra: list[tuple[str, str]] = []
    for action, key, value in changes:
        if action == "set":
            params[key] = value
        elif action == "drop":
            params.pop(key, None)
        else:
            extra.append((key, value))
    return list(params.items()) + extra


def _check_answer(r) -> None:
    assert "Traceback" not in r.text
    kind = r.headers.get("content-type", "")
    if r.status_code in (401, 403, 404):
        return
    if kind.startswith("image/"):
        assert (
            r.content[:4] in (b"\x89PNG", b"\xff\xd8\xff\xe0", b"GIF8", b"II*\x00")
            or r.content[:3] == b"\xff\xd8\xff"
        )
        return
    if "json" in kind:
        r.json()
        return
    if "xml" in kind:
        root = etree.fromstring(r.content)
        if etree.QName(root).localname in ("ServiceExceptionReport", "ExceptionReport"):
            assert r.status_code in (200, 400, 403, 404, 500)
            codes = [
                e.get("code") or e.get("exceptionCode")
                for e in root.iter()
                if e.get("code") or e.get("exceptionCode")
            ]
            assert codes or "".join(root.itertext()).strip()
            if r.status_code == 500:  # only WFS 2.0's NoApplicableCode maps to 500
                assert codes == ["NoApplicableCode"], r.text[:400]
        return
    assert r.status_code == 200, r.text[:400]
    assert kind.startswith(("text/plain", "text/html", "text/javascript")), kind


@pytest.mark.parametrize("name", list(REQUESTS))
def test_the_valid_requests_are_answered(client, name):
    path, params = REQUESTS[name]
    r = client.get(path, params=params)
    assert r.status_code == 200, r.text[:400]
    _check_answer(r)


@pytest.mark.parametrize("name", list(REQUESTS))
@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(changes=st.lists(CHANGE, min_size=1, max_size=3))
def test_bad_parameters_never_break_the_service_nor_change_state(emu, anon, name, changes):
    path, base = REQUESTS[name]
    before = emu.state.snapshot()
    r = anon.get(path, params=_request(base, changes))
    assert not emu.internal_errors, emu.internal_errors[-1]
    assert r.status_code != 500 or "ExceptionReport" in r.text, r.text[:400]
    _check_answer(r)
    assert emu.state.snapshot() == before


@pytest.mark.parametrize("name", ["WMS GetFeatureInfo", "WFS GetFeature", "WCS DescribeCoverage"])
def test_control_characters_in_a_value_leave_the_report_well_formed(anon, name):
    # the report echoes the value; XML 1.0 cannot hold most control characters
    path, base = REQUESTS[name]
    key = {"WMS GetFeatureInfo": "bbox", "WFS GetFeature": "typeNames"}.get(name, "coverageId")
    r = anon.get(path, params={**base, key: "a\x08b\x01"})
    root = etree.fromstring(r.content)
    assert etree.QName(root).localname in ("ServiceExceptionReport", "ExceptionReport")
    assert "\x08" not in r.text
