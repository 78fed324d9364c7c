"""Black-box deletion (purge, recurse, built-ins) and a layer's style list (POST)."""

from __future__ import annotations

import pytest

from geoserver_emulator.areas.catalog.entities import StyleRef


@pytest.fixture
def foo(client, h):
    assert h.post(client, "/rest/styles", h.sld("foo"), h.SLD_10).status_code == 201
    return "/rest/styles/foo"


def test_delete_keeps_the_file_as_a_backup(client, emu, h, foo):
    r = client.delete(foo)
    assert (r.status_code, r.content) == (200, b"")
    assert client.get(f"{foo}.xml").status_code == 404
    files = emu.state.datadir
    assert files.read("styles/foo.sld") is None
    assert files.read("styles/foo.sld.bak") == h.sld("foo")
    assert files.read("styles/foo.xml") is None
    # the name and the file name are free again; a second delete numbers the backup
    assert h.post(client, "/rest/styles", h.sld("foo"), h.SLD_10).status_code == 201
    assert client.delete(foo).status_code == 200
    assert files.read("styles/foo.sld.bak.1") == h.sld("foo")


def test_delete_with_purge_removes_the_file(client, emu, foo):
    assert client.delete(foo, params={"purge": "true"}).status_code == 200
    assert [p for p in emu.state.datadir.files if "foo" in p] == []


def test_delete_from_a_workspace_with_an_extension_and_purge(client, emu, h):
    h.post(client, "/rest/workspaces/sf/styles", h.sld("foo"), h.SLD_10)
    r = client.delete("/rest/workspaces/sf/styles/foo.xml", params={"purge": "true"})
    assert r.status_code == 200
    assert emu.state.styles.get("sf", "foo") is None
    assert emu.state.datadir.read("workspaces/sf/styles/foo.sld") is None


def test_delete_of_a_record_without_a_file(client, h):
    h.post(client, "/rest/styles", h.record("xml", name="dummy", filename="dummy.sld"), "text/xml")
    assert client.delete("/rest/styles/dummy").status_code == 200


def test_delete_missing(client):
    r = client.delete("/rest/styles/nope")
    assert (r.status_code, r.text) == (404, "Style nope not found")
    r = client.delete("/rest/workspaces/nope/styles/x")
    assert (r.status_code, r.text) == (404, "Workspace nope not found")
    r = client.delete("/rest/styles/countries")  # a workspace style is not global
    assert r.status_code == 404


def test_style_in_use_is_403(client, emu):
    r = client.delete("/rest/styles/population")
    assert (r.status_code, r.text) == (403, "Can't delete style referenced by existing layers.")
    assert emu.state.styles.get(None, "population") is not None


def test_recurse_resets_the_layers(client, emu):
    r = client.delete("/rest/styles/population", params={"recurse": "true"})
    assert r.status_code == 200
    states = emu.state.catalog.layer("topp", "states")
    assert states.default_style == StyleRef(None, "pophatch")
    assert states.styles == [StyleRef(None, "polygon")]
    r = client.delete("/rest/styles/simple_streams", params={"recurse": "true", "purge": "true"})
    assert r.status_code == 200
    assert emu.state.catalog.layer("sf", "streams").default_style == StyleRef(None, "line")
    assert emu.state.datadir.read("styles/simple_streams.sld") is None
    assert emu.state.catalog.problems() == []


def test_workspace_style_in_a_group(client, emu):
    r = client.delete("/rest/workspaces/ne/styles/countries_basemap")
    assert r.status_code == 403
    r = client.delete("/rest/workspaces/ne/styles/countries_basemap", params={"recurse": "true"})
    assert r.status_code == 200
    assert emu.state.catalog.layer_group("ne", "world").styles[0] is None
    assert (
        StyleRef("ne", "countries_basemap") not in emu.state.catalog.layer("ne", "countries").styles
    )


def test_style_only_in_a_group_is_500(client, emu, foo):
    emu.state.catalog.layer_groups[(None, "spearfish")].styles[0] = StyleRef(None, "foo")
    r = client.delete(foo)
    assert (r.status_code, r.text) == (
        500,
        "Unable to delete style referenced by layer group 'spearfish'",
    )


@pytest.mark.parametrize("params", [{}, {"recurse": "true"}, {"recurse": "true", "purge": "true"}])
def test_builtin_styles_cannot_go(client, emu, params):
    before = emu.state.snapshot()
    r = client.delete("/rest/styles/generic", params=params)
    assert (r.status_code, r.text) == (500, "Unable to delete a default style")
    r = client.delete("/rest/styles/line", params={"recurse": "true"})
    assert r.status_code == 500
    assert emu.state.snapshot() == before


def test_delete_needs_an_administrator(anon, reader, foo):
    assert anon.delete(foo).status_code == 401
    assert reader.delete(foo).status_code == 403


# -- a layer's styles -------------------------------------------------------------------------


@pytest.mark.parametrize("fmt", ["xml", "json"])
def test_add_a_style_to_a_layer(client, emu, h, fmt):
    r = h.post(
        client, "/rest/layers/topp:states/styles", h.record(fmt, name="green"), h.RECORD_TYPES[fmt]
    )
    assert (r.status_code, r.text) == (201, "green")
    layer = emu.state.catalog.layer("topp", "states")
    assert layer.styles[-1] == StyleRef(None, "green")
    assert layer.default_style == StyleRef(None, "population")
    r = h.post(
        client,
        "/rest/layers/topp:states/styles",
        h.record(fmt, name="green"),
        h.RECORD_TYPES[fmt],
        default="true",
    )
    layer = emu.state.catalog.layer("topp", "states")
    assert layer.styles.count(StyleRef(None, "green")) == 1
    assert layer.default_style == StyleRef(None, "green")


def test_add_a_workspace_style_to_a_layer(client, emu, h):
    r = h.post(
        client, "/rest/layers/ne:countries/styles", h.record("xml", name="ne:coastline"), "text/xml"
    )
    assert r.status_code == 201
    assert emu.state.catalog.layer("ne", "countries").styles[-1] == StyleRef("ne", "coastline")


def test_add_a_missing_style_to_a_layer(client, h):
    r = h.post(client, "/rest/layers/topp:states/styles", h.record("xml", name="nope"), "text/xml")
    assert (r.status_code, r.text) == (404, "No such style: nope")
    r = h.post(client, "/rest/layers/topp:nope/styles", h.record("xml", name="green"), "text/xml")
    assert r.status_code == 404
    assert h.post(client, "/rest/layers/topp:states/styles", h.sld(), h.SLD_10).status_code == 415
