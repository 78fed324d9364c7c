"""WCS 1.0.0, 1.1.1 and 2.0.1: capabilities and coverage descriptions from the catalog."""

from __future__ import annotations

import pytest
from lxml import etree

WCS10 = "http://www.opengis.net/wcs"
WCS11 = "http://www.opengis.net/wcs/1.1.1"
WCS20 = "http://www.opengis.net/wcs/2.0"
OWS20 = "http://www.opengis.net/ows/2.0"


def wcs(client, **params):
    return client.get("/wcs", params={"service": "WCS", **params})


def coverage_names(emu) -> list[str]:
    catalog = emu.state.catalog
    return sorted(
        f"{ws}:{n}"
        for (ws, n), r in catalog.resources.items()
        if r.kind == "coverage" and r.enabled and (ws, n) in catalog.layers
    )


def test_100_capabilities(emu, anon):
    root = etree.fromstring(wcs(anon, request="GetCapabilities", version="1.0.0").content)
    assert root.tag == f"{{{WCS10}}}WCS_Capabilities"
    names = [e.text for e in root.iterfind(f".//{{{WCS10}}}CoverageOfferingBrief/{{{WCS10}}}name")]
    assert names == coverage_names(emu)
    arc = root.find(f".//{{{WCS10}}}CoverageOfferingBrief[{{{WCS10}}}name='nurc:Arc_Sample']")
    assert arc.findtext(f"{{{WCS10}}}label") == "A sample ArcGrid file"
    assert [p.text for p in arc.iterfind(".//{http://www.opengis.net/gml}pos")] == [
        "-180.0 -90.0",
        "180.0 90.0",
    ]


def test_111_and_201_capabilities(emu, anon):
    root = etree.fromstring(wcs(anon, request="GetCapabilities", version="1.1.1").content)
    ids = [e.text for e in root.iterfind(f".//{{{WCS11}}}CoverageSummary/{{{WCS11}}}Identifier")]
    assert ids == coverage_names(emu)
    root = etree.fromstring(wcs(anon, request="GetCapabilities").content)
    assert root.get("version") == "2.0.1"
    ids = [e.text for e in root.iterfind(f".//{{{WCS20}}}CoverageSummary/{{{WCS20}}}CoverageId")]
    assert ids == [n.replace(":", "__") for n in coverage_names(emu)]
    assert root.findtext(f".//{{{WCS20}}}CoverageSubtype") == "RectifiedGridCoverage"


def test_describe_coverage_each_version(anon):
    r = wcs(anon, request="DescribeCoverage", version="1.0.0", coverage="nurc:Arc_Sample")
    root = etree.fromstring(r.content)
    offering = root.find(f"{{{WCS10}}}CoverageOffering")
    assert offering.findtext(f"{{{WCS10}}}name") == "nurc:Arc_Sample"
    formats = [f.text for f in offering.iterfind(f".//{{{WCS10}}}formats")]
    # the formats an encoder exists for, sorted, GEOTIFF spelled GeoTIFF (GeoServer's)
    assert formats == ["GeoTIFF", "PNG", "TIFF"]
    assert offering.find(f"{{{WCS10}}}supportedFormats").get("nativeFormat") == "ArcGrid"
    r = wcs(anon, request="DescribeCoverage", version="2.0.1", coverageId="nurc__Arc_Sample")
    root = etree.fromstring(r.content)
    desc = root.find(f"{{{WCS20}}}CoverageDescription")
    assert desc.get("{http://www.opengis.net/gml/3.2}id") == "nurc__Arc_Sample"
    fields = desc.findall(".//{http://www.opengis.net/swe/2.0}field")
    assert [f.get("name") for f in fields] == ["precip30min"]
    r = wcs(anon, request="DescribeCoverage", version="1.1.1", identifiers="sf:sfdem")
    assert (
        etree.fromstring(r.content).findtext(f".//{{{WCS11}}}SupportedCRS")
        == "urn:ogc:def:crs:EPSG::26713"
    )


def test_workspace_service(anon):
    root = etree.fromstring(
        anon.get(
            "/nurc/wcs", params={"service": "WCS", "request": "GetCapabilities", "version": "1.0.0"}
        ).content
    )
    names = [e.text for e in root.iterfind(f".//{{{WCS10}}}CoverageOfferingBrief/{{{WCS10}}}name")]
    assert "Arc_Sample" in names and all(":" not in n for n in names)


@pytest.mark.parametrize(
    "params,status,code",
    [
        (
            {"request": "DescribeCoverage", "version": "2.0.1", "coverageId": "nope"},
            404,
            "NoSuchCoverage",
        ),
        ({"request": "DescribeCoverage", "version": "2.0.1"}, 404, "emptyCoverageIdList"),
        (
            {
                "request": "GetCoverage",
                "version": "2.0.1",
                "coverageId": "nurc__Arc_Sample",
                "subset": "Lat(100,110)",
            },
            404,
            "InvalidSubsetting",
        ),
        (
            {"request": "DescribeCoverage", "version": "1.0.0", "coverage": "nope"},
            200,
            "InvalidParameterValue",
        ),
    ],
)
def test_exceptions(anon, params, status, code):
    r = wcs(anon, **params)
    assert r.status_code == status
    root = etree.fromstring(r.content)
    e = next(
        x for x in root.iter() if etree.QName(x).localname in ("Exception", "ServiceException")
    )
    assert (e.get("exceptionCode") or e.get("code")) == code
    if params.get("version") == "2.0.1":
        assert root.tag == f"{{{OWS20}}}ExceptionReport"


def test_hidden_coverage(emu, anon):
    emu.state.security.replace_rules("layers", {"*.*.r": "*", "nurc.*.r": "ROLE_READER"})
    assert b"Arc_Sample" not in wcs(anon, request="GetCapabilities").content
    r = wcs(anon, request="DescribeCoverage", version="2.0.1", coverageId="nurc__Arc_Sample")
    assert r.status_code == 404


def test_uploaded_coverage_describes_its_grid(client, anon):
    grid = (
        b"ncols 3\nnrows 2\nxllcorner 100.0\nyllcorner 200.0\ncellsize 10.0\n"
        b"NODATA_value -9999\n0 1 2 3 4 5\n"
    )
    r = client.put(
        "/rest/workspaces/sf/coveragestores/grid/file.arcgrid",
        content=grid,
        headers={"Content-Type": "text/plain"},
    )
    assert r.status_code == 201, r.text
    r = wcs(anon, request="DescribeCoverage", version="1.0.0", coverage="sf:grid")
    root = etree.fromstring(r.content)
    gml = "{http://www.opengis.net/gml}"
    rect = root.find(f".//{gml}RectifiedGrid")
    assert rect.findtext(f".//{gml}high") == "2 1"
    assert rect.findtext(f"{gml}origin/{gml}pos") == "105.0 215.0"
    assert [v.text for v in rect.iterfind(f"{gml}offsetVector")] == ["10.0 0.0", "0.0 -10.0"]
    assert b"sf:grid" in wcs(anon, request="GetCapabilities", version="1.0.0").content


def test_wcs_111_summary_leaves_an_empty_title_and_abstract_out(client):
    body = {"coverage": {"title": "", "description": "", "abstract": ""}}
    url = "/rest/workspaces/sf/coveragestores/sfdem/coverages/sfdem"
    assert client.put(url, json=body).status_code == 200
    params = {"service": "WCS", "request": "GetCapabilities", "version": "1.1.1"}
    root = etree.fromstring(client.get("/wcs", params=params).content)
    wcs, ows = "{http://www.opengis.net/wcs/1.1.1}", "{http://www.opengis.net/ows/1.1}"
    summary = next(
        s
        for s in root.iter(f"{wcs}CoverageSummary")
        if s.findtext(f"{wcs}Identifier") == "sf:sfdem"
    )
    assert summary.find(f"{ows}Title") is None and summary.find(f"{ows}Abstract") is None
