"""The stock sample data as the loader gives it, checked against the stock catalog as the REST
API serves it: schema, counts, fids, geometry types, SRS, bounds; honest nulls; the grids."""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from importlib import resources
from typing import Any

import httpx
import pytest

from geoserver_emulator import stockdata

COUNTS = {
    ("ne", "countries"): 177,
    ("ne", "coastlines"): 134,
    ("ne", "boundary_lines"): 331,
    ("ne", "populated_places"): 243,
    ("topp", "states"): 49,
    ("tiger", "giant_polygon"): 1,
    ("topp", "tasmania_state_boundaries"): 1,
    ("topp", "tasmania_water_bodies"): 2,
}
"""the layers with a source, and their feature counts; every other one has none"""

STORE_TYPES = {"ne": "GeoPackage"}
"""fids: a GeoPackage's are ``<type>.<primary key>``, a shapefile's ``<type>.<record>``: both
number the features 1…N in the file's order here"""


def _catalog() -> dict[str, Any]:
    path = resources.files("geoserver_emulator.scenarios").joinpath("stock/catalog.json")
    found: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))["catalog"]
    return found


def _feature_types() -> list[tuple[str, str, str]]:
    return [
        (s["workspace"], s["name"], ft["name"])
        for s in _catalog()["dataStores"]
        for ft in s.get("featureTypes", [])
    ]


def _coverages() -> list[tuple[str, str, str]]:
    return [
        (s["workspace"], s["name"], c["name"])
        for s in _catalog()["coverageStores"]
        for c in s.get("coverages", [])
    ]


FEATURE_TYPES = _feature_types()
COVERAGES = _coverages()


def test_every_stock_feature_type_and_coverage_has_its_file() -> None:
    assert sorted((ws, name) for ws, _, name in FEATURE_TYPES) == list(stockdata.layers())
    assert sorted((ws, name) for ws, _, name in COVERAGES) == list(stockdata.grids())
    assert len(FEATURE_TYPES) == 19 and len(COVERAGES) == 5


def _listed(value: Any) -> list[Any]:
    """GeoServer's JSON writes a list of one as the object itself."""
    return value if isinstance(value, list) else [value]


@pytest.fixture
def rest(client: httpx.Client) -> Callable[[str], dict[str, Any]]:
    def get(path: str) -> dict[str, Any]:
        answer = client.get(f"/rest/workspaces/{path}.json")
        assert answer.status_code == 200, answer.text
        found: dict[str, Any] = answer.json()
        return found

    return get


@pytest.mark.parametrize(("ws", "store", "name"), FEATURE_TYPES)
def test_a_layer_matches_its_feature_type(
    rest: Callable[[str], dict[str, Any]], ws: str, store: str, name: str
) -> None:
    ft = rest(f"{ws}/datastores/{store}/featuretypes/{name}")["featureType"]
    table = stockdata.load(ws, name)
    assert table is not None
    declared = [(a["name"], a["binding"]) for a in _listed(ft["attributes"]["attribute"])]
    assert [(a.name, a.binding) for a in table.attributes] == declared
    assert table.srs == ft["srs"]
    assert table.name == ft["nativeName"] and table.published == name
    geometries = [a for a in table.attributes if a.is_geometry]
    assert table.geometry == geometries[0].name
    assert len(table.features) == COUNTS.get((ws, name), 0)
    assert bool(table.sources) == ((ws, name) in COUNTS)


@pytest.mark.parametrize(("ws", "store", "name"), FEATURE_TYPES)
def test_fids_are_geoservers(ws: str, store: str, name: str) -> None:
    table = stockdata.load(ws, name)
    assert table is not None
    assert [f.fid for f in table.features] == [
        f"{name}.{n}" for n in range(1, len(table.features) + 1)
    ]


@pytest.mark.parametrize(("ws", "store", "name"), FEATURE_TYPES)
def test_geometries_are_of_the_declared_type(ws: str, store: str, name: str) -> None:
    table = stockdata.load(ws, name)
    assert table is not None and table.geometry is not None
    binding = next(a.binding for a in table.attributes if a.name == table.geometry)
    for feature in table.features:
        geom = feature.get(table.geometry)
        assert geom is not None
        assert geom.is_valid, (feature.fid, geom.geom_type)
        assert binding == f"org.locationtech.jts.geom.{geom.geom_type}"
        assert not geom.is_empty


@pytest.mark.parametrize(("ws", "store", "name"), FEATURE_TYPES)
def test_bounds_are_the_catalogs(
    rest: Callable[[str], dict[str, Any]], ws: str, store: str, name: str
) -> None:
    ft = rest(f"{ws}/datastores/{store}/featuretypes/{name}")["featureType"]
    table = stockdata.load(ws, name)
    assert table is not None
    bounds = table.bounds()
    if bounds is None:  # a layer without a source keeps GeoServer's bounds
        assert not table.features
        return
    native, latlon = ft["nativeBoundingBox"], ft["latLonBoundingBox"]
    for key, value in zip(("minx", "miny", "maxx", "maxy"), bounds, strict=True):
        # GeoServer's numbers stay where the data is the same (they differ in the last bits)
        assert math.isclose(native[key], value, rel_tol=0, abs_tol=1e-9), key
        assert math.isclose(latlon[key], value, rel_tol=0, abs_tol=1e-9), key  # all EPSG:4326


def _python_type(binding: str) -> type | tuple[type, ...]:
    return {
        "java.lang.String": str,
        "java.lang.Integer": int,
        "java.lang.Long": int,
        "java.lang.Double": float,
    }[binding]


@pytest.mark.parametrize(("ws", "name"), sorted(COUNTS))
def test_values_are_plain_python_of_the_binding_or_null(ws: str, name: str) -> None:
    table = stockdata.load(ws, name)
    assert table is not None
    for a in table.attributes:
        if a.is_geometry:
            continue
        kind = _python_type(a.binding)
        for f in table.features:
            value = f.get(a.name)
            assert value is None or type(value) is kind, (a.name, value)


def test_the_states_carry_only_what_their_sources_have() -> None:
    table = stockdata.load("topp", "states")
    assert table is not None
    carried = {"the_geom", "STATE_NAME", "STATE_FIPS", "STATE_ABBR", "PERSONS"}
    for f in table.features:
        props = f.properties
        assert all(v is None for k, v in props.items() if k not in carried), f.fid
        assert props["STATE_NAME"] and props["PERSONS"] and props["PERSONS"] > 0
        assert len(props["STATE_FIPS"]) == 2 and props["STATE_FIPS"].isdigit()
    names = {f.get("STATE_NAME"): f for f in table.features}
    assert "Alaska" not in names and "Hawaii" not in names and "Puerto Rico" not in names
    assert names["District of Columbia"].get("STATE_ABBR") is None  # not in the source
    assert names["California"].get("STATE_ABBR") == "CA"
    assert names["California"].get("STATE_FIPS") == "06"
    # a point inside Illinois lies in the Illinois polygon
    import shapely

    assert names["Illinois"].get("the_geom").contains(shapely.Point(-89.0, 40.0))


def test_natural_earth_carries_its_columns() -> None:
    countries = stockdata.load("ne", "countries")
    assert countries is not None
    by_name = {f.get("NAME"): f for f in countries.features}
    italy = by_name["Italy"]
    assert italy.get("ISO_A3") == "ITA" and italy.get("MAPCOLOR9") in range(1, 10)
    assert italy.get("geom").geom_type == "MultiPolygon"
    places = stockdata.load("ne", "populated_places")
    assert places is not None
    assert "Rome" in {f.get("name") for f in places.features}
    assert "Lomé" in {f.get("name") for f in places.features}  # decoded from its code page


def test_tasmania_is_natural_earths_land_and_lakes_without_attributes() -> None:
    import shapely

    state = stockdata.load("topp", "tasmania_state_boundaries")
    lakes = stockdata.load("topp", "tasmania_water_bodies")
    assert state is not None and lakes is not None
    (island,) = state.features
    hobart = shapely.Point(147.33, -42.88)
    assert island.get("the_geom").contains(hobart)
    assert len(island.get("the_geom").geoms) > 1  # King and Flinders islands too
    assert all(v is None for k, v in island.properties.items() if k != "the_geom")
    for lake in lakes.features:
        assert all(v is None for k, v in lake.properties.items() if k != "the_geom")
        assert island.get("the_geom").intersects(lake.get("the_geom"))


def test_a_group_whose_members_changed_has_their_union(client: httpx.Client) -> None:
    group = client.get("/rest/layergroups/tasmania.json").json()["layerGroup"]["bounds"]
    state = stockdata.load("topp", "tasmania_state_boundaries")
    assert state is not None and state.bounds() is not None
    assert (group["minx"], group["miny"], group["maxx"], group["maxy"]) == state.bounds()


@pytest.mark.parametrize(("ws", "store", "name"), COVERAGES)
def test_a_grid_matches_its_coverage(
    rest: Callable[[str], dict[str, Any]], ws: str, store: str, name: str
) -> None:
    cov = rest(f"{ws}/coveragestores/{store}/coverages/{name}")["coverage"]
    grid = stockdata.load_grid(ws, name)
    assert grid is not None
    high = [int(v) for v in cov["grid"]["range"]["high"].split()]
    assert [grid.width, grid.height] == high
    transform = cov["grid"]["transform"]
    keys = ("scaleX", "scaleY", "translateX", "translateY")
    for ours, key in zip(grid.transform, keys, strict=True):
        assert math.isclose(ours, float(transform[key]), rel_tol=1e-9), key
    dims = _listed(cov["dimensions"]["coverageDimension"])
    assert [b.name for b in grid.bands] == [d["name"] for d in dims]
    assert grid.srs == cov["srs"]
    assert grid.pixels.shape == (len(grid.bands), grid.height, grid.width)
    assert not grid.pixels.flags.writeable


def test_arc_sample_holds_precipitation_and_no_data_beyond_the_source() -> None:
    grid = stockdata.load_grid("nurc", "Arc_Sample")
    assert grid is not None and grid.has_data
    band = grid.bands[0]
    assert band.nodata == -9999.0 and band.data_type == "REAL_32BITS"
    pixels = grid.pixels[0]
    assert (pixels[:6] == -9999.0).all()  # 90N to 87N: the source stops at 87N
    assert (pixels[-18:] == -9999.0).all()  # 81S to 90S
    wet = pixels[6:-18]
    assert wet.min() >= 0 and wet.max() > 1000  # millimetres in a year


NO_SOURCE = [("nurc", "Img_Sample"), ("nurc", "mosaic"), ("nurc", "Pk50095"), ("sf", "sfdem")]


@pytest.mark.parametrize(("ws", "name"), NO_SOURCE)
def test_a_grid_without_source_is_no_data(ws: str, name: str) -> None:
    grid = stockdata.load_grid(ws, name)
    assert grid is not None and not grid.has_data and not grid.sources
    for band, plane in zip(grid.bands, grid.pixels, strict=True):
        assert (plane == (band.nodata if band.nodata is not None else 0)).all()


def test_sfdem_declares_its_no_data_value() -> None:
    grid = stockdata.load_grid("sf", "sfdem")
    assert grid is not None
    assert grid.bands[0].nodata == pytest.approx(-9.999999933815813e36)
    assert grid.dtype == "<f4"


def test_unknown_layers_are_none() -> None:
    assert stockdata.load("topp", "nothing") is None
    assert stockdata.load("nothing", "states") is None
    assert stockdata.load_grid("nurc", "nothing") is None
    assert stockdata.read_bytes("topp", "nothing", stockdata.TABLE_SUFFIX) is None
