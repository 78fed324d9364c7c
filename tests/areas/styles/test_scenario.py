"""Scenario section ``styles``: the built-in and stock styles, errors, and dump round trips."""

from __future__ import annotations

import json

import pytest

from geoserver_emulator import Emulator
from geoserver_emulator.areas.styles import scenario, sld
from geoserver_emulator.core.errors import ScenarioError
from geoserver_emulator.core.state import State
from geoserver_emulator.core.vendor import VendorNames
from geoserver_emulator.scenarios.context import ScenarioContext
from geoserver_emulator.scenarios.fields import Section

BUILTINS = ["generic", "line", "point", "polygon", "raster"]


def test_empty_has_the_builtin_styles():
    state = Emulator("empty").state
    assert [s.name for s in state.styles.list_all()] == BUILTINS
    assert state.datadir.read("styles/default_point.sld") is not None


RELEASE_NAMES = {
    "boundary_lines": "Default Styler",
    "coastline": "Default Styler",
    "countries": "countries_transparent",
    "countries_basemap": "Default Styler",
    "populated_places": "Default Styler",
}
"""the style names of the release workspace's ``ne`` SLDs, which the stock scenario carries
as GeoServer ships them (without a UserStyle name: GeoTools' default, or another name)"""


def test_every_stock_style_is_a_valid_sld_named_after_itself():
    state = Emulator("stock").state
    assert len(state.styles.list_styles(None)) == 21 and len(state.styles.list_styles("ne")) == 6
    for style in state.styles.list_all():
        body = state.styles.body(state.datadir, style)
        expected = style.name
        if style.workspace == "ne" and style.name in RELEASE_NAMES:
            expected = RELEASE_NAMES[style.name]
        assert sld.inspect(body).style_name == expected, style.name


def test_every_style_the_stock_catalog_uses_exists():
    state = Emulator("stock").state
    refs = set()
    for layer in state.catalog.layers.values():
        refs.add(layer.default_style)
        refs.update(layer.styles)
    for group in state.catalog.layer_groups.values():
        refs.update(s for s in group.styles if s is not None)
    assert refs and all(state.styles.get(r.workspace, r.name) for r in refs)


def test_icons_the_stock_styles_use_are_there():
    state = Emulator("stock").state
    for style in state.styles.list_all():
        for icon in sld.icons(state.styles.body(state.datadir, style)):
            assert state.datadir.read(f"styles/{icon}"), icon


def _apply(section, base_dir=None):
    state = Emulator("stock").state
    ctx = ScenarioContext(VendorNames(), base_dir, "test")
    scenario.apply(state, Section(section, "test: styles"), ctx)
    return state


def test_inline_and_side_file_bodies(tmp_path, h):
    (tmp_path / "a.sld").write_bytes(h.sld("a"))
    state = _apply(
        {
            "styles": [
                {"name": "a", "filename": "a.sld", "file": "a.sld"},
                {
                    "name": "b",
                    "workspace": "sf",
                    "filename": "b.css",
                    "format": "css",
                    "body": "* { a: b }",
                },
                {"name": "c", "filename": "c.sld", "bodyBase64": "PGE+"},
                {
                    "name": "d",
                    "filename": "d.sld",
                    "legend": {"width": 2, "onlineResource": "x.png"},
                    "metadata": {"k": "v"},
                    "dateCreated": "2020-01-01 00:00:00.000 UTC",
                },
            ],
            "files": [
                {"path": "styles/x.png", "base64": "AAE="},
                {"path": "styles/t.txt", "text": "t"},
            ],
        },
        tmp_path,
    )
    assert state.datadir.read("styles/a.sld") == h.sld("a")
    assert state.datadir.read("workspaces/sf/styles/b.css") == b"* { a: b }"
    assert state.datadir.read("styles/c.sld") == b"<a>"
    assert state.styles.get(None, "d").legend.width == 2
    assert state.datadir.read("styles/d.sld") is None
    assert state.datadir.read("styles/x.png") == b"\x00\x01"


@pytest.mark.parametrize(
    ("section", "message"),
    [
        ({"styles": [{"name": "burg", "filename": "b.sld"}]}, "Style named 'burg' already exists"),
        (
            {"styles": [{"name": "x", "workspace": "nope", "filename": "x.sld"}]},
            "No such workspace",
        ),
        ({"styles": [{"name": "x"}]}, "filename: missing"),
        ({"styles": [{"name": "x", "filename": "x.sld", "colour": "red"}]}, "colour: unknown key"),
        ({"styles": [{"name": "x", "filename": "x.sld", "file": "nope.sld"}]}, "cannot read"),
        (
            {"styles": [{"name": "x", "filename": "x.sld", "body": "a", "bodyBase64": "YQ=="}]},
            "only one",
        ),
        ({"styles": [{"name": "x", "filename": "x.sld", "bodyBase64": "@@"}]}, "not valid base64"),
        ({"files": [{"path": "styles/a"}]}, "give file, text or base64"),
        ({"files": [{"path": "../a", "text": "x"}]}, "escapes"),
        ({"colours": []}, "colours: unknown key"),
    ],
)
def test_scenario_errors_name_the_place(tmp_path, section, message):
    with pytest.raises(ScenarioError, match=message):
        _apply(section, tmp_path)


def test_side_files_need_a_folder():
    with pytest.raises(ScenarioError, match="side files need a scenario folder"):
        _apply({"styles": [{"name": "x", "filename": "x.sld", "file": "x.sld"}]})


def test_dump_then_apply_gives_the_same_dump(emu, client, h):
    h.post(
        client,
        "/rest/styles",
        h.package({"a.sld": h.icon_sld("pkg", "i.png"), "i.png": b"\x89\xff"}),
        "application/zip",
    )
    h.post(client, "/rest/workspaces/sf/styles", h.css("roads"), h.CSS)
    h.put(
        client,
        "/rest/styles/grass",
        '{"style": {"legend": {"width": 3}, "metadata": {"entry": {"@key": "k", "$": "v"}}}}',
        "application/json",
    )
    client.delete("/rest/styles/pkg")
    ctx = ScenarioContext(VendorNames(), None, "dump")
    dumped = scenario.dump(emu.state, ctx)
    assert {"path": "styles/pkg.sld.bak", "text": h.icon_sld("pkg", "i.png").decode()} in dumped[
        "files"
    ]
    assert {"path": "styles/i.png", "base64": "if8="} in dumped["files"]
    fresh = State()
    for w in ("sf", "ne", "topp"):
        fresh.catalog.add_workspace(w)
    scenario.apply(fresh, Section(json.loads(json.dumps(dumped)), "styles"), ctx)
    assert scenario.dump(fresh, ctx) == dumped


def test_whole_scenario_dump_reloads(emu, tmp_path):
    path = tmp_path / "s.json"
    emu.save_scenario(path)
    again = Emulator(path)
    assert scenario.dump(again.state, None) == scenario.dump(emu.state, None)
