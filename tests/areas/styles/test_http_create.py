"""Black-box creation: two-step (record, then body), one-step SLD/SE/CSS, ZIP packages."""

from __future__ import annotations

import pytest
from lxml import etree

from geoserver_emulator import Emulator

BASE = "http://localhost:8080/geoserver/rest"


def record_of(client, path: str) -> dict:
    r = client.get(f"{path}.json")
    assert r.status_code == 200, r.text
    return r.json()["style"]


# -- two-step --------------------------------------------------------------------------------


@pytest.mark.parametrize("fmt", ["xml", "json"])
def test_two_step_creation(client, emu, h, fmt):
    emu.clock.advance(90.5)
    r = h.post(
        client,
        "/rest/styles",
        h.record(fmt, name="roads_style", filename="roads.sld"),
        h.RECORD_TYPES[fmt],
    )
    assert (r.status_code, r.text) == (201, "roads_style")
    assert r.headers["content-type"].startswith("text/plain")
    assert r.headers["location"] == f"{BASE}/styles/roads_style"
    assert record_of(client, "/rest/styles/roads_style") == {
        "name": "roads_style",
        "format": "sld",
        "languageVersion": {"version": "1.0.0"},
        "filename": "roads.sld",
        "dateCreated": "2026-01-01 00:01:30.500 UTC",
    }
    assert emu.state.datadir.read("styles/roads.sld") is None
    body = h.sld("roads_style")
    emu.clock.advance(60)
    r = h.put(client, "/rest/styles/roads_style", body, h.SLD_10)
    assert (r.status_code, r.content) == (200, b"")
    assert client.get("/rest/styles/roads_style.sld").content == body
    assert emu.state.datadir.read("styles/roads.sld") == body
    assert (
        record_of(client, "/rest/styles/roads_style")["dateModified"]
        == "2026-01-01 00:02:30.500 UTC"
    )


@pytest.mark.parametrize("fmt", ["xml", "json"])
def test_two_step_in_a_workspace(client, emu, h, fmt):
    r = h.post(
        client,
        "/rest/workspaces/sf/styles",
        h.record(fmt, name="foo", filename="foo.sld"),
        h.RECORD_TYPES[fmt],
    )
    assert r.status_code == 201
    assert r.headers["location"] == f"{BASE}/workspaces/sf/styles/foo"
    assert record_of(client, "/rest/workspaces/sf/styles/foo")["workspace"] == {"name": "sf"}
    assert h.put(client, "/rest/workspaces/sf/styles/foo", h.sld(), h.SLD_10).status_code == 200
    assert emu.state.datadir.read("workspaces/sf/styles/foo.sld") == h.sld()


def test_path_workspace_wins_over_the_body(client, h):
    h.post(
        client,
        "/rest/workspaces/sf/styles",
        h.record("xml", name="foo", filename="foo.sld", workspace="topp"),
        "text/xml",
    )
    assert client.get("/rest/workspaces/sf/styles/foo.xml").status_code == 200
    assert client.get("/rest/workspaces/topp/styles/foo.xml").status_code == 404


def test_body_workspace_on_the_global_path(client, h):
    r = h.post(
        client,
        "/rest/styles",
        h.record("json", name="foo", filename="foo.sld", workspace="topp"),
        "application/json",
    )
    assert r.headers["location"] == f"{BASE}/workspaces/topp/styles/foo"
    assert client.get("/rest/styles/foo.xml").status_code == 404


@pytest.mark.parametrize("fmt", ["xml", "json"])
def test_duplicate_record_is_500_with_the_catalog_message(client, h, fmt):
    r = h.post(
        client, "/rest/styles", h.record(fmt, name="burg", filename="x.sld"), h.RECORD_TYPES[fmt]
    )
    assert (r.status_code, r.text) == (500, "Style named 'burg' already exists")
    r = h.post(
        client,
        "/rest/workspaces/ne/styles",
        h.record(fmt, name="countries", filename="x.sld"),
        h.RECORD_TYPES[fmt],
    )
    assert (r.status_code, r.text) == (
        500,
        "Style named 'countries' already exists in workspace ne",
    )


@pytest.mark.parametrize("fmt", ["xml", "json"])
@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"filename": "x.sld"}, "Style name must not be null"),
        ({"name": "x"}, "Style fileName must not be null"),
        (
            {"name": "a/b", "filename": "x.sld"},
            "Invalid style name 'a/b': a name cannot contain '/'",
        ),
        ({"name": "x", "filename": "x.sld", "format": "ysld"}, "Unknown style format: ysld"),
        (
            {"name": "x", "filename": "../../x.sld"},
            "Invalid style file name '../../x.sld': it must stay in the style folder",
        ),
    ],
)
def test_bad_records_are_400(client, emu, h, fmt, fields, message):
    r = h.post(client, "/rest/styles", h.record(fmt, **fields), h.RECORD_TYPES[fmt])
    assert (r.status_code, r.text) == (400, message)
    assert emu.state.styles.get(None, "x") is None


@pytest.mark.parametrize(
    ("body", "content_type"),
    [
        ("<style><name>x</name>", "text/xml"),
        ("<StyledLayerDescriptor/>", "application/xml"),
        ('{"style": ', "application/json"),
        ('{"style": {"name": 3}}', "text/json"),
        (
            '<!DOCTYPE style [<!ENTITY e SYSTEM "file:///etc/passwd">]><style><name>&e;</name></style>',
            "text/xml",
        ),
    ],
)
def test_malformed_records_are_400(client, h, body, content_type):
    r = h.post(client, "/rest/styles", body, content_type)
    assert r.status_code == 400
    assert "passwd" not in r.text


@pytest.mark.parametrize("fmt", ["xml", "json"])
def test_record_in_a_missing_workspace(client, h, fmt):
    r = h.post(
        client,
        "/rest/styles",
        h.record(fmt, name="x", filename="x.sld", workspace="nope"),
        h.RECORD_TYPES[fmt],
    )
    assert (r.status_code, r.text) == (500, "No such workspace: 'nope'")
    r = h.post(
        client,
        "/rest/workspaces/nope/styles",
        h.record(fmt, name="x", filename="x.sld"),
        h.RECORD_TYPES[fmt],
    )
    assert (r.status_code, r.text) == (404, "Workspace nope not found")


# -- one-step SLD ----------------------------------------------------------------------------


def test_one_step_sld(client, emu, h):
    body = h.sld("foo")
    r = h.post(client, "/rest/styles", body, h.SLD_10)
    assert (r.status_code, r.text) == (201, "foo")
    assert r.headers["location"] == f"{BASE}/styles/foo"
    assert r.headers["content-type"].startswith("text/plain")
    rec = record_of(client, "/rest/styles/foo")
    assert (rec["format"], rec["languageVersion"], rec["filename"]) == (
        "sld",
        {"version": "1.0.0"},
        "foo.sld",
    )
    assert rec["dateCreated"] == "2026-01-01 00:00:00.000 UTC"
    assert emu.state.datadir.read("styles/foo.sld") == body
    assert client.get("/rest/styles/foo.sld").content == body
    assert b"<name>foo</name>" in emu.state.datadir.read("styles/foo.xml")


def test_name_parameter_wins(client, h):
    r = h.post(client, "/rest/styles", h.sld("foo"), h.SLD_10, name="bar")
    assert (r.status_code, r.text) == (201, "bar")
    assert r.headers["location"].endswith("/styles/bar")
    assert record_of(client, "/rest/styles/bar")["filename"] == "bar.sld"


def test_name_comes_from_the_user_style_not_the_layer(client, h):
    assert h.post(client, "/rest/styles", h.sld("inner", layer="outer"), h.SLD_10).text == "inner"


def test_unnamed_user_style_is_the_geotools_default_name(client, h):
    r = h.post(client, "/rest/styles", h.sld(None), h.SLD_10)
    assert (r.status_code, r.text) == (201, "Default Styler")
    assert r.headers["location"] == f"{BASE}/styles/Default%20Styler"
    assert client.get("/rest/styles/Default%20Styler.xml").status_code == 200
    assert client.delete("/rest/styles/Default+Styler").status_code == 200


def test_one_step_se(client, emu, h):
    body = h.se("foo")
    r = h.post(client, "/rest/styles", body, h.SLD_11, name="foo")
    assert r.status_code == 201
    assert record_of(client, "/rest/styles/foo")["languageVersion"] == {"version": "1.1.0"}
    assert client.get("/rest/styles/foo", headers={"Accept": h.SLD_11}).content == body
    down = client.get("/rest/styles/foo.sld")
    assert down.headers["content-type"] == h.SLD_10
    root = etree.fromstring(down.content)
    assert root.get("version") == "1.0.0"
    assert root.find(".//{http://www.opengis.net/sld}CssParameter").text == "#aa6e8e"


def test_one_step_in_a_workspace(client, emu, h):
    r = h.post(client, "/rest/workspaces/sf/styles", h.sld(), f"{h.SLD_10}; charset=utf-8")
    assert r.headers["location"] == f"{BASE}/workspaces/sf/styles/foo"
    assert emu.state.datadir.read("workspaces/sf/styles/foo.sld") == h.sld()


@pytest.mark.parametrize("profile", ["spec", "geoserver"])
@pytest.mark.parametrize("path", ["/rest/styles", "/rest/workspaces/ne/styles"])
def test_duplicate_body_is_403_in_both_profiles(client_for, h, profile, path):
    client = client_for(emulator=Emulator("stock", profile=profile))
    assert h.post(client, path, h.sld("foo"), h.SLD_10).status_code == 201
    r = h.post(client, path, h.sld("foo"), h.SLD_10)
    assert (r.status_code, r.text) == (403, "Style foo already exists.")


def test_taken_file_is_403(client, emu, h):
    h.post(client, "/rest/styles", h.record("xml", name="other", filename="foo.sld"), "text/xml")
    h.put(client, "/rest/styles/other", h.sld("other"), h.SLD_10)
    r = h.post(client, "/rest/styles", h.sld("foo"), h.SLD_10)
    assert (r.status_code, r.text) == (403, "Style resource foo.sld already exists.")
    assert emu.state.styles.get(None, "foo") is None


@pytest.mark.parametrize(
    ("body", "reason"),
    [
        (b"This is not valid SLD", "Malformed SLD"),
        (b"<style><name>x</name></style>", "the root element is <style>"),
        (
            b'<StyledLayerDescriptor xmlns="http://www.opengis.net/sld"/>',
            "no NamedLayer or UserLayer",
        ),
        (
            b"<StyledLayerDescriptor><NamedLayer><Name>x</Name></NamedLayer></StyledLayerDescriptor>",
            "the layer has no UserStyle",
        ),
        (
            b'<StyledLayerDescriptor version="2.0.0"><NamedLayer/></StyledLayerDescriptor>',
            "Unsupported SLD version 2.0.0",
        ),
        (b"", "Empty SLD body"),
    ],
)
def test_not_a_style_is_400(client, emu, h, body, reason):
    before = dict(emu.state.datadir.files)
    r = h.post(client, "/rest/styles", body, h.SLD_10, name="x")
    assert r.status_code == 400
    assert r.text.startswith("Invalid style:") and reason in r.text
    assert emu.state.datadir.files == before and emu.state.styles.get(None, "x") is None


def test_entities_are_refused(client, h):
    body = (
        b'<?xml version="1.0"?><!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]>'
        b"<StyledLayerDescriptor><NamedLayer><UserStyle><Name>&e;</Name></UserStyle>"
        b"</NamedLayer></StyledLayerDescriptor>"
    )
    r = h.post(client, "/rest/styles", body, h.SLD_10)
    # GeoServer's entity resolver refuses it: its 500 (test_external_entities.py)
    assert r.status_code == 500 and "root:" not in r.text
    assert r.text == "Entity resolution disallowed for file:///etc/passwd"


def test_raw_post_stores_what_it_is_given(client, emu, h):
    r = h.post(client, "/rest/styles", b"not a style at all", h.SLD_10, name="odd", raw="true")
    assert r.status_code == 201
    assert client.get("/rest/styles/odd.sld").content == b"not a style at all"
    r = h.post(client, "/rest/styles", b"not a style at all", h.SLD_10, raw="true")
    assert r.status_code == 400


def test_style_group_names_its_layers(client, h):
    r = h.post(client, "/rest/styles", h.group_sld("topp:states", "tasmania"), h.SLD_10)
    assert r.status_code == 201
    assert r.text.startswith("style-") and len(r.text) == len("style-") + 7
    again = h.post(client, "/rest/styles", h.group_sld("topp:states", "tasmania"), h.SLD_10)
    assert again.text != r.text


def test_style_group_with_a_missing_layer_is_400(client, h):
    r = h.post(client, "/rest/styles", h.group_sld("Stream", "topp:states"), h.SLD_10)
    assert (r.status_code, r.text) == (
        400,
        "Invalid style:No layer or layer group named 'Stream' found in the catalog",
    )


@pytest.mark.parametrize(
    "content_type", ["text/plain", "image/png", "application/x-www-form-urlencoded"]
)
def test_unsupported_body_type_is_415(client, h, content_type):
    assert h.post(client, "/rest/styles", h.sld(), content_type).status_code == 415


def test_missing_content_type_is_415(client, h):
    r = client.post("/rest/styles", content=h.sld(), headers={"Content-Type": ""})
    assert r.status_code == 415


# -- CSS --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "media_type", ["application/vnd.geoserver.geocss+css", "application/vnd.service.geocss+css"]
)
def test_one_step_css(client, emu, h, media_type):
    body = h.css("roads")
    r = h.post(client, "/rest/styles", body, media_type)
    assert (r.status_code, r.text) == (201, "roads")
    rec = record_of(client, "/rest/styles/roads")
    assert (rec["format"], rec["filename"], rec["languageVersion"]) == (
        "css",
        "roads.css",
        {"version": "1.0.0"},
    )
    got = client.get("/rest/styles/roads.css")
    assert got.content == body
    assert got.headers["content-type"] == "application/vnd.geoserver.geocss+css"
    assert emu.state.datadir.read("styles/roads.css") == body


def test_css_media_type_follows_the_vendor_prefix(client_for, h):
    client = client_for(emulator=Emulator("stock", vendor_prefix="org.service"))
    h.post(client, "/rest/styles", h.css("roads"), h.CSS)
    assert client.get("/rest/styles/roads.css").headers["content-type"] == h.CSS_SPEC


def test_css_as_sld_is_a_named_shell(client, h):
    h.post(client, "/rest/styles", h.css(), h.CSS, name="roads")
    root = etree.fromstring(client.get("/rest/styles/roads.sld").content)
    ns = "{http://www.opengis.net/sld}"
    assert root.findtext(f"{ns}NamedLayer/{ns}UserStyle/{ns}Name") == "roads"


def test_css_without_a_name_directive(client, h):
    assert h.post(client, "/rest/styles", h.css(), h.CSS).text == "Default Styler"


@pytest.mark.parametrize(
    "body",
    [b"* { stroke: red", b"stroke: red;", b"* { stroke }", b"/* open", b"", b"\xff\xfe* { a: b }"],
)
def test_bad_css_is_400(client, h, body):
    r = h.post(client, "/rest/styles", body, h.CSS, name="x")
    assert r.status_code == 400 and r.text.startswith("Invalid style:")


# -- ZIP packages ---------------------------------------------------------------------------


def test_zip_package(client, emu, h):
    sld = h.icon_sld("foo", "gear.png")
    body = h.package(
        {"foo.sld": sld, "gear.png": b"\x89PNG-data", "readme.txt": b"x", "sub/other.png": b"y"}
    )
    r = h.post(client, "/rest/styles", body, "application/zip")
    assert (r.status_code, r.text) == (201, "foo")
    assert r.headers["location"] == f"{BASE}/styles/foo"
    assert emu.state.datadir.read("styles/foo.sld") == sld
    assert emu.state.datadir.read("styles/gear.png") == b"\x89PNG-data"
    assert emu.state.datadir.read("styles/readme.txt") is None
    assert emu.state.datadir.read("styles/other.png") is None
    assert client.get("/rest/styles/foo.sld").content == sld


def test_zip_package_to_a_workspace_with_a_name(client, emu, h):
    body = h.package({"x.sld": h.icon_sld("foo", "gear.svg"), "gear.svg": b"<svg/>"})
    r = h.post(client, "/rest/workspaces/sf/styles", body, "application/zip", name="bar")
    assert r.headers["location"] == f"{BASE}/workspaces/sf/styles/bar"
    assert emu.state.datadir.read("workspaces/sf/styles/bar.sld") is not None
    assert emu.state.datadir.read("workspaces/sf/styles/gear.svg") == b"<svg/>"


def test_zip_package_keeps_the_sld_version(client, h):
    h.post(client, "/rest/styles", h.package({"a.sld": h.se("foo")}), "application/zip")
    assert record_of(client, "/rest/styles/foo")["languageVersion"] == {"version": "1.1.0"}


@pytest.mark.parametrize(
    ("files", "status", "text"),
    [
        ({"readme.txt": b"x", "sub/a.sld": b"y"}, 403, "No sld file provided:"),
        ({"a.sld": b"<nope"}, 400, "Style error. Malformed SLD"),
        ({"../evil.sld": b"x"}, 400, "outside of the target directory"),
        ({"/abs/a.sld": b"x"}, 400, "outside of the target directory"),
        ({"ok/../../a.png": b"x", "a.sld": b"x"}, 400, "outside of the target directory"),
    ],
)
def test_bad_packages(client, emu, h, files, status, text):
    before = dict(emu.state.datadir.files)
    r = h.post(client, "/rest/styles", h.package(files), "application/zip")
    assert r.status_code == status and text in r.text
    assert emu.state.datadir.files == before


def test_not_a_zip_is_400(client, h):
    r = h.post(client, "/rest/styles", b"PK-not-really", "application/zip")
    assert r.status_code == 400 and "not a ZIP" in r.text


def test_zip_bomb_is_413(client_for, h):
    client = client_for(emulator=Emulator("stock", max_body=4096))
    body = h.package({"a.sld": h.sld(), "big.png": b"\0" * 100_000})
    assert len(body) < 4096
    r = h.post(client, "/rest/styles", body, "application/zip")
    assert r.status_code == 413


def test_duplicate_package_is_403(client, h):
    r = h.post(client, "/rest/styles", h.package({"a.sld": h.sld("burg")}), "application/zip")
    assert (r.status_code, r.text) == (403, "Style burg already exists.")


def test_create_needs_an_administrator(anon, reader, h):
    for c, status in ((anon, 401), (reader, 403)):
        assert h.post(c, "/rest/styles", h.sld(), h.SLD_10).status_code == status


def test_charset_of_the_content_type_reads_the_body(client, emu, h):
    body = (
        h.sld("café")
        .decode()
        .replace('<?xml version="1.0" encoding="UTF-8"?>\n', "")
        .encode("latin-1")
    )
    r = h.post(client, "/rest/styles", body, f"{h.SLD_10}; charset=ISO-8859-1")
    assert (r.status_code, r.text) == (201, "café")
    assert emu.state.datadir.read("styles/café.sld") == body
