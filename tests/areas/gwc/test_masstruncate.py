"""``/gwc/rest/masstruncate``: the request types, and each kind's effect on the tile cache."""

from __future__ import annotations

import pytest

from geoserver_emulator.areas.seeding.request import SeedRequest

EXC = "org.geowebcache.rest.exception.RestException"
XML = {"content-type": "text/xml"}
TYPES = ["truncateLayer", "truncateParameters", "truncateOrphans", "truncateExtent", "truncateAll"]


def seed(emu, layer="topp:states", gridset="EPSG:4326", stop=3, fmt="image/png", params=None):
    emu.scheduler.submit(
        layer,
        SeedRequest(gridset_id=gridset, zoom_start=0, zoom_stop=stop, thread_count=2,
                    format=fmt, parameters=list((params or {}).items()) or None),
    )  # fmt: skip
    emu.scheduler.drain()


def test_get_lists_the_request_types(client):
    r = client.get("/gwc/rest/masstruncate")
    assert r.status_code == 200 and r.headers["content-type"].startswith("application/xml")
    assert r.text == (
        '<massTruncateRequests href="http://localhost:8080/geoserver/gwc/rest/masstruncate">'
        + "".join(f" <requestType>{t}</requestType>" for t in TYPES)
        + "</massTruncateRequests>"
    )


@pytest.mark.parametrize("method", ["PUT", "DELETE"])
def test_other_methods_are_405(client, method):
    r = client.request(method, "/gwc/rest/masstruncate")
    assert r.status_code == 405 and r.headers["allow"] == "GET, POST"


def test_truncate_layer_empties_every_gridset_format_and_parameter_set(client, emu):
    seed(emu)
    seed(emu, gridset="EPSG:900913")
    seed(emu, fmt="image/jpeg", params={"STYLES": "population"})
    seed(emu, layer="sf:roads")
    assert emu.scheduler.cached_tiles("topp:states") > 0
    roads = emu.scheduler.cached_tiles("sf:roads")
    body = "<truncateLayer><layerName>topp:states</layerName></truncateLayer>"
    r = client.post("/gwc/rest/masstruncate", content=body, headers=XML)
    assert (r.status_code, r.text) == (200, "")
    assert emu.scheduler.cached_tiles("topp:states") == 0
    assert emu.scheduler.cached_tiles("sf:roads") == roads > 0


def test_truncate_layer_as_json(client, emu):
    seed(emu)
    r = client.post(
        "/gwc/rest/masstruncate",
        content=b'{"truncateLayer": {"layerName": "topp:states"}}',
        headers={"content-type": "json"},  # MassTruncateController reads JSON only so labelled
    )
    assert r.status_code == 200 and emu.scheduler.cached_tiles("topp:states") == 0


@pytest.mark.parametrize(
    "content_type", ["application/json", "application/xml", "text/xml; charset=UTF-8", "text/plain"]
)
def test_content_types_it_does_not_read_are_refused(client, emu, content_type):
    """The controller compares the whole Content-Type with ``text/xml``, ``json`` and the
    form type: anything else is 400 (its own handler: ``toString()``); nothing truncated."""
    seed(emu)
    before = emu.scheduler.cached_tiles("topp:states")
    r = client.post(
        "/gwc/rest/masstruncate",
        content=b"<truncateLayer><layerName>topp:states</layerName></truncateLayer>",
        headers={"content-type": content_type},
    )
    assert r.status_code == 400
    assert r.text == (
        f"{EXC} 400 BAD_REQUEST: Format extension unknown or not specified: {content_type}"
    )
    assert emu.scheduler.cached_tiles("topp:states") == before


def test_extent_truncation_of_an_unknown_layer_is_geoservers_500(client, emu):
    body = (
        "<truncateExtent><layerName>nope</layerName><gridSetId>EPSG:4326</gridSetId>"
        "<bounds><coords><double>0</double><double>0</double><double>1</double>"
        "<double>1</double></coords></bounds></truncateExtent>"
    )
    r = client.post("/gwc/rest/masstruncate", content=body, headers={"content-type": "text/xml"})
    assert r.status_code == 500
    assert r.text == (
        f"{EXC} 500 INTERNAL_SERVER_ERROR: Thread http-nio-8080-exec-1 Unknown layer nope."
        " Check the logfiles, it may not have loaded properly."
    )


def test_the_form_truncate_all_answers_gwcs_page(client, emu):
    seed(emu)
    r = client.post(
        "/gwc/rest/masstruncate",
        content=b"<truncateAll></truncateAll>",
        headers={"content-type": "application/x-www-form-urlencoded"},
    )
    assert r.status_code == 200
    assert r.text.startswith("<html>\n<head>\n<title>GWC Seed Form</title>")
    assert "<p>Truncated All Layers</p>\n<p>Truncated Layers:" in r.text
    assert "topp:states" in r.text and r.text.endswith('<p><a href="../demo">Go back</a></p>')


def test_truncate_parameters_only_that_set(client, emu):
    seed(emu)
    seed(emu, params={"STYLES": "population"})
    plain = emu.scheduler.cached_tiles("topp:states", parameters={})
    body = (
        "<truncateParameters><layerName>topp:states</layerName><parameters><entry>"
        "<string>STYLES</string><string>population</string></entry></parameters>"
        "</truncateParameters>"
    )
    assert client.post("/gwc/rest/masstruncate", content=body, headers=XML).status_code == 200
    assert emu.scheduler.cached_tiles("topp:states", parameters={"STYLES": "population"}) == 0
    assert emu.scheduler.cached_tiles("topp:states", parameters={}) == plain > 0


def test_truncate_orphans_keeps_what_the_filters_reach(client, emu):
    layer = emu.state.seeding.tile_layers["topp:states"]
    layer.parameter_filters = [
        {"type": "styleParameterFilter", "key": "STYLES", "defaultValue": "",
         "allowedStyles": ["population"]},
    ]  # fmt: skip
    seed(emu, params={"STYLES": "population"})
    seed(emu, params={"STYLES": "gone"})
    seed(emu, params={"ELEVATION": "3"})
    body = "<truncateOrphans><layerName>topp:states</layerName></truncateOrphans>"
    assert client.post("/gwc/rest/masstruncate", content=body, headers=XML).status_code == 200
    cached = emu.scheduler.cached_tiles
    assert cached("topp:states", parameters={"STYLES": "population"}) > 0
    assert cached("topp:states", parameters={"STYLES": "gone"}) == 0
    assert cached("topp:states", parameters={"ELEVATION": "3"}) == 0


def test_truncate_extent_runs_truncate_tasks(client, emu):
    seed(emu, stop=5)
    total = emu.scheduler.cached_tiles("topp:states", gridset="EPSG:4326")
    body = (
        "<truncateExtent><layerName>topp:states</layerName><gridSetId>EPSG:4326</gridSetId>"
        "<bounds><coords><double>-100</double><double>40</double><double>-99</double>"
        "<double>41</double></coords></bounds></truncateExtent>"
    )
    assert client.post("/gwc/rest/masstruncate", content=body, headers=XML).status_code == 200
    listed = client.get("/gwc/rest/seed/topp:states.json").json()["long-array-array"]
    truncating = [row for row in listed if row[:3] == [-1, -1, -2] and row[4] == 1]
    assert len(truncating) == 2  # one per format of the layer (png, jpeg), no parameters
    emu.scheduler.drain()
    after = emu.scheduler.cached_tiles("topp:states", gridset="EPSG:4326")
    assert 0 < after < total


def test_truncate_all(client, emu):
    seed(emu)
    seed(emu, layer="sf:roads")
    r = client.post("/gwc/rest/masstruncate", content=b"<truncateAll></truncateAll>", headers=XML)
    assert r.status_code == 200
    assert emu.scheduler.cached_tiles("topp:states") == emu.scheduler.cached_tiles("sf:roads") == 0


def test_truncate_all_from_the_html_form(client, emu):
    seed(emu)
    r = client.post(
        "/gwc/rest/masstruncate",
        content=b"<truncateAll>=</truncateAll>",
        headers={"content-type": "application/x-www-form-urlencoded"},
    )
    assert r.status_code == 200 and "Truncated Layers:" in r.text and "topp:states" in r.text


@pytest.mark.parametrize(
    ("body", "ctype", "message"),
    [
        ("<truncateLayer><layerName>test</layerName></truncateLayer>", "text/xml",
         "Could not find layer test"),
        ("<truncateLayer>", "text/xml", "Malformed"),
        ("<truncateOrphans/>", "text/xml", "Could not find layer null"),
        ("<truncateEverything/>", "text/xml", "Unknown mass truncate request: truncateEverything"),
        ("<truncateLayer><layerName>topp:states</layerName></truncateLayer>", "text/plain",
         "Format extension unknown or not specified: text/plain"),
        ("<truncateExtent><layerName>topp:states</layerName><gridSetId>Nope</gridSetId><bounds>"
         "<coords><double>0</double><double>0</double><double>1</double><double>1</double>"
         "</coords></bounds></truncateExtent>", "text/xml", "Unknown grid set Nope"),
        ("<truncateExtent><layerName>topp:states</layerName><bounds><coords><double>5</double>"
         "<double>0</double><double>1</double><double>1</double></coords></bounds>"
         "</truncateExtent>", "text/xml", "Invalid bounds"),
    ],
)  # fmt: skip
def test_bad_requests_delete_nothing(client, emu, body, ctype, message):
    seed(emu)
    before = emu.scheduler.cached_tiles("topp:states")
    r = client.post("/gwc/rest/masstruncate", content=body, headers={"content-type": ctype})
    assert r.status_code == 400, r.text
    assert r.text.startswith(f"{EXC} 400 BAD_REQUEST: ") and message in r.text
    emu.scheduler.drain()
    assert emu.scheduler.cached_tiles("topp:states") == before > 0


def test_seed_truncate_and_counts_agree_with_the_arithmetic(emu):
    """Seeding fills the cache with the stored tiles of the metatiles; a truncate of the
    same range empties it."""
    seed(emu, layer="sf:roads", stop=4)
    stored = emu.scheduler.cached_tiles("sf:roads")
    assert stored > 0
    emu.scheduler.submit(
        "sf:roads",
        SeedRequest(gridset_id="EPSG:4326", zoom_start=0, zoom_stop=4, thread_count=1,
                    format="image/png", type="truncate"),
    )  # fmt: skip
    emu.scheduler.drain()
    assert emu.scheduler.cached_tiles("sf:roads") == 0
