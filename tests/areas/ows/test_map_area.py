"""The area a map reads its features from (``wms_map.map_area``): the map's bbox grown by its
own size on each side, in the data's CRS."""

from __future__ import annotations

import math

import pytest

from geoserver_emulator.areas.ows import crs
from geoserver_emulator.areas.wms.maps import map_area


def test_the_map_grown_by_its_size_in_the_same_crs():
    assert map_area((0.0, 0.0, 10.0, 20.0), "EPSG:4326", "EPSG:4326") == (-10, -20, 20, 40)


def test_the_map_grown_then_transformed_into_the_datas_crs():
    area = map_area((0.0, 0.0, 1.0, 1.0), "EPSG:4326", "EPSG:3857")
    assert area is not None
    assert area == pytest.approx((*crs._to_merc(-1, -1), *crs._to_merc(2, 2)))


@pytest.mark.parametrize(
    ("bbox", "srs", "data"),
    [
        ((0.0, 0.0, 1.0, 1.0), "EPSG:4326", "EPSG:32633"),  # no transform: nothing drawn anyway
        ((0.0, 0.0, 1e300, 1e300), "EPSG:3857", "EPSG:4326"),  # overflows
        ((0.0, 0.0, math.inf, 1.0), "EPSG:4326", "EPSG:4326"),
    ],
)
def test_no_area_when_it_cannot_be_said(bbox, srs, data):
    assert map_area(bbox, srs, data) is None
