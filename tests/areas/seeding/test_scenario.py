"""The ``seeding`` scenario section: what it sets, how it is checked, and its dump."""

from __future__ import annotations

import json

import pytest

from geoserver_emulator import Emulator
from geoserver_emulator.areas.seeding.request import SeedRequest
from geoserver_emulator.core.errors import ScenarioError

FULL = {
    "extends": "empty",
    "seeding": {
        "poolSize": 4,
        "defaultRate": 2,
        "truncateSeconds": 0,
        "gridsets": [
            {"name": "UTM13", "srs": 26713, "extent": [589980, 4913700, 609000, 4928010],
             "levels": 12},
            {"name": "Res", "srs": 3857, "extent": [0, 0, 1024, 1024], "resolutions": [4, 2, 1],
             "alignTopLeft": True},
            {"name": "Scales", "srs": 4326, "extent": [-180, -90, 180, 90],
             "scaleDenominators": [279541132.0143589]},
        ],
        "tileLayers": [
            {"name": "sf:roads", "id": "LayerInfoImpl-1", "bounds": [-103.87, 44.37, -103.62, 44.5],
             "gridsets": ["EPSG:4326", {"name": "UTM13", "zoomStart": 0, "zoomStop": 8},
                          {"name": "Res", "extent": [0, 0, 512, 512]}],
             "formats": ["image/png8"], "metatiling": [2, 2], "gutter": 10, "rate": 5,
             "failure": {"afterTiles": 8, "status": "crashed"}},
        ],
        "rates": {"other": 1.5},
        "failures": {"other": {"truncate": True}},
    },
}  # fmt: skip


def load(tmp_path, doc):
    path = tmp_path / "scenario.json"
    path.write_text(json.dumps(doc))
    return Emulator(path)


def test_everything_a_scenario_sets(tmp_path):
    emu = load(tmp_path, FULL)
    store = emu.state.seeding
    s = store.settings
    assert (s.pool_size, s.default_rate, s.truncate_seconds) == (4, 2.0, 0.0)
    assert s.rates == {"sf:roads": 5.0, "other": 1.5}
    assert s.failures["sf:roads"].after_tiles == 8 and s.failures["sf:roads"].status == "crashed"
    assert s.failures["other"].truncate
    assert store.gridsets["UTM13"].levels == 12 and store.gridsets["Res"].tiles_wide == (1, 2, 4)
    assert store.gridsets["Scales"].tiles_wide == (2,)
    layer = store.tile_layers["sf:roads"]
    assert layer.gridsets == ["EPSG:4326", "UTM13", "Res"] and layer.metatiling == (2, 2)
    assert layer.subsets["UTM13"].zoom_stop == 8 and layer.subsets["Res"].extent == (0, 0, 512, 512)
    # the layer's cached levels stop at 8 on UTM13: zoom 9 cannot run
    emu.scheduler.submit(
        "sf:roads", SeedRequest(gridset_id="UTM13", zoom_start=0, zoom_stop=9, thread_count=1)
    )
    assert emu.scheduler.status() == [[-1, -1, -2, 1, 1]]


def test_dump_round_trips(tmp_path):
    emu = load(tmp_path, FULL)
    doc = emu.dump_scenario()
    again = load(tmp_path, {"seeding": doc["seeding"]})
    assert again.dump_scenario()["seeding"] == doc["seeding"]
    assert again.state.seeding.gridsets["UTM13"] == emu.state.seeding.gridsets["UTM13"]


def test_a_tile_layer_entry_updates_the_existing_one(tmp_path):
    doc = {"seeding": {"tileLayers": [{"name": "a:b"}, {"name": "a:b", "enabled": False}]}}
    layer = load(tmp_path, doc).state.seeding.tile_layers["a:b"]
    assert layer.enabled is False and layer.formats == ["image/png", "image/jpeg"]


@pytest.mark.parametrize(
    ("section", "message"),
    [
        ({"poolSize": 0}, "poolSize: expected a positive integer"),
        ({"defaultRate": 0}, "defaultRate: expected a positive number"),
        ({"truncateSeconds": -1}, "truncateSeconds"),
        ({"colour": 1}, "colour: unknown key"),
        ({"gridsets": [{"name": "g", "srs": 1, "extent": [0, 0, 1, 1]}]}, "exactly one of"),
        (
            {"gridsets": [{"name": "g", "srs": 1, "extent": [0, 0, 1, 1], "resolutions": [1, 2]}]},
            "lower than",
        ),
        (
            {"gridsets": [{"name": "g", "srs": 1, "extent": [1, 1, 0, 0], "levels": 2}]},
            "minimum above maximum",
        ),
        ({"tileLayers": [{"name": "x", "metatiling": [-1, 4]}]}, "metatiling"),
        ({"tileLayers": [{"name": "x", "bounds": [1, 2, 3]}]}, "four numbers"),
        ({"failures": {"x": {"status": "exploded"}}}, "aborted or crashed"),
        ({"rates": {"x": -1}}, "positive number"),
    ],
)
def test_bad_sections_name_the_key(tmp_path, section, message):
    with pytest.raises(ScenarioError, match=message):
        load(tmp_path, {"seeding": section})
