"""WFS 1.0.0, 1.1.0 and 2.0.0 over the features the emulator holds (a property file
uploaded through REST)."""

from __future__ import annotations

import pytest
from lxml import etree

PROPS = (
    b"_=name:String,pop:Integer,area:Double,geom:Polygon:srid=4326\n"
    b"blocks.1=alpha|10|1.5|POLYGON((0 0,0 10,10 10,10 0,0 0))\n"
    b"blocks.2=beta|20|2.5|POLYGON((20 20,20 30,30 30,30 20,20 20))\n"
    b"blocks.3=gamma|30|3.5|POLYGON((40 0,40 10,50 10,50 0,40 0))\n"
)
OWS11 = "http://www.opengis.net/ows/1.1"
WFS20 = "http://www.opengis.net/wfs/2.0"
GML32 = "http://www.opengis.net/gml/3.2"
SF = "http://www.openplans.org/spearfish"


@pytest.fixture
def blocks(client):
    r = client.put(
        "/rest/workspaces/sf/datastores/blocks/file.properties",
        content=PROPS,
        headers={"Content-Type": "text/plain"},
    )
    assert r.status_code == 201, r.text
    return "sf:blocks"


def wfs(client, **params):
    return client.get("/wfs", params={"service": "WFS", **params})


def ows_exception(r) -> tuple[str, str | None, str]:
    root = etree.fromstring(r.content)
    e = next(x for x in root.iter() if etree.QName(x).localname == "Exception")
    text = next(x for x in e.iter() if etree.QName(x).localname == "ExceptionText").text
    return e.get("exceptionCode"), e.get("locator"), text


def test_capabilities_200_lists_every_feature_type(emu, anon):
    r = wfs(anon, request="GetCapabilities", version="2.0.0")
    root = etree.fromstring(r.content)
    assert root.tag == f"{{{WFS20}}}WFS_Capabilities" and root.get("version") == "2.0.0"
    assert root.get("updateSequence") == str(emu.state.settings.update_sequence)
    ident = root.find(f"{{{OWS11}}}ServiceIdentification")
    assert ident.findtext(f"{{{OWS11}}}ServiceTypeVersion") == "2.0.0"
    names = [
        e.text
        for e in root.iterfind(f"{{{WFS20}}}FeatureTypeList/{{{WFS20}}}FeatureType/{{{WFS20}}}Name")
    ]
    catalog = emu.state.catalog
    expected = sorted(
        f"{ws}:{n}"
        for (ws, n), res in catalog.resources.items()
        if res.kind == "featureType" and res.enabled and (ws, n) in catalog.layers
    )
    assert names == expected
    states = root.find(f".//{{{WFS20}}}FeatureType[{{{WFS20}}}Name='topp:states']")
    assert states.findtext(f"{{{WFS20}}}DefaultCRS") == "urn:ogc:def:crs:EPSG::4326"
    assert states.findtext(f"{{{OWS11}}}WGS84BoundingBox/{{{OWS11}}}LowerCorner") == (
        "-124.73364306703067 24.51490854927549"
    )
    ops = [o.get("name") for o in root.iterfind(f".//{{{OWS11}}}Operation")]
    assert ops[:3] == ["GetCapabilities", "DescribeFeatureType", "GetFeature"]
    assert "ListStoredQueries" in ops


@pytest.mark.parametrize(
    "version,root_tag",
    [
        ("1.0.0", "{http://www.opengis.net/wfs}WFS_Capabilities"),
        ("1.1.0", "{http://www.opengis.net/wfs}WFS_Capabilities"),
    ],
)
def test_older_capabilities(anon, version, root_tag):
    root = etree.fromstring(wfs(anon, request="GetCapabilities", version=version).content)
    assert root.tag == root_tag and root.get("version") == version
    assert b"topp:states" in etree.tostring(root)


def test_workspace_service_lists_its_types_unqualified(anon):
    root = etree.fromstring(
        anon.get("/topp/wfs", params={"service": "WFS", "request": "GetCapabilities"}).content
    )
    names = [e.text for e in root.iterfind(f".//{{{WFS20}}}FeatureType/{{{WFS20}}}Name")]
    assert "states" in names and all(":" not in n for n in names)


def test_describe_feature_type(anon):
    r = wfs(anon, request="DescribeFeatureType", version="1.1.0", typeName="topp:states")
    assert r.headers["content-type"].startswith("text/xml; subtype=gml/3.1.1")
    root = etree.fromstring(r.content)
    xsd = "{http://www.w3.org/2001/XMLSchema}"
    assert root.get("targetNamespace") == "http://www.openplans.org/topp"
    elements = root.findall(f".//{xsd}sequence/{xsd}element")
    assert [(e.get("name"), e.get("type")) for e in elements[:3]] == [
        ("the_geom", "gml:MultiSurfacePropertyType"),
        ("STATE_NAME", "xsd:string"),
        ("STATE_FIPS", "xsd:string"),
    ]
    top = root.find(f"{xsd}element")
    assert top.attrib == {
        "name": "states",
        "substitutionGroup": "gml:_Feature",
        "type": "topp:statesType",
    }
    r = wfs(anon, request="DescribeFeatureType", version="2.0.0", typeName="topp:states")
    assert b'substitutionGroup="gml:AbstractFeature"' in r.content
    r = wfs(anon, request="DescribeFeatureType", version="1.0.0", typeName="topp:states")
    assert b"gml:MultiPolygonPropertyType" in r.content


def test_describe_uploaded_type_and_json(anon, blocks):
    r = wfs(
        anon,
        request="DescribeFeatureType",
        version="2.0.0",
        typeName=blocks,
        outputFormat="application/json",
    )
    doc = r.json()
    assert doc["targetPrefix"] == "sf"
    props = doc["featureTypes"][0]["properties"]
    assert [(p["name"], p["localType"]) for p in props] == [
        ("name", "string"),
        ("pop", "int"),
        ("area", "double"),
        ("geom", "Polygon"),
    ]


def test_get_feature_gml32_with_paging_and_sorting(anon, blocks):
    r = wfs(
        anon,
        request="GetFeature",
        version="2.0.0",
        typeNames=blocks,
        count=2,
        startIndex=0,
        sortBy="pop D",
    )
    assert r.headers["content-type"] == "application/gml+xml; version=3.2"
    root = etree.fromstring(r.content)
    assert (root.get("numberMatched"), root.get("numberReturned")) == ("3", "2")
    members = root.findall(f"{{{WFS20}}}member/{{{SF}}}blocks")
    assert [m.get(f"{{{GML32}}}id") for m in members] == ["blocks.3", "blocks.2"]
    pos = members[0].find(f".//{{{GML32}}}posList").text
    assert pos == "0 40 10 40 10 50 0 50 0 40"  # latitude first in WFS 2.0
    r = wfs(anon, request="GetFeature", version="2.0.0", typeNames=blocks, count=2, startIndex=2)
    assert etree.fromstring(r.content).get("numberReturned") == "1"


def test_get_feature_gml2_and_gml31(anon, blocks):
    r = wfs(anon, request="GetFeature", version="1.0.0", typeName=blocks, maxFeatures=1)
    root = etree.fromstring(r.content)
    assert root.find(".//{http://www.openplans.org/spearfish}blocks").get("fid") == "blocks.1"
    assert b"<gml:coordinates" in r.content and b"0,0 0,10 10,10" in r.content
    r = wfs(anon, request="GetFeature", version="1.1.0", typeName=blocks)
    root = etree.fromstring(r.content)
    assert root.get("numberOfFeatures") == "3"
    assert len(root.findall("{http://www.opengis.net/gml}featureMembers/*")) == 3


def test_hits_filters_and_properties(anon, blocks):
    r = wfs(anon, request="GetFeature", version="2.0.0", typeNames=blocks, resultType="hits")
    root = etree.fromstring(r.content)
    assert (root.get("numberMatched"), root.get("numberReturned")) == ("3", "0")
    assert len(root) == 0

    def ids(**params):
        r = wfs(
            anon,
            request="GetFeature",
            version="1.1.0",
            typeName=blocks,
            outputFormat="application/json",
            **params,
        )
        assert r.status_code == 200, r.text
        return [f["id"] for f in r.json()["features"]]

    assert ids(CQL_FILTER="pop > 15") == ["blocks.2", "blocks.3"]
    assert ids(CQL_FILTER="name LIKE 'a%'") == ["blocks.1"]
    assert ids(CQL_FILTER="BBOX(geom, 35, -5, 55, 15)") == ["blocks.3"]
    assert ids(bbox="-5,-5,15,15") == ["blocks.1"]  # WFS 1.1: latitude first
    assert ids(featureId="blocks.2") == ["blocks.2"]
    flt = (
        '<Filter xmlns="http://www.opengis.net/ogc"><PropertyIsEqualTo>'
        "<PropertyName>name</PropertyName><Literal>gamma</Literal></PropertyIsEqualTo></Filter>"
    )
    assert ids(FILTER=flt) == ["blocks.3"]
    r = wfs(
        anon,
        request="GetFeature",
        version="1.1.0",
        typeName=blocks,
        outputFormat="application/json",
        propertyName="name",
    )
    feature = r.json()["features"][0]
    assert feature["properties"] == {"name": "alpha"} and feature["geometry"] is None


def test_geojson_document(anon, blocks):
    r = wfs(
        anon,
        request="GetFeature",
        version="2.0.0",
        typeNames=blocks,
        outputFormat="application/json",
        count=1,
    )
    doc = r.json()
    assert list(doc) == [
        "type",
        "features",
        "totalFeatures",
        "numberMatched",
        "numberReturned",
        "timeStamp",
        "crs",
    ]
    (feature,) = doc["features"]
    assert feature == {
        "type": "Feature",
        "id": "blocks.1",
        "geometry": {
            "type": "Polygon",
            "coordinates": [[[0, 0], [0, 10], [10, 10], [10, 0], [0, 0]]],
        },
        "geometry_name": "geom",
        "properties": {"name": "alpha", "pop": 10, "area": 1.5},
    }
    assert doc["numberMatched"] == 3 and doc["numberReturned"] == 1


def test_a_type_without_features_answers_an_empty_collection(anon):
    r = wfs(anon, request="GetFeature", version="2.0.0", typeNames="tiger:poi")
    root = etree.fromstring(r.content)
    assert (root.get("numberMatched"), root.get("numberReturned")) == ("0", "0")


def test_stored_queries(anon, blocks):
    r = wfs(anon, request="ListStoredQueries", version="2.0.0")
    root = etree.fromstring(r.content)
    assert (
        root.find(f"{{{WFS20}}}StoredQuery").get("id")
        == "urn:ogc:def:query:OGC-WFS::GetFeatureById"
    )
    r = wfs(anon, request="DescribeStoredQueries", version="2.0.0")
    assert (
        etree.fromstring(r.content)
        .find(f"{{{WFS20}}}StoredQueryDescription/{{{WFS20}}}Parameter")
        .get("name")
        == "ID"
    )
    r = wfs(
        anon,
        request="GetFeature",
        version="2.0.0",
        STOREDQUERY_ID="urn:ogc:def:query:OGC-WFS::GetFeatureById",
        ID="blocks.2",
        outputFormat="application/json",
    )
    assert [f["id"] for f in r.json()["features"]] == ["blocks.2"]


@pytest.mark.parametrize(
    "params,code,locator,status",
    [
        (
            {"request": "GetFeature", "version": "2.0.0", "typeNames": "sf:nope"},
            "InvalidParameterValue",
            "typeName",
            400,
        ),
        ({"request": "GetFeature", "version": "2.0.0"}, "MissingParameterValue", "typeName", 400),
        (
            {
                "request": "GetFeature",
                "version": "1.1.0",
                "typeName": "sf:blocks",
                "CQL_FILTER": "pop >>",
            },
            "InvalidParameterValue",
            "filter",
            200,
        ),
        (
            {
                "request": "GetFeature",
                "version": "2.0.0",
                "typeNames": "sf:blocks",
                "outputFormat": "x/y",
            },
            "InvalidParameterValue",
            "outputFormat",
            400,
        ),
        (
            {"request": "GetFeature", "version": "2.0.0", "typeNames": "sf:blocks", "count": "x"},
            "InvalidParameterValue",
            "count",
            400,
        ),
        (
            {
                "request": "GetFeature",
                "version": "2.0.0",
                "typeNames": "sf:blocks",
                "propertyName": "zzz",
            },
            "InvalidParameterValue",
            "propertyName",
            400,
        ),
        ({"request": "Nope", "version": "2.0.0"}, "OperationNotSupported", "Nope", 400),
        (
            {"request": "GetFeature", "version": "2.0.0", "typeNames": "sf:blocks", "bbox": "1,2"},
            "InvalidParameterValue",
            "bbox",
            400,
        ),
        *(
            (
                {"request": "GetFeature", "version": v, "typeNames": "sf:blocks", "bbox": box},
                "InvalidParameterValue",
                "bbox",
                status,
            )
            for v, status in (("1.1.0", 200), ("2.0.0", 400))
            for box in ("nan,0,10,10", "-inf,0,inf,10")
        ),
    ],
)
def test_exceptions(anon, blocks, params, code, locator, status):
    r = wfs(anon, **params)
    assert r.status_code == status
    assert ows_exception(r)[:2] == (code, locator)


def test_hidden_types(emu, anon, reader, blocks):
    emu.state.security.replace_rules("layers", {"*.*.r": "*", "sf.*.r": "ROLE_READER"})
    r = wfs(anon, request="GetFeature", version="2.0.0", typeNames=blocks)
    assert ows_exception(r)[0] == "InvalidParameterValue"
    r = wfs(reader, request="GetFeature", version="2.0.0", typeNames=blocks)
    assert etree.fromstring(r.content).get("numberMatched") == "3"
    caps = wfs(anon, request="GetCapabilities").content
    assert b"sf:blocks" not in caps and b"topp:states" in caps
    emu.state.security.set_catalog_mode("CHALLENGE")
    assert wfs(anon, request="GetFeature", version="2.0.0", typeNames=blocks).status_code == 401
