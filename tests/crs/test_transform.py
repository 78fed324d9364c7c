"""Transformations (``crs.transform``), geometries (``crs.geometries``) and grids
(``crs.grids``) checked against pyproj called directly."""

from __future__ import annotations

import functools
import math

import pytest
import shapely
from hypothesis import given
from hypothesis import strategies as st
from pyproj import Transformer

from geoserver_emulator.core.errors import Invalid, NotFound
from geoserver_emulator.crs import geometries, grids
from geoserver_emulator.crs.transform import between

# CRS -> a lon/lat box inside its area of use
PLACES = {
    "EPSG:26713": (-108.0, 30.0, -102.0, 60.0),
    "EPSG:32633": (12.0, 1.0, 18.0, 70.0),
    "EPSG:3035": (-10.0, 35.0, 30.0, 65.0),
    "EPSG:2056": (6.0, 45.9, 10.4, 47.8),
    "EPSG:27700": (-7.0, 50.0, 1.5, 60.0),
    "EPSG:3857": (-179.0, -80.0, 179.0, 80.0),
    "EPSG:4326": (-179.0, -89.0, 179.0, 89.0),
}
CODES = sorted(PLACES)


@functools.cache
def proj(source: str, target: str) -> Transformer:
    """pyproj's own transformation, the reference (made once per pair)."""
    return Transformer.from_crs(source, target, always_xy=True)


@st.composite
def point_in(draw: st.DrawFn, code: str) -> tuple[float, float]:
    minx, miny, maxx, maxy = PLACES[code]
    return (
        draw(st.floats(minx, maxx, allow_nan=False)),
        draw(st.floats(miny, maxy, allow_nan=False)),
    )


@given(data=st.data(), source=st.sampled_from(CODES), target=st.sampled_from(CODES))
def test_points_agree_with_pyproj(data, source, target):
    lon, lat = data.draw(point_in(source))
    x, y = proj("EPSG:4326", source).transform(lon, lat)
    expected = proj(source, target).transform(x, y)
    got = between(source, target).point(x, y)
    tolerance = 1e-7 if target == "EPSG:4326" else 1e-3  # degrees, metres
    assert got == pytest.approx(expected, abs=tolerance)


@given(lon=st.floats(-180, 180), lat=st.floats(-85, 85))
def test_the_mercator_fast_path_is_pyprojs_pseudo_mercator(lon, lat):
    expected = proj("EPSG:4326", "EPSG:3857").transform(lon, lat)
    x, y = between("EPSG:4326", "EPSG:3857").point(lon, lat)
    assert (x, y) == pytest.approx(expected, abs=1e-6)
    back = between("EPSG:900913", "CRS:84").point(x, y)
    assert back == pytest.approx((lon, lat), abs=1e-9)


def test_equivalent_codes_are_the_identity():
    assert between("EPSG:4326", "CRS:84").identity
    assert between("urn:ogc:def:crs:EPSG::4326", "EPSG:4326").identity
    assert between("EPSG:3857", "EPSG:900913").identity
    assert between("EPSG:404000", "EPSG:26713").identity  # the wildcard plane
    assert not between("EPSG:4326", "EPSG:4269").identity


def test_unknown_crs():
    with pytest.raises(NotFound):
        between("EPSG:4326", "EPSG:999999")
    with pytest.raises(Invalid):
        between("nonsense", "EPSG:4326")


@given(data=st.data(), code=st.sampled_from(["EPSG:26713", "EPSG:3035", "EPSG:2056"]))
def test_a_box_holds_every_point_of_the_box_transformed(data, code):
    a, b = data.draw(point_in(code)), data.draw(point_in(code))
    box = (min(a[0], b[0]), min(a[1], b[1]), max(a[0], b[0]) + 1e-3, max(a[1], b[1]) + 1e-3)
    out = between("EPSG:4326", code).bounds(box)
    assert out is not None
    import numpy as np

    grid = np.linspace(0.0, 1.0, 11)
    xs = np.repeat(box[0] + (box[2] - box[0]) * grid, 11)
    ys = np.tile(box[1] + (box[3] - box[1]) * grid, 11)
    px, py = proj("EPSG:4326", code).transform(xs, ys)
    slack = 1e-6 * max(1.0, *map(abs, out)) + (out[2] - out[0] + out[3] - out[1]) * 1e-3
    assert (px >= out[0] - slack).all() and (px <= out[2] + slack).all()
    assert (py >= out[1] - slack).all() and (py <= out[3] + slack).all()


def test_geometries_are_transformed_in_one_go():
    line = shapely.LineString([(-103.8, 44.4), (-103.7, 44.45)])
    point = shapely.Point(-103.75, 44.42)
    out = geometries.reproject([line, None, point], "EPSG:4326", "EPSG:26713")
    assert out[1] is None
    t = Transformer.from_crs("EPSG:4326", "EPSG:26713", always_xy=True)
    expected = [v for c in line.coords for v in t.transform(*c)]
    assert [v for c in out[0].coords for v in c] == pytest.approx(expected)
    assert (out[2].x, out[2].y) == pytest.approx(t.transform(point.x, point.y))


def test_a_geometry_past_the_targets_domain_is_clipped_to_it():
    world = shapely.box(-180, -90, 180, 90)
    merc = geometries.reproject([world], "EPSG:4326", "EPSG:3857")[0]
    assert merc is not None and all(math.isfinite(v) for v in merc.bounds)
    assert merc.bounds[3] == pytest.approx(20037508.34, rel=1e-6)  # cut at 85.0511 degrees
    utm = geometries.reproject([world], "EPSG:4326", "EPSG:32633")[0]
    assert utm is not None and all(math.isfinite(v) for v in utm.bounds)


def test_an_empty_geometry_stays_empty():
    out = geometries.reproject([shapely.Polygon()], "EPSG:4326", "EPSG:26713")
    assert out[0] is not None and out[0].is_empty


def test_an_output_grid_covers_the_envelope_in_the_target_crs():
    env = (589980.0, 4913700.0, 609000.0, 4928010.0)  # sf:sfdem, EPSG:26713
    grid = grids.output_grid(env, "EPSG:26713", "EPSG:4326", (634, 477))
    assert (grid.width, grid.height, grid.crs) == (634, 477, "EPSG:4326")
    t = Transformer.from_crs("EPSG:26713", "EPSG:4326", always_xy=True)
    corners = [t.transform(x, y) for x in (env[0], env[2]) for y in (env[1], env[3])]
    assert grid.envelope[0] <= min(c[0] for c in corners) + 1e-9
    assert grid.envelope[3] >= max(c[1] for c in corners) - 1e-9
    assert grids.output_grid(env, "EPSG:26713", "EPSG:3857", (10, 10), fixed=(5, 7)).width == 5
    with pytest.raises(Invalid):
        grids.output_grid(env, "EPSG:26713", "EPSG:4326", (0, 10))


def test_source_points_map_each_output_pixel_back():
    grid = grids.Grid((-104.0, 44.0, -103.0, 45.0), 4, 2, "EPSG:4326")
    xs, ys = grids.source_points(grid, "EPSG:26713")
    assert xs.shape == (2, 4)
    t = Transformer.from_crs("EPSG:4326", "EPSG:26713", always_xy=True)
    assert (xs[0, 0], ys[0, 0]) == pytest.approx(t.transform(-103.875, 44.75))  # top left centre
    assert (xs[1, 3], ys[1, 3]) == pytest.approx(t.transform(-103.125, 44.25))
