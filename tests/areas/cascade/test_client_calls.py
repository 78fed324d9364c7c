"""The calls geoserver-node-client and python-geoservercloud make for cascaded stores and
layers (JavaScript and a client we do not install: their requests, reproduced)."""

from __future__ import annotations

from .conftest import WMS_URL, WMTS_URL, register


def test_node_client_wms_flow(client):
    register(client, WMS_URL, "wms130.xml")
    # createWmsStore(workspace, dataStore, wmsCapabilitiesUrl)
    body = {"wmsStore": {"name": "remote", "type": "WMS", "capabilitiesURL": WMS_URL}}
    assert client.post("/rest/workspaces/sf/wmsstores", json=body).status_code == 201
    # publishWmsLayer(workspace, dataStore, nativeName, name, title, srs, enabled, abstract)
    body = {
        "wmsLayer": {
            "name": "usa",
            "nativeName": "topp:states",
            "title": "usa",
            "srs": "EPSG:4326",
            "abstract": "",
        }
    }
    r = client.post("/rest/workspaces/sf/wmsstores/remote/wmslayers", json=body)
    assert r.status_code == 201
    # getWmsLayer(workspace, datastore, layerName)
    got = client.get("/rest/workspaces/sf/wmsstores/remote/wmslayers/usa.json")
    layer = got.json()["wmsLayer"]
    assert layer["title"] == "usa" and layer["abstract"] == "" and layer["enabled"] is True
    assert layer["latLonBoundingBox"]["minx"] == -124.73
    # a missing one: 404, which the client turns into undefined
    assert client.get("/rest/workspaces/sf/wmsstores/remote/wmslayers/x.json").status_code == 404


def test_geoservercloud_wmts_flow(client):
    register(client, WMTS_URL, "wmts100.xml")
    store = {
        "wmtsStore": {
            "name": "tiles",
            "type": "WMTS",
            "capabilitiesURL": WMTS_URL,
            "workspace": {"name": "sf"},
            "enabled": True,
        }
    }
    path = "/rest/workspaces/sf/wmtsstores/tiles.json"
    assert client.get(path).status_code == 404  # resource_exists
    assert client.post("/rest/workspaces/sf/wmtsstores.json", json=store).status_code == 201
    assert client.put(path, json=store).status_code == 200  # the same again: an update
    url = client.get(path).json()["wmtsStore"]["capabilitiesURL"]
    assert url == WMTS_URL
    layer = {
        "wmtsLayer": {
            "advertised": True,
            "enabled": True,
            "name": "snow",
            "nativeName": "AMSR2_Snow_Water_Equivalent",
            "projectionPolicy": "FORCE_DECLARED",
            "serviceConfiguration": False,
            "simpleConversionEnabled": False,
            "srs": "EPSG:4326",
            "nativeBoundingBox": {"minx": -180, "maxx": 180, "miny": -90, "maxy": 90,
                                  "crs": {"@class": "projected", "$": "EPSG:4326"}},
            "latLonBoundingBox": {"minx": -180, "maxx": 180, "miny": -90, "maxy": 90,
                                  "crs": "EPSG:4326"},
        }
    }  # fmt: skip
    layers = "/rest/workspaces/sf/wmtsstores/tiles/layers"
    assert client.post(f"{layers}.json", json=layer).status_code == 201
    got = client.get(f"{layers}/snow.json").json()["wmtsLayer"]
    assert (
        got["nativeBoundingBox"]["crs"] == "EPSG:4326" and got["title"] == "Snow water equivalent"
    )
    # publishing again: delete first (recurse), then the tile layer, then POST
    assert client.delete(f"{layers}/snow.json", params={"recurse": "true"}).status_code == 200
    assert client.post(f"{layers}.json", json=layer).status_code == 201
