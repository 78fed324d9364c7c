"""Black-box replacement: PUT of bodies (SLD, SE, CSS, raw, ZIP) and records (rename, move)."""

from __future__ import annotations

import pytest

from geoserver_emulator.areas.catalog.entities import StyleRef


def record_of(client, path: str) -> dict:
    r = client.get(f"{path}.json")
    assert r.status_code == 200, r.text
    return r.json()["style"]


@pytest.fixture
def foo(client, h):
    """A global style ``foo`` (one-step SLD 1.0)."""
    assert h.post(client, "/rest/styles", h.sld("foo"), h.SLD_10).status_code == 201
    return "/rest/styles/foo"


# -- bodies ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "path", ["/rest/styles/burg", "/rest/styles/burg.sld", "/rest/styles/burg.xml"]
)
def test_put_sld_round_trips(client, emu, h, path):
    body = h.sld("burg", rules="<Rule><LineSymbolizer/></Rule>")
    assert h.put(client, path, body, h.SLD_10).status_code == 200
    assert client.get("/rest/styles/burg.sld").content == body
    assert emu.state.datadir.read("styles/burg.sld") == body
    assert record_of(client, "/rest/styles/burg")["dateModified"]


def test_put_workspace_style(client, emu, h):
    body = h.sld("countries")
    assert (
        h.put(
            client, "/rest/workspaces/ne/styles/countries", body, f"{h.SLD_10}; charset=utf-8"
        ).status_code
        == 200
    )
    assert emu.state.datadir.read("workspaces/ne/styles/countries.sld") == body


def test_put_se_then_sld_switches_the_version(client, h, foo):
    assert h.put(client, foo, h.se("foo"), h.SLD_11).status_code == 200
    assert record_of(client, foo)["languageVersion"] == {"version": "1.1.0"}
    assert client.get(foo, headers={"Accept": h.SLD_11}).content == h.se("foo")
    assert h.put(client, foo, h.sld("foo"), h.SLD_10).status_code == 200
    assert record_of(client, foo)["languageVersion"] == {"version": "1.0.0"}


def test_put_css_over_sld(client, emu, h, foo):
    assert h.put(client, foo, h.css(), h.CSS_SPEC).status_code == 200
    rec = record_of(client, foo)
    assert (rec["format"], rec["filename"]) == ("css", "foo.sld")
    assert client.get(f"{foo}.css").content == h.css()


def test_put_invalid_body_is_400_and_keeps_the_old_one(client, emu, h, foo):
    r = h.put(client, foo, b"This is not valid SLD", h.SLD_10)
    assert r.status_code == 400 and r.text.startswith("Invalid style:")
    assert client.get(f"{foo}.sld").content == h.sld("foo")


def test_put_style_group_with_a_missing_layer(client, h, foo):
    r = h.put(client, foo, h.group_sld("Stream", "topp:states"), h.SLD_10)
    assert (r.status_code, r.text) == (
        400,
        "Invalid style:No layer or layer group named 'Stream' found in the catalog",
    )
    assert h.put(client, foo, h.group_sld("sf:streams", "tasmania"), h.SLD_10).status_code == 200


def test_raw_put_stores_anything_and_follows_the_version(client, h, foo):
    assert h.put(client, foo, b"This is not valid SLD", h.SLD_10, raw="true").status_code == 200
    assert client.get(f"{foo}.sld").content == b"This is not valid SLD"
    assert h.put(client, foo, h.se("foo"), "text/plain", raw="true").status_code == 200
    assert record_of(client, foo)["languageVersion"] == {"version": "1.1.0"}
    assert h.put(client, foo, h.sld("foo"), h.SLD_10, raw="true").status_code == 200
    assert record_of(client, foo)["languageVersion"] == {"version": "1.0.0"}


def test_put_body_of_a_missing_style_is_404(client, h):
    r = h.put(client, "/rest/styles/nope", h.sld(), h.SLD_10)
    assert (r.status_code, r.text) == (404, "No such style: nope")
    r = h.put(client, "/rest/workspaces/ne/styles/nope", h.sld(), h.SLD_10, raw="true")
    assert (r.status_code, r.text) == (404, "No such style nope in workspace ne")
    assert h.put(client, "/rest/workspaces/nope/styles/x", h.sld(), h.SLD_10).status_code == 404


def test_put_unsupported_type_is_415(client, h, foo):
    assert h.put(client, foo, h.sld(), "text/plain").status_code == 415


def test_put_zip_package(client, emu, h, foo):
    sld = h.icon_sld("foo", "pin.png")
    r = h.put(
        client, f"{foo}.zip", h.package({"foo.sld": sld, "pin.png": b"png"}), "application/zip"
    )
    assert r.status_code == 200
    assert emu.state.datadir.read("styles/foo.sld") == sld
    assert emu.state.datadir.read("styles/pin.png") == b"png"


def test_put_zip_of_a_missing_style_is_403(client, h):
    r = h.put(client, "/rest/styles/nope.zip", h.package({"a.sld": h.sld()}), "application/zip")
    assert (r.status_code, r.text) == (403, "Style nope doesn't exist.")


def test_put_bad_zip(client, h, foo):
    assert h.put(client, foo, h.package({"a.txt": b"x"}), "application/zip").status_code == 403
    assert h.put(client, foo, h.package({"a.sld": b"<x"}), "application/zip").status_code == 400


# -- records -----------------------------------------------------------------------------------


@pytest.mark.parametrize("fmt", ["xml", "json"])
def test_put_record_changes_only_what_it_gives(client, emu, h, fmt):
    emu.clock.advance(5)
    r = h.put(
        client, "/rest/styles/burg", h.record(fmt, filename="Forests.sld"), h.RECORD_TYPES[fmt]
    )
    assert (r.status_code, r.content) == (200, b"")
    rec = record_of(client, "/rest/styles/burg")
    assert (rec["name"], rec["filename"], rec["dateModified"]) == (
        "burg",
        "Forests.sld",
        "2026-01-01 00:00:05.000 UTC",
    )


@pytest.mark.parametrize("fmt", ["xml", "json"])
def test_legend_and_metadata_round_trip(client, h, fmt):
    if fmt == "xml":
        body = (
            "<style><legend><width>32</width><height>32</height><format>image/png</format>"
            "<onlineResource>grass_fill.png</onlineResource></legend>"
            '<metadata><entry key="cacheAgeMax">300</entry></metadata></style>'
        )
    else:
        body = (
            '{"style": {"legend": {"width": 32, "height": "32", "format": "image/png", '
            '"onlineResource": "grass_fill.png"}, "metadata": {"entry": '
            '[{"@key": "cacheAgeMax", "$": "300"}, {"@key": "surname", "$": "test1"}]}}}'
        )
    assert h.put(client, "/rest/styles/grass", body, h.RECORD_TYPES[fmt]).status_code == 200
    rec = record_of(client, "/rest/styles/grass")
    assert rec["legend"] == {
        "width": 32,
        "height": 32,
        "format": "image/png",
        "onlineResource": "grass_fill.png",
    }
    entries = rec["metadata"]["entry"]
    entries = entries if isinstance(entries, list) else [entries]
    assert {"@key": "cacheAgeMax", "$": "300"} in entries
    xml = client.get("/rest/styles/grass.xml").text
    assert '<entry key="cacheAgeMax">300</entry>' in xml and "<width>32</width>" in xml


@pytest.mark.parametrize("fmt", ["xml", "json"])
def test_rename_moves_the_file_and_the_layers_follow(client, emu, h, fmt):
    r = h.put(client, "/rest/styles/population", h.record(fmt, name="people"), h.RECORD_TYPES[fmt])
    assert r.status_code == 200
    assert client.get("/rest/styles/population.xml").status_code == 404
    rec = record_of(client, "/rest/styles/people")
    assert rec["filename"] == "people.sld"
    assert emu.state.datadir.read("styles/people.sld") is not None
    assert emu.state.datadir.read("styles/popshade.sld") is None
    assert emu.state.datadir.read("styles/people.xml") is not None
    assert emu.state.datadir.read("styles/population.xml") is None
    assert emu.state.catalog.layer("topp", "states").default_style == StyleRef(None, "people")


def test_rename_onto_a_taken_file_name_numbers_it(client, emu, h, foo):
    emu.state.datadir.write("styles/bar.sld", b"someone else's")
    h.put(client, foo, h.record("xml", name="bar"), "text/xml")
    assert record_of(client, "/rest/styles/bar")["filename"] == "bar1.sld"
    assert emu.state.datadir.read("styles/bar.sld") == b"someone else's"


@pytest.mark.parametrize("fmt", ["xml", "json"])
@pytest.mark.parametrize(
    ("path", "fields", "message"),
    [
        ("/rest/styles/line", {"name": "burg"}, "Style named 'burg' already exists"),
        ("/rest/styles/line", {"name": "lines"}, "Cannot rename default styles"),
        (
            "/rest/styles/point",
            {"workspace": "topp"},
            "Cannot change the workspace of default styles",
        ),
        ("/rest/styles/burg", {"workspace": "nope"}, "No such workspace: 'nope'"),
        (
            "/rest/workspaces/ne/styles/countries",
            {"name": "coastline"},
            "Style named 'coastline' already exists in workspace ne",
        ),
    ],
)
def test_record_put_refusals_are_500(client, emu, h, fmt, path, fields, message):
    before = dict(emu.state.styles.styles)
    r = h.put(client, path, h.record(fmt, **fields), h.RECORD_TYPES[fmt])
    assert (r.status_code, r.text) == (500, message)
    assert emu.state.styles.styles == before


@pytest.mark.parametrize("fmt", ["xml", "json"])
def test_record_put_bad_fields_are_400(client, h, fmt):
    assert (
        h.put(client, "/rest/styles/burg", h.record(fmt, name=""), h.RECORD_TYPES[fmt]).status_code
        == 400
    )
    r = h.put(client, "/rest/styles/burg", h.record(fmt, filename="../x.sld"), h.RECORD_TYPES[fmt])
    assert r.status_code == 400
    assert h.put(client, "/rest/styles/burg", "<style><name>x", "text/xml").status_code == 400


def test_record_put_of_a_missing_style_is_404(client, h):
    r = h.put(client, "/rest/styles/nope", h.record("xml", filename="x.sld"), "text/xml")
    assert (r.status_code, r.text) == (404, "No such style: nope")


def test_move_to_a_workspace_and_back(client, emu, h):
    r = h.put(
        client, "/rest/styles/burg", "<style><workspace>sf</workspace></style>", "application/xml"
    )
    assert r.status_code == 200
    assert client.get("/rest/styles/burg.xml").status_code == 404
    assert record_of(client, "/rest/workspaces/sf/styles/burg")["workspace"] == {"name": "sf"}
    files = emu.state.datadir
    assert (
        files.read("workspaces/sf/styles/burg.sld") is not None
        and files.read("styles/burg.sld") is None
    )
    assert (
        files.read("workspaces/sf/styles/burg02.svg") == files.read("styles/burg02.svg") is not None
    )
    assert emu.state.catalog.layer("sf", "archsites").styles[0] == StyleRef("sf", "burg")
    r = h.put(
        client,
        "/rest/workspaces/sf/styles/burg",
        "<style><workspace></workspace></style>",
        "text/xml",
    )
    assert r.status_code == 200
    assert "workspace" not in record_of(client, "/rest/styles/burg")
    assert files.read("styles/burg.sld") is not None
    assert emu.state.catalog.layer("sf", "archsites").styles[0] == StyleRef(None, "burg")


def test_move_in_json(client, h, foo):
    assert (
        h.put(
            client, foo, '{"style": {"workspace": {"name": "topp"}}}', "application/json"
        ).status_code
        == 200
    )
    assert client.get("/rest/workspaces/topp/styles/foo.sld").content == h.sld("foo")
    assert (
        h.put(
            client,
            "/rest/workspaces/topp/styles/foo",
            '{"style": {"workspace": ""}}',
            "application/json",
        ).status_code
        == 200
    )
    assert client.get("/rest/styles/foo.sld").status_code == 200


def test_put_needs_an_administrator(anon, reader, h):
    for c, status in ((anon, 401), (reader, 403)):
        assert h.put(c, "/rest/styles/burg", h.sld("burg"), h.SLD_10).status_code == status
