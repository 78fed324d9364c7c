"""The importer's pieces without HTTP: the import store's ids and order, the state rules,
the style generator, dates, the JSON writer's numbers and ``expand``, folder scanning and
value conversion (properties with hypothesis)."""

from __future__ import annotations

import datetime

import pytest
from hypothesis import given
from hypothesis import strategies as st

from geoserver_emulator.areas.catalog.entities import BBox
from geoserver_emulator.areas.importer import apply, codec, dates, formats, generated, run
from geoserver_emulator.areas.importer.model import (
    MAX_IMPORTS,
    Data,
    ImportContext,
    ImportStore,
    ImportTask,
    LayerPlan,
    Target,
    Transform,
)
from geoserver_emulator.areas.importer.tasks import prep
from geoserver_emulator.areas.importer.transforms import REMAP_TARGETS
from geoserver_emulator.areas.styles.model import Style, StyleStore

from .files import emulator


def test_ids_count_from_zero_and_a_given_id_moves_the_counter():
    store = ImportStore()
    assert [store.create().id for _ in range(3)] == [0, 1, 2]
    assert store.create(10).id == 10
    assert store.create().id == 11
    assert store.create(4).id == 12  # an id the counter passed takes the next


@given(st.lists(st.one_of(st.none(), st.integers(0, 50)), max_size=30))
def test_ids_are_unique_and_never_below_a_given_one(asked):
    store = ImportStore()
    seen = set()
    for want in asked:
        got = store.create(want).id
        assert got not in seen and (want is None or got >= want)
        seen.add(got)


def test_saving_moves_a_context_last_and_complete_ones_go_past_the_limit():
    store = ImportStore()
    a, b = store.create(), store.create()
    store.save(a)
    assert list(store.imports) == [b.id, a.id]
    a.tasks.append(ImportTask(0, state="COMPLETE"))
    store.save(a)
    assert a.state == "COMPLETE"
    for _ in range(MAX_IMPORTS):
        store.create()
    assert a.id not in store.imports and b.id in store.imports


@pytest.mark.parametrize(
    ("states", "context"),
    [
        ([], "PENDING"),
        (["COMPLETE", "COMPLETE"], "COMPLETE"),
        (["COMPLETE", "RUNNING"], "RUNNING"),
        (["COMPLETE", "ERROR", "RUNNING"], "PENDING"),
        (["READY"], "PENDING"),
    ],
)
def test_a_contexts_state_follows_its_tasks(states, context):
    c = ImportContext(0, state="RUNNING")
    c.tasks = [ImportTask(i, state=s) for i, s in enumerate(states)]
    c.update_state()
    assert c.state == context


def test_an_empty_context_keeps_init_and_init_error():
    for state in ("INIT", "INIT_ERROR"):
        c = ImportContext(0, state=state)
        c.update_state()
        assert c.state == state


def test_default_transforms_go_to_tasks_of_their_kind():
    c = ImportContext(0)
    c.default_transforms = [Transform("CreateIndexTransform", {"field": "a"}),
                            Transform("GdalWarpTransform", {"options": []})]  # fmt: skip
    vector = c.add_task(ImportTask(0))
    raster = c.add_task(ImportTask(0, chain="raster"))
    assert [t.type for t in vector.transforms] == ["CreateIndexTransform"]
    assert [t.type for t in raster.transforms] == ["GdalWarpTransform"]
    assert (vector.id, raster.id) == (0, 1)


def test_the_colour_ramp_rolls_over_its_ten_colours():
    position, seen = 9, []
    for _ in range(11):
        position, name, code = generated.next_color(position)
        seen.append((name, code))
    assert seen[0] == ("red", "#ff3300") and seen[9] == ("violet", "#3300ff")
    assert seen[10] == seen[0]


def test_style_names_are_numbered_past_taken_ones():
    styles = StyleStore()
    assert generated.unique_name(styles, "topp", "roads") == "topp_roads"
    styles.styles[(None, "topp_roads")] = Style("topp_roads")
    styles.styles[("sf", "topp_roads1")] = Style("topp_roads1", "sf")
    assert generated.unique_name(styles, "topp", "roads") == "topp_roads2"


@pytest.mark.parametrize(
    ("binding", "template"),
    [
        ("org.locationtech.jts.geom.MultiPolygon", "polygon"),
        ("com.vividsolutions.jts.geom.LineString", "line"),
        ("org.locationtech.jts.geom.Point", "point"),
        ("org.locationtech.jts.geom.Geometry", "generic"),
        (None, None),
    ],
)
def test_templates_by_geometry(binding, template):
    assert generated.template_for(binding) == template


@pytest.mark.parametrize("template", ["point", "line", "polygon", "generic", "raster"])
def test_generated_styles_are_well_formed_sld(template):
    from geoserver_emulator.wire import xml

    body = generated.sld(template, "red & blue", "#ff3300", "ws_<x>")
    assert body.startswith(b'<?xml version="1.0" encoding="ISO-8859-1"?>')
    root = xml.parse(body)
    assert xml.local(root.tag) == "StyledLayerDescriptor"
    named = xml.child(root, "NamedLayer")
    assert xml.text(named, "Name") == "ws_<x>"
    title = xml.text(xml.child(named, "UserStyle"), "Title")
    assert title == ("A raster style" if template == "raster" else f"A red & blue {template} style")


def test_a_layer_without_geometry_gets_the_point_style():
    emu = emulator()
    rt = emu._import_context()
    task = ImportTask(0, state="PENDING")
    task.data = Data("file", format="Shapefile")
    task.target = Target("x", "topp", "dataStore", "Shapefile")
    task.layer = LayerPlan("featureType", "x", "x", "x", srs="EPSG:4326",
                           bbox=BBox(0, 1, 0, 1, "EPSG:4326"))  # fmt: skip
    assert prep(rt, emu.state.importer, task)
    assert task.layer.style is not None and task.layer.style.name == "point"
    assert task.layer.generated is None and task.state == "READY"


@pytest.mark.parametrize(
    ("raw", "default", "expected"),
    [(None, 1, 1), ("self", 0, 1), ("ALL", 0, codec.ALL), ("none", 1, 0), ("3", 1, 3),
     ("x", 2, 2), ("-1", 1, -1)],
)  # fmt: skip
def test_expand(raw, default, expected):
    assert codec.expand(raw, default) == expected


@given(st.floats(allow_nan=False, allow_infinity=False, min_value=-1e9, max_value=1e9))
def test_numbers_keep_their_value(value):
    written = codec.number(value)
    assert written == value
    assert isinstance(written, int) == (value == int(value) and abs(value) < 1e7)


@pytest.mark.parametrize(
    ("name", "expected"),
    [("roads", "roads"), ("2nd", "a_2nd"), ("a b-c", "a_b_c"), ("ñandú", "_and_")],
)
def test_legal_resource_names(name, expected):
    emu = emulator()
    assert run.resource_name(emu.state.catalog, "topp", name) == expected


def test_taken_resource_names_count_on():
    emu = emulator()
    assert run.resource_name(emu.state.catalog, "topp", "states") == "states0"


def test_scanning_a_folder():
    entries = formats.scan([
        "a.shp", "a.dbf", "a.SHX", "a.prj", "a.sld", "b/c.tif", "b/c.tfw", "x.png", "y.png",
        "y.pgw", "readme.txt", ".hidden", "__MACOSX/a.shp", "d.gpkg", "e.asc",
    ])  # fmt: skip
    found = {e.name: (e.format, e.prj, e.other, e.style) for e in entries}
    assert found == {
        "a.shp": ("Shapefile", "a.prj", ["a.SHX", "a.dbf"], "a.sld"),
        "d.gpkg": ("GeoPackage", None, [], None),
        "e.asc": ("ArcGrid", None, [], None),
        "readme.txt": (None, None, [], None),
        "x.png": (None, None, [], None),
        "y.png": ("WorldImage", None, ["y.pgw"], None),
        "b/c.tif": ("GeoTIFF", None, ["b/c.tfw"], None),
    }


@pytest.mark.parametrize(
    ("text", "pattern", "expected"),
    [
        ("2020-05-17", None, datetime.datetime(2020, 5, 17, tzinfo=datetime.UTC)),
        ("17/06/2021", "dd/MM/yyyy", datetime.datetime(2021, 6, 17, tzinfo=datetime.UTC)),
        ("Jun 3, 21 4:05 PM", "MMM d, yy h:mm a",
         datetime.datetime(2021, 6, 3, 16, 5, tzinfo=datetime.UTC)),
        ("2021-06-17T10:00:00+0200", "yyyy-MM-dd'T'HH:mm:ssZ",
         datetime.datetime(2021, 6, 17, 8, tzinfo=datetime.UTC)),
        ("1999", None, datetime.datetime(1999, 1, 1, tzinfo=datetime.UTC)),
        ("nope", "yyyy", None),
    ],
)  # fmt: skip
def test_dates(text, pattern, expected):
    assert dates.parse(text, pattern) == expected


@pytest.mark.parametrize("pattern", ["yyyy-qq", "'unclosed", "y" * 201])
def test_bad_date_patterns(pattern):
    from geoserver_emulator.core.errors import Invalid

    with pytest.raises(Invalid, match="Invalid date parsing format"):
        dates.check_pattern(pattern)


@given(st.text(max_size=40), st.text(alphabet="yMdHhmsSaEZ'-/: .", max_size=20))
def test_date_parsing_never_fails_unexpectedly(text, pattern):
    from geoserver_emulator.core.errors import Invalid

    try:
        dates.check_pattern(pattern)
    except Invalid:
        return
    found = dates.parse(text, pattern)
    assert found is None or found.tzinfo is not None


@pytest.mark.parametrize(
    ("value", "target", "expected"),
    [("12", "java.lang.Integer", 12), ("12.5", "java.lang.Integer", None),
     (12.0, "java.lang.Long", 12), ("x", "java.lang.Double", None), ("2.5", "java.lang.Float", 2.5),
     ("yes", "java.lang.Boolean", True), (True, "java.lang.Integer", None), (None, "x", None),
     (5, "java.lang.String", "5")],
)  # fmt: skip
def test_conversions(value, target, expected):
    assert apply.convert(value, target) == expected


@given(
    st.one_of(st.text(max_size=10), st.integers(), st.floats(), st.booleans()),
    st.sampled_from(sorted(REMAP_TARGETS)),
)
def test_conversion_never_fails(value, target):
    apply.convert(value, target)


def test_every_pattern_field_matches_atomically():
    """No backtracking into a field: matching stays linear whatever the pattern."""
    regex = dates._regex("dMdMdMyyyyHHmmssSSS 'at' EEE z")
    assert regex.pattern.count("(?>") == 12 and regex.pattern.count("++") == 1  # 13 fields
    assert dates.parse("1" * 41, "dMdMdMdMdMdMdMdMdMdM") is None  # 40 digits at most
