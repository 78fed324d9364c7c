"""Reading a CRS as a client names it (``crs.names``) and the axis order GeoServer gives each
spelling (``crs.axes``), the database's definitions from PROJ."""

from __future__ import annotations

import pytest

from geoserver_emulator.core.errors import Invalid, NotFound
from geoserver_emulator.crs import auto, axes, names, registry


@pytest.mark.parametrize(
    ("text", "authority", "code", "xy"),
    [
        ("EPSG:4326", "EPSG", "4326", True),
        ("epsg:26713", "EPSG", "26713", True),
        ("urn:ogc:def:crs:EPSG::4326", "EPSG", "4326", False),
        ("urn:x-ogc:def:crs:EPSG:4326", "EPSG", "4326", False),
        ("urn:x-ogc:def:crs:EPSG:6.11:4326", "EPSG", "4326", False),
        ("http://www.opengis.net/def/crs/EPSG/0/3035", "EPSG", "3035", False),
        ("http://www.opengis.net/gml/srs/epsg.xml#4326", "EPSG", "4326", True),
        ("CRS:84", "CRS", "84", True),
        ("urn:ogc:def:crs:OGC:1.3:CRS84", "CRS", "84", True),
        ("http://www.opengis.net/def/crs/OGC/1.3/CRS84", "CRS", "84", True),
        ("AUTO:42001,9001,-100,45", "AUTO", "42001,9001,-100,45", True),
        ("AUTO2:42003, 1, 10, 50", "AUTO2", "42003,1,10,50", True),
    ],
)
def test_spellings(text, authority, code, xy):
    ref = names.read(text)
    assert (ref.authority, ref.code, ref.xy) == (authority, code, xy)


@pytest.mark.parametrize("text", ["", "   ", "4326", "NotACRS"])
def test_text_naming_no_authority_is_invalid(text):
    with pytest.raises(Invalid):
        names.read(text)


@pytest.mark.parametrize(
    "text", ["EPSG:999999", "EPSG:abc", "FOO:4326", "CRS:85", "AUTO:42001,9001,-500,45", "AUTO:1"]
)
def test_codes_the_database_does_not_have_are_not_found(text):
    with pytest.raises(NotFound):
        registry.lookup(text)


# (spelling, WMS 1.3.0 reading?) -> northing first, as GeoServer (GeoTools under forceXY)
AXIS_ORDER = [
    ("EPSG:4326", False, False),
    ("EPSG:4326", True, True),  # WMS 1.3.0 reads EPSG:n as its URN
    ("urn:ogc:def:crs:EPSG::4326", False, True),
    ("urn:x-ogc:def:crs:EPSG:4326", False, True),
    ("http://www.opengis.net/def/crs/EPSG/0/4326", False, True),
    ("http://www.opengis.net/gml/srs/epsg.xml#4326", False, False),
    ("http://www.opengis.net/gml/srs/epsg.xml#4326", True, False),
    ("CRS:84", True, False),
    ("EPSG:3857", True, False),
    ("EPSG:26713", True, False),  # NAD27 / UTM 13N: easting first in EPSG too
    ("EPSG:3035", True, True),  # ETRS89-LAEA: northing first in EPSG
    ("EPSG:3035", False, False),
    ("urn:ogc:def:crs:EPSG::31466", False, True),  # Gauss-Kruger: northing first
    ("EPSG:4258", True, True),
    ("EPSG:2056", True, False),
    ("AUTO2:42001,1,-100,45", True, False),
]


@pytest.mark.parametrize(("text", "wms13", "north"), AXIS_ORDER)
def test_axis_order_per_spelling(text, wms13, north):
    assert axes.north_first(names.read(text, epsg_xy=not wms13)) is north


@pytest.mark.parametrize(
    "code", ["EPSG:4326", "EPSG:3035", "EPSG:26713", "EPSG:2180", "EPSG:32633"]
)
def test_axis_order_agrees_with_pyproj(code):
    from pyproj import CRS

    first = CRS.from_user_input(code).axis_info[0].direction
    assert axes.database_north_first(code) is (first in ("north", "south"))


def test_units():
    assert axes.metres_per_unit("EPSG:4326") is None
    assert axes.metres_per_unit("EPSG:26713") == 1.0
    assert axes.metres_per_unit("EPSG:2263") == pytest.approx(1200 / 3937)  # US survey feet


def test_geoserver_extension_codes():
    assert "900913" in registry.codes("EPSG") and "404000" in registry.codes("EPSG")
    assert registry.lookup("EPSG:900913").name == "Google Mercator"
    wildcard = registry.lookup("EPSG:404000")
    assert wildcard.is_engineering
    assert registry.definition("EPSG:404000").bbox is None


@pytest.mark.parametrize(
    ("code", "projection"),
    [
        ("42001,9001,-100,45", "tmerc"),
        ("42002,9001,-100,45", "tmerc"),
        ("42003,9001,-100,45", "ortho"),
        ("42004,9001,-100,45", "eqc"),
        ("97001,9001,-100,45", "gnom"),
        ("97002,9001,-100,45", "stere"),
        ("97003,9001,-100,45", "aeqd"),
        ("97004,9001,-100,0", "geos"),
    ],
)
def test_auto_codes(code, projection):
    assert f"+proj={projection} " in auto.definition("AUTO", code)
    assert registry.lookup(f"AUTO:{code}").is_projected


def test_auto_42001_is_the_utm_zone_of_the_centre():
    from pyproj import Transformer

    mine = Transformer.from_crs(registry.lookup("AUTO:42001,-100,45"), "EPSG:32614")
    x, y = mine.transform(500123.0, 4984321.0)
    assert (x, y) == pytest.approx((500123.0, 4984321.0), abs=1e-3)
    south = registry.lookup("AUTO:42001,-100,-45")
    assert Transformer.from_crs(south, "EPSG:32714").transform(1, 2) == pytest.approx((1, 2))


def test_auto_units_and_factors():
    feet = registry.lookup("AUTO:42002,9002,0,0")
    assert feet.axis_info[0].unit_conversion_factor == pytest.approx(0.3048)
    with pytest.raises(NotFound):
        registry.lookup("AUTO:42002,9999,0,0")
    assert registry.lookup("AUTO2:42002,0.5,0,0").axis_info[0].unit_conversion_factor == 0.5
