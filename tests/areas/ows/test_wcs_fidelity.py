"""WCS 1.0.0, 1.1.1 and 2.0.1 as GeoServer's own WCS tests assert them: links appendable,
sections, version negotiation, DescribeCoverage complete (grids, axes, CRSs, formats, native
format), describe-all, identifiers and their refusals, exception reports per version, the
service name's case."""

from __future__ import annotations

import pytest
from lxml import etree

from geoserver_emulator.areas.catalog.entities import CoverageStore
from geoserver_emulator.areas.wcs import describe

WCS10 = "{http://www.opengis.net/wcs}"
WCS11 = "{http://www.opengis.net/wcs/1.1.1}"
WCS20 = "{http://www.opengis.net/wcs/2.0}"
OWS11 = "{http://www.opengis.net/ows/1.1}"
OWS20 = "{http://www.opengis.net/ows/2.0}"
GML = "{http://www.opengis.net/gml}"
GML32 = "{http://www.opengis.net/gml/3.2}"
XLINK = "{http://www.w3.org/1999/xlink}href"


def wcs(client, path: str = "/wcs", **params: str):
    return client.get(path, params={"service": "WCS", **params})


def xml(r) -> etree._Element:
    return etree.fromstring(r.content)


def local(e: etree._Element) -> str:
    return etree.QName(e).localname


# -- capabilities ----------------------------------------------------------------------------


def test_10_links_can_be_appended_to(anon):
    root = xml(wcs(anon, request="GetCapabilities", version="1.0.0"))
    links = [e.get(XLINK) for e in root.iter(f"{WCS10}OnlineResource")]
    assert len(links) == 6  # Get and Post of each operation
    assert all(link == "http://localhost:8080/geoserver/wcs?" for link in links)
    root = xml(wcs(anon, "/nurc/wcs", request="GetCapabilities", version="1.0.0", Language="it"))
    links = [e.get(XLINK) for e in root.iter(f"{WCS10}OnlineResource")]
    assert set(links) == {"http://localhost:8080/geoserver/nurc/wcs?Language=it&"}


@pytest.mark.parametrize("version", ["1.1.1", "2.0.1"])
def test_ows_links_can_be_appended_to(anon, version):
    root = xml(wcs(anon, request="GetCapabilities", version=version))
    links = [e.get(XLINK) for e in root.iter() if local(e) in ("Get", "Post")]
    assert links and all(link == "http://localhost:8080/geoserver/wcs?" for link in links)


@pytest.mark.parametrize(
    "section,present",
    [
        ("/", {"Service", "Capability", "ContentMetadata"}),
        ("/WCS_Capabilities/Service", {"Service"}),
        ("/WCS_Capabilities/ContentMetadata", {"ContentMetadata"}),
    ],
)
def test_10_section(anon, section, present):
    root = xml(wcs(anon, request="GetCapabilities", version="1.0.0", section=section))
    assert {local(c) for c in root} == present


def test_10_unknown_section(anon):
    r = wcs(anon, request="GetCapabilities", version="1.0.0", section="Bogus")
    assert r.status_code == 200
    root = xml(r)
    assert (root.tag, root.get("version")) == ("ServiceExceptionReport", "1.2.0")
    e = root.find("ServiceException")
    assert (e.get("code"), e.get("locator")) == ("InvalidParameterValue", "section")
    assert e.text.strip() == "Could not find section 'Bogus'"


@pytest.mark.parametrize(
    "version,sections,present",
    [
        ("1.1.1", "All", {"ServiceIdentification", "ServiceProvider", "OperationsMetadata",
                          "Contents"}),
        ("1.1.1", "ServiceProvider", {"ServiceProvider"}),
        ("1.1.1", "ServiceProvider,Contents", {"ServiceProvider", "Contents"}),
        ("2.0.1", "All", {"ServiceIdentification", "ServiceProvider", "OperationsMetadata",
                          "ServiceMetadata", "Contents"}),
        ("2.0.1", "ServiceMetadata", {"ServiceMetadata"}),
    ],
)  # fmt: skip
def test_ows_sections(anon, version, sections, present):
    root = xml(wcs(anon, request="GetCapabilities", version=version, sections=sections))
    assert {local(c) for c in root} == present


@pytest.mark.parametrize("version,status", [("1.1.1", 200), ("2.0.1", 400)])
def test_unknown_ows_section(anon, version, status):
    r = wcs(anon, request="GetCapabilities", version=version, sections="Bogus")
    assert r.status_code == status
    e = next(x for x in xml(r).iter() if local(x) == "Exception")
    assert (e.get("exceptionCode"), e.get("locator")) == ("InvalidParameterValue", "Sections")
    assert "Unknown section Bogus" in "".join(e.itertext())


# -- version negotiation ---------------------------------------------------------------------


@pytest.mark.parametrize("path,service", [("/wcs", "WCS"), ("/wms", "WMS"), ("/wfs", "WFS")])
def test_accept_versions_naming_none_fails(anon, path, service):
    query = {"service": service, "request": "GetCapabilities", "acceptVersions": "9.9.9,8.8.8"}
    r = anon.get(path, params=query)
    assert r.status_code == 200
    root = xml(r)
    assert (root.tag, root.get("version")) == (f"{OWS11}ExceptionReport", "1.1.0")
    e = root.find(f"{OWS11}Exception")
    assert (e.get("exceptionCode"), e.get("locator")) == ("VersionNegotiationFailed",
                                                          "acceptVersions")  # fmt: skip
    assert "content-disposition" not in r.headers


@pytest.mark.parametrize(
    "params,version",
    [
        ({"acceptVersions": "0.5.0,1.1.1"}, "1.1.1"),
        ({"acceptVersions": "1.1.0,2.0.1"}, "1.1.1"),
        ({"acceptVersions": "1.0.0"}, "1.0.0"),
        ({"version": "9.9.9"}, "2.0.1"),
        ({"version": "0.5"}, "1.0.0"),
        ({"version": "1.5.0"}, "1.1.1"),
        ({}, "2.0.1"),
    ],
)
def test_negotiated_versions(anon, params, version):
    root = xml(wcs(anon, request="GetCapabilities", **params))
    assert root.get("version") == version


def test_wms_and_wfs_take_the_first_accepted_version(anon):
    query = {"service": "WMS", "request": "GetCapabilities", "acceptVersions": "1.1.1,1.3.0"}
    assert xml(anon.get("/wms", params=query)).get("version") == "1.1.1"
    query = {"service": "WFS", "request": "GetCapabilities", "acceptVersions": "2.0.0,1.0.0"}
    assert xml(anon.get("/wfs", params=query)).get("version") == "2.0.0"


def test_20_wants_the_service_named_in_capitals(anon):
    r = anon.get("/wcs", params={"service": "wCS", "request": "GetCapabilities"})
    assert r.status_code == 400
    e = xml(r).find(f"{OWS20}Exception")
    assert (e.get("exceptionCode"), e.get("locator")) == ("InvalidParameterValue", "wCS")
    r = anon.get(
        "/wcs", params={"service": "wcs", "request": "GetCapabilities", "version": "1.0.0"}
    )
    assert xml(r).tag == f"{WCS10}WCS_Capabilities"


# -- DescribeCoverage 1.0.0 ------------------------------------------------------------------


def offering(anon, name: str = "nurc:Arc_Sample", path: str = "/wcs") -> etree._Element:
    root = xml(wcs(anon, path, request="DescribeCoverage", version="1.0.0", coverage=name))
    assert root.tag == f"{WCS10}CoverageDescription", etree.tostring(root)[:300]
    return root.find(f"{WCS10}CoverageOffering")


def test_10_rectified_grid(anon):
    grid = offering(anon).find(f".//{GML}RectifiedGrid")
    assert (grid.get("dimension"), grid.get("srsName")) == ("2", "EPSG:4326")
    assert grid.findtext(f".//{GML}low") == "0 0"
    assert grid.findtext(f".//{GML}high") == "719 359"
    assert [a.text for a in grid.iter(f"{GML}axisName")] == ["x", "y"]
    assert grid.findtext(f"{GML}origin/{GML}pos") == "-179.75 89.75"
    assert [v.text for v in grid.iter(f"{GML}offsetVector")] == ["0.5 0.0", "0.0 -0.5"]


def test_10_projected_grid(anon):
    grid = offering(anon, "sf:sfdem").find(f".//{GML}RectifiedGrid")
    assert grid.get("srsName") == "EPSG:26713"
    first, second = [[float(x) for x in v.text.split()] for v in grid.iter(f"{GML}offsetVector")]
    assert first[0] > 0 and first[1] == 0 and second[0] == 0 and second[1] < 0


def test_10_band_axis(anon):
    values = offering(anon).find(f".//{WCS10}AxisDescription/{WCS10}values")
    assert [local(c) for c in values] == ["singleValue"]
    values = offering(anon, "nurc:Img_Sample").find(f".//{WCS10}AxisDescription/{WCS10}values")
    assert values.findtext(f"{WCS10}interval/{WCS10}max") == "3"


def test_10_crss_and_formats_as_geoserver_spells_them(anon):
    o = offering(anon, "sf:sfdem")
    assert [e.text for e in o.iter(f"{WCS10}requestResponseCRSs")] == ["EPSG:26713"]
    formats = o.find(f"{WCS10}supportedFormats")
    assert formats.get("nativeFormat") == "GeoTIFF"
    assert [f.text for f in formats] == ["GeoTIFF", "JPEG", "PNG", "TIFF"]
    methods = o.find(f"{WCS10}supportedInterpolations")
    assert methods.get("default") == "nearest neighbor"


def test_10_describes_every_coverage_when_none_is_named(emu, anon):
    root = xml(wcs(anon, request="DescribeCoverage", version="1.0.0"))
    names = [
        e.text for e in root.iter(f"{WCS10}name") if e.getparent().tag == f"{WCS10}CoverageOffering"
    ]
    caps = xml(wcs(anon, request="GetCapabilities", version="1.0.0"))
    listed = [e.text for e in caps.iter(f"{WCS10}name")
              if e.getparent().tag == f"{WCS10}CoverageOfferingBrief"]  # fmt: skip
    assert names == listed and len(names) > 1


def test_10_unknown_coverage_is_the_legacy_report(anon):
    r = wcs(anon, request="DescribeCoverage", version="1.0.0", coverage="plop")
    assert r.status_code == 200
    assert r.headers["content-type"].startswith("application/vnd.ogc.se_xml")
    root = xml(r)
    assert (root.tag, root.get("version")) == ("ServiceExceptionReport", "1.2.0")
    e = root.find("ServiceException")
    assert (e.get("code"), e.get("locator")) == ("InvalidParameterValue", "coverage")
    assert "plop" in e.text


def test_10_workspace_qualified(anon):
    r = wcs(anon, "/sf/wcs", request="DescribeCoverage", version="1.0.0", coverage="Arc_Sample")
    assert xml(r).tag == "ServiceExceptionReport"
    assert offering(anon, "Arc_Sample", "/nurc/wcs").findtext(f"{WCS10}name") == "Arc_Sample"


# -- DescribeCoverage 1.1.1 ------------------------------------------------------------------


def description_11(anon, name: str) -> etree._Element:
    root = xml(wcs(anon, request="DescribeCoverage", version="1.1.1", identifiers=name))
    assert root.tag == f"{WCS11}CoverageDescriptions"
    return root.find(f"{WCS11}CoverageDescription")


def test_11_domain(anon):
    d = description_11(anon, "nurc:Arc_Sample")
    boxes = d.findall(f"{WCS11}Domain/{WCS11}SpatialDomain/{OWS11}BoundingBox")
    assert [b.get("crs") for b in boxes] == ["urn:ogc:def:crs:OGC:1.3:CRS84",
                                             "urn:ogc:def:crs:EPSG::4326"]  # fmt: skip
    assert boxes[1].findtext(f"{OWS11}LowerCorner") == "-90.0 -180.0"  # the URN is lat/lon
    grid = d.find(f".//{WCS11}GridCRS")
    assert grid.findtext(f"{WCS11}GridBaseCRS") == "urn:ogc:def:crs:EPSG::4326"
    assert grid.findtext(f"{WCS11}GridType") == "urn:ogc:def:method:WCS:1.1:2dGridIn2dCrs"
    assert grid.findtext(f"{WCS11}GridOrigin") == "-179.75 89.75"
    offsets = [float(v) for v in grid.findtext(f"{WCS11}GridOffsets").split()]
    assert len(offsets) == 4 and offsets[0] > 0 and offsets[1] == offsets[2] == 0 > offsets[3]
    assert grid.findtext(f"{WCS11}GridCS") == "urn:ogc:def:cs:OGC:0.0:Grid2dSquareCS"


def test_11_range_and_axis(anon):
    field = description_11(anon, "nurc:Img_Sample").find(f".//{WCS11}Field")
    assert field.findtext(f"{WCS11}Identifier") == "contents"
    keys = [k.text for k in field.iter(f"{WCS11}Key")]
    assert keys == ["Red_band", "Green_band", "Blue_band"]
    assert field.find(f"{WCS11}Axis").get("identifier") == "Bands"
    methods = [m.text for m in field.iter(f"{WCS11}InterpolationMethod")]
    assert "nearest" in methods


def test_11_crss_and_formats(anon):
    d = description_11(anon, "sf:sfdem")
    assert [e.text for e in d.iter(f"{WCS11}SupportedCRS")] == ["urn:ogc:def:crs:EPSG::26713",
                                                                "EPSG:26713"]  # fmt: skip
    assert [e.text for e in d.iter(f"{WCS11}SupportedFormat")] == [
        "image/tiff", "image/png", "image/jpeg"]  # fmt: skip


@pytest.mark.parametrize(
    "params,code,locator",
    [
        ({}, "MissingParameterValue", "identifiers"),
        ({"identifiers": "plop"}, "InvalidParameterValue", "identifiers"),
    ],
)
def test_11_refusals(anon, params, code, locator):
    r = wcs(anon, request="DescribeCoverage", version="1.1.1", **params)
    root = xml(r)
    assert (root.tag, root.get("version")) == (f"{OWS11}ExceptionReport", "1.1.0")
    e = root.find(f"{OWS11}Exception")
    assert (e.get("exceptionCode"), e.get("locator")) == (code, locator)


def test_11_identifiers_are_qualified_in_a_workspace_service(anon):
    r = wcs(
        anon, "/nurc/wcs", request="DescribeCoverage", version="1.1.1", identifiers="Arc_Sample"
    )
    assert xml(r).findtext(f".//{WCS11}Identifier") == "nurc:Arc_Sample"


# -- DescribeCoverage 2.0.1 ------------------------------------------------------------------


def descriptions_20(anon, ids: str, path: str = "/wcs") -> list[etree._Element]:
    r = wcs(anon, path, request="DescribeCoverage", version="2.0.1", coverageId=ids)
    assert r.status_code == 200, r.text[:300]
    return xml(r).findall(f"{WCS20}CoverageDescription")


@pytest.mark.parametrize(
    "path,ids",
    [("/wcs", "nurc__Arc_Sample"), ("/wcs", "Arc_Sample"), ("/nurc/wcs", "Arc_Sample")],
)
def test_20_ids_with_or_without_the_workspace(anon, path, ids):
    (d,) = descriptions_20(anon, ids, path)
    assert d.get(f"{GML32}id") == "nurc__Arc_Sample"
    assert d.findtext(f"{WCS20}CoverageId") == "nurc__Arc_Sample"


def test_20_grid(anon):
    (d,) = descriptions_20(anon, "sf__sfdem")
    assert d.find(f".//{GML32}sequenceRule").get("axisOrder") == "+1 +2"
    assert d.findtext(f".//{GML32}startPoint") == "0 0"
    grid = d.find(f"{GML32}domainSet/{GML32}RectifiedGrid")
    assert grid.get(f"{GML32}id") == "grid00__sf__sfdem"
    assert grid.findtext(f"{GML32}axisLabels") == "i j"
    point = grid.find(f"{GML32}origin/{GML32}Point")
    assert point.get("srsName") == "http://www.opengis.net/def/crs/EPSG/0/26713"
    (d,) = descriptions_20(anon, "nurc__Arc_Sample")
    assert d.find(f".//{GML32}sequenceRule").get("axisOrder") == "+2 +1"  # latitude first
    assert d.findtext(f".//{GML32}Point/{GML32}pos") == "89.75 -179.75"


def test_20_several_and_their_native_formats(anon):
    found = descriptions_20(anon, "nurc__Arc_Sample,sf__sfdem,nurc__mosaic")
    assert [d.findtext(f".//{WCS20}nativeFormat") for d in found] == ["image/tiff"] * 3


def test_20_native_format_per_store():
    def store(kind: str, url: str) -> CoverageStore:
        return CoverageStore(name="s", workspace="w", type=kind, url=url)

    assert describe.native_format_20(None, store("WorldImage", "file:a/b.png")) == "image/png"  # type: ignore[arg-type]
    for kind, url in (("WorldImage", "file:a.jpeg"), ("GeoTIFF", "file:a.tif"),
                      ("ArcGrid", "file:a.asc"), ("ImageMosaic", "file:m")):  # fmt: skip
        assert describe.native_format_20(None, store(kind, url)) == "image/tiff"  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "ids,code,text",
    [
        ("nurc__Arc_Sample,nurc__nope", "NoSuchCoverage",
         "Could not find the requested coverage(s): nurc__nope"),
        ("", "emptyCoverageIdList", "Required parameter coverageId missing"),
    ],
)  # fmt: skip
def test_20_refusals(anon, ids, code, text):
    r = wcs(anon, request="DescribeCoverage", version="2.0.1", coverageId=ids)
    assert r.status_code == 404
    e = xml(r).find(f"{OWS20}Exception")
    assert (e.get("exceptionCode"), e.get("locator")) == (code, "coverageId")
    assert e.findtext(f"{OWS20}ExceptionText") == text


# -- DescribeCoverage POSTed as XML ------------------------------------------------------------

POST_10 = (
    '<wcs:DescribeCoverage service="WCS" xmlns:wcs="http://www.opengis.net/wcs" version="1.0.0">'
    "<wcs:Coverage>{}</wcs:Coverage></wcs:DescribeCoverage>"
)
POST_20 = (
    '<wcs:DescribeCoverage service="WCS" xmlns:wcs="http://www.opengis.net/wcs/2.0" '
    'version="2.0.1"><wcs:CoverageId>{}</wcs:CoverageId></wcs:DescribeCoverage>'
)


def test_describe_coverage_posted_as_xml_is_workspace_qualified(anon):
    post = {"headers": {"Content-Type": "text/xml"}}
    r = anon.post("/sf/wcs", content=POST_10.format("Arc_Sample"), **post)
    assert xml(r).tag == "ServiceExceptionReport"
    r = anon.post("/nurc/wcs", content=POST_10.format("Arc_Sample"), **post)
    assert xml(r).tag == f"{WCS10}CoverageDescription"
    r = anon.post("/wcs", content=POST_20.format("nurc__Arc_Sample"), **post)
    assert xml(r).find(f"{WCS20}CoverageDescription").get(f"{GML32}id") == "nurc__Arc_Sample"
