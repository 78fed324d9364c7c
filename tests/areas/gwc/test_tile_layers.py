"""``/gwc/rest/layers/<name>``: PUT, POST, DELETE and GET of GeoServer-backed and WMS tile
layers, with GeoServer's id and name rules and GWC's ``RestException`` answers."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from geoserver_emulator import Emulator

EXC = "org.geowebcache.rest.exception.RestException"
XML = {"content-type": "text/xml"}


def layer_xml(name: str, id: str | None = None, extra: str = "") -> str:
    ident = f"<id>{id}</id>" if id is not None else ""
    return (
        f"<GeoServerLayer>{ident}<enabled>true</enabled><name>{name}</name>"
        "<mimeFormats><string>image/jpeg</string></mimeFormats>"
        "<gridSubsets><gridSubset><gridSetName>EPSG:900913</gridSetName></gridSubset>"
        "</gridSubsets><metaWidthHeight><int>4</int><int>4</int></metaWidthHeight>"
        f"{extra}</GeoServerLayer>"
    )


def catalog_id(client, name: str) -> str:
    r = client.get(f"/gwc/rest/layers/{name}.json")
    assert r.status_code == 200
    return r.json()["GeoServerLayer"]["id"]


def test_get_shows_the_catalog_id_for_layers_and_groups(client):
    layer = client.get("/gwc/rest/layers/topp:states.xml")
    assert layer.status_code == 200 and layer.headers["content-type"].startswith("application/xml")
    assert "<id>LayerInfoImpl--570ae188:124761b8d78:-" in layer.text
    group = client.get("/gwc/rest/layers/tasmania.json").json()["GeoServerLayer"]
    assert group["id"].startswith("LayerGroupInfoImpl-")
    assert catalog_id(client, "topp:states") != catalog_id(client, "sf:roads")


def test_same_requests_same_bytes(client_for):
    first = client_for(emulator=Emulator("stock")).get("/gwc/rest/layers/topp:states.xml")
    second = client_for(emulator=Emulator("stock")).get("/gwc/rest/layers/topp:states.xml")
    assert first.content == second.content


def test_delete_then_put_creates_it_again_with_the_same_id(client):
    ident = catalog_id(client, "topp:states")
    r = client.delete("/gwc/rest/layers/topp:states.xml")
    assert (r.status_code, r.text) == (200, "topp:states deleted")
    assert client.get("/gwc/rest/layers/topp:states.xml").status_code == 404
    assert "topp:states" not in client.get("/gwc/rest/layers.json").json()
    r = client.put(
        "/gwc/rest/layers/topp:states.xml", content=layer_xml("topp:states", ident), headers=XML
    )
    assert (r.status_code, r.text) == (200, "layer saved")
    got = client.get("/gwc/rest/layers/topp:states.json").json()["GeoServerLayer"]
    assert got["id"] == ident and got["mimeFormats"] == ["image/jpeg"]
    assert got["gridSubsets"] == [{"gridSetName": "EPSG:900913"}]


def test_put_without_id_finds_the_catalog_layer_by_name(client):
    client.delete("/gwc/rest/layers/sf:roads")
    r = client.put("/gwc/rest/layers/sf:roads.xml", content=layer_xml("sf:roads"), headers=XML)
    assert r.status_code == 200
    assert catalog_id(client, "sf:roads").startswith("LayerInfoImpl-")


def test_put_over_an_existing_tile_layer_replaces_it(client):
    body = layer_xml("topp:states", extra="<gutter>20</gutter>")
    r = client.put("/gwc/rest/layers/topp:states.xml", content=body, headers=XML)
    assert r.status_code == 200
    assert client.get("/gwc/rest/layers/topp:states.json").json()["GeoServerLayer"]["gutter"] == 20


@pytest.mark.parametrize(
    ("path", "body", "status", "message"),
    [
        (
            "topp:states",
            layer_xml("topp:states", "badId"),
            400,
            "No GeoServer Layer or LayerGroup exists with id 'badId'",
        ),
        (
            "badLayerName",
            layer_xml("badLayerName"),
            404,
            "GeoServer Layer or LayerGroup 'badLayerName' not found",
        ),
        ("topp:states", layer_xml(""), 400, "Layer name not provided"),
        (
            "badEndpoint",
            layer_xml("topp:states"),
            400,
            "There is a mismatch between the name of the  layer in the submission and the URL"
            " you specified.",
        ),
        ("topp:states", "<GeoServerLayer><name>", 400, "Malformed tile layer"),
        ("topp:states", "<seedRequest/>", 400, "Unknown tile layer type: seedRequest"),
        (
            "topp:states",
            layer_xml("topp:states", extra="<bogus>1</bogus>"),
            400,
            "Unknown field bogus in GeoServerLayer",
        ),
        (
            "topp:states",
            layer_xml("topp:states").replace(
                "</gridSetName>", "</gridSetName><zoomStart>5</zoomStart><zoomStop>2</zoomStop>"
            ),
            400,
            "zoomStart (5) can't be greater than zoomStop (2)",
        ),
        (
            "topp:states",
            layer_xml("topp:states").replace(
                "</gridSetName>",
                "</gridSetName><extent><coords><double>10</double><double>0</double>"
                "<double>5</double><double>1</double></coords></extent>",
            ),
            400,
            "Invalid extent",
        ),
        (
            "topp:states",
            layer_xml(
                "topp:states", extra="<metaWidthHeight><int>-1</int><int>4</int></metaWidthHeight>"
            ),
            400,
            "metaWidthHeight must not be negative: -1, 4",
        ),
        (
            "topp:states",
            layer_xml("topp:states", extra="<parameterFilters><foo/></parameterFilters>"),
            400,
            "parameterFilters contains an element that is not a known ParameterFilter",
        ),
    ],
)
def test_put_refusals_store_nothing(client, emu, path, body, status, message):
    before = client.get("/gwc/rest/layers/topp:states.xml").content
    r = client.put(f"/gwc/rest/layers/{path}.xml", content=body, headers=XML)
    assert r.status_code == status, r.text
    assert r.headers["content-type"].startswith("text/plain")
    assert message in r.text and not r.text.startswith(EXC)  # the message, not toString()
    assert client.get("/gwc/rest/layers/topp:states.xml").content == before
    assert "badLayerName" not in emu.state.seeding.tile_layers


def test_id_of_another_layer_is_a_name_mismatch(client):
    ident = catalog_id(client, "topp:states")
    r = client.put(
        "/gwc/rest/layers/sf:roads.xml", content=layer_xml("sf:roads", ident), headers=XML
    )
    assert r.status_code == 400
    assert r.text.endswith(
        f"Layer with id '{ident}' found but name does not match: 'sf:roads'/'topp:states'"
    )


def test_post_modifies_with_a_deprecation_warning(client):
    body = (
        "<GeoServerLayer><enabled>true</enabled><name>sf:roads</name>"
        "<mimeFormats><string>image/png8</string></mimeFormats><gridSubsets>"
        "<gridSubset><gridSetName>GoogleCRS84Quad</gridSetName></gridSubset>"
        "<gridSubset><gridSetName>EPSG:4326</gridSetName></gridSubset></gridSubsets>"
        "<metaWidthHeight><int>9</int><int>6</int></metaWidthHeight><parameterFilters>"
        "<styleParameterFilter><key>STYLES</key><defaultValue>capitals</defaultValue>"
        "<allowedStyles><string>burg</string><string>point</string></allowedStyles>"
        "</styleParameterFilter><floatParameterFilter><key>ELEVATION</key>"
        "<defaultValue>10.1</defaultValue><values><float>10.1</float><float>10.2</float>"
        "</values><threshold>1.0E-2</threshold></floatParameterFilter></parameterFilters>"
        "<gutter>20</gutter></GeoServerLayer>"
    )
    r = client.post("/gwc/rest/layers/sf:roads.xml", content=body, headers=XML)
    assert r.status_code == 200 and r.headers["warning"] == "299: Deprecated API. Use PUT instead."
    xml = client.get("/gwc/rest/layers/sf:roads.xml").text
    assert "<int>9</int>\n    <int>6</int>" in xml and "<gutter>20</gutter>" in xml
    assert "<styleParameterFilter>" in xml and "<string>burg</string>" in xml
    assert "<floatParameterFilter>" in xml and "<threshold>0.01</threshold>" in xml


def test_post_of_a_deleted_tile_layer_is_refused(client):
    client.delete("/gwc/rest/layers/sf:roads")
    r = client.post("/gwc/rest/layers/sf:roads.xml", content=layer_xml("sf:roads"), headers=XML)
    assert r.status_code == 400
    assert "Layer sf:roads is not known by the configuration.Maybe it was loaded" in r.text
    assert client.get("/gwc/rest/layers/sf:roads.xml").status_code == 404


def test_legacy_auto_cache_styles(client):
    for flag, has_styles in (("true", True), ("false", False)):
        body = (
            f"<GeoServerLayer><name>sf:roads</name><autoCacheStyles>{flag}</autoCacheStyles>"
            "</GeoServerLayer>"
        )
        assert (
            client.post("/gwc/rest/layers/sf:roads.xml", content=body, headers=XML).status_code
            == 200
        )
        xml = client.get("/gwc/rest/layers/sf:roads.xml").text
        assert ("<styleParameterFilter>" in xml) is has_styles
        assert "autoCacheStyles" not in xml


def test_delete_unknown_is_404(client):
    r = client.delete("/gwc/rest/layers/badLayerName.xml")
    assert r.status_code == 404
    assert r.text == "Unknown layer: badLayerName"


def test_deleting_the_catalog_layer_drops_its_tile_layer(client):
    assert client.delete("/rest/layers/sf:roads", params={"recurse": "true"}).status_code == 200
    assert client.get("/gwc/rest/layers/sf:roads.xml").status_code == 404
    r = client.put("/gwc/rest/layers/sf:roads.xml", content=layer_xml("sf:roads"), headers=XML)
    assert r.status_code == 404 and "GeoServer Layer or LayerGroup 'sf:roads' not found" in r.text


def test_json_put_and_get(client):
    body = {
        "GeoServerLayer": {
            "name": "topp:states",
            "enabled": False,
            "inMemoryCached": False,
            "mimeFormats": ["image/png"],
            "gridSubsets": [
                {
                    "gridSetName": "EPSG:4326",
                    "zoomStart": 1,
                    "zoomStop": 6,
                    "extent": {"coords": [-130.0, 20.0, -60.0, 50.0]},
                },
            ],  # fmt: skip
            "metaWidthHeight": [2, 3],
            "expireCache": 60,
            "expireClients": 120,
            "parameterFilters": [
                {"key": "TIME", "defaultValue": "", "regex": "\\d{4}"},
                {"key": "FORMAT_OPTIONS", "defaultValue": "a", "values": ["a", "b"]},
                {"key": "DIM", "defaultValue": "1", "values": [1, 2], "threshold": 0},
            ],
            "gutter": 5,
            "cacheWarningSkips": ["Default"],
        }
    }
    r = client.put("/gwc/rest/layers/topp:states.json", content=json.dumps(body))
    assert r.status_code == 200, r.text
    got = client.get("/gwc/rest/layers/topp:states.json").json()["GeoServerLayer"]
    assert got["enabled"] is False and got["inMemoryCached"] is False
    assert got["metaWidthHeight"] == [2, 3] and got["expireClients"] == 120
    assert got["gridSubsets"] == [
        {"gridSetName": "EPSG:4326", "zoomStart": 1, "zoomStop": 6,
         "extent": {"coords": [-130.0, 20.0, -60.0, 50.0]}}
    ]  # fmt: skip
    assert got["cacheWarningSkips"] == ["Default"]
    xml = client.get("/gwc/rest/layers/topp:states.xml").text
    assert "<regexParameterFilter>" in xml and "<integerParameterFilter>" in xml
    assert "<stringParameterFilter>" in xml and "<inMemoryCached>false</inMemoryCached>" in xml


def test_a_zero_metatile_is_kept_and_seeds_tile_by_tile(client, emu):
    """GeoServer keeps ``0,0`` (scripts send it); seeding then works one tile at a time."""
    layer = client.get("/gwc/rest/layers/topp:states.json").json()["GeoServerLayer"]
    layer["metaWidthHeight"] = [0, 0]
    body = json.dumps({"GeoServerLayer": layer})
    assert client.put("/gwc/rest/layers/topp:states.json", content=body).status_code == 200
    got = client.get("/gwc/rest/layers/topp:states.json").json()["GeoServerLayer"]
    assert got["metaWidthHeight"] == [0, 0]
    seed = {"seedRequest": {"name": "topp:states", "gridSetId": "EPSG:4326", "zoomStart": 0,
            "zoomStop": 2, "format": "image/png", "type": "seed", "threadCount": 1}}  # fmt: skip
    assert client.post("/gwc/rest/seed/topp:states.json", json=seed).status_code == 200
    [[done, total, remaining, _id, status]] = client.get("/gwc/rest/seed/topp:states.json").json()[
        "long-array-array"
    ]
    assert total > 0 and status in (0, 1)
    client.post("/__emulator/scheduler/drain")
    assert emu.scheduler.cached_tiles("topp:states", "EPSG:4326", "image/png") == total


def test_malformed_json_is_400(client):
    r = client.put("/gwc/rest/layers/topp:states.json", content=b"{nope")
    assert r.status_code == 400 and r.text.startswith("Malformed")


def test_a_bad_regex_is_refused(client):
    body = layer_xml(
        "topp:states",
        extra="<parameterFilters><regexParameterFilter><key>X</key><defaultValue></defaultValue>"
        "<regex>(unclosed</regex></regexParameterFilter></parameterFilters>",
    )
    r = client.put("/gwc/rest/layers/topp:states.xml", content=body, headers=XML)
    assert r.status_code == 400 and "Invalid regexParameterFilter regex" in r.text


def test_wms_layer_crud(client):
    body = (
        "<wmsLayer><name>remote</name><enabled>true</enabled>"
        "<mimeFormats><string>image/png</string></mimeFormats>"
        "<gridSubsets><gridSubset><gridSetName>EPSG:4326</gridSetName></gridSubset></gridSubsets>"
        "<wmsUrl><string>http://example.com/wms</string></wmsUrl><wmsLayers>a,b</wmsLayers>"
        "<transparent>true</transparent></wmsLayer>"
    )
    r = client.put("/gwc/rest/layers/remote.xml", content=body, headers=XML)
    assert r.status_code == 200, r.text
    xml = client.get("/gwc/rest/layers/remote.xml").text
    assert xml.startswith(
        '<?xml version="1.0" encoding="UTF-8"?>\n<wmsLayer>\n  <name>remote</name>'
    )
    assert "<string>http://example.com/wms</string>" in xml and "<wmsLayers>a,b</wmsLayers>" in xml
    assert "<id>" not in xml
    assert "remote" in client.get("/gwc/rest/layers.json").json()
    # a wmsLayer cannot take a GeoServer layer's name
    r = client.put(
        "/gwc/rest/layers/topp:states.xml",
        content=body.replace("remote", "topp:states"),
        headers=XML,
    )
    assert r.status_code == 400
    assert client.delete("/gwc/rest/layers/remote").status_code == 200


def test_changing_a_layer_drops_the_cache_of_removed_gridsets_and_formats(client, emu):
    from geoserver_emulator.areas.seeding.request import SeedRequest

    for gridset in ("EPSG:4326", "EPSG:900913"):
        emu.scheduler.submit(
            "topp:states",
            SeedRequest(gridset_id=gridset, zoom_start=0, zoom_stop=3, thread_count=1,
                        format="image/png"),
        )  # fmt: skip
    emu.scheduler.drain()
    assert emu.scheduler.cached_tiles("topp:states", gridset="EPSG:900913") > 0
    before = emu.scheduler.cached_tiles("topp:states", gridset="EPSG:4326")
    body = layer_xml("topp:states").replace("EPSG:900913", "EPSG:4326").replace("jpeg", "png")
    assert (
        client.put("/gwc/rest/layers/topp:states.xml", content=body, headers=XML).status_code == 200
    )
    assert emu.scheduler.cached_tiles("topp:states", gridset="EPSG:900913") == 0
    assert emu.scheduler.cached_tiles("topp:states", gridset="EPSG:4326") == before > 0


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    formats=st.lists(st.sampled_from(["image/png", "image/jpeg", "image/png8", "image/gif"]),
                     min_size=1, max_size=3, unique=True),
    gridsets=st.lists(st.sampled_from(["EPSG:4326", "EPSG:900913", "GoogleCRS84Quad",
                                       "GlobalCRS84Scale", "WebMercatorQuad"]),
                      min_size=1, max_size=3, unique=True),
    meta=st.tuples(st.integers(0, 20), st.integers(0, 20)),  # 0 is kept, as GeoServer keeps it
    gutter=st.integers(0, 100),
    expire=st.integers(-2, 3600),
    enabled=st.booleans(),
    fmt=st.sampled_from(["xml", "json"]),
)  # fmt: skip
def test_round_trip(client, formats, gridsets, meta, gutter, expire, enabled, fmt):
    doc = {
        "name": "topp:states", "enabled": enabled, "mimeFormats": formats,
        "gridSubsets": [{"gridSetName": g} for g in gridsets], "metaWidthHeight": list(meta),
        "expireCache": expire, "expireClients": expire, "gutter": gutter,
    }  # fmt: skip
    r = client.put("/gwc/rest/layers/topp:states.json", content=json.dumps({"GeoServerLayer": doc}))
    assert r.status_code == 200, r.text
    first = client.get(f"/gwc/rest/layers/topp:states.{fmt}").content
    # what GET gives, PUT back, gives the same again
    again = client.put(
        f"/gwc/rest/layers/topp:states.{fmt}", content=first,
        headers={"content-type": f"application/{fmt}"},
    )  # fmt: skip
    assert again.status_code == 200, again.text
    assert client.get(f"/gwc/rest/layers/topp:states.{fmt}").content == first
    got = client.get("/gwc/rest/layers/topp:states.json").json()["GeoServerLayer"]
    assert sorted(got["mimeFormats"]) == sorted(formats)
    assert [s["gridSetName"] for s in got["gridSubsets"]] == gridsets
    assert got["metaWidthHeight"] == list(meta) and got["enabled"] is enabled


def test_renaming_a_workspace_keeps_the_tile_layers_ids(client):
    ident = catalog_id(client, "sf:roads")
    r = client.put("/rest/workspaces/sf", json={"workspace": {"name": "sf2"}})
    assert r.status_code == 200, r.text
    assert client.get("/gwc/rest/layers/sf:roads.xml").status_code == 404
    assert catalog_id(client, "sf2:roads") == ident
    client.delete("/gwc/rest/layers/sf2:roads")
    r = client.put(
        "/gwc/rest/layers/sf2:roads.xml", content=layer_xml("sf2:roads", ident), headers=XML
    )
    assert r.status_code == 200


def test_deleting_a_layer_group_drops_its_tile_layer(client):
    ident = catalog_id(client, "tasmania")
    assert client.delete("/rest/layergroups/tasmania").status_code == 200
    assert client.get("/gwc/rest/layers/tasmania.xml").status_code == 404
    r = client.put(
        "/gwc/rest/layers/tasmania.xml", content=layer_xml("tasmania", ident), headers=XML
    )
    assert r.status_code == 400 and f"exists with id '{ident}'" in r.text


def test_a_new_catalog_layer_gets_a_new_id(client):
    ids = {catalog_id(client, n) for n in client.get("/gwc/rest/layers.json").json()}
    body = {"featureType": {"name": "roads2", "nativeName": "roads"}}
    r = client.post("/rest/workspaces/sf/datastores/sf/featuretypes", json=body)
    assert r.status_code == 201, r.text
    assert catalog_id(client, "sf:roads2") not in ids


def test_an_unknown_gridset_is_kept_and_ignored_until_it_exists(client, emu):
    body = layer_xml("topp:states").replace("EPSG:900913", "Later")
    r = client.put("/gwc/rest/layers/topp:states.xml", content=body, headers=XML)
    assert r.status_code == 200
    assert "<gridSetName>Later</gridSetName>" in client.get("/gwc/rest/layers/topp:states.xml").text
    seed = (
        "<seedRequest><zoomStart>0</zoomStart><zoomStop>1</zoomStop><type>seed</type>"
        "<threadCount>1</threadCount><gridSetId>Later</gridSetId></seedRequest>"
    )
    r = client.post("/gwc/rest/seed/topp:states.xml", content=seed, headers=XML)
    assert r.status_code == 500 and "Unknown grid set Later" in r.text
    gridset = (
        "<gridSet><name>Later</name><srs><number>4326</number></srs><extent><coords>"
        "<double>-180</double><double>-90</double><double>180</double><double>90</double>"
        "</coords></extent><resolutions><double>1.0</double><double>0.5</double></resolutions>"
        "</gridSet>"
    )
    assert (
        client.put("/gwc/rest/gridsets/Later.xml", content=gridset, headers=XML).status_code == 201
    )
    assert (
        client.post("/gwc/rest/seed/topp:states.xml", content=seed, headers=XML).status_code == 200
    )
    emu.scheduler.drain()
    assert emu.scheduler.cached_tiles("topp:states", gridset="Later") > 0


def test_tile_layers_made_by_default_are_cached_in_memory(client):
    """TileLayerInfoUtil.create turns in-memory caching on for the tile layer GeoServer makes
    for every layer (the stock ones at first start-up, new ones when added); a tile layer PUT
    without the field leaves it unset (GeoServer reads that as true, and writes nothing)."""
    xml = client.get("/gwc/rest/layers/topp:states.xml").text
    assert "<enabled>true</enabled>\n  <inMemoryCached>true</inMemoryCached>" in xml
    ft = {"featureType": {"name": "fresh", "attributes": {"attribute": [
        {"name": "the_geom", "binding": "org.locationtech.jts.geom.Point"}]}}}  # fmt: skip
    assert client.post("/rest/workspaces/sf/datastores/sf/featuretypes", json=ft).status_code == 201
    assert client.get("/gwc/rest/layers/sf:fresh.json").json()["GeoServerLayer"]["inMemoryCached"]
    body = {"GeoServerLayer": {"name": "sf:fresh", "enabled": True}}
    assert client.put("/gwc/rest/layers/sf:fresh.json", json=body).status_code == 200
    assert (
        "inMemoryCached"
        not in client.get("/gwc/rest/layers/sf:fresh.json").json()["GeoServerLayer"]
    )
