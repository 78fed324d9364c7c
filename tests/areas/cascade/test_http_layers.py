"""Cascaded WMS and WMTS layers over HTTP (GeoServer's WMSLayerTest and WMTSLayerTest)."""

from __future__ import annotations

import httpx
import pytest
from lxml import etree

from geoserver_emulator import Emulator

from .conftest import WMS_URL, register

BASE = "http://localhost:8080/geoserver/rest"
ATOM = "{http://www.w3.org/2005/Atom}link"
XML = {"Content-Type": "application/xml"}


def test_new_layer_takes_what_it_lacks_from_the_remote_layer(remote):
    layer = remote.get("/rest/workspaces/sf/wmsstores/demo/wmslayers/states.json").json()
    layer = layer["wmsLayer"]
    assert layer["name"] == "states" and layer["nativeName"] == "topp:states"
    assert layer["title"] == "USA Population" and layer["abstract"] == layer["description"]
    assert layer["keywords"] == {"string": ["census", "states"]}
    assert layer["srs"] == "EPSG:4326" and layer["projectionPolicy"] == "FORCE_DECLARED"
    box = {"minx": -124.73, "maxx": -66.97, "miny": 24.96, "maxy": 49.37, "crs": "EPSG:4326"}
    assert layer["nativeBoundingBox"] == box and layer["latLonBoundingBox"] == box
    assert layer["store"] == {
        "@class": "wmsStore",
        "name": "sf:demo",
        "href": f"{BASE}/workspaces/sf/wmsstores/demo.json",
    }
    assert layer["namespace"]["href"] == f"{BASE}/namespaces/sf.json"
    styles = layer["allAvailableRemoteStyles"]["style"]
    assert [s["name"] for s in styles] == ["default", "population", "pophatch"]
    assert styles[1]["legend"]["onlineResource"].endswith("style=population")
    assert styles[1]["metadata"] == {"entry": {"@key": "isRemote", "$": "true"}}
    assert layer["preferredFormat"] == "image/png" and layer["metadataBBoxRespected"] is False


def test_the_published_layer(remote):
    listed = remote.get("/rest/layers.json").json()["layers"]["layer"]
    assert {"name": "sf:states", "href": f"{BASE}/layers/sf%3Astates.json"} in listed
    published = remote.get("/rest/layers/sf:states.json").json()["layer"]
    assert published["type"] == "WMS" and published["defaultStyle"]["name"] == "raster"
    assert published["resource"]["@class"] == "wmsLayer"
    link = published["resource"]["href"]
    assert link == f"{BASE}/workspaces/sf/wmsstores/demo/wmslayers/states.json"
    followed = remote.get(link[len(BASE) - len("/rest") :].replace("/geoserver", "", 1))
    assert followed.json()["wmsLayer"]["name"] == "states"
    names = remote.get("/rest/workspaces/sf/layers.json").text
    assert "states" in names


def test_post_layer_variants(remote):
    body = "<wmsLayer><name>sites</name><nativeName>world4326</nativeName><srs>EPSG:4326</srs>"
    body += "<nativeCRS>EPSG:4326</nativeCRS><store>demo</store></wmsLayer>"
    r = remote.post("/rest/workspaces/sf/wmslayers/", content=body, headers=XML)
    assert r.status_code == 201 and r.text == "sites"
    assert r.headers["location"] == f"{BASE}/workspaces/sf/wmslayers/sites"
    got = etree.fromstring(remote.get("/rest/workspaces/sf/wmslayers/sites.xml").content)
    assert got.find("nativeBoundingBox") is not None and got.findtext("title") == "World"
    body = {
        "wmsLayer": {
            "name": "merc",
            "nativeName": "anotherLayer",
            "title": "Mine",
            "store": "sf:demo",
            "namespace": "sf",
        }
    }
    r = remote.post("/rest/workspaces/sf/wmsstores/demo/wmslayers", json=body)
    assert r.status_code == 201
    assert r.headers["location"] == f"{BASE}/workspaces/sf/wmsstores/demo/wmslayers/merc"
    merc = remote.get("/rest/workspaces/sf/wmslayers/merc.json").json()["wmsLayer"]
    assert merc["title"] == "Mine" and merc["srs"] == "EPSG:3857"
    assert merc["nativeBoundingBox"]["crs"] == {"@class": "projected", "$": "EPSG:3857"}
    assert merc["latLonBoundingBox"] == {
        "minx": 0,
        "maxx": 10,
        "miny": 40,
        "maxy": 50,
        "crs": "EPSG:4326",
    }
    # the name alone names the remote layer too; a remote prefix is dropped
    r = remote.post(
        "/rest/workspaces/sf/wmsstores/demo/wmslayers",
        content="<wmsLayer><nativeName>topp:states</nativeName></wmsLayer>",
        headers=XML,
    )
    assert r.status_code == 500  # sf:states exists already
    r = remote.post(
        "/rest/workspaces/sf/wmsstores/demo/wmslayers",
        content="<wmsLayer><name>world4326</name></wmsLayer>",
        headers=XML,
    )
    assert r.status_code == 201 and r.text == "world4326"
    assert remote.get(
        "/rest/workspaces/sf/wmsstores/demo/wmslayers.json?list=available"
    ).json() == {"list": {"string": []}}


def test_post_refusals_store_nothing(remote, emu):
    before = emu.dump_scenario()
    url = "/rest/workspaces/sf/wmsstores/demo/wmslayers"
    cases = [
        (url, {"wmsLayer": {"name": "x", "nativeName": "nope"}}, 500,
         "Could not find layer nope in the server capabilitiles document"),
        (url, {"wmsLayer": {"title": "no name"}}, 400, "no name was specified"),
        (url, {"wmsLayer": {"name": "x", "store": "other"}}, 403,
         "Expected wms store demo but client specified other"),
        (url, {"wmsLayer": {"name": "world4326", "namespace": "cite"}}, 403,
         "Expected workspace sf but client specified cite"),
        (url, {"wmsLayer": {"name": "world4326", "projectionPolicy": "SIDEWAYS"}}, 400,
         "Unknown projection policy SIDEWAYS"),
        (url, {"wmsLayer": {"name": "world4326", "minScale": "big"}}, 400, "Invalid number"),
        (url, {"featureType": {"name": "world4326"}}, 400, "wmsLayer"),
        ("/rest/workspaces/sf/wmslayers", {"wmsLayer": {"name": "world4326"}}, 400,
         "give one in the path or the body"),
        ("/rest/workspaces/sf/wmslayers", {"wmsLayer": {"name": "w", "store": "ghost"}}, 404,
         "No such wms store: sf,ghost"),
        ("/rest/workspaces/sf/wmsstores/ghost/wmslayers", {"wmsLayer": {"name": "w"}}, 404,
         "No such wms store: sf,ghost"),
        ("/rest/workspaces/nope/wmslayers", {"wmsLayer": {"name": "w"}}, 404,
         "Could not find workspace nope"),
    ]  # fmt: skip
    for path, body, status, message in cases:
        r = remote.post(path, json=body)
        assert (r.status_code, message in r.text) == (status, True), (path, body, r.text)
    r = remote.post(url, content="<wmsLayer><name>", headers=XML)
    assert r.status_code == 400
    assert emu.dump_scenario() == before


def test_unreachable_remote_server(remote, emu):
    """A URL with no registered document behaves as a server that does not answer: the
    store stays, its remote layers cannot be listed or cascaded (GeoServer: 500)."""
    remote.post("/rest/workspaces/sf/wmsstores", json={"wmsStore": {"name": "down",
                "capabilitiesURL": "http://somehost/wms?"}})  # fmt: skip
    before = emu.dump_scenario()
    r = remote.get("/rest/workspaces/sf/wmsstores/down/wmslayers.xml?list=available")
    assert r.status_code == 500 and r.text == "Could not load wms store: down"
    r = remote.get("/rest/workspaces/sf/wmslayers.json?list=available")
    assert r.status_code == 500 and r.text == "Could not load wms store: null"
    r = remote.post(
        "/rest/workspaces/sf/wmsstores/down/wmslayers", json={"wmsLayer": {"name": "a"}}
    )
    assert r.status_code == 500 and "http://somehost/wms?" in r.text
    assert remote.get("/rest/workspaces/sf/wmsstores/down/wmslayers.json").json() == {
        "wmsLayers": ""
    }
    assert emu.dump_scenario() == before
    # a document registered later makes it answer
    register(remote, "http://SOMEHOST/wms?service=WMS&request=GetCapabilities", "wms111.xml")
    r = remote.get("/rest/workspaces/sf/wmsstores/down/wmslayers.json?list=available")
    assert r.json() == {"list": {"string": ["root", "roads"]}}


def test_a_wmts_document_does_not_serve_a_wms_store(remote):
    register(remote, "http://mixed/x", "wmts100.xml")
    remote.post("/rest/workspaces/sf/wmsstores", json={"wmsStore": {"name": "m",
                "capabilitiesURL": "http://mixed/x"}})  # fmt: skip
    r = remote.get("/rest/workspaces/sf/wmsstores/m/wmslayers.json?list=available")
    assert r.status_code == 500


def test_list_configured_and_unknown_list_type(remote):
    r = remote.get("/rest/workspaces/sf/wmsstores/demo/wmslayers.xml")
    root = etree.fromstring(r.content)
    assert root.tag == "wmsLayers" and [e.findtext("name") for e in root] == ["states"]
    assert root[0].find(ATOM).get("href") == (
        f"{BASE}/workspaces/sf/wmsstores/demo/wmslayers/states.xml"
    )
    js = remote.get("/rest/workspaces/sf/wmslayers.json").json()
    assert js == {
        "wmsLayers": {
            "wmsLayer": [{"name": "states", "href": f"{BASE}/workspaces/sf/wmslayers/states.json"}]
        }
    }
    r = remote.get("/rest/workspaces/sf/wmslayers.json?list=all")
    assert r.status_code == 501 and r.text == "Unknown list type all"
    assert remote.get("/rest/workspaces/sf/wmsstores/ghost/wmslayers.json").status_code == 404
    assert remote.get("/rest/workspaces/nope/wmslayers.json").status_code == 404
    assert (
        remote.put("/rest/workspaces/sf/wmsstores/demo/wmslayers", content="x").status_code == 405
    )
    assert remote.delete("/rest/workspaces/sf/wmsstores/demo/wmslayers").status_code == 405
    r = remote.post("/rest/workspaces/sf/wmsstores/demo/wmslayers/states", content="<wmsLayer/>")
    assert r.status_code == 405


def test_get_missing_layer(remote):
    for path in (
        "/rest/workspaces/sf/wmslayers/statessssss.html",
        "/rest/workspaces/sf/wmsstores/demo/wmslayers/statessssss.html",
    ):
        r = remote.get(path)
        assert r.status_code == 404 and "No such cascaded wms: sf,statessssss" in r.text
        r = remote.get(path + "?quietOnNotFound=true")
        assert r.status_code == 404 and r.text == ""
    assert remote.get("/rest/workspaces/sf/wmtslayers/states.json").status_code == 404
    assert (
        remote.get("/rest/workspaces/sf/wmsstores/ghost/wmslayers/states.json").status_code == 404
    )
    r = remote.get("/rest/workspaces/nope/wmslayers/states.json")
    assert r.status_code == 404 and r.text == "Could not find workspace nope"


def test_put_merges_and_renames(remote, emu):
    r = remote.put(
        "/rest/workspaces/sf/wmsstores/demo/wmslayers/states",
        content="<wmsLayer><title>Lots of states here</title></wmsLayer>",
        headers=XML,
    )
    assert r.status_code == 200
    layer = remote.get("/rest/workspaces/sf/wmslayers/states.json").json()["wmsLayer"]
    assert layer["title"] == "Lots of states here" and layer["enabled"] is True
    assert layer["nativeName"] == "topp:states" and "dateModified" in layer
    body = {
        "wmsLayer": {
            "forcedRemoteStyle": "population",
            "selectedRemoteStyles": {"string": ["population", "pophatch"]},
            "selectedRemoteFormats": {"string": "image/jpeg"},
            "preferredFormat": "image/jpeg",
            "minScale": 1000,
            "maxScale": 1.0e7,
            "metadataBBoxRespected": True,
            "advertised": False,
        }
    }
    assert remote.put("/rest/workspaces/sf/wmslayers/states", json=body).status_code == 200
    root = etree.fromstring(remote.get("/rest/workspaces/sf/wmslayers/states.xml").content)
    assert root.findtext("forcedRemoteStyle") == "population"
    assert [e.text for e in root.find("selectedRemoteStyles")] == ["population", "pophatch"]
    assert [e.text for e in root.find("selectedRemoteFormats")] == ["image/jpeg"]
    assert root.findtext("minScale") == "1000.0" and root.findtext("maxScale") == "1.0E7"
    assert (
        root.findtext("metadataBBoxRespected") == "true" and root.findtext("advertised") == "false"
    )
    r = remote.put("/rest/workspaces/sf/wmslayers/states", json={"wmsLayer": {"name": "usa"}})
    assert r.status_code == 200
    assert remote.get("/rest/workspaces/sf/wmslayers/states.json").status_code == 404
    assert remote.get("/rest/layers/sf:usa.json").json()["layer"]["type"] == "WMS"
    assert emu.state.catalog.problems() == []
    r = remote.put("/rest/workspaces/sf/wmslayers/nope", json={"wmsLayer": {"title": "t"}})
    assert r.status_code == 404
    before = emu.dump_scenario()
    r = remote.put("/rest/workspaces/sf/wmslayers/usa", json={"wmsLayer": {"namespace": "cite"}})
    assert r.status_code == 403
    r = remote.put("/rest/workspaces/sf/wmslayers/usa", json={"wmsLayer": {"enabled": "maybe"}})
    assert r.status_code == 400
    assert emu.dump_scenario() == before


def test_delete_needs_recurse_while_published(remote, emu):
    before = emu.dump_scenario()
    r = remote.delete("/rest/workspaces/sf/wmsstores/demo/wmslayers/states")
    assert r.status_code == 403 and r.text == "wms layer referenced by layer(s)"
    assert emu.dump_scenario() == before
    r = remote.delete("/rest/workspaces/sf/wmsstores/demo/wmslayers/states?recurse=true")
    assert r.status_code == 200
    assert remote.get("/rest/layers/sf:states.json").status_code == 404
    assert remote.get("/rest/workspaces/sf/wmslayers/states.json").status_code == 404
    assert (
        remote.delete("/rest/workspaces/sf/wmsstores/demo/wmslayers/NonExistent").status_code == 404
    )
    assert emu.state.catalog.problems() == []


def test_unpublished_layer_deletes_without_recurse(remote):
    assert remote.delete("/rest/layers/sf:states").status_code == 200
    assert remote.delete("/rest/workspaces/sf/wmslayers/states").status_code == 200


def test_layer_in_a_group(remote, emu):
    body = {"layerGroup": {"name": "g", "layers": {"layer": ["sf:states"]}}}
    assert remote.post("/rest/layergroups", json=body).status_code == 201
    r = remote.delete("/rest/workspaces/sf/wmslayers/states?recurse=true")
    assert r.status_code == 500  # GeoServer removes the layer with catalog.remove: refused
    assert remote.get("/rest/layers/sf:states.json").status_code == 200
    assert remote.delete("/rest/workspaces/sf/wmsstores/demo?recurse=true").status_code == 200
    assert remote.get("/rest/layergroups/g.json").status_code == 404
    assert emu.state.catalog.problems() == []


# -- WMTS -------------------------------------------------------------------------------------


def test_wmts_layers(remote):
    url = "/rest/workspaces/sf/wmtsstores/tiles/layers"
    r = remote.get(url + ".xml?list=available")
    assert r.content == (
        b"<list><wmtsLayerName>AMSR2_Snow_Water_Equivalent</wmtsLayerName>"
        b"<wmtsLayerName>basemap</wmtsLayerName></list>"
    )
    body = "<wmtsLayer><name>snow</name><nativeName>AMSR2_Snow_Water_Equivalent</nativeName>"
    body += "</wmtsLayer>"
    r = remote.post(url, content=body, headers=XML)
    assert r.status_code == 201
    assert r.headers["location"] == f"{BASE}/workspaces/sf/wmtsstores/tiles/layers/snow"
    r = remote.post("/rest/workspaces/sf/wmtslayers", json={"wmtsLayer": {"name": "basemap",
                    "store": "tiles"}})  # fmt: skip
    assert r.status_code == 201
    assert r.headers["location"] == f"{BASE}/workspaces/sf/wmtslayers/basemap"
    snow = remote.get(url + "/snow.json").json()["wmtsLayer"]
    assert snow["title"] == "Snow water equivalent" and snow["srs"] == "EPSG:4326"
    assert snow["store"]["@class"] == "wmtsStore"
    assert snow["store"]["href"] == f"{BASE}/workspaces/sf/wmtsstores/tiles.json"
    assert "allAvailableRemoteStyles" not in snow
    basemap = remote.get("/rest/workspaces/sf/wmtslayers/basemap.xml")
    root = etree.fromstring(basemap.content)
    assert root.tag == "wmtsLayer" and root.findtext("srs") == "EPSG:3857"
    assert root.find("nativeBoundingBox").findtext("minx") == "-2.003750834E7"
    published = remote.get("/rest/layers/sf:basemap.json").json()["layer"]
    assert published["type"] == "WMTS" and published["resource"]["@class"] == "wmtsLayer"
    assert published["resource"]["href"].endswith("/wmtsstores/tiles/layers/basemap.json")
    assert remote.get(url + ".json?list=available").json() == {"list": {"string": []}}
    listed = remote.get(url + ".json").json()["wmtsLayers"]["wmtsLayer"]
    assert [x["name"] for x in listed] == ["basemap", "snow"]
    r = remote.delete(url + "/snow")
    assert r.status_code == 403 and r.text == "wmts layer referenced by layer(s)"
    r = remote.get("/rest/workspaces/sf/wmtslayers/nope.json")
    assert r.text == "No such cascaded wmts: sf,nope"
    r = remote.delete("/rest/workspaces/sf/wmtsstores/tiles")
    assert r.status_code == 401 and r.text == "wmtsstore not empty"
    r = remote.post(url, json={"wmtsLayer": {"name": "x", "store": "other"}})
    assert r.status_code == 403 and r.text == "Expected wmts store tiles but client specified other"


@pytest.mark.parametrize("fmt", ["xml", "json"])
def test_layer_body_round_trips(remote, fmt):
    """A layer's document PUT back as it was read changes nothing."""
    path = "/rest/workspaces/sf/wmslayers/states"
    remote.put(path, json={"wmsLayer": {"selectedRemoteStyles": {"string": ["population"]},
               "minScale": 5, "metadata": {"entry": {"@key": "k", "$": "v"}}}})  # fmt: skip
    first = remote.get(f"{path}.{fmt}").content
    headers = {"Content-Type": f"application/{fmt}"}
    assert remote.put(path, content=first, headers=headers).status_code == 200
    again = remote.get(f"{path}.{fmt}").content
    assert again.split(b"dateModified")[0] == first.split(b"dateModified")[0]
    assert b"minScale" in first and b"population" in first


def test_wms_url_forms_name_one_server(remote):
    """The registered document answers for the URL however its service parameters are
    written (``remote_key``)."""
    bare = WMS_URL.split("?")[0]
    remote.post("/rest/workspaces/sf/wmsstores", json={"wmsStore": {"name": "b",
                "capabilitiesURL": bare + "?"}})  # fmt: skip
    r = remote.get("/rest/workspaces/sf/wmsstores/b/wmslayers.json?list=available")
    assert r.status_code == 200 and "topp:states" in r.json()["list"]["string"]


def test_cascaded_layers_keep_every_resource_field(remote, emu, tmp_path):
    """WMSLayerInfo/WMTSLayerInfo are resources: metadata and data links, the i18n title,
    service configuration are kept and written back, and the published layer's own fields
    (attribution) survive the scenario dump with them."""
    links = {"metadataLink": [{"type": "text/xml", "metadataType": "ISO19115:2003",
                               "content": "http://x/md"}]}  # fmt: skip
    body = {"wmsLayer": {"metadataLinks": links, "internationalTitle": {"en": "T", "it": "TT"},
                         "serviceConfiguration": True,
                         "disabledServices": {"string": ["WFS"]}}}  # fmt: skip
    path = "/rest/workspaces/sf/wmsstores/demo/wmslayers/states"
    assert remote.put(path, json=body).status_code == 200
    lyr = {"layer": {"attribution": {"title": "Ann", "logoWidth": 20, "logoHeight": 10}}}
    assert remote.put("/rest/layers/sf:states", json=lyr).status_code == 200
    xml = etree.fromstring(remote.get(f"{path}.xml").content)
    assert xml.findtext("metadataLinks/metadataLink/content") == "http://x/md"
    assert xml.findtext("internationalTitle/it") == "TT"
    assert xml.findtext("serviceConfiguration") == "true"
    assert [e.text for e in xml.findall("disabledServices/string")] == ["WFS"]
    tags = [c.tag for c in xml]
    assert tags.index("keywords") < tags.index("metadataLinks") < tags.index("nativeCRS")
    assert tags.index("store") < tags.index("serviceConfiguration") < tags.index("preferredFormat")
    wmts = "/rest/workspaces/sf/wmtsstores/tiles/layers"
    assert remote.post(wmts, json={"wmtsLayer": {"name": "b", "nativeName": "basemap",
                       "internationalAbstract": {"en": "A"}}}).status_code == 201  # fmt: skip
    assert remote.get(f"{wmts}/b.json").json()["wmtsLayer"]["internationalAbstract"] == {"en": "A"}
    emu.save_scenario(tmp_path / "s.json")
    again = Emulator(tmp_path / "s.json")
    transport = httpx.WSGITransport(app=again.wsgi_app)
    base = "http://localhost:8080/geoserver"
    with httpx.Client(transport=transport, base_url=base, auth=("admin", "geoserver")) as c:
        for p in (f"{path}.xml", f"{wmts}/b.json", "/rest/layers/sf:states.json"):
            assert c.get(p).content == remote.get(p).content, p
