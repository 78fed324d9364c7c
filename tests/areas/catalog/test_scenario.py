"""The ``catalog`` scenario section and the stock sample data."""

from __future__ import annotations

import json

import pytest

from geoserver_emulator import Emulator
from geoserver_emulator.areas.catalog.model import StyleRef
from geoserver_emulator.core.errors import ScenarioError

STOCK_LAYERS = {
    "ne:boundary_lines": "ne:boundary_lines",
    "ne:coastlines": "ne:coastline",
    "ne:countries": "ne:countries",
    "ne:disputed_areas": "ne:disputed",
    "ne:populated_places": "ne:populated_places",
    "nurc:Arc_Sample": "rain",
    "nurc:Img_Sample": "raster",
    "nurc:Pk50095": "raster",
    "nurc:mosaic": "raster",
    "sf:archsites": "point",
    "sf:bugsites": "capitals",
    "sf:restricted": "restricted",
    "sf:roads": "simple_roads",
    "sf:sfdem": "dem",
    "sf:streams": "simple_streams",
    "tiger:giant_polygon": "giant_polygon",
    "tiger:poi": "poi",
    "tiger:poly_landmarks": "poly_landmarks",
    "tiger:tiger_roads": "tiger_roads",
    "topp:states": "population",
    "topp:tasmania_cities": "capitals",
    "topp:tasmania_roads": "simple_roads",
    "topp:tasmania_state_boundaries": "green",
    "topp:tasmania_water_bodies": "cite_lakes",
}


def test_stock_workspaces_and_namespaces():
    cat = Emulator("stock").state.catalog
    assert cat.default_workspace == "ne"
    uris = {ns.prefix: ns.uri for ns in cat.list_namespaces()}
    assert uris == {
        "cite": "http://www.opengeospatial.net/cite",
        "it.geosolutions": "http://www.geo-solutions.it",
        "ne": "https://www.naturalearthdata.com",
        "nurc": "http://www.nurc.nato.int",
        "sde": "http://geoserver.sf.net",
        "sf": "http://www.openplans.org/spearfish",
        "tiger": "http://www.census.gov",
        "topp": "http://www.openplans.org/topp",
    }


def test_stock_stores():
    cat = Emulator("stock").state.catalog
    stores = {f"{s.workspace}:{s.name}": s.type for s in cat.stores.values()}
    assert stores == {
        "ne:NaturalEarth": "GeoPackage",
        "nurc:arcGridSample": "ArcGrid",
        "nurc:img_sample2": "WorldImage",
        "nurc:mosaic": "ImageMosaic",
        "nurc:worldImageSample": "WorldImage",
        "sf:sf": None,
        "sf:sfdem": "GeoTIFF",
        "tiger:nyc": "Shapefile",
        "topp:states_shapefile": None,
        "topp:taz_shapes": None,
    }
    assert cat.stores[("ne", "NaturalEarth")].connection_parameters["dbtype"] == "geopkg"


def test_stock_layers_and_default_styles():
    cat = Emulator("stock").state.catalog
    got = {lyr.prefixed: lyr.default_style.prefixed for lyr in cat.layers.values()}
    assert got == STOCK_LAYERS
    assert cat.layer("topp", "states").styles == [
        StyleRef(None, "pophatch"),
        StyleRef(None, "polygon"),
    ]
    assert cat.resource("sf", "sfdem").srs == "EPSG:26713"
    assert {r.kind for r in cat.list_resources("nurc")} == {"coverage"}


def test_stock_groups_and_tile_layers():
    emu = Emulator("stock")
    cat = emu.state.catalog
    assert sorted(g.prefixed for g in cat.layer_groups.values()) == [
        "ne:world",
        "spearfish",
        "tasmania",
        "tiger-ny",
    ]
    assert [m.name for m in cat.layer_group(None, "tiger-ny").publishables] == [
        "giant_polygon",
        "poly_landmarks",
        "tiger_roads",
        "poi",
    ]
    tiles = emu.state.seeding.tile_layers
    assert set(tiles) == set(STOCK_LAYERS) | {"ne:world", "spearfish", "tasmania", "tiger-ny"}
    states = tiles["topp:states"]
    assert states.gridsets == ["EPSG:4326", "EPSG:900913"] and states.formats == [
        "image/png",
        "image/jpeg",
    ]
    assert states.metatiling == (4, 4)


def test_empty_has_no_catalog():
    cat = Emulator("empty").state.catalog
    assert not cat.workspaces and cat.default_workspace is None


def test_null_default_workspace_means_none(tmp_path):
    """What a dump of a catalog without workspaces writes; the first workspace then leads."""
    path = tmp_path / "s.json"
    path.write_text(json.dumps({"extends": "empty", "catalog": {"defaultWorkspace": None}}))
    assert Emulator(str(path)).state.catalog.default_workspace is None
    section = {"defaultWorkspace": None, "workspaces": [{"name": "b"}, {"name": "a"}]}
    path.write_text(json.dumps({"extends": "empty", "catalog": section}))
    assert Emulator(str(path)).state.catalog.default_workspace == "b"


def test_dump_and_load_give_the_same_catalog(tmp_path):
    emu = Emulator("stock")
    path = tmp_path / "dump.json"
    emu.save_scenario(path)
    again = Emulator(str(path)).state.catalog
    cat = emu.state.catalog
    assert (
        again.layers == cat.layers
        and again.resources == cat.resources
        and again.stores == cat.stores
    )
    assert again.layer_groups == cat.layer_groups and again.namespaces == cat.namespaces
    assert again.default_workspace == "ne"


@pytest.mark.parametrize(
    "section,message",
    [
        ({"workspaces": [{"name": "w", "colour": "red"}]}, "colour: unknown key"),
        ({"dataStores": [{"workspace": "nope", "name": "s"}]}, "Store must be part of a workspace"),
        (
            {"workspaces": [{"name": "w"}], "layerGroups": [{"name": "g", "layers": ["w:none"]}]},
            "No such layer: w:none",
        ),
        ({"defaultWorkspace": "ghost"}, "No such workspace: 'ghost'"),
        (
            {
                "workspaces": [{"name": "w"}],
                "dataStores": [
                    {
                        "workspace": "w",
                        "name": "s",
                        "featureTypes": [{"name": "f", "attributes": [3]}],
                    }
                ],
            },
            "attributes[0]: expected an object",
        ),
    ],
)
def test_scenario_errors_name_the_place(tmp_path, section, message):
    path = tmp_path / "bad.json"
    path.write_text(json.dumps({"extends": "empty", "catalog": section}))
    with pytest.raises(ScenarioError, match=message.replace("[", r"\[").replace("]", r"\]")):
        Emulator(str(path))


def test_unpublished_resource_and_nested_group(tmp_path):
    path = tmp_path / "s.json"
    path.write_text(
        json.dumps(
            {
                "extends": "empty",
                "catalog": {
                    "workspaces": [{"name": "w"}],
                    "dataStores": [
                        {
                            "workspace": "w",
                            "name": "s",
                            "featureTypes": [
                                {"name": "hidden", "layer": False},
                                {"name": "shown", "layer": {"defaultStyle": "w:mine"}},
                            ],
                        }
                    ],
                    "layerGroups": [
                        {"name": "inner", "layers": ["w:shown"]},
                        {"name": "outer", "layers": ["group@inner"], "styles": [None]},
                    ],
                },
            }
        )
    )
    emu = Emulator(str(path))
    cat = emu.state.catalog
    assert cat.layer("w", "hidden") is None and cat.resource("w", "hidden") is not None
    assert cat.layer("w", "shown").default_style == StyleRef("w", "mine")
    assert cat.layer_group(None, "outer").publishables[0].kind == "layerGroup"
    doc = emu.dump_scenario()["catalog"]
    assert [g["name"] for g in doc["layerGroups"]] == ["inner", "outer"]


def test_group_keywords_load_and_dump(tmp_path):
    path = tmp_path / "kw.json"
    section = {
        "workspaces": [{"name": "w"}],
        "dataStores": [{"workspace": "w", "name": "s", "featureTypes": [{"name": "f"}]}],
        "layerGroups": [{"name": "g", "layers": ["w:f"], "keywords": ["a", "b"]}],
    }
    path.write_text(json.dumps({"extends": "empty", "catalog": section}))
    emu = Emulator(str(path))
    assert emu.state.catalog.layer_group(None, "g").keywords == ["a", "b"]
    assert emu.dump_scenario()["catalog"]["layerGroups"][0]["keywords"] == ["a", "b"]
