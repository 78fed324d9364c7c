"""The vectorised GeoJSON geometries (``ows/geojson.py``) are exactly what ``gml.geojson``
writes for each geometry, for random mixes of kinds, coordinates and empty values."""

from __future__ import annotations

import json

import shapely
from hypothesis import given
from hypothesis import strategies as st

from geoserver_emulator.areas.ows import geojson, gml

numbers = st.one_of(
    st.integers(-1000, 1000).map(float),
    st.floats(-1e6, 1e6, allow_nan=False, allow_infinity=False),
    st.integers(-(10**9), 10**9).map(lambda n: n / 1000),
)
points = st.tuples(numbers, numbers)


def ring(center: tuple[float, float], size: float) -> list[tuple[float, float]]:
    x, y = center
    return [(x, y), (x, y + size), (x + size, y + size), (x + size, y), (x, y)]


@st.composite
def geometries(draw):
    kind = draw(
        st.sampled_from(
            ["point", "line", "polygon", "mpoint", "mline", "mpoly", "z", "gc", "none", "empty"]
        )
    )
    if kind == "none":
        return None
    if kind == "empty":
        return shapely.Polygon()
    if kind == "point":
        return shapely.Point(draw(points))
    if kind == "z":
        x, y = draw(points)
        return shapely.Point(x, y, draw(numbers))
    if kind == "line":
        return shapely.LineString(draw(st.lists(points, min_size=2, max_size=4)))
    if kind == "polygon":
        c, size = draw(points), draw(st.floats(0.5, 10))
        holes = [ring((c[0] + size / 4, c[1] + size / 4), size / 4)] if draw(st.booleans()) else []
        return shapely.Polygon(ring(c, size), holes)
    if kind == "mpoint":
        return shapely.MultiPoint(draw(st.lists(points, min_size=1, max_size=3)))
    if kind == "mline":
        lines = draw(st.lists(st.lists(points, min_size=2, max_size=3), min_size=1, max_size=3))
        return shapely.MultiLineString(lines)
    if kind == "mpoly":
        cs = draw(st.lists(points, min_size=1, max_size=3))
        return shapely.MultiPolygon([shapely.Polygon(ring(c, 1.0)) for c in cs])
    return shapely.GeometryCollection([shapely.Point(draw(points))])


@given(st.lists(geometries(), max_size=8), st.sampled_from([0, 2, 8]))
def test_the_same_bytes_as_one_geometry_at_a_time(geoms, decimals):
    expected = [None if g is None else gml.geojson(g, decimals) for g in geoms]
    got = geojson.geometries(geoms, decimals)
    assert json.dumps(got) == json.dumps(expected)


def test_rounding_is_pythons_round_even_next_to_a_half():
    import numpy

    rng = numpy.random.default_rng(7)
    values = numpy.concatenate(
        [
            rng.uniform(-180, 180, 20000),
            rng.uniform(-2e7, 2e7, 20000),  # projected metres: many values next to a half
            numpy.round(rng.uniform(-1e6, 1e6, 20000), 2) + 0.005,  # halves at 2 decimals
            (numpy.arange(20000) + 0.5) / 1e8,  # halves at 8 decimals
            rng.uniform(-1, 1, 20000) * 1e15,
        ]
    )
    coords = values.reshape(-1, 2)
    for decimals in (0, 2, 8):
        got = geojson._rounded(coords.copy(), decimals)
        expected = [[gml._json_number(float(v), decimals) for v in pair] for pair in coords]
        assert json.dumps(got) == json.dumps(expected)
