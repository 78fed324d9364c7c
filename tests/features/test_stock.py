"""The stock layers serve the release sample data: counts, attributes, feature info, and the
shared data's isolation (copied into a state on its first write, never changed in place)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from lxml import etree

from geoserver_emulator import Emulator, stockdata
from geoserver_emulator.features import stock

FIDELITY = Path(__file__).resolve().parents[2] / "docs" / "fidelity.md"
WFS = {"service": "WFS", "request": "GetFeature"}
UPDATE = """<wfs:Transaction service="WFS" version="1.1.0" xmlns:wfs="http://www.opengis.net/wfs"
    xmlns:ogc="http://www.opengis.net/ogc" xmlns:topp="http://www.openplans.org/topp">
  <wfs:Update typeName="topp:states">
    <wfs:Property><wfs:Name>{prop}</wfs:Name><wfs:Value>{value}</wfs:Value></wfs:Property>
    <ogc:Filter><ogc:FeatureId fid="states.5"/></ogc:Filter>
  </wfs:Update>
</wfs:Transaction>"""
INSERT_THEN_BAD_UPDATE = """<wfs:Transaction service="WFS" version="1.1.0"
    xmlns:wfs="http://www.opengis.net/wfs" xmlns:gml="http://www.opengis.net/gml"
    xmlns:ogc="http://www.opengis.net/ogc" xmlns:topp="http://www.openplans.org/topp">
  <wfs:Insert><topp:states><topp:STATE_NAME>Nowhere</topp:STATE_NAME></topp:states></wfs:Insert>
  <wfs:Update typeName="topp:states">
    <wfs:Property><wfs:Name>NO_SUCH</wfs:Name><wfs:Value>1</wfs:Value></wfs:Property>
  </wfs:Update>
</wfs:Transaction>"""


def stock_types(emu: Emulator) -> list[tuple[str, str]]:
    catalog = emu.state.catalog
    return sorted(
        key for key, r in catalog.resources.items() if r.kind == "featureType" and key[0] != "cite"
    )


def no_source_rows() -> str:
    """The rows of fidelity.md's stock section that say a layer serves no features."""
    text = FIDELITY.read_text(encoding="utf-8").split("## Stock sample data", 1)[1]
    return "\n".join(line for line in text.splitlines() if "no features" in line)


def hits(client, name: str, version: str = "2.0.0") -> int:
    r = client.get("/wfs", params={**WFS, "version": version, "typeName": name,
                                   "resultType": "hits"})  # fmt: skip
    assert r.status_code == 200, r.text
    root = etree.fromstring(r.content)
    return int(root.get("numberMatched") or root.get("numberOfFeatures"))


def features(client, name: str, **params: str) -> list[dict]:
    query = {**WFS, "version": "2.0.0", "typeNames": name, "outputFormat": "application/json"}
    r = client.get("/wfs", params={**query, **params})
    assert r.status_code == 200, r.text
    return json.loads(r.content)["features"]


def persons(client, fid: str = "states.5") -> float:
    return features(client, "topp:states", featureID=fid)[0]["properties"]["PERSONS"]


def test_every_stock_feature_type_answers_hits_or_is_listed_without_source(emu, client):
    names = stock_types(emu)
    assert len(names) == 19
    listed = no_source_rows()
    for ws, name in names:
        count = hits(client, f"{ws}:{name}")
        table = stockdata.load(ws, name)
        assert table is not None, name
        assert count == len(table.features), name
        if count == 0:
            assert f"`{ws}:{name}`" in listed or f"`{ws}:*`" in listed, f"{ws}:{name} unlisted"
        else:
            assert f"`{ws}:{name}`" not in listed, f"{ws}:{name} listed without source"


@pytest.mark.parametrize("version", ["1.1.0", "2.0.0"])
def test_counts_of_the_populated_layers(client, version):
    expected = {
        "topp:states": 49,
        "ne:countries": 177,
        "ne:populated_places": 243,
        "ne:coastlines": 134,
        "ne:boundary_lines": 331,
        "tiger:giant_polygon": 1,
    }
    assert {name: hits(client, name, version) for name in expected} == expected


def test_attributes_and_filters_read_the_stock_values(client):
    found = features(client, "topp:states", CQL_FILTER="STATE_ABBR='TX'")
    assert len(found) == 1
    props = found[0]["properties"]
    assert props["STATE_NAME"] == "Texas" and props["STATE_FIPS"] == "48"
    assert props["PERSONS"] > 20_000_000 and props["LAND_KM"] is None
    assert found[0]["geometry"]["type"] == "MultiPolygon"
    rome = features(client, "ne:populated_places", CQL_FILTER="name='Rome'")
    assert [f["geometry"]["coordinates"][0] // 1 for f in rome] == [12]
    italy = features(client, "ne:countries", CQL_FILTER="ADM0_A3='ITA'")
    assert italy[0]["properties"]["NAME_IT"] == "Italia"
    assert hits_in_bbox(client, "ne:countries", "35,5,48,20") >= 5


def hits_in_bbox(client, name: str, bbox: str) -> int:
    return len(features(client, name, bbox=bbox, propertyName="NAME"))


def test_feature_info_at_a_point_answers_the_stock_feature(client):
    r = client.get("/wms", params={
        "service": "WMS", "version": "1.1.1", "request": "GetFeatureInfo",
        "layers": "topp:states", "query_layers": "topp:states", "styles": "",
        "srs": "EPSG:4326", "bbox": "-110,25,-90,40", "width": "200", "height": "150",
        "x": "100", "y": "100", "info_format": "application/json",
    })  # fmt: skip
    assert r.status_code == 200, r.text
    found = json.loads(r.content)["features"]
    assert [f["properties"]["STATE_NAME"] for f in found] == ["Texas"]


def test_a_write_copies_the_table_and_leaves_other_emulators_alone(emu, client_for):
    other = Emulator("stock")
    mine, theirs = client_for(), client_for(emulator=other)
    before = persons(mine)
    shared = stock.shared_table("topp", "states")
    assert shared is not None
    shared_features = list(shared.features)
    r = mine.post("/wfs", content=UPDATE.format(prop="PERSONS", value="1"))
    assert r.status_code == 200 and b"totalUpdated>1<" in r.content, r.text
    assert persons(mine) == 1
    assert persons(theirs) == before
    assert hits(mine, "topp:states") == hits(theirs, "topp:states") == 49
    assert shared.features == shared_features and persons(theirs) == before
    assert ("topp", "states_shapefile", "states") in emu.state.features.tables
    emu.reset()
    assert persons(mine) == before
    assert ("topp", "states_shapefile", "states") not in emu.state.features.tables


def test_a_refused_transaction_leaves_the_shared_data_and_the_state_untouched(emu, client, anon):
    shared = stock.shared_table("topp", "states")
    assert shared is not None
    snapshot = [(f.fid, dict(f.properties)) for f in shared.features]
    r = client.post("/wfs", content=INSERT_THEN_BAD_UPDATE)
    assert r.status_code in (200, 400) and b"NO_SUCH" in r.content, r.text
    r = anon.post("/wfs", content=UPDATE.format(prop="PERSONS", value="2"))
    assert b"totalUpdated>1<" not in r.content
    assert hits(client, "topp:states") == 49
    assert [(f.fid, dict(f.properties)) for f in shared.features] == snapshot
    assert emu.state.features.tables == {}


def test_reset_never_decodes_the_stock_data_again(emu, client):
    hits(client, "ne:countries")
    before = stockdata.load.cache_info().misses
    for _ in range(3):
        emu.reset()
        assert hits(client, "ne:countries") == 177
    assert stockdata.load.cache_info().misses == before


def test_a_dump_writes_the_stock_features_only_once_a_test_changed_them(emu, client):
    assert emu.dump_scenario()["features"]["tables"] == []
    client.post("/wfs", content=UPDATE.format(prop="STATE_NAME", value="Renamed"))
    tables = emu.dump_scenario()["features"]["tables"]
    assert [(t["workspace"], t["store"], t["name"]) for t in tables] == [
        ("topp", "states_shapefile", "states")
    ]
    renamed = [f for f in tables[0]["features"] if f["properties"]["STATE_NAME"] == "Renamed"]
    assert [f["fid"] for f in renamed] == ["states.5"]
    again = Emulator(emu.dump_scenario())
    assert persons(again_client(again)) == persons(client)


def again_client(emu: Emulator):
    import httpx

    return httpx.Client(
        transport=httpx.WSGITransport(app=emu.wsgi_app),
        base_url="http://localhost:8080/geoserver",
        auth=("admin", "geoserver"),
    )


def test_a_store_pointed_elsewhere_serves_no_stock_features(client):
    body = {"dataStore": {"connectionParameters": {"entry": [
        {"@key": "url", "$": "file:data/elsewhere.shp"}]}}}  # fmt: skip
    r = client.put("/rest/workspaces/topp/datastores/states_shapefile", json=body)
    assert r.status_code == 200, r.text
    assert hits(client, "topp:states") == 0


def test_the_release_files_name_every_stock_layer():
    named = {stock.stock_layer(loc, native) for loc, (_, tables) in stock.RELEASE_FILES.items()
             for native in tables}  # fmt: skip
    assert named == set(stockdata.layers())
    assert stock.stock_layer("file:data/sf", "nothing") is None
    assert stock.stock_layer(None, "states") is None
    assert re.fullmatch(r"boundary_lines_land", stockdata.load("ne", "boundary_lines").name)
