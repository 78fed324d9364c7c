"""WFS Transaction (Insert, Update, Delete) and XML requests POSTed to the services."""

from __future__ import annotations

import pytest
from lxml import etree

WS = "test_wfs"
INSERT = """<Transaction xmlns="http://www.opengis.net/wfs" service="WFS" version="1.1.0">
    <Insert>
        <test_wfs xmlns="test_wfs">
            <geom>
                <Point xmlns="http://www.opengis.net/gml" srsName="EPSG:2056">
                    <pos srsDimension="2">2600000.0 1200000.0</pos>
                </Point>
            </geom>
            <timestamp>2024-05-13T08:14:48.763Z</timestamp>
            <id>10</id>
            <title>Title</title>
        </test_wfs>
    </Insert>
</Transaction>"""


@pytest.fixture
def database_type(client):
    """A workspace, a PostGIS store and a feature type declared with its attributes (no
    rows are held for it until a transaction inserts some)."""
    r = client.post("/rest/workspaces", json={"workspace": {"name": WS}})
    assert r.status_code == 201, r.text
    store = {
        "dataStore": {
            "name": WS,
            "connectionParameters": {"entry": [{"@key": "dbtype", "$": "postgis"}]},
        }
    }
    r = client.post(f"/rest/workspaces/{WS}/datastores", json=store)
    assert r.status_code == 201, r.text
    attributes = [
        {"name": "geom", "binding": "org.locationtech.jts.geom.Point", "nillable": False},
        {"name": "id", "binding": "java.lang.Integer", "nillable": False},
        {"name": "title", "binding": "java.lang.String", "nillable": True},
        {"name": "timestamp", "binding": "java.sql.Timestamp", "nillable": True},
    ]
    bbox = {"minx": 2400000, "maxx": 2900000, "miny": 1000000, "maxy": 1400000, "crs": "EPSG:2056"}
    ft = {
        "featureType": {
            "name": WS,
            "nativeName": WS,
            "srs": "EPSG:2056",
            "nativeBoundingBox": bbox,
            "latLonBoundingBox": {
                "minx": 5,
                "maxx": 11,
                "miny": 45,
                "maxy": 48,
                "crs": "EPSG:4326",
            },
            "attributes": {"attribute": attributes},
        }
    }
    r = client.post(f"/rest/workspaces/{WS}/datastores/{WS}/featuretypes", json=ft)
    assert r.status_code == 201, r.text
    return WS


def features(client, **params):
    query = {
        "service": "WFS",
        "version": "1.0.0",
        "request": "GetFeature",
        "typeName": f"{WS}:{WS}",
        "outputFormat": "application/json",
    }
    r = client.get(f"/{WS}/wfs", params={**query, **params})
    assert r.status_code == 200, r.text
    return r.json()


def test_insert_then_get_feature(client, database_type):
    r = client.post(f"/{WS}/wfs/", content=INSERT.encode())
    assert r.status_code == 200, r.text
    root = etree.fromstring(r.content)
    ns = {"wfs": "http://www.opengis.net/wfs", "ogc": "http://www.opengis.net/ogc"}
    assert root.findtext("wfs:TransactionSummary/wfs:totalInserted", namespaces=ns) == "1"
    assert root.find(".//ogc:FeatureId", ns).get("fid") == "test_wfs.1"
    doc = features(client)
    (feature,) = doc["features"]
    assert feature["properties"] == {
        "id": 10,
        "title": "Title",
        "timestamp": "2024-05-13T08:14:48.763Z",
    }
    assert feature["geometry"] == {"type": "Point", "coordinates": [2600000, 1200000]}
    assert doc["crs"] == {"type": "name", "properties": {"name": "urn:ogc:def:crs:EPSG::2056"}}


UPDATE = """<wfs:Transaction xmlns:wfs="http://www.opengis.net/wfs/2.0" xmlns:fes="http://www.opengis.net/fes/2.0"
    service="WFS" version="2.0.0">
  <wfs:Update typeName="test_wfs:test_wfs">
    <wfs:Property><wfs:ValueReference>title</wfs:ValueReference><wfs:Value>Renamed</wfs:Value></wfs:Property>
    <fes:Filter><fes:ResourceId rid="test_wfs.1"/></fes:Filter>
  </wfs:Update>
</wfs:Transaction>"""
DELETE = """<wfs:Transaction xmlns:wfs="http://www.opengis.net/wfs" xmlns:ogc="http://www.opengis.net/ogc"
    service="WFS" version="1.1.0">
  <wfs:Delete typeName="test_wfs:test_wfs">
    <ogc:Filter><ogc:PropertyIsEqualTo><ogc:PropertyName>id</ogc:PropertyName>
      <ogc:Literal>10</ogc:Literal></ogc:PropertyIsEqualTo></ogc:Filter>
  </wfs:Delete>
</wfs:Transaction>"""


def test_update_and_delete(client, database_type):
    assert client.post(f"/{WS}/wfs", content=INSERT.encode()).status_code == 200
    r = client.post(f"/{WS}/wfs", content=UPDATE.encode())
    root = etree.fromstring(r.content)
    assert root.findtext(".//{http://www.opengis.net/wfs/2.0}totalUpdated") == "1"
    assert features(client)["features"][0]["properties"]["title"] == "Renamed"
    r = client.post(f"/{WS}/wfs", content=DELETE.encode())
    assert (
        etree.fromstring(r.content).findtext(".//{http://www.opengis.net/wfs}totalDeleted") == "1"
    )
    assert features(client)["features"] == []


def test_a_failing_transaction_changes_nothing(client, database_type, emu):
    before = emu.dump_scenario()
    bad = INSERT.replace("<id>10</id>", "<id>ten</id>")
    r = client.post(f"/{WS}/wfs", content=bad.encode())
    e = etree.fromstring(r.content).find(".//{http://www.opengis.net/ows}Exception")
    assert e.get("exceptionCode") == "InvalidParameterValue"
    two = INSERT.replace("</Insert>", "</Insert><Insert><nope xmlns='x'/></Insert>")
    r = client.post(f"/{WS}/wfs", content=two.encode())
    assert b"Feature type nope unknown" in r.content
    assert emu.dump_scenario() == before
    assert features(client)["features"] == []


def test_anonymous_callers_may_not_write(emu, client, anon, database_type):
    # the stock rules (*.*.r=*, *.*.w=GROUP_ADMIN,ADMIN) in HIDE mode: the layer is
    # read-only to anonymous callers (GeoServer's read-only feature store refuses the write)
    r = anon.post(f"/{WS}/wfs", content=INSERT.encode())
    assert r.status_code == 200 and b"test_wfs is read only" in r.content
    assert b'numberOfFeatures="0"' in anon.get(
        f"/{WS}/wfs",
        params={"service": "WFS", "version": "1.1.0", "request": "GetFeature",
                "typeName": f"{WS}:{WS}", "resultType": "hits"},
    ).content  # fmt: skip
    # in the MIXED and CHALLENGE modes, a write is a challenge
    for mode in ("MIXED", "CHALLENGE"):
        assert client.put("/rest/security/acl/catalog.json", json={"mode": mode}).status_code == 200
        r = anon.post(f"/{WS}/wfs", content=INSERT.encode())
        assert r.status_code == 401


def test_get_feature_posted_as_xml(client, database_type):
    client.post(f"/{WS}/wfs", content=INSERT.encode())
    body = """<wfs:GetFeature xmlns:wfs="http://www.opengis.net/wfs/2.0" xmlns:fes="http://www.opengis.net/fes/2.0"
        service="WFS" version="2.0.0" outputFormat="application/json">
      <wfs:Query typeNames="test_wfs:test_wfs">
        <fes:Filter><fes:PropertyIsEqualTo><fes:ValueReference>title</fes:ValueReference>
          <fes:Literal>Title</fes:Literal></fes:PropertyIsEqualTo></fes:Filter>
      </wfs:Query>
    </wfs:GetFeature>"""
    r = client.post("/wfs", content=body.encode())
    assert [f["id"] for f in r.json()["features"]] == ["test_wfs.1"]
    caps = client.post(
        "/wfs", content=b'<GetCapabilities xmlns="http://www.opengis.net/wfs/2.0" service="WFS"/>'
    )
    assert b"WFS_Capabilities" in caps.content


def test_inserted_features_survive_a_scenario_dump_and_load(client, database_type, emu):
    from geoserver_emulator import Emulator

    client.post(f"/{WS}/wfs", content=INSERT.encode())
    copy = Emulator(emu.dump_scenario())
    table = copy.state.features.get(WS, WS, WS)
    assert [f.fid for f in table.features] == ["test_wfs.1"]
    assert table.features[0].properties["title"] == "Title"
