"""What the catalog keeps beyond names and boxes, in WMS capabilities as GeoServer's
capabilities transformers write it: attribution, authority URLs, identifiers, metadata and
data URLs, translated titles and abstracts, keyword vocabularies, time and elevation
dimensions (1.1.1 ``Dimension`` + ``Extent``; 1.3.0 one ``Dimension``)."""

from __future__ import annotations

import json
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from lxml import etree

from geoserver_emulator import Emulator
from geoserver_emulator.wire.text import xml_safe

NS = {"wms": "http://www.opengis.net/wms", "xlink": "http://www.w3.org/1999/xlink"}
HREF = "{http://www.w3.org/1999/xlink}href"
FT = "/rest/workspaces/topp/datastores/states_shapefile/featuretypes/states"
LAYER = "/rest/layers/topp:states"
XML = {"Content-Type": "application/xml"}


def _caps(client, version="1.3.0", path="/wms", **params):
    query = {"service": "WMS", "request": "GetCapabilities", "version": version, **params}
    r = client.get(path, params=query)
    assert r.status_code == 200
    return etree.fromstring(r.content)


def _layer(root, name):
    if root.tag == "WMT_MS_Capabilities":
        found = [e for e in root.iterfind(".//Layer") if e.findtext("Name") == name]
    else:
        found = [
            e for e in root.iterfind(".//wms:Layer", NS) if e.findtext("wms:Name", namespaces=NS)
        ]
        found = [e for e in found if e.findtext("wms:Name", namespaces=NS) == name]
    assert found, name
    return found[0]


def _local(el):
    return [etree.QName(c).localname for c in el if isinstance(c.tag, str)]


LAYER_XML = (
    "<layer><attribution><title>Census</title><href>http://census.example/</href>"
    "<logoURL>http://census.example/logo.png</logoURL><logoType>image/png</logoType>"
    "<logoWidth>40</logoWidth><logoHeight>20</logoHeight></attribution>"
    "<authorityURLs><AuthorityURL><name>census</name><href>http://census.example/auth</href>"
    "</AuthorityURL><AuthorityURL><name>nohref</name></AuthorityURL></authorityURLs>"
    "<identifiers><Identifier><authority>census</authority><identifier>ST-1</identifier>"
    "</Identifier></identifiers></layer>"
)
FT_XML = (
    "<featureType><metadataLinks><metadataLink><type>text/xml</type>"
    "<metadataType>ISO19115:2003</metadataType><content>http://md.example/states.xml</content>"
    "</metadataLink><metadataLink><type>text/html</type><metadataType>FGDC</metadataType>"
    "<content>/geoserver/www/states.html</content></metadataLink></metadataLinks>"
    "<dataLinks><org.geoserver.catalog.impl.DataLinkInfoImpl><type>application/zip</type>"
    "<content>http://data.example/states.zip</content>"
    "</org.geoserver.catalog.impl.DataLinkInfoImpl></dataLinks>"
    "<keywords><string>census</string><string>states\\@language=en\\;\\@vocabulary=gemet\\;"
    "</string></keywords>"
    "<internationalTitle><en>US States</en><it>Stati USA</it></internationalTitle>"
    "<internationalAbstract><it>Gli stati</it></internationalAbstract></featureType>"
)


@pytest.fixture
def described(client):
    assert client.put(LAYER, content=LAYER_XML, headers=XML).status_code == 200
    assert client.put(FT, content=FT_XML, headers=XML).status_code == 200
    return client


def test_layer_130_carries_attribution_authority_identifier_metadata_and_data_urls(described):
    el = _layer(_caps(described), "topp:states")
    names = _local(el)
    # the schema's order: boxes, Attribution, AuthorityURL, Identifier, MetadataURL, DataURL,
    # Style
    tail = [n for n in names if n not in ("CRS", "BoundingBox", "Style")]
    assert tail[-7:] == [
        "EX_GeographicBoundingBox",
        "Attribution",
        "AuthorityURL",
        "Identifier",
        "MetadataURL",
        "MetadataURL",
        "DataURL",
    ]
    assert names.index("DataURL") < names.index("Style")
    a = el.find("wms:Attribution", NS)
    assert a.findtext("wms:Title", namespaces=NS) == "Census"
    assert a.find("wms:OnlineResource", NS).get(HREF) == "http://census.example/"
    logo = a.find("wms:LogoURL", NS)
    assert (logo.get("width"), logo.get("height")) == ("40", "20")
    assert logo.findtext("wms:Format", namespaces=NS) == "image/png"
    assert logo.find("wms:OnlineResource", NS).get(HREF) == "http://census.example/logo.png"
    # an authority URL without href is skipped, as GeoServer skips it
    auth = el.findall("wms:AuthorityURL", NS)
    assert [x.get("name") for x in auth] == ["census"]
    assert auth[0].find("wms:OnlineResource", NS).get(HREF) == "http://census.example/auth"
    ident = el.find("wms:Identifier", NS)
    assert (ident.get("authority"), ident.text) == ("census", "ST-1")
    md = el.findall("wms:MetadataURL", NS)
    assert [m.get("type") for m in md] == ["ISO19115:2003", "FGDC"]
    assert [m.findtext("wms:Format", namespaces=NS) for m in md] == ["text/xml", "text/html"]
    assert md[0].find("wms:OnlineResource", NS).get(HREF) == "http://md.example/states.xml"
    # a link relative to the server is made absolute
    assert md[1].find("wms:OnlineResource", NS).get(HREF) == (
        "http://localhost:8080/geoserver/geoserver/www/states.html"
    )
    data = el.find("wms:DataURL", NS)
    assert data.findtext("wms:Format", namespaces=NS) == "application/zip"
    assert data.find("wms:OnlineResource", NS).get(HREF) == "http://data.example/states.zip"


def test_layer_111_carries_the_same_in_the_dtd_order(described):
    el = _layer(_caps(described, "1.1.1"), "topp:states")
    names = _local(el)
    order = ["Attribution", "AuthorityURL", "Identifier", "MetadataURL", "DataURL", "Style"]
    assert [names.index(n) for n in order] == sorted(names.index(n) for n in order)
    assert el.find("Attribution/LogoURL").get("width") == "40"
    assert el.find("MetadataURL").get("type") == "ISO19115:2003"
    assert el.find("MetadataURL/OnlineResource").get(HREF) == "http://md.example/states.xml"


def test_keywords_keep_their_value_and_vocabulary(described):
    el = _layer(_caps(described), "topp:states")
    kws = el.findall("wms:KeywordList/wms:Keyword", NS)
    assert [(k.text, k.get("vocabulary")) for k in kws] == [
        ("census", None),
        ("states", "gemet"),
    ]
    el = _layer(_caps(described, "1.1.1"), "topp:states")
    assert [k.text for k in el.findall("KeywordList/Keyword")] == ["census", "states"]


@pytest.mark.parametrize("version", ["1.1.1", "1.3.0"])
def test_accept_languages_picks_the_translated_title_and_abstract(described, emu, version):
    prefix = "wms:" if version == "1.3.0" else ""
    res = emu.state.catalog.resources[("topp", "states")]

    def texts(**params):
        el = _layer(_caps(described, version, **params), "topp:states")
        return el.findtext(f"{prefix}Title", namespaces=NS), el.findtext(
            f"{prefix}Abstract", namespaces=NS
        )

    assert texts() == (res.title, res.abstract)
    assert texts(AcceptLanguages="it") == ("Stati USA", "Gli stati")
    # no English abstract and no default translation: none (GeoServer's international
    # content helper never falls back to the plain abstract)
    assert texts(AcceptLanguages="en") == ("US States", "")
    assert texts(AcceptLanguages="fr it") == ("Stati USA", "Gli stati")
    assert texts(Language="it") == ("Stati USA", "Gli stati")
    # a language no title or abstract has: GeoServer refuses the request
    query = {"service": "WMS", "request": "GetCapabilities", "version": version}
    r = described.get("/wms", params={**query, "AcceptLanguages": "fr"})
    assert b"Content has been requested in one of the following languages: fr. " in r.content
    assert b"But supported languages are: en,it" in r.content


def test_accept_languages_without_any_translation_is_refused(client):
    for path, params in (
        ("/wms", {"service": "WMS", "version": "1.3.0"}),
        ("/wfs", {"service": "WFS", "version": "2.0.0"}),
        ("/wcs", {"service": "WCS", "version": "2.0.1"}),
    ):
        query = {**params, "request": "GetCapabilities", "AcceptLanguages": "it"}
        r = client.get(path, params=query)
        assert b"But there is no international content defined" in r.content, path
        root = etree.fromstring(r.content)
        assert etree.QName(root).localname in ("ServiceExceptionReport", "ExceptionReport")


def test_layer_without_any_of_it_writes_none_of_it(client):
    el = _layer(_caps(client), "topp:states")
    for tag in ("Attribution", "AuthorityURL", "Identifier", "MetadataURL", "DataURL"):
        assert tag not in _local(el)


def test_attribution_logo_needs_url_format_and_sizes(client):
    body = "<layer><attribution><logoURL>http://x/l.png</logoURL></attribution></layer>"
    assert client.put(LAYER, content=body, headers=XML).status_code == 200
    assert "Attribution" not in _local(_layer(_caps(client), "topp:states"))
    body = "<layer><attribution><title>T</title></attribution></layer>"
    assert client.put(LAYER, content=body, headers=XML).status_code == 200
    a = _layer(_caps(client), "topp:states").find("wms:Attribution", NS)
    assert _local(a) == ["Title"]


GROUP = {
    "layerGroup": {
        "name": "described",
        "title": "Described group",
        "mode": "SINGLE",
        "publishables": {"published": [{"@type": "layer", "name": "topp:states"}]},
        "styles": {"style": [{"name": "population"}]},
        "attribution": {"title": "Group attribution"},
        "authorityURLs": {"AuthorityURL": [{"name": "g", "href": "http://g.example/"}]},
        "identifiers": {"Identifier": [{"authority": "g", "identifier": "G-1"}]},
        "internationalTitle": {"it": "Gruppo descritto"},
    }
}


def test_group_aggregates_its_layers_metadata_urls_and_has_its_own_links(described):
    assert described.post("/rest/layergroups", json=GROUP).status_code == 201
    el = _layer(_caps(described), "described")
    names = _local(el)
    assert names.index("Attribution") < names.index("AuthorityURL") < names.index("Identifier")
    assert names.index("Identifier") < names.index("MetadataURL") < names.index("Style")
    assert el.findtext("wms:Attribution/wms:Title", namespaces=NS) == "Group attribution"
    assert [m.get("type") for m in el.findall("wms:MetadataURL", NS)] == [
        "ISO19115:2003",
        "FGDC",
    ]
    assert el.findtext("wms:Identifier", namespaces=NS) == "G-1"
    it = _layer(_caps(described, AcceptLanguages="it"), "described")
    assert it.findtext("wms:Title", namespaces=NS) == "Gruppo descritto"


# -- dimensions ---------------------------------------------------------------------------

PROPS = (
    b"_=name:String,obs:java.util.Date,depth:Double,geom:Point:srid=4326\n"
    b"pts.1=a|2020-01-02T00:00:00Z|10|POINT(1 1)\n"
    b"pts.2=b|2020-01-01T00:00:00Z|5|POINT(2 2)\n"
    b"pts.3=c|2020-01-02T00:00:00Z|20|POINT(3 3)\n"
)


def _time_ft(client, presentation="LIST", extra=""):
    r = client.put(
        "/rest/workspaces/sf/datastores/pts/file.properties",
        content=PROPS,
        headers={"Content-Type": "text/plain"},
    )
    assert r.status_code == 201, r.text
    body = (
        "<featureType><metadata>"
        f"<entry key='time'><dimensionInfo><enabled>true</enabled><attribute>obs</attribute>"
        f"<presentation>{presentation}</presentation>{extra}</dimensionInfo></entry>"
        "<entry key='elevation'><dimensionInfo><enabled>true</enabled><attribute>depth"
        "</attribute><presentation>LIST</presentation></dimensionInfo></entry>"
        "</metadata></featureType>"
    )
    r = client.put("/rest/workspaces/sf/datastores/pts/featuretypes/pts", content=body, headers=XML)
    assert r.status_code == 200, r.text


def test_vector_dimensions_from_the_features_held_130(client):
    _time_ft(client)
    el = _layer(_caps(client), "sf:pts")
    dims = {d.get("name"): d for d in el.findall("wms:Dimension", NS)}
    assert dims["time"].text == "2020-01-01T00:00:00.000Z,2020-01-02T00:00:00.000Z"
    assert dims["time"].get("units") == "ISO8601"
    # no strategy: the value nearest to now (the latest, all being past)
    assert dims["time"].get("default") == "2020-01-02T00:00:00.000Z"
    assert dims["elevation"].text == "5.0,10.0,20.0"
    assert (dims["elevation"].get("units"), dims["elevation"].get("unitSymbol")) == (
        "EPSG:5030",
        "m",
    )
    assert dims["elevation"].get("default") == "5.0"
    names = _local(el)
    assert names.index("BoundingBox") < names.index("Dimension") < names.index("Style")


def test_vector_dimensions_111_declare_then_extend(client):
    _time_ft(client)
    el = _layer(_caps(client, "1.1.1"), "sf:pts")
    names = _local(el)
    assert names[names.index("Dimension") :][:4] == ["Dimension", "Dimension", "Extent", "Extent"]
    decl = el.findall("Dimension")
    assert [(d.get("name"), d.get("units")) for d in decl] == [
        ("time", "ISO8601"),
        ("elevation", "EPSG:5030"),
    ]
    ext = {e.get("name"): e for e in el.findall("Extent")}
    assert ext["time"].text.split(",") == ["2020-01-01T00:00:00.000Z", "2020-01-02T00:00:00.000Z"]
    assert ext["elevation"].get("default") == "5.0"


@pytest.mark.parametrize(
    ("presentation", "extra", "expected", "default"),
    [
        ("CONTINUOUS_INTERVAL", "", "2020-01-01T00:00:00.000Z/2020-01-02T00:00:00.000Z/P1D", None),
        (
            "DISCRETE_INTERVAL",
            "<resolution>3600000</resolution>",
            "2020-01-01T00:00:00.000Z/2020-01-02T00:00:00.000Z/PT1H",
            None,
        ),
        (
            "LIST",
            "<defaultValue><strategy>MINIMUM</strategy></defaultValue>",
            "2020-01-01T00:00:00.000Z,2020-01-02T00:00:00.000Z",
            "2020-01-01T00:00:00.000Z",
        ),
        (
            "LIST",
            "<defaultValue><strategy>FIXED</strategy><referenceValue>2019-06-01T00:00:00Z"
            "</referenceValue></defaultValue>",
            "2020-01-01T00:00:00.000Z,2020-01-02T00:00:00.000Z",
            "2019-06-01T00:00:00Z",
        ),
    ],
)
def test_time_presentations_and_default_strategies(client, presentation, extra, expected, default):
    _time_ft(client, presentation, extra)
    el = _layer(_caps(client), "sf:pts")
    time = next(d for d in el.findall("wms:Dimension", NS) if d.get("name") == "time")
    assert time.text == expected
    if default is not None:
        assert time.get("default") == default


def test_enabled_dimension_without_data_and_disabled_dimension(client):
    body = (
        "<featureType><metadata><entry key='time'><dimensionInfo><enabled>true</enabled>"
        "<attribute>nothing</attribute></dimensionInfo></entry>"
        "<entry key='elevation'><dimensionInfo><enabled>false</enabled></dimensionInfo></entry>"
        "</metadata></featureType>"
    )
    assert client.put(FT, content=body, headers=XML).status_code == 200
    el = _layer(_caps(client), "topp:states")
    dims = el.findall("wms:Dimension", NS)
    assert [(d.get("name"), d.get("default"), d.text) for d in dims] == [("time", "current", None)]
    el = _layer(_caps(client, "1.1.1"), "topp:states")
    assert [e.get("name") for e in el.findall("Extent")] == ["time"]
    assert not (el.find("Extent").text or "")


MOSAIC = {
    "stores": [
        {
            "workspace": "nurc",
            "store": "sst",
            "parameters": {
                "TimeAttribute": "time",
                "ElevationAttribute": "depth",
                "Schema": "*the_geom:Polygon,location:String,time:java.util.Date,depth:Double",
            },
            "crs": "EPSG:4326",
            "granules": [
                {
                    "location": "a.tif",
                    "bbox": [0, 40, 10, 50],
                    "values": {"time": "2020-01-01T00:00:00Z", "depth": 5},
                },
                {
                    "location": "b.tif",
                    "bbox": [10, 40, 20, 50],
                    "values": {"time": "2020-01-03T00:00:00Z", "depth": 0},
                },
            ],
            "configure": ["sst"],
        }
    ]
}


def test_raster_dimensions_from_the_mosaic_index(tmp_path, client_for):
    path = tmp_path / "scenario.json"
    path.write_text(json.dumps({"extends": "stock", "mosaics": MOSAIC}))
    client = client_for(emulator=Emulator(path))
    body = (
        "<coverage><metadata><entry key='time'><dimensionInfo><enabled>true</enabled>"
        "<presentation>LIST</presentation></dimensionInfo></entry>"
        "<entry key='elevation'><dimensionInfo><enabled>true</enabled><units>m</units>"
        "<presentation>LIST</presentation></dimensionInfo></entry></metadata></coverage>"
    )
    url = "/rest/workspaces/nurc/coveragestores/sst/coverages/sst"
    assert client.put(url, content=body, headers=XML).status_code == 200
    dims = {
        d.get("name"): d for d in _layer(_caps(client), "nurc:sst").iterfind("wms:Dimension", NS)
    }
    assert dims["time"].text == "2020-01-01T00:00:00.000Z,2020-01-03T00:00:00.000Z"
    assert dims["elevation"].text == "0.0,5.0"
    assert dims["elevation"].get("units") == "m" and dims["elevation"].get("unitSymbol") is None
    # a coverage whose reader has no time domain (a plain GeoTIFF): nothing in 1.3.0, the
    # declaration only in 1.1.1
    url = "/rest/workspaces/sf/coveragestores/sfdem/coverages/sfdem"
    assert client.put(url, content=body, headers=XML).status_code == 200
    assert _layer(_caps(client), "sf:sfdem").find("wms:Dimension", NS) is None
    el = _layer(_caps(client, "1.1.1"), "sf:sfdem")
    assert [d.get("name") for d in el.findall("Dimension")] == ["time", "elevation"]
    assert el.find("Extent") is None


# -- the same links in WFS and WCS ---------------------------------------------------------

WFS = {"wfs": "http://www.opengis.net/wfs", "wfs2": "http://www.opengis.net/wfs/2.0"}


def _feature_type(client, version, **extra):
    params = {"service": "WFS", "request": "GetCapabilities", "version": version, **extra}
    r = client.get("/wfs", params=params)
    assert r.status_code == 200
    root = etree.fromstring(r.content)
    ns = WFS["wfs2"] if version == "2.0.0" else WFS["wfs"]
    for ft in root.iter(f"{{{ns}}}FeatureType"):
        if ft.findtext(f"{{{ns}}}Name") == "topp:states":
            return ft, ns
    raise AssertionError("no topp:states")


def test_wfs_11_metadata_urls_only_those_its_schema_allows(described):
    ft, ns = _feature_type(described, "1.1.0")
    md = ft.findall(f"{{{ns}}}MetadataURL")
    # ISO19115:2003 is written 19115; both formats are allowed in 1.1
    assert [(m.get("type"), m.get("format"), m.text) for m in md] == [
        ("19115", "text/xml", "http://md.example/states.xml"),
        ("FGDC", "text/html", "http://localhost:8080/geoserver/geoserver/www/states.html"),
    ]
    assert _local(ft)[-1] == "MetadataURL"
    body = (
        "<featureType><metadataLinks><metadataLink><type>application/pdf</type>"
        "<metadataType>FGDC</metadataType><content>http://x/a.pdf</content></metadataLink>"
        "<metadataLink><type>text/xml</type><metadataType>other</metadataType>"
        "<content>http://x/b.xml</content></metadataLink></metadataLinks></featureType>"
    )
    assert described.put(FT, content=body, headers=XML).status_code == 200
    ft, ns = _feature_type(described, "1.1.0")
    assert ft.find(f"{{{ns}}}MetadataURL") is None
    # WFS 2.0 writes every link as an xlink
    ft, ns = _feature_type(described, "2.0.0")
    assert [m.get(HREF) for m in ft.findall(f"{{{ns}}}MetadataURL")] == [
        "http://x/a.pdf",
        "http://x/b.xml",
    ]


def test_wfs_100_has_no_metadata_urls(described):
    ft, ns = _feature_type(described, "1.0.0")
    assert ft.find(f"{{{ns}}}MetadataURL") is None


COV = "/rest/workspaces/sf/coveragestores/sfdem/coverages/sfdem"
COV_XML = (
    "<coverage><metadataLinks><metadataLink><type>text/xml</type><about>dem</about>"
    "<metadataType>FGDC</metadataType><content>http://md.example/dem.xml</content>"
    "</metadataLink></metadataLinks></coverage>"
)


def test_wcs_metadata_links(client):
    assert client.put(COV, content=COV_XML, headers=XML).status_code == 200
    wcs10 = "{http://www.opengis.net/wcs}"
    r = client.get(
        "/wcs", params={"service": "WCS", "request": "GetCapabilities", "version": "1.0.0"}
    )
    root = etree.fromstring(r.content)
    brief = next(
        b
        for b in root.iter(f"{wcs10}CoverageOfferingBrief")
        if b.findtext(f"{wcs10}name") == "sf:sfdem"
    )
    link = brief[0]
    assert link.tag == f"{wcs10}metadataLink"
    assert link.get(HREF) == "http://md.example/dem.xml"
    assert (link.get("about"), link.get("metadataType")) == ("dem", "FGDC")
    r = client.get(
        "/wcs",
        params={
            "service": "WCS",
            "request": "DescribeCoverage",
            "version": "1.0.0",
            "coverage": "sf:sfdem",
        },
    )
    offering = etree.fromstring(r.content).find(f"{wcs10}CoverageOffering")
    assert offering[0].tag == f"{wcs10}metadataLink"
    assert offering[0].get(HREF) == "http://md.example/dem.xml"
    r = client.get(
        "/wcs", params={"service": "WCS", "request": "GetCapabilities", "version": "1.1.1"}
    )
    root = etree.fromstring(r.content)
    wcs11, ows = "{http://www.opengis.net/wcs/1.1.1}", "{http://www.opengis.net/ows/1.1}"
    summary = next(
        s
        for s in root.iter(f"{wcs11}CoverageSummary")
        if s.findtext(f"{wcs11}Identifier") == "sf:sfdem"
    )
    meta = summary.find(f"{ows}Metadata")
    assert (meta.get("about"), meta.get(HREF)) == ("dem", "http://md.example/dem.xml")
    names = _local(summary)
    assert names.index("Keywords") < names.index("Metadata") < names.index("WGS84BoundingBox")
    # 2.0.1: after the WGS84 box, a simple xlink (a server-relative link made absolute)
    body = COV_XML.replace("http://md.example/dem.xml", "/geoserver/www/dem.xml").replace(
        "</metadataLinks>",
        "<metadataLink><type>text/html</type><content></content></metadataLink></metadataLinks>",
    )
    assert client.put(COV, content=body, headers=XML).status_code == 200
    r = client.get("/wcs", params={"service": "WCS", "request": "GetCapabilities"})
    wcs20, ows20 = "{http://www.opengis.net/wcs/2.0}", "{http://www.opengis.net/ows/2.0}"
    summary = next(
        s
        for s in etree.fromstring(r.content).iter(f"{wcs20}CoverageSummary")
        if s.findtext(f"{wcs20}CoverageId") == "sf__sfdem"
    )
    metas = summary.findall(f"{ows20}Metadata")
    assert len(metas) == 1  # a link without content is left out
    assert metas[0].get("about") == "dem"
    assert metas[0].get("{http://www.w3.org/1999/xlink}type") == "simple"
    assert metas[0].get(HREF).endswith("/geoserver/www/dem.xml")
    assert metas[0].get(HREF).startswith("http")
    names = _local(summary)
    assert names.index("WGS84BoundingBox") < names.index("Metadata") == len(names) - 1


def test_wfs_20_and_wcs_201_translate_titles_for_accept_languages(client, emu):
    assert client.put(FT, content=FT_XML, headers=XML).status_code == 200
    body = "<coverage><internationalTitle><it>Dem italiano</it></internationalTitle></coverage>"
    assert client.put(COV, content=body, headers=XML).status_code == 200
    params = {"service": "WFS", "request": "GetCapabilities", "version": "2.0.0"}
    ns = WFS["wfs2"]

    def wfs_title(**extra):
        root = etree.fromstring(client.get("/wfs", params={**params, **extra}).content)
        ft = next(
            f
            for f in root.iter(f"{{{ns}}}FeatureType")
            if f.findtext(f"{{{ns}}}Name") == "topp:states"
        )
        return ft.findtext(f"{{{ns}}}Title")

    plain = emu.state.catalog.resources[("topp", "states")].title
    assert wfs_title(AcceptLanguages="it") == "Stati USA"
    assert wfs_title() == plain
    # WFS 1.1.0 has no AcceptLanguages
    ft, ns11 = _feature_type(client, "1.1.0", AcceptLanguages="it")
    assert ft.findtext(f"{{{ns11}}}Title") == plain
    wcs = {"service": "WCS", "request": "GetCapabilities", "version": "2.0.1"}
    wcs20, ows = "{http://www.opengis.net/wcs/2.0}", "{http://www.opengis.net/ows/2.0}"
    for lang, expected in (("it", "Dem italiano"), (None, None)):
        extra = {"AcceptLanguages": lang} if lang else {}
        root = etree.fromstring(client.get("/wcs", params={**wcs, **extra}).content)
        summary = next(
            s
            for s in root.iter(f"{wcs20}CoverageSummary")
            if s.findtext(f"{wcs20}CoverageId") == "sf__sfdem"
        )
        if expected:
            assert summary.findtext(f"{ows}Title") == expected
        else:
            assert summary.findtext(f"{ows}Title") != "Dem italiano"


# -- scale denominators ----------------------------------------------------------------------

SCALED = """<StyledLayerDescriptor version="1.0.0" xmlns="http://www.opengis.net/sld"
  xmlns:ogc="http://www.opengis.net/ogc"><NamedLayer><Name>s</Name><UserStyle><FeatureTypeStyle>
  <Rule><MinScaleDenominator>1000</MinScaleDenominator><MaxScaleDenominator>50000
  </MaxScaleDenominator><PointSymbolizer/></Rule>
  <Rule><MinScaleDenominator>500</MinScaleDenominator><MaxScaleDenominator>20000
  </MaxScaleDenominator><PointSymbolizer/></Rule>
  </FeatureTypeStyle></UserStyle></NamedLayer></StyledLayerDescriptor>"""


def test_scale_denominators_from_the_rules_of_the_layer_styles(client):
    r = client.post(
        "/rest/styles?name=scaled",
        content=SCALED,
        headers={"Content-Type": "application/vnd.ogc.sld+xml"},
    )
    assert r.status_code == 201, r.text
    _time_ft(client)
    body = {"layer": {"defaultStyle": {"name": "scaled"}}}
    assert client.put("/rest/layers/sf:pts", json=body).status_code == 200
    el = _layer(_caps(client), "sf:pts")
    assert el.findtext("wms:MinScaleDenominator", namespaces=NS) == "500.0"
    assert el.findtext("wms:MaxScaleDenominator", namespaces=NS) == "50000.0"
    assert _local(el)[-2:] == ["MinScaleDenominator", "MaxScaleDenominator"]
    hint = _layer(_caps(client, "1.1.1"), "sf:pts").find("ScaleHint")
    assert (hint.get("min"), hint.get("max")) == ("500.0", "50000.0")
    # a style without limits among the layer's styles lifts them (0 and infinity: nothing)
    body = {"layer": {"styles": {"style": [{"name": "point"}]}}}
    assert client.put("/rest/layers/sf:pts", json=body).status_code == 200
    el = _layer(_caps(client), "sf:pts")
    assert el.find("wms:MinScaleDenominator", NS) is None
    assert el.find("wms:MaxScaleDenominator", NS) is None
    assert _layer(_caps(client, "1.1.1"), "sf:pts").find("ScaleHint") is None
    # a group aggregates the styles it draws its members with
    group = {
        "layerGroup": {
            "name": "scaled_group",
            "publishables": {"published": [{"@type": "layer", "name": "sf:pts"}]},
            "styles": {"style": [{"name": "scaled"}]},
        }
    }
    assert client.post("/rest/layergroups", json=group).status_code == 201
    el = _layer(_caps(client), "scaled_group")
    assert el.findtext("wms:MaxScaleDenominator", namespaces=NS) == "50000.0"
    hint = _layer(_caps(client, "1.1.1"), "scaled_group").find("ScaleHint")
    assert hint.get("min") == "500.0"


# -- whatever the catalog holds, the documents parse ------------------------------------------

# text a client may send: what XML 1.0 can carry (the rest is refused with 400 on input)
ANY_TEXT = st.one_of(
    st.none(), st.text(max_size=12).filter(xml_safe), st.sampled_from(["LIST", "MINIMUM", "1e3"])
)
DIMENSION = st.fixed_dictionaries(
    {"enabled": st.sampled_from([True, "true", False])},
    optional={
        "attribute": st.sampled_from(["obs", "depth", "name", "nothing"]),
        "presentation": st.sampled_from(
            ["LIST", "CONTINUOUS_INTERVAL", "DISCRETE_INTERVAL", "bogus"]
        ),
        "resolution": ANY_TEXT,
        "units": ANY_TEXT,
        "unitSymbol": ANY_TEXT,
        "defaultValue": st.fixed_dictionaries(
            {
                "strategy": st.sampled_from(["MINIMUM", "MAXIMUM", "NEAREST", "FIXED", "x"]),
            },
            optional={"referenceValue": ANY_TEXT},
        ),
    },
)
LINK = st.fixed_dictionaries(
    {}, optional={"type": ANY_TEXT, "metadataType": ANY_TEXT, "content": ANY_TEXT}
)


@settings(max_examples=30, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    time=DIMENSION,
    elevation=DIMENSION,
    links=st.lists(LINK, max_size=3),
    logo=st.fixed_dictionaries(
        {},
        optional={
            "title": ANY_TEXT,
            "logoURL": ANY_TEXT,
            "logoType": ANY_TEXT,
            "logoWidth": st.integers(-5, 5),
            "logoHeight": st.integers(-5, 5),
        },
    ),
)
def test_any_metadata_the_catalog_keeps_gives_documents_that_parse(
    emu, client, time, elevation, links, logo
):
    if ("sf", "pts") not in emu.state.catalog.layers:
        _time_ft(client)
    ft = {
        "featureType": {
            "metadata": {
                "entry": [
                    {"@key": "time", "dimensionInfo": time},
                    {"@key": "elevation", "dimensionInfo": elevation},
                ]
            },
            "metadataLinks": {"metadataLink": [{k: v for k, v in x.items() if v} for x in links]},
        }
    }
    url = "/rest/workspaces/sf/datastores/pts/featuretypes/pts"
    assert client.put(url, json=ft).status_code == 200
    layer = {"layer": {"attribution": {k: v for k, v in logo.items() if v is not None}}}
    assert client.put("/rest/layers/sf:pts", json=layer).status_code == 200
    for version in ("1.1.1", "1.3.0"):
        _layer(_caps(client, version), "sf:pts")
    for version in ("1.1.0", "2.0.0"):
        _feature_type_named(client, version, "sf:pts")
    assert not emu.internal_errors


def _feature_type_named(client, version, name):
    params = {"service": "WFS", "request": "GetCapabilities", "version": version}
    root = etree.fromstring(client.get("/wfs", params=params).content)
    assert any(e.text == name for e in root.iter() if etree.QName(e).localname == "Name")


# -- TIME and ELEVATION select the features drawn and queried --------------------------------

INFO = {
    "service": "WMS",
    "version": "1.1.1",
    "request": "GetFeatureInfo",
    "layers": "sf:pts",
    "query_layers": "sf:pts",
    "styles": "",
    "srs": "EPSG:4326",
    "bbox": "0,0,4,4",
    "width": "2",
    "height": "2",
    "format": "image/png",
    "info_format": "application/json",
    "feature_count": "10",
    "x": "0",
    "y": "1",
}


def _ids(client, **extra):
    r = client.get("/wms", params={**INFO, **extra})
    assert r.status_code == 200, r.text
    return sorted(f["id"] for f in r.json()["features"])


def test_time_and_elevation_select_features_defaults_included(client):
    _time_ft(client)
    # no TIME/ELEVATION: GeoServer applies the defaults (the time nearest to now, the
    # lowest elevation): no feature is at both
    assert _ids(client) == []
    assert _ids(client, time="2020-01-02T00:00:00Z", elevation="10") == ["pts.1"]
    assert _ids(client, time="2020-01-01/2020-01-02", elevation="0/100") == [
        "pts.1",
        "pts.2",
        "pts.3",
    ]
    assert _ids(client, time="2020-01-01,2020-01-02", elevation="5,20") == ["pts.2", "pts.3"]
    assert _ids(client, time="current", elevation="0/100") == ["pts.1", "pts.3"]
    # the maps draw the same selection
    get_map = {**INFO, "request": "GetMap", "transparent": "true", "width": "8", "height": "8"}
    empty = client.get("/wms", params=get_map).content
    drawn = client.get(
        "/wms", params={**get_map, "time": "2020-01-01/2020-01-02", "elevation": "0/100"}
    ).content
    assert empty != drawn
    # dimensions switched off: TIME and ELEVATION select nothing
    body = (
        "<featureType><metadata><entry key='time'><dimensionInfo><enabled>false</enabled>"
        "</dimensionInfo></entry><entry key='elevation'><dimensionInfo><enabled>false"
        "</enabled></dimensionInfo></entry></metadata></featureType>"
    )
    url = "/rest/workspaces/sf/datastores/pts/featuretypes/pts"
    assert client.put(url, content=body, headers=XML).status_code == 200
    assert _ids(client, time="1999-01-01") == ["pts.1", "pts.2", "pts.3"]


# -- a TIME or ELEVATION GeoServer's KVP parsers refuse fails the request ------------------


@pytest.mark.parametrize(
    "key,value,message",
    [
        ("time", "yesterday", "java.text.ParseException: Invalid date: yesterday"),
        ("time", "2020-01-01T00:00:00+01:00", "Invalid date: 2020-01-01T00:00:00+01:00"),
        ("time", "2020/2021/2022/2023", "Invalid time period: [2020, 2021, 2022, 2023]"),
        ("time", "2020-01-01/2020-02-01/1D", "Invalid period increment given: 1D"),
        ("elevation", "deep", 'java.lang.NumberFormatException: For input string: "deep"'),
        ("elevation", "5/x", 'For input string: "x"'),
        ("elevation", "1,,2", "java.lang.NumberFormatException: empty String"),
    ],
)
@pytest.mark.parametrize("request_name", ["GetMap", "GetFeatureInfo"])
@pytest.mark.parametrize("version", ["1.1.1", "1.3.0"])
def test_unparsable_time_or_elevation_is_refused(
    client, emu, key, value, message, request_name, version
):
    _time_ft(client)
    before = emu.state.catalog.layers[("sf", "pts")]
    params = {**INFO, "request": request_name, "version": version, key: value}
    if version == "1.3.0":
        params.update({"crs": params.pop("srs"), "i": params.pop("x"), "j": params.pop("y")})
    r = client.get("/wms", params=params)
    assert r.status_code == 200  # WMS exceptions are 200, as GeoServer answers them
    root = etree.fromstring(r.content)
    exc = [e for e in root.iter() if etree.QName(e).localname == "ServiceException"]
    assert len(exc) == 1 and exc[0].get("code") is None  # GeoServer wraps the Java exception
    assert message in exc[0].text
    assert emu.state.catalog.layers[("sf", "pts")] is before


def test_a_long_unparsable_elevation_is_refused(client):
    _time_ft(client)
    value = "1" * 20000 + "x"
    r = client.get("/wms", params={**INFO, "elevation": value})
    assert r.status_code == 200
    assert f'For input string: "{value}"' in r.text


# Java's double grammar as GeoServer's number parsing takes it, written plainly
JAVA_DOUBLE = re.compile(
    r"[+-]?(NaN|Infinity|((\d+\.?\d*|\.\d+)([eE][+-]?\d+)?[fFdD]?)"
    r"|0[xX]([0-9a-fA-F]+\.?[0-9a-fA-F]*|\.[0-9a-fA-F]+)[pP][+-]?\d+[fFdD]?)"
)


@given(st.text(alphabet="0123456789.eE+-xXpPfFdDaAbBIinNty", max_size=14))
def test_elevation_numbers_follow_javas_double_grammar(text):
    from geoserver_emulator.areas.ows.dimensions import elevation_error

    assert (elevation_error(text) is None) == (text == "" or bool(JAVA_DOUBLE.fullmatch(text)))


@pytest.mark.parametrize(
    "time", ["2020", "2020-01", "2020-1-2", "2020-01-01T00Z", "2020-01-01T00:00:00.000Z", "now"]
)
def test_times_geoservers_parser_takes_are_accepted(client, time):
    _time_ft(client)
    r = client.get("/wms", params={**INFO, "time": time, "elevation": "1e3,-2.5d,NaN"})
    assert r.status_code == 200 and r.json()["type"] == "FeatureCollection"


# -- the root layer's authority URLs and identifiers: the WMS settings' own ------------------

ROOT_LINKS_XML = (
    "<wms><authorityURLs><AuthorityURL><name>gov</name><href>http://gov.example/a</href>"
    "</AuthorityURL><AuthorityURL><name>half</name></AuthorityURL></authorityURLs>"
    "<identifiers><Identifier><authority>gov</authority><identifier>ROOT-1</identifier>"
    "</Identifier></identifiers></wms>"
)
ROOT_LINKS_JSON = {
    "wms": {
        "authorityURLs": {"AuthorityURL": [{"name": "gov", "href": "http://gov.example/a"}]},
        "identifiers": {"Identifier": {"authority": "gov", "identifier": "ROOT-1"}},
    }
}


@pytest.mark.parametrize("fmt", ["xml", "json"])
def test_root_layer_authority_urls_and_identifiers_from_the_wms_settings(client, fmt):
    url = "/rest/services/wms/settings"
    if fmt == "xml":
        r = client.put(url, content=ROOT_LINKS_XML, headers=XML)
    else:
        r = client.put(url, json=ROOT_LINKS_JSON)
    assert r.status_code == 200, r.text
    # the settings keep them, in both formats
    got = client.get(url + ".json").json()["wms"]
    urls = got["authorityURLs"]["AuthorityURL"]
    urls = urls if isinstance(urls, list) else [urls]
    assert urls[0] == {"name": "gov", "href": "http://gov.example/a"}
    ids = got["identifiers"]["Identifier"]
    assert (ids if isinstance(ids, dict) else ids[0]) == {
        "authority": "gov",
        "identifier": "ROOT-1",
    }
    xml = etree.fromstring(client.get(url + ".xml").content)
    assert xml.findtext("authorityURLs/AuthorityURL/href") == "http://gov.example/a"
    assert xml.findtext("identifiers/Identifier/identifier") == "ROOT-1"
    # 1.3.0: after the root's boxes, before the first child layer; the incomplete one skipped
    root = _caps(client).find("wms:Capability/wms:Layer", NS)
    tags = [etree.QName(c).localname for c in root if isinstance(c.tag, str)]
    assert tags.index("AuthorityURL") > tags.index("BoundingBox")
    assert tags.index("Identifier") < tags.index("Layer")
    auth = root.findall("wms:AuthorityURL", NS)
    assert [a.get("name") for a in auth] == ["gov"]
    assert auth[0].find("wms:OnlineResource", NS).get(HREF) == "http://gov.example/a"
    ident = root.find("wms:Identifier", NS)
    assert (ident.get("authority"), ident.text) == ("gov", "ROOT-1")
    # 1.1.1 too
    root = _caps(client, "1.1.1").find("Capability/Layer")
    assert root.find("AuthorityURL").get("name") == "gov"
    assert root.findtext("Identifier") == "ROOT-1"


def test_root_links_of_the_wrong_shape_are_refused(client):
    url = "/rest/services/wms/settings"
    before = client.get(url + ".json").json()
    bad = {"wms": {"authorityURLs": {"AuthorityURL": [{"name": {"x": 1}}]}}}
    r = client.put(url, json=bad)
    assert r.status_code == 400 and r.text
    assert client.get(url + ".json").json() == before


# -- AcceptLanguages: keywords by language, the placeholder title ------------------------------

PLACEHOLDER = "DID NOT FIND i18n CONTENT FOR THIS ELEMENT"


def test_accept_languages_filters_keywords_and_marks_missing_titles_wms(described, emu):
    body = (
        "<featureType><keywords><string>plain</string><string>stati\\@language=it\\;</string>"
        "<string>states\\@language=en\\;</string><string>staaten\\@language=de\\;</string>"
        "</keywords></featureType>"
    )
    assert described.put(FT, content=body, headers=XML).status_code == 200

    def layer(**params):
        return _layer(_caps(described, **params), "topp:states")

    def words(el):
        return [k.text for k in el.findall("wms:KeywordList/wms:Keyword", NS)]

    assert words(layer()) == ["plain", "stati", "states", "staaten"]
    assert words(layer(AcceptLanguages="it")) == ["stati"]
    # the first requested language any keyword has
    assert words(layer(AcceptLanguages="en-GB it")) == ["states"]
    assert words(layer(AcceptLanguages="fr it")) == ["stati"]
    # GeoServer tries the tagged locales (de-CH) before the bare languages
    assert words(layer(AcceptLanguages="en de-CH")) == ["staaten"]
    # a layer with no translation in the language asked for, and no default translation:
    # GeoServer's placeholder title (another layer of the document has Italian)
    others = [
        e
        for e in _caps(described, AcceptLanguages="it").iterfind(".//wms:Layer", NS)
        if e.findtext("wms:Name", namespaces=NS) == "topp:tasmania_roads"
    ]
    assert others and others[0].findtext("wms:Title", namespaces=NS) == PLACEHOLDER
    assert others[0].findtext("wms:Abstract", namespaces=NS) == ""
    # no keyword of that layer is in Italian: none are written
    assert words(others[0]) == []
    # the service too (no international title)
    root = _caps(described, AcceptLanguages="it")
    assert root.findtext("wms:Service/wms:Title", namespaces=NS) == PLACEHOLDER
    # a default translation (the empty locale) fills in for a missing language
    plain = {"featureType": {"internationalTitle": {"": "Default title", "en": "US States"}}}
    assert described.put(FT, json=plain).status_code == 200
    assert layer(AcceptLanguages="en").findtext("wms:Title", namespaces=NS) == "US States"
    both = _caps(described, AcceptLanguages="en it")
    assert _layer(both, "topp:states").findtext("wms:Title", namespaces=NS) == "US States"
    star = _caps(described, AcceptLanguages="xx *")
    assert words(_layer(star, "topp:states")) == ["plain", "stati", "states", "staaten"]
    assert _layer(star, "topp:states").findtext("wms:Title", namespaces=NS) == "Default title"


def test_accept_languages_wcs_201_placeholder_and_keywords(client):
    body = (
        "<coverage><internationalTitle><it>Dem italiano</it></internationalTitle>"
        "<keywords><string>dem\\@language=en\\;</string><string>quota\\@language=it\\;"
        "</string></keywords></coverage>"
    )
    assert client.put(COV, content=body, headers=XML).status_code == 200
    wcs20, ows = "{http://www.opengis.net/wcs/2.0}", "{http://www.opengis.net/ows/2.0}"
    params = {"service": "WCS", "request": "GetCapabilities", "AcceptLanguages": "it"}
    root = etree.fromstring(client.get("/wcs", params=params).content)
    summaries = {s.findtext(f"{wcs20}CoverageId"): s for s in root.iter(f"{wcs20}CoverageSummary")}
    dem = summaries["sf__sfdem"]
    assert dem.findtext(f"{ows}Title") == "Dem italiano"
    assert [k.text for k in dem.iter(f"{ows}Keyword")] == ["quota"]
    other = summaries["nurc__Arc_Sample"]
    assert other.findtext(f"{ows}Title") == PLACEHOLDER
    assert other.find(f"{ows}Abstract") is None and other.find(f"{ows}Keywords") is None
    service = root.find(f"{ows}ServiceIdentification")
    assert service.findtext(f"{ows}Title") == PLACEHOLDER
    # without AcceptLanguages: the plain title and every keyword
    root = etree.fromstring(
        client.get("/wcs", params={"service": "WCS", "request": "GetCapabilities"}).content
    )
    dem = next(
        s
        for s in root.iter(f"{wcs20}CoverageSummary")
        if s.findtext(f"{wcs20}CoverageId") == "sf__sfdem"
    )
    assert dem.findtext(f"{ows}Title") != PLACEHOLDER
    assert [k.text for k in dem.iter(f"{ows}Keyword")] == ["dem", "quota"]


def test_accept_languages_wfs_20_keywords_and_placeholder(client):
    body = (
        "<featureType><internationalTitle><it>Stati USA</it></internationalTitle>"
        "<keywords><string>states\\@language=en\\;</string><string>stati\\@language=it\\;"
        "</string></keywords></featureType>"
    )
    assert client.put(FT, content=body, headers=XML).status_code == 200
    ns = WFS["wfs2"]
    ows = "{http://www.opengis.net/ows/1.1}"
    params = {"service": "WFS", "request": "GetCapabilities", "version": "2.0.0"}
    root = etree.fromstring(client.get("/wfs", params={**params, "AcceptLanguages": "it"}).content)
    types = {f.findtext(f"{{{ns}}}Name"): f for f in root.iter(f"{{{ns}}}FeatureType")}
    assert types["topp:states"].findtext(f"{{{ns}}}Title") == "Stati USA"
    assert [k.text for k in types["topp:states"].iter(f"{ows}Keyword")] == ["stati"]
    assert types["sf:roads"].findtext(f"{{{ns}}}Title") == PLACEHOLDER
