"""Service exceptions of the dispatcher and of WMS, in GeoServer's report formats."""

from __future__ import annotations

import pytest
from lxml import etree


def test_wms_111_exception_report(anon, h):
    r = anon.get("/wms", params={"service": "WMS", "version": "1.1.1", "request": "GetFoo"})
    assert r.status_code == 200
    assert r.headers["content-type"] == "application/vnd.ogc.se_xml;charset=UTF-8"
    assert "WMS_exception_1_1_1.dtd" in r.text
    assert h.exception(r) == (
        "OperationNotSupported",
        "GetFoo",
        "No such operation WMS 1.1.1 GetFoo",
    )


def test_wms_130_exception_report(anon, h):
    r = anon.get("/wms", params={"service": "WMS", "version": "1.3.0", "request": "GetFoo"})
    assert r.headers["content-type"] == "text/xml;charset=UTF-8"
    root = etree.fromstring(r.content)
    assert root.tag == "{http://www.opengis.net/ogc}ServiceExceptionReport"
    assert root.get("version") == "1.3.0"
    assert h.exception(r)[:2] == ("OperationNotSupported", "GetFoo")


def test_missing_request(anon, h):
    r = anon.get("/wms", params={"service": "WMS"})
    assert h.exception(r)[:2] == ("MissingParameterValue", "request")


def test_request_names_are_case_insensitive(anon):
    r = anon.get("/wms", params={"SERVICE": "wms", "REQUEST": "getcapabilities"})
    assert r.status_code == 200 and b"WMS_Capabilities" in r.content


@pytest.mark.parametrize(
    "params,code,locator",
    [
        ({"request": "GetCapabilities"}, "MissingParameterValue", "service"),
        ({"service": "XYZ", "request": "GetCapabilities"}, "InvalidParameterValue", "service"),
    ],
)
def test_ows_endpoint_without_a_known_service(anon, params, code, locator):
    r = anon.get("/ows", params=params)
    root = etree.fromstring(r.content)
    assert root.tag == "{http://www.opengis.net/ows}ExceptionReport"
    e = root.find("{http://www.opengis.net/ows}Exception")
    assert (e.get("exceptionCode"), e.get("locator")) == (code, locator)


def test_errors_change_nothing(emu, anon):
    before = emu.dump_scenario()
    for params in ({"service": "WMS", "request": "Nope"}, {"request": "GetCapabilities"}):
        anon.get("/ows", params=params)
    assert emu.dump_scenario() == before


def test_posted_documents_that_are_not_requests(anon, h):
    r = anon.post("/wms", content=b"<GetFoo/>")
    assert h.exception(r)[:2] == ("OperationNotSupported", "GetFoo")
    r = anon.post("/wms", content=b"<not xml")
    assert h.exception(r)[:2] == ("InvalidParameterValue", "request")
    assert anon.put("/wms", content=b"<x/>").status_code == 405


def test_json_exceptions(anon):
    r = anon.get(
        "/wms",
        params={
            "service": "WMS",
            "version": "1.3.0",
            "request": "GetFoo",
            "exceptions": "application/json",
        },
    )
    assert r.headers["content-type"] == "application/json"
    assert r.json() == {
        "version": "1.3.0",
        "exceptions": [
            {
                "code": "OperationNotSupported",
                "locator": "GetFoo",
                "text": "No such operation WMS 1.3.0 GetFoo",
            }
        ],
    }


@pytest.mark.parametrize(
    "kind", ["application/vnd.ogc.se_inimage", "application/vnd.ogc.se_blank", "INIMAGE", "BLANK"]
)
def test_image_exceptions_of_getmap(anon, kind):
    from io import BytesIO

    from PIL import Image

    params = {
        "service": "WMS",
        "version": "1.1.1",
        "request": "GetMap",
        "layers": "nope",
        "srs": "EPSG:4326",
        "bbox": "0,0,1,1",
        "width": 30,
        "height": 20,
        "format": "image/png",
        "exceptions": kind,
    }
    r = anon.get("/wms", params=params)
    assert r.headers["content-type"] == "image/png"
    img = Image.open(BytesIO(r.content)).convert("RGB")
    assert img.size == (30, 20)
    dark = [c for c in (img.getcolors(30 * 20) or []) if sum(c[1]) < 300]
    assert bool(dark) == ("inimage" in kind.lower())
