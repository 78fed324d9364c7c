"""The style store without HTTP: records, files in the data directory, catalog references."""

from __future__ import annotations

import pytest

from geoserver_emulator import Emulator
from geoserver_emulator.areas.catalog.entities import StyleRef
from geoserver_emulator.areas.styles import files, sld
from geoserver_emulator.areas.styles.formats import CSS_10, SLD_10, SLD_11
from geoserver_emulator.areas.styles.model import Body, Env, Style, StyleChanges
from geoserver_emulator.core.errors import Forbidden, Invalid, NotFound, ServerError


@pytest.fixture
def env(emu: Emulator) -> Env:
    s = emu.state
    return Env(s.datadir, s.catalog, s.ids, "2026-01-01 00:00:00.000 UTC", 1.0, sld.icons)


@pytest.fixture
def store(emu):
    return emu.state.styles


def test_add_writes_the_record_file(store, env):
    style = store.add(env, Style("foo", "sf", filename="foo.sld"))
    assert style.id and style.date_created == env.when
    record = env.datadir.read("workspaces/sf/styles/foo.xml").decode()
    assert "<workspace>\n    <name>sf</name>\n  </workspace>" in record
    assert env.datadir.modified("workspaces/sf/styles/foo.xml") == 1.0


def test_record_file_of_a_body_called_like_the_record(store, env):
    store.add(env, Style("foo", filename="foo.xml"))
    assert env.datadir.read("styles/foo.xml.xml") is not None


def test_default_workspace_name_is_resolved(store, env):
    assert store.add(env, Style("foo", "default", filename="foo.sld")).workspace == "ne"


def test_create_refuses_duplicates_and_taken_files(store, env, h):
    store.create(env, None, "foo", Body(h.sld(), SLD_10))
    with pytest.raises(Forbidden, match="Style foo already exists."):
        store.create(env, None, "foo", Body(h.sld(), SLD_10))
    env.datadir.write("styles/bar.css", b"x")
    with pytest.raises(Forbidden, match="Style resource bar.css already exists."):
        store.create(env, None, "bar", Body(h.css(), CSS_10))


def test_write_records_format_and_version(store, env, h):
    store.create(env, None, "foo", Body(h.sld(), SLD_10))
    style = store.write(env, None, "foo", Body(h.se(), SLD_11))
    assert (style.format, style.version, style.date_modified) == ("sld", "1.1.0", env.when)
    assert store.body(env.datadir, style) == h.se()


def test_write_raw_names_a_file_for_a_record_without_one(store, env):
    store.styles[(None, "bare")] = Style("bare", format="css", filename=None)
    style = store.write_raw(env, None, "bare", b"* { a: b }", None)
    assert style.filename == "bare.css" and env.datadir.read("styles/bare.css") == b"* { a: b }"


def test_missing_styles(store, env, h):
    with pytest.raises(NotFound, match="No such style: x"):
        store.write(env, None, "x", Body(h.sld(), SLD_10))
    with pytest.raises(NotFound, match="No such style x in workspace ne"):
        store.update(env, "ne", "x", StyleChanges(filename="y.sld"))
    with pytest.raises(NotFound, match="Style x not found"):
        store.delete(env, None, "x")


def test_find(store):
    assert store.find("ne:countries").ref == StyleRef("ne", "countries")
    assert store.find("countries").ref == StyleRef("ne", "countries")
    assert store.find("burg", "ne").ref == StyleRef(None, "burg")
    assert store.find("nope") is None


def test_move_copies_icons_and_renames_references(store, env):
    store.update(env, None, "burg", StyleChanges(workspace="sf", name="flag"))
    style = store.get("sf", "flag")
    assert style.filename == "flag.sld"
    assert env.datadir.read("workspaces/sf/styles/flag.sld") is not None
    assert env.datadir.read("workspaces/sf/styles/burg02.svg") is not None
    assert env.datadir.read("styles/burg02.svg") is not None
    assert env.datadir.read("styles/burg.xml") is None
    assert env.datadir.read("workspaces/sf/styles/flag.xml") is not None
    assert StyleRef("sf", "flag") in env.catalog.layer("sf", "bugsites").styles


def test_rename_without_a_file(store, env):
    store.add(env, Style("foo", filename="foo.sld"))
    store.update(env, None, "foo", StyleChanges(name="bar"))
    assert store.get(None, "bar").filename == "bar.sld"


@pytest.mark.parametrize(
    ("changes", "error"),
    [
        (StyleChanges(name="  "), Invalid),
        (StyleChanges(filename=""), Invalid),
        (StyleChanges(format="sld2"), Invalid),
        (StyleChanges(name="a/b"), Invalid),
        (StyleChanges(name="point"), ServerError),
        (StyleChanges(workspace="nope"), ServerError),
    ],
)
def test_update_refusals_change_nothing(store, env, changes, error):
    before = {k: (v.name, v.workspace, v.filename) for k, v in store.styles.items()}
    with pytest.raises(error):
        store.update(env, None, "burg", changes)
    assert {k: (v.name, v.workspace, v.filename) for k, v in store.styles.items()} == before


def test_delete_backup_numbering(store, env, h):
    for _ in range(3):
        store.create(env, None, "foo", Body(h.sld(), SLD_10))
        store.delete(env, None, "foo")
    assert [p for p in sorted(env.datadir.files) if p.startswith("styles/foo")] == [
        "styles/foo.sld.bak",
        "styles/foo.sld.bak.1",
        "styles/foo.sld.bak.2",
    ]


def test_workspace_hooks(store):
    store.rename_workspace("ne", "naturalearth")
    assert [s.name for s in store.list_styles("naturalearth")][:2] == [
        "boundary_lines",
        "coastline",
    ]
    assert store.list_styles("ne") == []
    gone = store.drop_workspace("naturalearth")
    assert len(gone) == 6 and store.list_styles("naturalearth") == []


def test_paths():
    assert files.body_path(Style("a", filename="x/a.sld")) == "styles/x/a.sld"
    assert files.body_path(Style("a", "ws", filename="a.sld")) == "workspaces/ws/styles/a.sld"
    assert files.body_path(Style("a", filename=None)) is None
    assert files.is_image("A.PNG") and not files.is_image("png") and not files.is_image("a.txt")


def test_move_ignores_icons_outside_the_folder(store, env, h):
    store.create(env, None, "odd", Body(h.icon_sld("odd", "../up.png"), SLD_10))
    store.update(env, None, "odd", StyleChanges(workspace="sf"))
    assert env.datadir.read("workspaces/sf/styles/odd.sld") is not None
