"""Capabilities headers and links as GeoServer's own tests assert them: WMS 1.1.1 ``FORMAT``,
``Content-Disposition`` and ``Cache-Control``, LegendURL and OnlineResource links on the
virtual service called, ``Language`` carried into service links, a layer service listing its
own unadvertised layer, DescribeLayer JSON's charset; WFS's media type, ``AcceptFormats``
and namespace filter; WMTS's virtual services, service metadata links and GeoWebCache's
exception reports."""

from __future__ import annotations

import pytest
from lxml import etree

XLINK = "{http://www.w3.org/1999/xlink}href"
WMTS = {"wmts": "http://www.opengis.net/wmts/1.0", "ows": "http://www.opengis.net/ows/1.1"}
WFS_NS = {
    "1.0.0": "{http://www.opengis.net/wfs}",
    "1.1.0": "{http://www.opengis.net/wfs}",
    "2.0.0": "{http://www.opengis.net/wfs/2.0}",
}
XML = {"Content-Type": "text/xml"}


def wms_caps(client, path: str = "/wms", version: str = "1.1.1", **params: str):
    query = {"service": "WMS", "request": "GetCapabilities", "version": version, **params}
    return client.get(path, params=query)


def hrefs(root: etree._Element, under: str = "") -> list[str]:
    """Every ``xlink:href`` in the document (below elements named ``under``)."""
    nodes = (
        root.iter()
        if not under
        else (e for x in root.iter() if _local(x) == under for e in x.iter())
    )
    return [e.get(XLINK) for e in nodes if e.get(XLINK)]


def _local(e: etree._Element) -> str:
    return etree.QName(e).localname if isinstance(e.tag, str) else ""


# -- WMS GetCapabilities headers ------------------------------------------------------------


@pytest.mark.parametrize(
    "fmt,media",
    [
        (None, "application/vnd.ogc.wms_xml"),
        ("", "application/vnd.ogc.wms_xml"),
        ("text/xml", "text/xml"),
        ("TEXT/XML", "text/xml"),
        ("application/vnd.ogc.wms_xml", "application/vnd.ogc.wms_xml"),
    ],
)
def test_111_format_picks_the_media_type(anon, fmt, media):
    params = {} if fmt is None else {"format": fmt}
    r = wms_caps(anon, **params)
    assert r.status_code == 200
    assert r.headers["content-type"].split(";")[0] == media
    assert etree.fromstring(r.content).tag == "WMT_MS_Capabilities"


def test_111_an_unknown_format_is_refused_as_geoservers_response_refuses_it(anon, h):
    r = wms_caps(anon, format="invalid")
    assert r.status_code == 200
    assert r.headers["content-type"].startswith("application/vnd.ogc.se_xml")
    assert h.exception(r) == (None, None, "The request format 'invalid' is not supported.")


def test_130_ignores_format(anon):
    r = wms_caps(anon, version="1.3.0", format="invalid")
    assert r.headers["content-type"].startswith("text/xml")


@pytest.mark.parametrize("version", ["1.1.1", "1.3.0"])
def test_wms_capabilities_disposition_and_caching(anon, version):
    r = wms_caps(anon, version=version)
    assert r.headers["content-disposition"] == f"inline; filename=getcapabilities_{version}.xml"
    assert r.headers["cache-control"] == "max-age=0, must-revalidate"


@pytest.mark.parametrize(
    "path,params,disposition",
    [
        ("/wfs", {"service": "WFS", "version": "2.0.0"}, "geoserver-GetCapabilities.application"),
        ("/wfs", {"service": "WFS", "version": "1.0.0"}, "geoserver-GetCapabilities.application"),
        ("/wcs", {"service": "WCS", "version": "1.0.0"}, "geoserver-GetCapabilities.text"),
    ],
)
def test_every_geoserver_capabilities_document_is_revalidated(anon, path, params, disposition):
    r = anon.get(path, params={**params, "request": "GetCapabilities"})
    assert r.headers["cache-control"] == "max-age=0, must-revalidate"
    assert r.headers["content-disposition"] == f"inline; filename={disposition}"


def test_geowebcache_answers_carry_neither_header(anon):
    r = anon.get("/gwc/service/wmts", params={"request": "GetCapabilities"})
    assert r.status_code == 200
    assert "cache-control" not in r.headers
    assert "content-disposition" not in r.headers


def test_other_operations_are_not_revalidated(anon):
    query = {"service": "WFS", "version": "2.0.0", "request": "DescribeFeatureType"}
    r = anon.get("/wfs", params={**query, "typeNames": "topp:states"})
    assert "cache-control" not in r.headers
    assert r.headers["content-disposition"] == "inline; filename=topp-states.xsd"


# -- links on the virtual service called -----------------------------------------------------


@pytest.mark.parametrize(
    "path,version,endpoint",
    [
        ("/wms", "1.1.1", "/geoserver/wms?"),
        ("/wms", "1.3.0", "/geoserver/ows?"),
        ("/topp/wms", "1.1.1", "/geoserver/topp/wms?"),
        ("/topp/wms", "1.3.0", "/geoserver/topp/ows?"),
        ("/topp/states/wms", "1.1.1", "/geoserver/topp/states/wms?"),
        ("/topp/states/wms", "1.3.0", "/geoserver/topp/states/ows?"),
        ("/topp/ows", "1.1.1", "/geoserver/topp/wms?"),
    ],
)
def test_layer_links_and_operations_point_at_the_service_called(anon, path, version, endpoint):
    root = etree.fromstring(wms_caps(anon, path, version).content)
    for link in [*hrefs(root, "Request"), *hrefs(root, "LegendURL")]:
        assert endpoint in link, link
    assert hrefs(root, "LegendURL")


def test_legend_links_are_written_as_each_version_writes_them(anon):
    root = etree.fromstring(wms_caps(anon, "/topp/wms", "1.1.1").content)
    assert hrefs(root, "LegendURL")[0] == (
        "http://localhost:8080/geoserver/topp/wms?request=GetLegendGraphic&version=1.1.1"
        "&format=image%2Fpng&width=20&height=20&layer=states"
    )
    root = etree.fromstring(wms_caps(anon, "/topp/wms", "1.3.0").content)
    assert hrefs(root, "LegendURL")[0] == (
        "http://localhost:8080/geoserver/topp/ows?service=WMS&version=1.3.0"
        "&request=GetLegendGraphic&format=image%2Fpng&width=20&height=20&layer=states"
    )


@pytest.fixture
def italian(settings):
    """WMS and WFS settings with an Italian title; no online resource anywhere (GeoServer
    then links the service itself)."""
    settings.services[("wms", None)] = {
        "title": "Maps",
        "internationalTitle": {"it": "Mappe"},
        "onlineResource": "",
    }
    settings.services[("wfs", None)] = {"title": "Features", "internationalTitle": {"it": "Dati"}}
    settings.global_settings[None] = {"contact": {"contactPerson": "Ann"}}  # no online resource
    return settings


@pytest.mark.parametrize("params", [{"AcceptLanguages": "it"}, {"AcceptLanguages": "it,en"},
                                    {"Language": "it"}])  # fmt: skip
def test_the_requested_language_is_carried_into_service_links(italian, anon, params):
    root = etree.fromstring(wms_caps(anon, **params).content)
    service = root.find("Service/OnlineResource")
    assert service.get(XLINK) == "http://localhost:8080/geoserver/?Language=it"
    get = root.find("Capability/Request/GetCapabilities/DCPType/HTTP/Get/OnlineResource")
    assert get.get(XLINK) == "http://localhost:8080/geoserver/wms?SERVICE=WMS&Language=it&"
    for link in hrefs(root, "LegendURL"):
        assert link.endswith("&Language=it")


def test_no_language_no_language_in_links(italian, anon):
    root = etree.fromstring(wms_caps(anon).content)
    assert all("Language" not in link for link in hrefs(root))
    assert root.find("Service/OnlineResource").get(XLINK) == "http://localhost:8080/geoserver/"


def test_wfs_service_links_carry_the_language_too(italian, anon):
    query = {"service": "WFS", "version": "2.0.0", "request": "GetCapabilities",
             "AcceptLanguages": "it"}  # fmt: skip
    root = etree.fromstring(anon.get("/wfs", params=query).content)
    links = [e.get(XLINK) for e in root.iter() if _local(e) in ("Get", "Post")]
    assert links and all(link.endswith("/geoserver/wfs?Language=it") for link in links)


def test_a_layer_service_lists_its_own_unadvertised_layer(client, anon, h):
    body = "<layer><advertised>false</advertised></layer>"
    assert client.put("/rest/layers/topp:states", content=body, headers=XML).status_code == 200
    for path in ("/wms", "/topp/wms"):
        names = h.layer_names(etree.fromstring(wms_caps(anon, path).content))
        assert not {"topp:states", "states"} & set(names)
    names = h.layer_names(etree.fromstring(wms_caps(anon, "/topp/states/wms").content))
    assert "states" in names


def test_describe_layer_json_names_its_charset(anon, settings):
    query = {"service": "WMS", "version": "1.1.1", "request": "DescribeLayer",
             "layers": "topp:states", "outputFormat": "application/json"}  # fmt: skip
    r = anon.get("/wms", params=query)
    assert r.headers["content-type"] == "application/json;charset=UTF-8"
    assert r.json()["layerDescriptions"][0]["owsType"] == "WFS"
    settings.global_settings[None] = {"charset": "ISO-8859-1"}
    r = anon.get("/wms", params=query)
    assert r.headers["content-type"] == "application/json;charset=ISO-8859-1"


# -- WFS GetCapabilities -------------------------------------------------------------------


@pytest.mark.parametrize("version", ["1.0.0", "1.1.0", "2.0.0"])
@pytest.mark.parametrize(
    "accept,media",
    [
        (None, "application/xml"),
        ("text/xml", "text/xml"),
        ("application/json,text/xml", "text/xml"),
        ("application/json", "application/xml"),
        ("a b/xml", "application/xml"),
    ],
)
def test_wfs_capabilities_media_type(anon, version, accept, media):
    query = {"service": "WFS", "version": version, "request": "GetCapabilities"}
    if accept is not None:
        query["acceptformats"] = accept
    r = anon.get("/wfs", params=query)
    assert r.status_code == 200
    assert r.headers["content-type"].split(";")[0] == media


@pytest.mark.parametrize("version", ["1.0.0", "1.1.0", "2.0.0"])
def test_wfs_namespace_filter(anon, version):
    query = {"service": "WFS", "version": version, "request": "GetCapabilities"}
    ns = WFS_NS[version]
    root = etree.fromstring(anon.get("/wfs", params={**query, "namespace": "sf"}).content)
    names = [e.text for e in root.iter(f"{ns}Name") if e.getparent().tag == f"{ns}FeatureType"]
    assert names and all(n.startswith("sf:") for n in names)
    root = etree.fromstring(anon.get("/wfs", params={**query, "namespace": "NotThere"}).content)
    assert etree.QName(root).localname == "WFS_Capabilities"
    assert not list(root.iter(f"{ns}FeatureType"))


def test_wfs_file_names(anon):
    query = {"service": "WFS", "version": "2.0.0", "request": "DescribeFeatureType",
             "typeNames": "topp:states,sf:archsites"}  # fmt: skip
    r = anon.get("/wfs", params=query)
    assert r.headers["content-disposition"] == "inline; filename=schema.xsd"
    query = {"service": "WFS", "version": "2.0.0", "request": "GetFeature", "count": "1",
             "typeNames": "topp:states", "outputFormat": "application/json"}  # fmt: skip
    assert anon.get("/wfs", params=query).headers["content-disposition"] == (
        "inline; filename=states.json"
    )
    query["outputFormat"] = "text/xml; subtype=gml/3.2"
    assert anon.get("/wfs", params=query).headers["content-disposition"] == (
        "inline; filename=states.xml"
    )


# -- WMTS ----------------------------------------------------------------------------------


def wmts_caps(client, prefix: str = "") -> etree._Element:
    r = client.get(f"{prefix}/gwc/service/wmts", params={"request": "GetCapabilities"})
    assert r.status_code == 200, r.text[:300]
    return etree.fromstring(r.content)


def identifiers(root: etree._Element) -> list[str]:
    return root.xpath("//wmts:Contents/wmts:Layer/ows:Identifier/text()", namespaces=WMTS)


def test_wmts_service_metadata_urls(anon):
    root = wmts_caps(anon)
    assert root.xpath("//wmts:ServiceMetadataURL/@xlink:href",
                      namespaces={**WMTS, "xlink": XLINK[1:-5]}) == [
        "http://localhost:8080/geoserver/gwc/service/wmts?SERVICE=wmts&REQUEST=getcapabilities"
        "&VERSION=1.0.0",
        "http://localhost:8080/geoserver/gwc/service/wmts/rest/WMTSCapabilities.xml",
    ]  # fmt: skip


def test_wmts_workspace_virtual_service(anon):
    root = wmts_caps(anon, "/topp")
    names = identifiers(root)
    assert "states" in names and all(":" not in n for n in names)
    links = root.xpath("//wmts:ServiceMetadataURL/@xlink:href",
                       namespaces={**WMTS, "xlink": XLINK[1:-5]})  # fmt: skip
    assert (
        links[1]
        == "http://localhost:8080/geoserver/topp/gwc/service/wmts/rest/WMTSCapabilities.xml"
    )
    states = root.xpath("//wmts:Layer[ows:Identifier='states']", namespaces=WMTS)[0]
    template = states.xpath("wmts:ResourceURL[@format='image/png']/@template", namespaces=WMTS)
    assert template == [
        "http://localhost:8080/geoserver/topp/gwc/service/wmts/rest/states/{style}/"
        "{TileMatrixSet}/{TileMatrix}/{TileRow}/{TileCol}?format=image/png"
    ]
    legend = states.xpath("wmts:Style/wmts:LegendURL/@xlink:href",
                          namespaces={**WMTS, "xlink": XLINK[1:-5]})  # fmt: skip
    assert legend == [
        "http://localhost:8080/geoserver/topp/ows?service=WMS&request=GetLegendGraphic"
        "&version=1.1.0&format=image%2Fpng&width=20&height=20&layer=topp%3Astates"
    ]


@pytest.mark.parametrize("prefix,name", [("/topp/states", "states"), ("/tasmania", "tasmania")])
def test_wmts_layer_and_group_virtual_services(anon, prefix, name):
    assert identifiers(wmts_caps(anon, prefix)) == [name]


def test_wmts_rest_capabilities_of_a_workspace(anon):
    r = anon.get("/topp/gwc/service/wmts/rest/WMTSCapabilities.xml")
    assert r.status_code == 200
    assert "states" in identifiers(etree.fromstring(r.content))


TILE = {"request": "GetTile", "format": "image/png", "tilematrixset": "EPSG:4326",
        "tilematrix": "EPSG:4326:0", "tilerow": "0", "tilecol": "0"}  # fmt: skip


def test_wmts_tiles_of_a_workspace_service_by_local_name(anon):
    r = anon.get("/topp/gwc/service/wmts", params={**TILE, "layer": "states"})
    assert (r.status_code, r.headers["content-type"]) == (200, "image/png")
    r = anon.get("/topp/gwc/service/wmts/rest/states/polygon/EPSG:4326/EPSG:4326:0/0/0",
                 params={"format": "image/png"})  # fmt: skip
    assert (r.status_code, r.headers["content-type"]) == (200, "image/png")


def test_wmts_another_workspaces_layer_is_unknown_to_a_workspace_service(anon):
    r = anon.get("/sf/gwc/service/wmts", params={**TILE, "layer": "states"})
    assert r.status_code == 400
    e = etree.fromstring(r.content).find("{http://www.opengis.net/ows/1.1}Exception")
    assert (e.get("exceptionCode"), e.get("locator")) == ("InvalidParameterValue", "LAYER")


def test_wmts_unknown_virtual_service_is_404(anon):
    assert (
        anon.get("/nope/gwc/service/wmts", params={"request": "GetCapabilities"}).status_code == 404
    )


@pytest.mark.parametrize(
    "changes,code,locator,text",
    [
        ({"style": "nope"}, "InvalidParameterValue", "Style", "Style 'nope' is invalid."),
        ({"format": None}, "MissingParameterValue", "FORMAT",
         "Unable to determine requested FORMAT, null"),
        ({"tilematrixset": None}, "MissingParameterValue", "TILEMATRIXSET",
         "No TILEMATRIXSET specified"),
        ({"tilematrixset": "nope"}, "InvalidParameterValue", "TILEMATRIXSET",
         "Unable to match requested TILEMATRIXSET nope to those supported by layer"),
        ({"tilematrix": None}, "MissingParameterValue", "TILEMATRIX", "No TILEMATRIX specified"),
        ({"tilematrix": "x"}, "InvalidParameterValue", "TILEMATRIX", "Unknown TILEMATRIX x"),
        ({"tilerow": None}, "MissingParameterValue", "TILEROW", "No TILEROW specified"),
        ({"tilecol": None}, "MissingParameterValue", "TILECOL", "No TILECOL specified"),
        ({"tilecol": "5"}, "TileOutOfRange", "TILECOL", "Column 5 is out of range, min: 0 max:1"),
        ({"tilerow": "5"}, "TileOutOfRange", "TILEROW", "Row 5 is out of range, min: 0 max:0"),
        ({"layer": None}, "MissingParameterValue", "LAYER", "Missing LAYER parameter"),
        ({"layer": "nope"}, "InvalidParameterValue", "LAYER", "LAYER nope is not known."),
    ],
)  # fmt: skip
def test_gettile_errors_are_geowebcaches_reports(anon, changes, code, locator, text):
    query = {k: v for k, v in {**TILE, "layer": "topp:states", **changes}.items() if v is not None}
    r = anon.get("/gwc/service/wmts", params=query)
    assert r.status_code == 400
    assert r.headers["content-type"] == "text/xml"
    root = etree.fromstring(r.content)
    assert (root.tag, root.get("version")) == ("{http://www.opengis.net/ows/1.1}ExceptionReport",
                                               "1.1.0")  # fmt: skip
    e = root.find("{http://www.opengis.net/ows/1.1}Exception")
    assert (e.get("exceptionCode"), e.get("locator")) == (code, locator)
    assert e.findtext("{http://www.opengis.net/ows/1.1}ExceptionText") == text


def test_a_tile_style_may_be_any_of_the_layers_styles_in_any_case(anon):
    for style in ("population", "POPHATCH", "topp:nope"[:0]):
        r = anon.get("/gwc/service/wmts", params={**TILE, "layer": "topp:states", "style": style})
        assert r.status_code == 200, r.text
