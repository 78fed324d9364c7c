"""The catalog model: GeoServer's rules and messages, cascades, style references."""

from __future__ import annotations

import pytest

from geoserver_emulator.areas.catalog.model import (
    Attribute,
    BBox,
    Catalog,
    Coverage,
    CoverageStore,
    DataStore,
    FeatureType,
    LayerGroup,
    PublishedRef,
    StyleRef,
)
from geoserver_emulator.areas.catalog.rules import default_style_for
from geoserver_emulator.core.errors import Conflict, Forbidden, Invalid, NotFound, ServerError
from geoserver_emulator.core.state import State


@pytest.fixture
def cat() -> Catalog:
    c = Catalog()
    c.add_workspace("a", uri="http://a")
    c.add_store(DataStore("ds", "a"))
    c.add_store(CoverageStore("cs", "a"))
    box = BBox(0, 1, 0, 1, "EPSG:4326")
    c.add_resource(
        FeatureType(
            "pts",
            "a",
            "ds",
            attributes=[Attribute("g", binding="org.locationtech.jts.geom.Point")],
            native_bbox=box,
            latlon_bbox=box,
            srs="EPSG:4326",
        )
    )
    c.add_resource(
        Coverage(
            "dem",
            "a",
            "cs",
            srs="EPSG:26713",
            native_bbox=BBox(10, 20, 10, 20, "EPSG:26713"),
            latlon_bbox=BBox(-1, 2, -1, 2, "EPSG:4326"),
        )
    )
    return c


def test_workspace_brings_its_namespace_and_the_first_is_default():
    c = Catalog()
    c.add_workspace("x")
    assert c.namespaces["x"].uri == "http://x"
    assert c.default_workspace == "x"
    c.add_workspace("y", make_default=True)
    assert c.workspace("default").name == "y"
    assert c.namespace("default").prefix == "y"


def test_namespace_brings_its_workspace():
    c = Catalog()
    c.add_namespace("n", "urn:n")
    assert "n" in c.workspaces and c.default_workspace == "n"


def test_workspace_name_rules():
    c = Catalog()
    with pytest.raises(ServerError, match="reserved keyword"):
        c.add_workspace("default")
    with pytest.raises(Invalid):
        c.add_workspace("")
    c.add_workspace("x")
    with pytest.raises(Conflict, match="Workspace 'x' already exists"):
        c.add_workspace("x")


def test_namespace_uri_must_be_unique_unless_isolated(cat):
    with pytest.raises(ServerError, match="Namespace with URI 'http://a' already exists."):
        cat.add_namespace("b", "http://a")
    cat.add_namespace("c", "http://a", isolated=True)
    assert cat.namespaces["c"].isolated


def test_delete_workspace_rules(cat):
    with pytest.raises(Forbidden, match="Workspace not empty"):
        cat.delete_workspace("a")
    with pytest.raises(NotFound, match="Workspace 'zz' not found"):
        cat.delete_workspace("zz")
    cat.add_workspace("b")
    cat.delete_workspace("a", recurse=True)
    assert cat.default_workspace == "b" and not cat.stores and not cat.layers
    cat.delete_workspace("b")
    assert cat.default_workspace is None and cat.problems() == []


def test_resource_duplicates_name_store_or_namespace(cat):
    with pytest.raises(ServerError, match="already exists in store: 'ds'"):
        cat.add_resource(FeatureType("pts", "a", "ds"))
    cat.add_store(DataStore("ds2", "a"))
    with pytest.raises(ServerError, match="already exists in namespace: 'a'"):
        cat.add_resource(FeatureType("pts", "a", "ds2"))
    with pytest.raises(Invalid):
        cat.add_resource(Coverage("x", "a", "ds"))


def test_new_layers_get_default_styles(cat):
    assert cat.layer("a", "pts").default_style == StyleRef(None, "point")
    assert cat.layer("a", "dem").default_style == StyleRef(None, "raster")
    assert cat.layer("a", "dem").type == "RASTER"


@pytest.mark.parametrize(
    "binding,style",
    [
        ("Point", "point"),
        ("MultiPoint", "point"),
        ("LineString", "line"),
        ("MultiLineString", "line"),
        ("Polygon", "polygon"),
        ("MultiPolygon", "polygon"),
        ("Geometry", "generic"),
        (None, "generic"),
    ],
)
def test_default_style_by_geometry(binding, style):
    attrs = [Attribute("g", binding=f"org.locationtech.jts.geom.{binding}")] if binding else []
    assert default_style_for(FeatureType("f", "w", "s", attributes=attrs)).name == style


def test_delete_resource_and_layer(cat):
    with pytest.raises(Forbidden, match="feature type referenced by layer"):
        cat.delete_resource("a", "pts")
    with pytest.raises(Forbidden, match="coverage referenced by layer"):
        cat.delete_resource("a", "dem")
    cat.delete_layer("a", "pts")
    assert ("a", "pts") in cat.resources
    cat.delete_resource("a", "pts")
    cat.delete_layer("a", "dem", recurse=True)
    assert not cat.resources


def test_store_rules(cat):
    with pytest.raises(ServerError, match="Store 'ds' already exists in workspace 'a'"):
        cat.add_store(CoverageStore("ds", "a"))
    with pytest.raises(Forbidden, match="Unable to delete non-empty store."):
        cat.delete_store("a", "ds")
    cat.add_workspace("b")
    with pytest.raises(Forbidden):
        cat.replace_store("a", "ds", DataStore("ds", "b"))
    cat.replace_store("a", "ds", DataStore("renamed", "a"))
    assert cat.resources[("a", "pts")].store == "renamed"


def test_layer_group_rules(cat):
    pts = PublishedRef("layer", "a", "pts")
    g = cat.add_layer_group(LayerGroup("g", publishables=[pts]))
    assert g.styles == [None] and g.bounds == BBox(0, 1, 0, 1, "EPSG:4326")
    with pytest.raises(ServerError, match="already exists"):
        cat.add_layer_group(LayerGroup("g", publishables=[pts]))
    with pytest.raises(ServerError, match="must not be empty"):
        cat.add_layer_group(LayerGroup("e"))
    with pytest.raises(Invalid):
        cat.add_layer_group(LayerGroup("m", publishables=[PublishedRef("layer", "a", "nope")]))
    outer = cat.add_layer_group(LayerGroup("outer", publishables=[g.ref]))
    with pytest.raises(ServerError, match="Layer group is in a loop: g -> outer -> g"):
        cat.replace_layer_group(None, "g", LayerGroup("g", publishables=[pts, outer.ref]))
    with pytest.raises(ServerError, match="referenced by layer group 'outer'"):
        cat.delete_layer_group(None, "g")
    cat.delete_layer_group(None, "g", recurse=True)
    assert not cat.layer_groups  # outer was emptied and went too


def test_group_bounds_mix_crs_falls_back_to_lat_lon(cat):
    members = [PublishedRef("layer", "a", "pts"), PublishedRef("layer", "a", "dem")]
    g = cat.add_layer_group(LayerGroup("g", "a", publishables=members))
    assert g.bounds == BBox(-1, 2, -1, 2, "EPSG:4326")
    solo = cat.add_layer_group(LayerGroup("solo", publishables=[members[1]]))
    assert solo.bounds.crs == "EPSG:26713"


def test_find_layer_prefers_default_workspace(cat):
    cat.add_workspace("b")
    cat.add_store(DataStore("ds", "b"))
    cat.add_resource(FeatureType("pts", "b", "ds"))
    assert cat.find_layer("pts").workspace == "a"
    assert cat.find_layer("b:pts").workspace == "b"
    cat.set_default_workspace("b")
    assert cat.find_layer("pts").workspace == "b"


def test_style_references(cat):
    pol, sld = StyleRef(None, "polygon"), StyleRef("a", "mine")
    layer = cat.layer("a", "pts")
    layer.styles = [pol, sld]
    g = cat.add_layer_group(LayerGroup("g", publishables=[layer.ref], styles=[sld]))
    assert [lyr.name for lyr in cat.layers_using_style(sld)] == ["pts"]
    assert [lyr.name for lyr in cat.layers_using_style("a", "mine")] == ["pts"]
    assert cat.layers_using_style(None, "mine") == []
    assert [g.name for g in cat.groups_using_style("a", "mine")] == ["g"]
    assert cat.style_in_use(sld) == "Unable to delete style referenced by 'pts'"
    assert cat.style_in_use(StyleRef(None, "unused")) is None
    cat.rename_style_references(sld, StyleRef("a", "yours"))
    assert layer.styles == [pol, StyleRef("a", "yours")] and g.styles == [StyleRef("a", "yours")]
    cat.set_default_style("a", "pts", pol)
    cat.remove_style_references(pol)
    assert layer.default_style == StyleRef("a", "yours") and layer.styles == []
    cat.remove_style_references(StyleRef("a", "yours"))
    assert layer.default_style == StyleRef(None, "point") and g.styles == [None]
    cat.set_default_style("a", "pts", None)
    assert layer.default_style == StyleRef(None, "point")


def test_workspace_rename_moves_style_references(cat):
    cat.layer("a", "pts").default_style = StyleRef("a", "mine")
    cat.update_workspace("a", new_name="z")
    assert cat.layer("z", "pts").default_style == StyleRef("z", "mine")
    assert cat.problems() == []


def test_tile_layers_follow_through_state():
    state = State()
    cat = state.catalog
    cat.add_workspace("w")
    cat.add_store(DataStore("s", "w"))
    cat.add_resource(FeatureType("f", "w", "s"))
    cat.add_layer_group(LayerGroup("g", "w", publishables=[PublishedRef("layer", "w", "f")]))
    assert set(state.seeding.tile_layers) == {"w:f", "w:g"}
    cat.update_workspace("w", new_name="v")
    assert set(state.seeding.tile_layers) == {"v:f", "v:g"}
    restored = State.restore(state.snapshot())
    assert restored.catalog.tiles is restored.seeding
    cat.delete_workspace("v", recurse=True)
    assert state.seeding.tile_layers == {}
