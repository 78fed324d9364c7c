"""The area a map reads its features from (``wms_map.map_area``): the map's bbox grown by its
own size on each side, in the data's CRS."""

from __future__ import annotations

import math

import pytest

from geoserver_emulator.areas.wms.maps import map_area


def test_the_map_grown_by_its_size_in_the_same_crs():
    assert map_area((0.0, 0.0, 10.0, 20.0), "EPSG:4326", "EPSG:4326") == (-10, -20, 20, 40)


def test_the_map_grown_then_transformed_into_the_datas_crs():
    from pyproj import Transformer

    to = Transformer.from_crs("EPSG:4326", "EPSG:3857", always_xy=True)
    area = map_area((0.0, 0.0, 1.0, 1.0), "EPSG:4326", "EPSG:3857")
    assert area is not None
    assert area == pytest.approx((*to.transform(-1, -1), *to.transform(2, 2)))


def test_a_projected_map_reads_the_outline_of_its_area_in_geographic_data():
    from pyproj import Transformer

    to = Transformer.from_crs("EPSG:26713", "EPSG:4326", always_xy=True)
    bbox = (590000.0, 4914000.0, 610000.0, 4928000.0)
    area = map_area(bbox, "EPSG:26713", "EPSG:4326")
    assert area is not None
    corners = [to.transform(x, y) for x in (570000, 630000) for y in (4900000, 4942000)]
    assert area[0] <= min(c[0] for c in corners) and area[2] >= max(c[0] for c in corners)
    assert area[1] <= min(c[1] for c in corners) and area[3] >= max(c[1] for c in corners)


@pytest.mark.parametrize(
    ("bbox", "srs", "data"),
    [
        ((0.0, 0.0, 1.0, 1.0), "EPSG:4326", "EPSG:999999"),  # an unknown CRS
        ((0.0, 0.0, math.inf, 1.0), "EPSG:4326", "EPSG:4326"),
    ],
)
def test_no_area_when_it_cannot_be_said(bbox, srs, data):
    assert map_area(bbox, srs, data) is None


def test_a_mercator_map_past_the_poles_reads_latitudes_up_to_the_poles():
    area = map_area((0.0, 0.0, 1e300, 1e300), "EPSG:3857", "EPSG:4326")
    assert area is not None
    assert -90.0 <= area[1] < area[3] <= 90.0
