"""The readers on generated files: what goes in comes out (hypothesis), and bad bytes are
refused by name, never with another exception."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from geoserver_emulator.areas.uploads import crs, geopackage, properties, rasters, shapefiles
from geoserver_emulator.areas.uploads.readers import Unreadable

from .conftest import arcgrid, geotiff, shapefile_files
from .conftest import geopackage as make_gpkg

coords = st.floats(-1000, 1000, allow_nan=False, allow_infinity=False)
names = st.text(alphabet=st.characters(min_codepoint=33, max_codepoint=126), max_size=12)


@settings(max_examples=30, deadline=None)
@given(rows=st.lists(st.tuples(names, st.integers(0, 99999), coords, coords), min_size=1,
                     max_size=8))  # fmt: skip
def test_shapefile_records_come_back(rows) -> None:
    records = [(n, lanes, 1.5, "20200101", (x, y)) for n, lanes, x, y in rows]
    read = shapefiles.read(shapefile_files("t", records=records), "t")
    got = [
        (f.properties["NAME"], f.properties["LANES"], f.properties["the_geom"].coords[0])
        for f in read.table.features
    ]
    assert got == [(n, lanes, (x, y)) for n, lanes, x, y in rows]
    assert [f.fid for f in read.table.features] == [f"t.{i}" for i in range(1, len(rows) + 1)]


texts = st.text(alphabet=st.characters(blacklist_categories=("Cs", "Cc", "Zl", "Zp")), max_size=15)


@settings(max_examples=40, deadline=None)
@given(rows=st.lists(st.tuples(texts, st.integers(-(2**31), 2**31 - 1)), max_size=6))
def test_property_values_come_back(rows) -> None:
    def esc(v: str) -> str:
        return v.replace("\\", "\\\\").replace("|", "\\|")

    lines = ["_=label:String,n:Integer,geom:Point"]
    lines += [f"t.{i}={esc(label)}|{n}|POINT({i} {i})" for i, (label, n) in enumerate(rows)]
    text = "\n".join(lines) + "\n"
    read = properties.read({"t.properties": text.encode()}, "t")
    got = [(f.properties["label"], f.properties["n"]) for f in read.table.features]
    assert got == rows


@settings(max_examples=20, deadline=None)
@given(cut=st.integers(1, 400))
def test_truncated_files_are_unreadable(cut) -> None:
    files = shapefile_files("t")
    data = files["t.shp"]
    files["t.shp"] = data[: max(0, len(data) - cut)]
    with pytest.raises(Unreadable):
        shapefiles.read(files, "t")
    gpkg = make_gpkg()
    with pytest.raises(Unreadable):
        geopackage.read_all(gpkg[: max(0, len(gpkg) - cut * 64)], "x.gpkg")
    tif = geotiff()
    with pytest.raises(Unreadable):
        rasters.read_geotiff("x.tif", tif[: max(0, len(tif) - cut)], lambda _n: None)


@settings(max_examples=50, deadline=None)
@given(data=st.binary(max_size=300))
def test_random_bytes_never_escape_as_other_errors(data) -> None:
    for call in (
        lambda: shapefiles.read({"t.shp": data}, "t"),
        lambda: geopackage.read_all(data, "x.gpkg"),
        lambda: properties.read({"t.properties": data}, "t"),
        lambda: rasters.read_geotiff("x.tif", data, lambda _n: None),
        lambda: rasters.read_world_image("x.png", data, lambda _n: None),
        lambda: rasters.read_arcgrid("x.asc", data, lambda _n: None),
    ):
        try:
            call()
        except Unreadable:
            pass


def test_arcgrid_centre_header_and_prj() -> None:
    text = b"ncols 2\nnrows 1\nxllcenter 5\nyllcenter 5\ncellsize 2\n1 2\n"
    prj = b'PROJCS["WGS_1984_UTM_Zone_33N",GEOGCS["GCS_WGS_1984"]]'
    raster = rasters.read_arcgrid("g.asc", text, lambda n: prj if n == "g.prj" else None)
    assert raster.envelope == (4.0, 4.0, 8.0, 6.0)
    assert raster.srs == "EPSG:32633"
    assert rasters.read_arcgrid("g.asc", arcgrid(), lambda _n: None).width == 3


@pytest.mark.parametrize(
    ("wkt", "srs"),
    [
        ('GEOGCS["WGS 84",DATUM["x"],AUTHORITY["EPSG","4326"]]', "EPSG:4326"),
        ('GEOGCS["GCS_WGS_1984",DATUM["D_WGS_1984"]]', "EPSG:4326"),
        ('PROJCS["WGS_1984_Web_Mercator_Auxiliary_Sphere",GEOGCS["x"]]', "EPSG:3857"),
        ('PROJCS["WGS 84 / UTM zone 32S",GEOGCS["x"]]', "EPSG:32732"),
        ('PROJCS["Local",GEOGCS["x",AUTHORITY["EPSG","4326"]]]', None),
        ("", None),
    ],
)
def test_crs_codes(wkt, srs) -> None:
    assert crs.srs_of_wkt(wkt) == srs
