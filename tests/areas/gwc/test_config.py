"""GWC's configuration REST: gridsets, blob stores, disk quota, global settings, reload,
bounds and the index page."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from geoserver_emulator.areas.seeding.request import SeedRequest

EXC = "org.geowebcache.rest.exception.RestException"
XML = {"content-type": "application/xml"}
GRIDSET = """<gridSet>
  <name>EPSG:2163</name>
  <srs><number>2163</number></srs>
  <extent><coords>
    <double>-2495667.977678598</double><double>-2223677.196231552</double>
    <double>3291070.6104286816</double><double>959189.3312465074</double>
  </coords></extent>
  <alignTopLeft>false</alignTopLeft>
  <scaleDenominators>
    <double>2.5E7</double><double>1000000.0</double><double>100000.0</double><double>25000.0</double>
  </scaleDenominators>
  <metersPerUnit>1.0</metersPerUnit>
  <pixelSize>2.8E-4</pixelSize>
  <scaleNames>
    <string>EPSG:2163:0</string><string>EPSG:2163:1</string><string>EPSG:2163:2</string>
    <string>EPSG:2163:3</string>
  </scaleNames>
  <tileHeight>200</tileHeight>
  <tileWidth>200</tileWidth>
  <yCoordinateFirst>false</yCoordinateFirst>
</gridSet>"""


# -- gridsets -----------------------------------------------------------------------------


def test_builtin_gridsets_are_listed(client):
    names = client.get("/gwc/rest/gridsets.json").json()
    for name in ("EPSG:4326", "EPSG:900913", "GlobalCRS84Pixel", "GlobalCRS84Scale",
                 "GoogleCRS84Quad", "EPSG:4326x2", "WebMercatorQuad"):  # fmt: skip
        assert name in names
    xml = client.get("/gwc/rest/gridsets").text
    assert xml.startswith("<gridSets>\n  <gridSet>\n    <name>")
    assert 'href="http://localhost:8080/geoserver/gwc/rest/gridsets/EPSG:4326.xml"' in xml


def test_builtin_gridset_representation(client):
    xml = client.get("/gwc/rest/gridsets/GlobalCRS84Scale.xml").text
    assert "<alignTopLeft>true</alignTopLeft>" in xml
    assert "<scaleDenominators>\n    <double>5.0E8</double>" in xml
    assert "<string>GlobalCRS84Scale:0</string>" in xml
    doc = client.get("/gwc/rest/gridsets/EPSG:900913.json").json()["gridSet"]
    assert doc["srs"] == {"number": 900913} and len(doc["resolutions"]) == 31
    assert list(doc) == sorted(doc)


def test_put_get_delete_a_gridset_and_seed_with_it(client, emu):
    r = client.put("/gwc/rest/gridsets/EPSG:2163.xml", content=GRIDSET, headers=XML)
    assert (r.status_code, r.text) == (201, "")
    xml = client.get("/gwc/rest/gridsets/EPSG:2163.xml").text
    assert "<double>2.5E7</double>" in xml and "<tileWidth>200</tileWidth>" in xml
    assert "EPSG:2163" in client.get("/gwc/rest/gridsets.json").json()
    # modify: 200
    r = client.put(
        "/gwc/rest/gridsets/EPSG:2163.xml",
        content=GRIDSET.replace("25000.0</double>", "25000.0</double><double>5E3</double>")
        .replace("2163:3</string>", "2163:3</string><string>4</string>"),
        headers=XML,
    )  # fmt: skip
    assert r.status_code == 200
    assert emu.state.seeding.gridset("EPSG:2163").levels == 5
    # a tile layer uses it, a seed request counts its tiles
    body = (
        "<GeoServerLayer><enabled>true</enabled><name>topp:states</name><mimeFormats>"
        "<string>image/png</string></mimeFormats><gridSubsets><gridSubset><gridSetName>"
        "EPSG:2163</gridSetName></gridSubset></gridSubsets></GeoServerLayer>"
    )
    assert (
        client.put("/gwc/rest/layers/topp:states.xml", content=body, headers=XML).status_code == 200
    )
    seed = (
        "<seedRequest><gridSetId>EPSG:2163</gridSetId><zoomStart>0</zoomStart>"
        "<zoomStop>2</zoomStop><type>seed</type><threadCount>1</threadCount></seedRequest>"
    )
    assert (
        client.post("/gwc/rest/seed/topp:states.xml", content=seed, headers=XML).status_code == 200
    )
    emu.scheduler.drain()
    assert emu.scheduler.cached_tiles("topp:states", gridset="EPSG:2163") > 0
    # delete: gone from the list, from the layer, from the cache
    r = client.delete("/gwc/rest/gridsets/EPSG:2163")
    assert r.status_code == 200
    assert client.get("/gwc/rest/gridsets/EPSG:2163.xml").status_code == 404
    assert emu.scheduler.cached_tiles("topp:states", gridset="EPSG:2163") == 0
    layer = client.get("/gwc/rest/layers/topp:states.json").json()["GeoServerLayer"]
    assert layer["gridSubsets"] == []


def test_gridset_json_round_trip(client):
    assert (
        client.put("/gwc/rest/gridsets/EPSG:2163.xml", content=GRIDSET, headers=XML).status_code
        == 201
    )
    doc = client.get("/gwc/rest/gridsets/EPSG:2163.json").content
    assert client.delete("/gwc/rest/gridsets/EPSG:2163.xml").status_code == 200
    r = client.put(
        "/gwc/rest/gridsets/EPSG:2163.json",
        content=doc,
        headers={"content-type": "application/json"},
    )
    assert r.status_code == 201, r.text
    assert client.get("/gwc/rest/gridsets/EPSG:2163.json").content == doc


@pytest.mark.parametrize(
    ("method", "path", "body", "status", "message"),
    [
        ("GET", "Nope.xml", None, 404,
         'Failed to get GridSet. A GridSet with name "Nope" does not exist.'),
        ("DELETE", "Nope", None, 404,
         'Failed to remove GridSet. A GridSet with name "Nope" does not exist.'),
        ("DELETE", "EPSG:4326", None, 400, "built-in gridset"),
        ("PUT", "EPSG:4326.xml", GRIDSET.replace("EPSG:2163</name>", "EPSG:4326</name>"), 400,
         "built-in gridset"),
        ("PUT", "Other.xml", GRIDSET, 400, "does not match the URL"),
        ("PUT", "EPSG:2163.xml", "<gridSet>", 400, "Malformed"),
        ("PUT", "EPSG:2163.xml", GRIDSET.replace(">100000.0<", ">9E9<"),
         400, "should be lower"),
        ("PUT", "EPSG:2163.xml", GRIDSET.replace("<alignTopLeft>false</alignTopLeft>",
         "<resolutions><double>1</double></resolutions>"), 400, "not both"),
        ("PUT", "EPSG:2163.xml", GRIDSET.replace("<double>-2495667.977678598</double>",
         "<double>4000000</double>"), 400, "Extent is invalid"),
    ],
)  # fmt: skip
def test_gridset_errors(client, method, path, body, status, message):
    r = client.request(method, f"/gwc/rest/gridsets/{path}", content=body, headers=XML)
    assert r.status_code == status, r.text
    assert message in r.text and not r.text.startswith(EXC)  # the message, not toString()
    assert "EPSG:2163" not in client.get("/gwc/rest/gridsets.json").json()


@settings(
    max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    levels=st.integers(1, 8),
    top=st.floats(1e3, 1e6),
    width=st.integers(64, 1024),
    top_left=st.booleans(),
)
def test_user_gridset_tile_arithmetic_matches_a_builtin_equivalent(
    client, emu, levels, top, width, top_left
):
    """A gridset PUT by resolutions gives the same levels as the factory builds."""
    from geoserver_emulator.areas.seeding.gridsets import create

    res = [top / (2**i) for i in range(levels)]
    body = {"gridSet": {
        "name": "G", "srs": {"number": 3857}, "extent": {"coords": [-2e7, -2e7, 2e7, 2e7]},
        "alignTopLeft": top_left, "resolutions": res, "metersPerUnit": 1.0,
        "pixelSize": 0.00028, "tileWidth": width, "tileHeight": width,
    }}  # fmt: skip
    r = client.put(
        "/gwc/rest/gridsets/G.json",
        content=json.dumps(body),
        headers={"content-type": "application/json"},
    )
    assert r.status_code in (200, 201), r.text
    got = emu.state.seeding.gridset("G")
    want = create(
        "G", 3857, (-2e7, -2e7, 2e7, 2e7), top_left, res, None, 1.0, 0.00028, width, width
    )
    assert (got.tiles_wide, got.tiles_high, got.resolutions) == (
        want.tiles_wide,
        want.tiles_high,
        want.resolutions,
    )


# -- blob stores --------------------------------------------------------------------------

FILE_STORE = """<FileBlobStore default="false">
  <id>blobStore1</id>
  <enabled>false</enabled>
  <baseDirectory>/tmp/blobStore1</baseDirectory>
  <fileSystemBlockSize>4096</fileSystemBlockSize>
</FileBlobStore>"""


def test_blob_store_crud(client):
    assert client.get("/gwc/rest/blobstores").text == "<blobStores/>"
    r = client.put("/gwc/rest/blobstores/blobStore1.xml", content=FILE_STORE, headers=XML)
    assert r.status_code == 201, r.text
    assert client.get("/gwc/rest/blobstores/blobStore1.xml").text == FILE_STORE
    assert client.get("/gwc/rest/blobstores.json").json() == ["blobStore1"]
    r = client.put(
        "/gwc/rest/blobstores/blobStore1.xml",
        content=FILE_STORE.replace("<enabled>false", "<enabled>true"), headers=XML,
    )  # fmt: skip
    assert r.status_code == 200
    doc = client.get("/gwc/rest/blobstores/blobStore1.json").json()["FileBlobStore"]
    assert doc["enabled"] is True and doc["baseDirectory"] == "/tmp/blobStore1"
    assert client.delete("/gwc/rest/blobstores/blobStore1").status_code == 200
    assert client.get("/gwc/rest/blobstores/blobStore1.xml").status_code == 404


def test_one_default_blob_store_and_layers_that_use_it(client):
    s3 = (
        '<S3BlobStore default="true"><id>s3</id><enabled>true</enabled><bucket>tiles</bucket>'
        "<prefix>gwc</prefix><awsAccessKey>k</awsAccessKey></S3BlobStore>"
    )
    azure = (
        '<AzureBlobStore default="true"><id>az</id><enabled>true</enabled>'
        "<container>tiles</container><accountName>a</accountName></AzureBlobStore>"
    )
    assert client.put("/gwc/rest/blobstores/s3.xml", content=s3, headers=XML).status_code == 201
    assert client.put("/gwc/rest/blobstores/az.xml", content=azure, headers=XML).status_code == 201
    assert 'default="false"' in client.get("/gwc/rest/blobstores/s3.xml").text
    assert 'default="true"' in client.get("/gwc/rest/blobstores/az.xml").text
    body = (
        "<GeoServerLayer><enabled>true</enabled><name>sf:roads</name><blobStoreId>s3"
        "</blobStoreId></GeoServerLayer>"
    )
    assert client.put("/gwc/rest/layers/sf:roads.xml", content=body, headers=XML).status_code == 200
    assert "<blobStoreId>s3</blobStoreId>" in client.get("/gwc/rest/layers/sf:roads.xml").text
    r = client.delete("/gwc/rest/blobstores/s3")
    assert r.status_code == 400 and "sf:roads" in r.text
    bad = body.replace(">s3<", ">nope<")
    r = client.put("/gwc/rest/layers/sf:roads.xml", content=bad, headers=XML)
    assert r.status_code == 400 and "No BlobStore with id 'nope' found" in r.text


@pytest.mark.parametrize(
    ("path", "body", "status", "message"),
    [
        ("x.xml", FILE_STORE, 400, "does not match the URL"),
        ("blobStore1.xml", "<FileBlobStore>", 400, "Malformed"),
        ("blobStore1.xml", "<FloppyBlobStore><id>blobStore1</id></FloppyBlobStore>", 400,
         "Unknown blob store type: FloppyBlobStore"),
        ("blobStore1.xml", FILE_STORE.replace("<baseDirectory>/tmp/blobStore1</baseDirectory>", ""),
         400, "baseDirectory is required"),
        ("blobStore1.xml", FILE_STORE.replace('default="false"', 'default="true"'), 400,
         "default blob store can't be disabled"),
    ],
)  # fmt: skip
def test_blob_store_refusals(client, path, body, status, message):
    r = client.put(f"/gwc/rest/blobstores/{path}", content=body, headers=XML)
    assert r.status_code == status and message in r.text, r.text
    assert client.get("/gwc/rest/blobstores.json").json() == []


def test_unknown_blob_store(client):
    for method in ("GET", "DELETE"):
        r = client.request(method, "/gwc/rest/blobstores/nope.xml")
        assert r.status_code == 404 and 'A BlobStoreInfo with name "nope" does not exist.' in r.text


# -- disk quota, global -------------------------------------------------------------------


def test_disk_quota_get_put(client):
    xml = client.get("/gwc/rest/diskquota.xml").text
    assert xml.startswith(
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        "<org.geowebcache.diskquota.DiskQuotaConfig>\n  <enabled>false</enabled>"
    )
    # the quota as the controller's XStream writes a Quota bean (GWC's RestIntegrationTest)
    assert "<globalQuota>\n    <id>0</id>\n    <bytes>524288000</bytes>\n  </globalQuota>" in xml
    assert client.get("/gwc/rest/diskquota", headers={"accept": "application/json"}).text == xml
    body = (
        "<gwcQuotaConfiguration><enabled>true</enabled><maxConcurrentCleanUps>5"
        "</maxConcurrentCleanUps><globalQuota><value>100</value><units>GiB</units>"
        "</globalQuota></gwcQuotaConfiguration>"
    )
    r = client.put("/gwc/rest/diskquota.xml", content=body, headers=XML)
    assert r.status_code == 200
    doc = client.get("/gwc/rest/diskquota.json").json()["org.geowebcache.diskquota.DiskQuotaConfig"]
    assert doc["enabled"] is True and doc["maxConcurrentCleanUps"] == 5
    assert doc["globalQuota"] == {"id": 0, "bytes": 100 * 2**30}
    assert doc["cacheCleanUpUnits"] == "SECONDS"  # kept


@pytest.mark.parametrize(
    "body",
    [
        "<gwcQuotaConfiguration><maxConcurrentCleanUps>0</maxConcurrentCleanUps></gwcQuotaConfiguration>",
        "<gwcQuotaConfiguration><cacheCleanUpUnits>WEEKS</cacheCleanUpUnits></gwcQuotaConfiguration>",
        "<gwcQuotaConfiguration><globalQuota><units>PB</units></globalQuota></gwcQuotaConfiguration>",
        "<gwcQuotaConfiguration><enabled>maybe</enabled></gwcQuotaConfiguration>",
        "<gwcQuotaConfiguration>",
        "<other/>",
    ],
)
def test_disk_quota_refusals(client, body):
    before = client.get("/gwc/rest/diskquota.xml").content
    r = client.put("/gwc/rest/diskquota.xml", content=body, headers=XML)
    assert r.status_code == 400 and r.text and not r.text.startswith(EXC)
    assert client.get("/gwc/rest/diskquota.xml").content == before


def test_global_get_put(client):
    assert client.get("/gwc/rest/global.xml").text.startswith("<global>\n  <serviceInformation>")
    r = client.put(
        "/gwc/rest/global.json",
        content=b'{"global": {"backendTimeout": 60, "runtimeStatsEnabled": false}}',
        headers={"content-type": "application/json"},
    )
    assert r.status_code == 200, r.text
    doc = client.get("/gwc/rest/global.json").json()["global"]
    assert doc["backendTimeout"] == 60 and doc["runtimeStatsEnabled"] is False
    # GET's document PUT back is accepted (read-only fields unchanged)
    same = client.get("/gwc/rest/global.xml").content
    assert client.put("/gwc/rest/global.xml", content=same, headers=XML).status_code == 200
    assert client.get("/gwc/rest/global.xml").content == same
    r = client.put("/gwc/rest/global.json", content=b'{"global": {"version": "9"}}',
                   headers={"content-type": "application/json"})  # fmt: skip
    assert r.status_code == 400 and r.text.endswith('Cannot modify read-only property "version"')
    for bad in (b'{"global": {"version": "9"}}', b'{"global": {"nope": 1}}', b"{"):
        before = client.get("/gwc/rest/global.xml").content
        r = client.put(
            "/gwc/rest/global.json", content=bad, headers={"content-type": "application/json"}
        )
        assert r.status_code == 400 and client.get("/gwc/rest/global.xml").content == before


# -- reload, bounds, index ----------------------------------------------------------------


def test_reload(client):
    r = client.post(
        "/gwc/rest/reload", content=b"reload_configuration=1",
        headers={"content-type": "application/x-www-form-urlencoded"},
    )  # fmt: skip
    assert r.status_code == 200
    count = len(client.get("/gwc/rest/layers.json").json())
    assert f"TileLayerConfiguration reloaded. Read {count} layers" in r.text
    r = client.post("/gwc/rest/reload")
    assert r.status_code == 400 and "Unknown or malformed request." in r.text
    assert r.text.endswith("The POST was to /geoserver/gwc/rest/reload")
    r = client.post("/gwc/rest/reload", content=b"a&b")
    assert r.status_code == 400
    assert client.get("/gwc/rest/reload").status_code == 405


def test_bounds(client, emu):
    r = client.get("/gwc/rest/bounds/topp:states/EPSG:4326/java")
    assert r.status_code == 200 and r.text.startswith(
        "{{0, 0, 0, 0, 0}, {0, 1, 1, 1, 1}, {1, 2, 2, 3, 2}, "
    )
    assert r.text.count("{") == 23  # 22 levels
    assert client.get("/gwc/rest/bounds/topp:states/EPSG:4326/js").status_code == 400
    r = client.get("/gwc/rest/bounds/topp:states/GoogleCRS84Quad/java")
    assert r.status_code == 404 and r.text.endswith("topp:states does not support GoogleCRS84Quad")
    r = client.get("/gwc/rest/bounds/nope/EPSG:4326/java")
    assert r.status_code == 404 and r.text.endswith("Unknown layer: nope")


def test_statistics(client):
    xml = client.get("/gwc/rest/statistics.xml").text
    assert xml.startswith('<?xml version="1.0" encoding="UTF-8"?>\n<gwcInMemoryCacheStatistics>')
    assert "<hitRate>100.0</hitRate>" in xml
    doc = client.get("/gwc/rest/statistics.json").json()["gwcInMemoryCacheStatistics"]
    assert doc["hitCount"] == 0 and doc["missRate"] == 0.0
    assert client.post("/gwc/rest/statistics").status_code == 405


def test_index(client):
    for path in ("/gwc/rest", "/gwc/rest/index"):
        r = client.get(path)
        assert r.status_code == 200 and r.headers["content-type"].startswith("text/html")
        # as GWCIndexController writes it: links from the request's own path
        assert r.text.startswith(f'<html><body>\n<a id="logo" href="/geoserver{path}">')
        assert f'<a href="/geoserver{path}/layers/">layers</a>' in r.text
        assert "<h3>Resources available from here:</h3>" in r.text


def test_needs_an_administrator(anon):
    for path in ("/gwc/rest/gridsets", "/gwc/rest/blobstores", "/gwc/rest/diskquota",
                 "/gwc/rest/masstruncate", "/gwc/rest/global"):  # fmt: skip
        assert anon.get(path).status_code == 401


def test_scenario_round_trip_keeps_everything(client, emu):
    from geoserver_emulator import Emulator

    assert (
        client.put("/gwc/rest/gridsets/EPSG:2163.xml", content=GRIDSET, headers=XML).status_code
        == 201
    )
    assert (
        client.put(
            "/gwc/rest/blobstores/blobStore1.xml", content=FILE_STORE, headers=XML
        ).status_code
        == 201
    )
    client.put(
        "/gwc/rest/diskquota.xml",
        content=b"<gwcQuotaConfiguration><enabled>true</enabled></gwcQuotaConfiguration>",
        headers=XML,
    )
    client.delete("/gwc/rest/layers/sf:roads")
    emu.scheduler.submit(
        "topp:states",
        SeedRequest(gridset_id="EPSG:4326", zoom_start=0, zoom_stop=1, thread_count=1),
    )
    doc = emu.dump_scenario()
    again = Emulator(doc)
    assert again.dump_scenario() == doc
    c2 = client.__class__(
        transport=client._transport, base_url=str(client.base_url), auth=client.auth
    )
    del c2
    assert "sf:roads" not in again.state.seeding.tile_layers
    assert again.state.seeding.published == emu.state.seeding.published
    assert again.state.seeding.gridset("EPSG:2163") is not None
    assert (
        again.state.seeding.blob_stores["blobStore1"] == emu.state.seeding.blob_stores["blobStore1"]
    )


# -- request filter updates and web resources (FilterUpdateController, ByteStreamController) --

FILTERED = """<wmsLayer><name>img</name><mimeFormats><string>image/png</string></mimeFormats>
<gridSubsets><gridSubset><gridSetName>EPSG:4326</gridSetName></gridSubset></gridSubsets>
<wmsUrl><string>http://example.com/wms</string></wmsUrl>
<requestFilters><circularExtentFilter><name>circ</name></circularExtentFilter></requestFilters>
</wmsLayer>"""


def test_filter_update_of_an_unknown_filter_is_400_text(client):
    r = client.post("/gwc/rest/filter/xxxp4z85/update/noidea",
                    headers={"Accept": "application/json"})  # fmt: skip
    assert r.status_code == 400 and r.headers["content-type"].startswith("text/plain")
    assert r.text == "No filter by the name xxxp4z85 was found."


def test_filter_update_of_a_layers_request_filter(client):
    assert client.put("/gwc/rest/layers/img.xml", content=FILTERED, headers=XML).status_code == 200
    r = client.post("/gwc/rest/filter/circ/update/xml", content=b"<x/>", headers=XML)
    assert r.status_code == 200
    assert r.text == "Filter update completed, no problems encountered.\n"
    r = client.post("/gwc/rest/filter/circ/update/tar", content=b"x", headers=XML)
    assert r.status_code == 400 and r.text == "Unknow update type tar\n"
    assert client.get("/gwc/rest/filter/circ/update/xml").status_code == 405


def test_web_resources(client):
    r = client.get("/gwc/rest/web/seed.js")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/javascript")
    r = client.get("/gwc/rest/web/gwc.css")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/css")
    r = client.get("/gwc/rest/web/geowebcache_logo.png")
    assert r.status_code == 200 and r.headers["content-type"] == "image/png"
    assert r.content.startswith(b"\x89PNG\r\n\x1a\n")
    assert client.get("/gwc/rest/web/thisDoesNotExist").status_code == 404
    assert client.get("/gwc/rest/web/doesnt%20exist").status_code == 404
    assert client.get("/gwc/rest/web/ByteStreamerRestlet.class").status_code == 403
    assert client.get("/gwc/rest/web/foo/%2E%2E/%2E%2E/x.png").status_code == 403
    assert client.post("/gwc/rest/web/seed.js").status_code == 405
