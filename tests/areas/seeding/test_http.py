"""Black-box HTTP: every row of the spec's seeding table, its errors, in XML and JSON."""

from __future__ import annotations

import pytest

from geoserver_emulator import Emulator

SEED_XML = """<seedRequest>
  <name>topp:states</name>
  <srs><number>4326</number></srs>
  <zoomStart>0</zoomStart><zoomStop>3</zoomStop>
  <format>image/png</format><type>seed</type><threadCount>2</threadCount>
</seedRequest>"""

SEED_JSON = {
    "seedRequest": {
        "name": "topp:states",
        "bounds": {"coords": {"double": ["-124.0", "22.0", "66.0", "72.0"]}},
        "srs": {"number": 4326},
        "zoomStart": 1,
        "zoomStop": 12,
        "format": "image/png",
        "type": "seed",
        "threadCount": 4,
    }
}


def xml_body(**fields):
    inner = "".join(f"<{k}>{v}</{k}>" for k, v in fields.items())
    return f"<seedRequest>{inner}</seedRequest>"


def post_xml(client, layer, body, ext=".xml", ctype="text/xml"):
    return client.post(
        f"/gwc/rest/seed/{layer}{ext}", content=body, headers={"Content-Type": ctype}
    )


def tasks(emu):
    return emu.scheduler.tasks


# -- submitting ----------------------------------------------------------------------------


def test_seed_xml(client, emu):
    r = post_xml(client, "topp:states", SEED_XML)
    assert r.status_code == 200 and r.content == b""
    assert r.headers["content-type"].startswith("text/plain")
    assert [(t.id, t.type, t.gridset, t.format) for t in tasks(emu)] == [
        (1, "SEED", "EPSG:4326", "image/png"),
        (2, "SEED", "EPSG:4326", "image/png"),
    ]
    r = client.get("/gwc/rest/seed/topp:states.json")
    # topp:states z0-3, 4x4: 6 + 12 + 16 + 32 tiles in the expanded rectangles
    assert r.json() == {"long-array-array": [[-1, 66, -1, 1, 1], [-1, 66, -1, 2, 1]]}


def test_seed_json(client, emu):
    r = client.post("/gwc/rest/seed/topp:states.json", json=SEED_JSON)
    assert r.status_code == 200 and r.content == b""
    assert len(tasks(emu)) == 4
    emu.clock.advance(1)
    body = client.get("/gwc/rest/seed.json").json()
    assert [row[3] for row in body["long-array-array"]] == [1, 2, 3, 4]
    assert all(row[0] == 9 * 16 and row[4] == 1 for row in body["long-array-array"])


@pytest.mark.parametrize("ctype", ["application/xml", "text/xml"])
def test_seed_without_extension_by_content_type(client, emu, ctype):
    r = post_xml(client, "topp:states", SEED_XML, ext="", ctype=ctype)
    assert r.status_code == 200 and len(tasks(emu)) == 2
    r = client.post("/gwc/rest/seed/topp:states", json=SEED_JSON)
    assert r.status_code == 200 and len(tasks(emu)) == 6


def test_layer_name_comes_from_the_url(client, emu):
    post_xml(client, "test:world", SEED_XML)
    assert {t.layer for t in tasks(emu)} == {"test:world"}


@pytest.mark.parametrize(
    ("srs", "gridset"),
    [("4326", "EPSG:4326"), ("900913", "EPSG:900913"), ("3857", "EPSG:900913"),
     ("102100", "EPSG:900913"), ("102113", "EPSG:900913"), ("2154", "EPSG:4326")],
)  # fmt: skip
def test_gridset_from_srs(client, emu, srs, gridset):
    body = xml_body(zoomStart=0, zoomStop=1, threadCount=1).replace(
        "<zoomStart>", f"<srs><number>{srs}</number></srs><zoomStart>"
    )
    assert post_xml(client, "test:world", body).status_code == 200
    assert tasks(emu)[0].gridset == gridset


def test_gridset_id_wins_and_default_is_the_first(client, emu):
    post_xml(
        client,
        "test:world",
        xml_body(gridSetId="EPSG:900913", zoomStart=0, zoomStop=1, threadCount=1),
    )
    post_xml(client, "test:world", xml_body(zoomStart=0, zoomStop=1, threadCount=1))
    assert [t.gridset for t in tasks(emu)] == ["EPSG:900913", "EPSG:4326"]


def test_ambiguous_srs_is_400(tmp_path, client_for):
    doc = """{"extends": "stock", "seeding": {
      "gridsets": [{"name": "WebMercatorQuad", "srs": 3857, "alignTopLeft": true,
                    "extent": [-20037508.3427892, -20037508.3427892,
                               20037508.3427892, 20037508.3427892],
                    "levels": 20}],
      "tileLayers": [{"name": "m:layer", "gridsets": ["EPSG:900913", "WebMercatorQuad"]}]}}"""
    (tmp_path / "s.json").write_text(doc)
    emu = Emulator(tmp_path / "s.json")
    client = client_for(emulator=emu)
    body = "<seedRequest><srs><number>3857</number></srs><zoomStart>0</zoomStart>"
    body += "<zoomStop>2</zoomStop><threadCount>1</threadCount></seedRequest>"
    r = post_xml(client, "m:layer", body)
    assert r.status_code == 400
    assert r.text == (
        "More than one GridSubet matches the requested SRS EPSG:3857. gridSetId must be specified"
    )
    ok = body.replace("<srs><number>3857</number></srs>", "<gridSetId>WebMercatorQuad</gridSetId>")
    assert post_xml(client, "m:layer", ok).status_code == 200
    # 4x4 metatiles capped at W (not W-1): 2x2 + 3x3 + 4x4
    assert emu.scheduler.tasks[0].row[1] == 4 + 9 + 16


def test_unknown_gridset_is_500(client, emu):
    r = post_xml(
        client, "test:world", xml_body(gridSetId="nope", zoomStart=0, zoomStop=1, threadCount=1)
    )
    assert r.status_code == 500 and r.text == "Unknown grid set nope" and tasks(emu) == []


@pytest.mark.parametrize(
    ("given", "kind"),
    [(None, "SEED"), ("TRUNCATE", "TRUNCATE"), ("ReSeed", "RESEED"), ("foo", "SEED")],
)
def test_type(client, emu, given, kind):
    fields = {"zoomStart": 0, "zoomStop": 1, "threadCount": 1}
    if given:
        fields["type"] = given
    post_xml(client, "test:world", xml_body(**fields))
    assert tasks(emu)[0].type == kind


def test_format_default_threads_and_parameters(client, emu):
    body = xml_body(zoomStart=0, zoomStop=1, threadCount=0).replace(
        "</seedRequest>",
        "<parameters><entry><string>STYLES</string><string>pophatch</string></entry>"
        "<entry><string>CQL_FILTER</string><string>PERSONS &gt; 10</string></entry>"
        "</parameters></seedRequest>",
    )
    post_xml(client, "topp:states", body)
    (task,) = tasks(emu)
    assert task.format == "image/png"
    assert task.parameters == {"STYLES": "pophatch", "CQL_FILTER": "PERSONS > 10"}


def test_json_parameters_and_single_entry(client, emu):
    doc = {"seedRequest": {"zoomStart": 0, "zoomStop": 1, "threadCount": 1,
                           "parameters": {"entry": {"string": ["STYLES", "x"]}}}}  # fmt: skip
    assert client.post("/gwc/rest/seed/test:world.json", json=doc).status_code == 200
    assert tasks(emu)[0].parameters == {"STYLES": "x"}


def test_bounds_are_minx_miny_maxx_maxy(client, emu):
    # one tile of EPSG:4326 level 1 (90 degrees), 1x1 metatiling via a scenario layer
    emu.state.seeding.tile_layers["test:world"].metatiling = (1, 1)
    body = xml_body(gridSetId="EPSG:4326", zoomStart=1, zoomStop=1, threadCount=1).replace(
        "<zoomStart>",
        "<bounds><coords><double>1</double><double>1</double><double>89</double>"
        "<double>89</double></coords></bounds><zoomStart>",
    )
    post_xml(client, "test:world", body)
    assert tasks(emu)[0].row[1] == 1


def test_truncate_makes_one_task_in_the_spec_profile(client, emu):
    post_xml(
        client, "test:world", xml_body(zoomStart=0, zoomStop=1, threadCount=3, type="truncate")
    )
    assert [t.id for t in tasks(emu)] == [1]


def test_truncate_makes_n_tasks_in_the_geoserver_profile(seeding_scenario, client_for):
    emu = Emulator(seeding_scenario, profile="geoserver")
    client = client_for(emulator=emu)
    post_xml(
        client, "test:world", xml_body(zoomStart=0, zoomStop=1, threadCount=3, type="truncate")
    )
    assert [t.id for t in emu.scheduler.tasks] == [1, 2, 3]


def test_unknown_layer_on_post_is_500(client, emu):
    r = post_xml(client, "topp:nope", SEED_XML)
    assert r.status_code == 500
    assert r.text == (
        "Thread http-nio-8080-exec-1 Unknown layer topp:nope."
        " Check the logfiles, it may not have loaded properly."
    )
    assert r.headers["content-type"].startswith("text/plain") and tasks(emu) == []


@pytest.mark.parametrize("ext", [".json", ".xml"])
def test_unknown_layer_on_list_is_400(client, ext):
    r = client.get(f"/gwc/rest/seed/topp:nope{ext}")
    assert r.status_code == 400 and "Unknown layer topp:nope" in r.text


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ("<seedRequest><zoomStart>0", "Malformed seed request"),
        ("", "Empty seed request body"),
        ("<other/>", "Expected a seedRequest document"),
        (xml_body(zoomStop=1, threadCount=1), "no zoomStart"),
        (xml_body(zoomStart=0, threadCount=1), "no zoomStop"),
        (xml_body(zoomStart=0, zoomStop=1), "no threadCount"),
        (xml_body(zoomStart="x", zoomStop=1, threadCount=1), "not an integer"),
        (xml_body(zoomStart=0, zoomStop=1, threadCount=1, colour="red"), "Unknown field colour"),
        (
            xml_body(zoomStart=0, zoomStop=1, threadCount=1, enumType="SOMETIMES"),
            "Invalid value for enumType",
        ),
        (
            "<seedRequest><bounds><coords><double>1</double></coords></bounds></seedRequest>",
            "four numbers",
        ),
        ("<seedRequest><srs>EPSG:4326</srs></seedRequest>", "srs must hold a number"),
    ],
)
def test_malformed_xml_is_400_and_creates_nothing(client, emu, body, message):
    r = post_xml(client, "test:world", body)
    assert r.status_code == 400 and message in r.text
    assert tasks(emu) == [] and emu.state.ids.peek("seed-task") == 0


@pytest.mark.parametrize(
    ("body", "message"),
    [
        (b"{", "Malformed seed request"),
        (b"[]", "Expected a JSON object"),
        (b'{"seed": {}}', '{"seedRequest"'),
        (b'{"seedRequest": {"zoomStart": 0, "zoomStop": 1}}', "no threadCount"),
        (b'{"seedRequest": {"zoomStart": 0.5, "zoomStop": 1, "threadCount": 1}}', "not an integer"),
    ],
)
def test_malformed_json_is_400(client, emu, body, message):
    r = client.post(
        "/gwc/rest/seed/test:world.json", content=body, headers={"Content-Type": "application/json"}
    )
    assert r.status_code == 400 and message in r.text and tasks(emu) == []


def test_xml_with_doctype_is_refused(client, emu):
    body = '<!DOCTYPE x [<!ENTITY e "1">]><seedRequest><zoomStart>&e;</zoomStart></seedRequest>'
    assert post_xml(client, "test:world", body).status_code == 400 and tasks(emu) == []


# -- lists -----------------------------------------------------------------------------------


def test_lists_are_empty_then_by_id(client, emu):
    assert client.get("/gwc/rest/seed.json").json() == {"long-array-array": []}
    assert client.get("/gwc/rest/seed/topp:states.json").json() == {"long-array-array": []}
    assert client.get("/gwc/rest/seed/topp:states.xml").text == "<long-array-array/>"
    post_xml(client, "test:world", xml_body(zoomStart=0, zoomStop=3, threadCount=1))
    post_xml(client, "topp:states", xml_body(zoomStart=0, zoomStop=3, threadCount=1))
    assert [r[3] for r in client.get("/gwc/rest/seed.json").json()["long-array-array"]] == [1, 2]
    assert [
        r[3] for r in client.get("/gwc/rest/seed/topp:states.json").json()["long-array-array"]
    ] == [2]
    r = client.get("/gwc/rest/seed/topp:states.xml")
    assert r.headers["content-type"].startswith("application/xml")
    assert r.text.startswith("<long-array-array>\n  <long-array>\n    <long>-1</long>")


def test_watching_a_seed_with_the_control_plane(client, emu):
    post_xml(
        client,
        "test:world",
        xml_body(gridSetId="EPSG:4326", zoomStart=0, zoomStop=3, threadCount=1),
    )
    seen = []
    for _ in range(4):
        client.post("/__emulator/clock/advance", params={"seconds": "0.4"})
        seen.append(client.get("/gwc/rest/seed.json").json()["long-array-array"])
    assert seen == [[[48, 178, 0, 1, 1]], [[112, 178, 0, 1, 1]], [[176, 178, 0, 1, 2]], []]


def test_drain_over_the_control_plane(client, emu):
    post_xml(client, "topp:states", SEED_XML)
    assert client.post("/__emulator/scheduler/drain").json() == {"now": 0.0}
    assert {r[4] for r in client.get("/gwc/rest/seed.json").json()["long-array-array"]} == {2}
    assert emu.scheduler.cached_tiles("topp:states") > 0


# -- kill ------------------------------------------------------------------------------------


def _two_running_one_pending(client, emu):
    emu.state.seeding.settings.pool_size = 2
    post_xml(client, "test:world", xml_body(zoomStart=0, zoomStop=8, threadCount=3))


def test_kill_all_running_everywhere(client, emu):
    _two_running_one_pending(client, emu)
    r = client.post("/gwc/rest/seed", data={"kill_all": "1"})
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/html")
    assert r.text == (
        "<p>Requested to terminate running tasks.Terminated tasks: <ul>"
        "<li>[1: test:world, SEED, RUNNING]</li><li>[2: test:world, SEED, RUNNING]</li>"
        "</ul>Tasks already finished: <ul>"
    )
    emu.clock.advance(0.1)  # the killed ones finish their metatile; the pending one starts
    assert client.get("/gwc/rest/seed.json").json()["long-array-array"][0][3:] == [3, 1]


@pytest.mark.parametrize(("code", "left"), [("pending", [1, 2]), ("all", []), ("running", [3])])
def test_kill_all_codes(client, emu, code, left):
    _two_running_one_pending(client, emu)
    assert client.post("/gwc/rest/seed", data={"kill_all": code}).status_code == 200
    assert [r[3] for r in client.get("/gwc/rest/seed.json").json()["long-array-array"]] == left


def test_kill_all_bad_code(client, emu):
    _two_running_one_pending(client, emu)
    r = client.post("/gwc/rest/seed", data={"kill_all": "everything"})
    assert r.status_code == 400 and r.headers["content-type"].startswith("text/plain")
    assert r.text == "Unknown kill_all code: 'everything'. One of all|running|pending is expected."
    assert len(client.get("/gwc/rest/seed.json").json()["long-array-array"]) == 3


def test_kill_without_kill_all_and_malformed_forms(client):
    r = client.post("/gwc/rest/seed", data={"other": "x"})
    assert r.status_code == 200 and r.content == b""
    r = client.post(
        "/gwc/rest/seed",
        content=b"kill_all",
        headers={"Content-Type": "application/x-www-form-urlencoded"},
    )
    assert r.status_code == 400 and r.text == "Chunk [kill_all] is not a valid entry"


def test_kill_reply_is_text_plain_in_the_geoserver_profile(seeding_scenario, client_for):
    client = client_for(emulator=Emulator(seeding_scenario, profile="geoserver"))
    r = client.post("/gwc/rest/seed", data={"kill_all": "all"})
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/plain")


def test_kill_all_for_one_layer(client, emu):
    _two_running_one_pending(client, emu)
    post_xml(client, "topp:states", xml_body(zoomStart=0, zoomStop=1, threadCount=1))
    r = client.post("/gwc/rest/seed/test:world", data={"kill_all": "all"})
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/html")
    assert "<li>[3: test:world, SEED, READY]</li>" in r.text
    assert r.text.endswith('</ul><p><a href="./test:world">Go back</a></p>\n')
    assert [r[3] for r in client.get("/gwc/rest/seed.json").json()["long-array-array"]] == [4]


def test_kill_on_an_unknown_layer_is_400(client):
    r = client.post("/gwc/rest/seed/topp:nope", data={"kill_all": "all"})
    assert r.status_code == 400 and "Unknown layer topp:nope" in r.text


def test_kill_thread_and_empty_form(client, emu):
    _two_running_one_pending(client, emu)
    r = client.post("/gwc/rest/seed/test:world", data={"kill_thread": "1", "thread_id": "2"})
    assert "Requested to terminate task 2." in r.text
    r = client.post("/gwc/rest/seed/test:world", data={"kill_thread": "1", "thread_id": "99"})
    assert "Sorry, either task 99 has not started yet" in r.text
    assert client.post("/gwc/rest/seed/test:world", data={"x": "y"}).status_code == 400


def test_form_seeding(client, emu):
    form = {"minX": "-180", "minY": "-90", "maxX": "180", "maxY": "90",
            "zoomStart": "0", "zoomStop": "3",
            "threadCount": "1", "type": "seed", "gridSetId": "EPSG:4326",
            "tileFormat": "image/png"}  # fmt: skip
    r = client.post("/gwc/rest/seed/test:world", data=form)
    assert r.status_code == 200 and "Task submitted" in r.text
    assert tasks(emu)[0].row[1] == 178


# -- 405 ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("method", "path", "allow"),
    [
        ("PUT", "/gwc/rest/seed/test:world.xml", "GET, POST"),
        ("DELETE", "/gwc/rest/seed/test:world.json", "GET, POST"),
        ("GET", "/gwc/rest/seed", "POST"),
        ("PUT", "/gwc/rest/seed", "POST"),
        ("DELETE", "/gwc/rest/seed", "POST"),
        ("GET", "/gwc/rest/seed/test:world", "POST"),
        ("PUT", "/gwc/rest/seed/test:world", "POST"),
        ("DELETE", "/gwc/rest/seed/test:world", "POST"),
        ("POST", "/gwc/rest/seed.json", "GET"),
        ("PUT", "/gwc/rest/seed.json", "GET"),
        ("DELETE", "/gwc/rest/seed.json", "GET"),
        ("POST", "/gwc/rest/layers", "GET"),
        ("PATCH", "/gwc/rest/layers/test:world.xml", "GET, POST, PUT, DELETE"),
        ("PATCH", "/gwc/rest/seed/test:world.json", "GET, POST"),
    ],
)
def test_405_with_allow(client, method, path, allow):
    r = client.request(method, path)
    assert r.status_code == 405 and r.headers["allow"] == allow
    hint = f"; to list the seed tasks, GET {path}.json" if method == "GET" else ""
    assert r.text == f"Request method '{method}' is not supported{hint}"


def test_geoserver_profile_serves_get_on_the_kill_paths(seeding_scenario, client_for):
    client = client_for(emulator=Emulator(seeding_scenario, profile="geoserver"))
    assert client.get("/gwc/rest/seed").json() == {"long-array-array": []}
    r = client.get("/gwc/rest/seed/test:world")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/html")
    assert client.get("/gwc/rest/seed/topp:nope").status_code == 400
    assert client.put("/gwc/rest/seed").headers["allow"] == "GET, POST"


# -- auth ------------------------------------------------------------------------------------


def test_seeding_needs_an_administrator(emu, anon, client_for):
    assert anon.get("/gwc/rest/seed.json").status_code == 401
    assert anon.post("/gwc/rest/seed/test:world.xml", content=SEED_XML).status_code == 401
    emu.state.users.create_user(None, "bob", "pw", True)
    bob = client_for(auth=("bob", "pw"))
    assert bob.get("/gwc/rest/seed.json").status_code == 403
    assert bob.get("/gwc/rest/layers").status_code == 403
    assert emu.scheduler.tasks == []


# -- tile layers ----------------------------------------------------------------------------


def test_layer_list(client):
    r = client.get("/gwc/rest/layers")
    assert r.headers["content-type"].startswith("application/xml")
    assert '<atom:link xmlns:atom="http://www.w3.org/2005/Atom" rel="alternate" ' in r.text
    # the name as is (GWC's XStreamListAliasWrapper), not URL-encoded
    assert "http://localhost:8080/geoserver/gwc/rest/layers/topp:states.xml" in r.text
    assert sorted(client.get("/gwc/rest/layers.json").json()) == ["test:world", "topp:states"]
    assert client.get("/gwc/rest/layers.xml").text == r.text
    assert client.get("/gwc/rest/layers", headers={"Accept": "application/json"}).json()


def test_one_layer_in_xml_and_json(client, emu):
    emu.state.seeding.tile_layers["topp:states"].id = "LayerInfoImpl--570ae188:124761b8d78:-7fc0"
    body = client.get("/gwc/rest/layers/topp:states.json").text
    assert body == (
        '{"GeoServerLayer":{"expireClients":0,"gutter":0,"expireCache":0,'
        '"parameterFilters":[{"defaultValue":"","key":"STYLES"}],"metaWidthHeight":[4,4],'
        '"cacheWarningSkips":[],"name":"topp:states","mimeFormats":["image/png","image/jpeg"],'
        '"id":"LayerInfoImpl--570ae188:124761b8d78:-7fc0",'
        '"gridSubsets":[{"gridSetName":"EPSG:4326"},{"gridSetName":"EPSG:900913"}],"enabled":true}}'
    )
    xml = client.get("/gwc/rest/layers/topp:states.xml").text
    assert xml.startswith(
        '<?xml version="1.0" encoding="UTF-8"?>\n<GeoServerLayer>\n  <id>LayerInfoImpl-'
    )
    assert (
        "<styleParameterFilter>\n      <key>STYLES</key>\n      <defaultValue></defaultValue>"
        in xml
    )


def test_unknown_tile_layer_is_404(client):
    for path in (
        "/gwc/rest/layers/topp:nope.xml",
        "/gwc/rest/layers/topp:nope.json",
        "/gwc/rest/layers/topp:nope",
    ):
        r = client.get(path)
        assert r.status_code == 404
        assert r.text == ("Unknown layer: topp:nope")


def test_realtime_clock_moves_tasks_between_requests(seeding_scenario, client_for):
    from geoserver_emulator.core.clock import RealtimeClock

    emu = Emulator(seeding_scenario, clock="realtime")
    wall = [100.0]
    emu.clock = RealtimeClock(monotonic=lambda: wall[0])
    emu.clock.subscribe(emu.scheduler.run_until)
    client = client_for(emulator=emu)
    post_xml(
        client,
        "test:world",
        xml_body(gridSetId="EPSG:4326", zoomStart=0, zoomStop=3, threadCount=1),
    )
    wall[0] += 0.45  # nobody advanced anything: the wall clock moved
    assert client.get("/gwc/rest/seed.json").json() == {"long-array-array": [[48, 178, 0, 1, 1]]}
