"""OWSLib's OGC API - Features client (``owslib.ogcapi.features.Features``) against a live
emulator with the ``ogcapi-features`` extension: the landing page, the API document,
conformance, collections, items with limit, bbox and a CQL2 filter, one item, queryables."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
import requests

from geoserver_emulator import Emulator
from geoserver_emulator.http.server import LiveServer

features = pytest.importorskip("owslib.ogcapi.features")

PRIMS = (
    b"_=name:String,intProperty:Integer,dateProperty:Date,pointProperty:Point:srid=4326\n"
    b"prims.1=name-f001|155|2006-10-25|POINT(39 2)\n"
    b"prims.2=name-f002|-900|2006-09-01|POINT(55 1)\n"
    b"prims.3=name-f003|300|2006-10-23|POINT(45 10)\n"
)


@pytest.fixture(scope="module")
def live() -> Iterator[tuple[Emulator, str]]:
    emu = Emulator("stock", profile="geoserver", extensions=["ogcapi-features"])
    server = LiveServer(emu.asgi_app).start()
    try:
        yield emu, server.url(emu.context_path)
    finally:
        server.stop()


@pytest.fixture
def api(live, monkeypatch) -> Iterator[features.Features]:
    emu, base = live
    emu.reset()
    emu.internal_errors.clear()
    monkeypatch.setenv("NO_PROXY", "127.0.0.1,localhost")
    monkeypatch.setenv("no_proxy", "127.0.0.1,localhost")
    r = requests.put(
        f"{base}/rest/workspaces/sf/datastores/prims/file.properties",
        data=PRIMS,
        headers={"Content-Type": "text/plain"},
        auth=("admin", "geoserver"),
        timeout=10,
    )
    assert r.status_code == 201, r.text
    yield features.Features(f"{base}/ogc/features/v1")
    assert not emu.internal_errors, "server errors:\n" + "\n".join(emu.internal_errors)


def test_landing_page_api_and_conformance(api, live):
    emu, base = live
    assert {link["rel"] for link in api.links} >= {"self", "service-desc", "conformance", "data"}
    assert api.response["title"] == emu.state.settings.service("wfs")["title"]
    doc = api.api()
    assert doc["openapi"].startswith("3.0") and "/collections" in doc["paths"]
    classes = api.conformance()["conformsTo"]
    assert "http://www.opengis.net/spec/ogcapi-features-1/1.0/conf/core" in classes
    assert "http://www.opengis.net/spec/cql2/1.0/conf/cql2-text" in classes


def test_collections(api):
    found = api.collections()
    ids = [c["id"] for c in found["collections"]]
    assert "sf:prims" in ids and "topp:states" in ids
    one = api.collection("sf:prims")
    assert one["id"] == "sf:prims"
    assert one["storageCrs"] == "http://www.opengis.net/def/crs/OGC/1.3/CRS84"
    assert one["extent"]["spatial"]["bbox"] == [[39.0, 1.0, 55.0, 10.0]]


def test_items(api):
    page = api.collection_items("sf:prims", limit=2)
    assert page["type"] == "FeatureCollection"
    assert (page["numberMatched"], page["numberReturned"]) == (3, 2)
    assert any(link["rel"] == "next" for link in page["links"])
    boxed = api.collection_items("sf:prims", bbox=[35, 0, 60, 3])
    assert [f["id"] for f in boxed["features"]] == ["prims.1", "prims.2"]
    filtered = api.collection_items("sf:prims", filter="intProperty > 200")
    assert [f["id"] for f in filtered["features"]] == ["prims.3"]
    dated = api.collection_items("sf:prims", datetime_="2006-09-01/2006-10-23")
    assert [f["id"] for f in dated["features"]] == ["prims.2", "prims.3"]


def test_one_item_and_queryables(api):
    item = api.collection_item("sf:prims", "prims.2")
    assert item["type"] == "Feature" and item["id"] == "prims.2"
    assert item["geometry"] == {"type": "Point", "coordinates": [55, 1]}
    assert item["properties"]["name"] == "name-f002"
    queryables = api.collection_queryables("sf:prims")
    assert queryables["type"] == "object"
    assert queryables["properties"]["pointProperty"]["format"] == "geometry-point"
    assert queryables["properties"]["intProperty"]["type"] == "integer"


def test_errors_reach_the_client(api):
    with pytest.raises(RuntimeError, match="Unknown collection nope"):
        api.collection_items("nope")
    with pytest.raises(RuntimeError, match="InvalidParameterValue"):
        api.collection_items("sf:prims", filter="THIS IS NOT A FILTER")
