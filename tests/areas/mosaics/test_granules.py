"""Granule headers: GeoTIFF georeferencing, world files, and what cannot be read."""

from __future__ import annotations

import io

import pytest
from PIL import Image, TiffImagePlugin, TiffTags

from geoserver_emulator.areas.mosaics import granules
from geoserver_emulator.crs.envelope import Envelope


def no_side(name: str) -> bytes | None:
    return None


def test_tiepoint_and_pixel_scale(m):
    info = granules.read_bytes(
        "a.tif", m.geotiff(minx=10.0, maxy=50.0, px=0.5, py=0.25, width=4, height=8), no_side
    )
    assert info.envelope == Envelope(10.0, 48.0, 12.0, 50.0)
    assert info.crs == "EPSG:4326"
    assert (info.width, info.height) == (4, 8)
    assert info.bands == ("GRAY_INDEX",) and info.eight_bit


def test_pixel_is_point_shifts_half_a_pixel(m):
    data = m.geotiff(minx=0.0, maxy=4.0, px=1.0, py=1.0, pixel_is_point=True)
    assert granules.read_bytes("a.tif", data, no_side).envelope == Envelope(0.0, 0.0, 4.0, 4.0)


def test_projected_code(m):
    info = granules.read_bytes("a.tif", m.geotiff(epsg=32633), no_side)
    assert info.crs == "EPSG:32633"


def test_user_defined_crs_is_unknown(m):
    info = granules.read_bytes("a.tif", m.geotiff(epsg=32767), no_side)
    assert info.crs is None


def test_model_transformation():
    image = Image.new("RGB", (10, 5))
    ifd = TiffImagePlugin.ImageFileDirectory_v2()
    ifd[34264] = (
        2.0,
        0.0,
        0.0,
        100.0,
        0.0,
        -3.0,
        0.0,
        200.0,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
        1.0,
    )
    ifd.tagtype[34264] = TiffTags.DOUBLE
    buf = io.BytesIO()
    image.save(buf, format="TIFF", tiffinfo=ifd)
    info = granules.read_bytes("t.tiff", buf.getvalue(), no_side)
    assert info.envelope == Envelope(100.0, 185.0, 120.0, 200.0)
    assert info.crs is None
    assert info.bands == ("RED_BAND", "GREEN_BAND", "BLUE_BAND")


def test_tiff_with_a_world_file(m):
    sides = {
        "a.tfw": m.world(5.0, 10.0, 2.0, 1.0),
        "a.prj": b'GEOGCS["WGS 84",AUTHORITY["EPSG","4326"]]',
    }
    info = granules.read_bytes("a.tif", m.geotiff(tiepoint=False, epsg=None), sides.get)
    assert info.envelope == Envelope(5.0, 6.0, 13.0, 10.0)
    assert info.crs == "EPSG:4326"


def test_png_with_a_world_file(m):
    info = granules.read_bytes(
        "dir/a.png", m.png(8, 2), {"dir/a.pgw": m.world(0.0, 1.0, 0.125, 0.5)}.get
    )
    assert info.envelope == Envelope(0.0, 0.0, 1.0, 1.0)
    assert info.crs is None


def test_date_time_tag(m):
    info = granules.read_bytes("a.tif", m.geotiff(date_time="2020:02:03 04:05:06"), no_side)
    assert info.date_time == "2020:02:03 04:05:06"


@pytest.mark.parametrize(
    ("name", "data", "sides", "reason"),
    [
        ("a.tif", b"garbage", {}, "cannot read the image header"),
        ("a.png", b"\x89PNG\r\n\x1a\n broken", {}, "cannot read the image header"),
        ("a.png", None, {}, "no georeferencing"),
        ("a.png", None, {"a.pgw": b"1 0 0"}, "does not hold six numbers"),
        ("a.png", None, {"a.pgw": b"1\n0.5\n0\n-1\n0\n0\n"}, "rotated"),
        ("a.png", None, {"a.pgw": b"1\n0\n0\n1\n0\n0\n"}, "non-negative y pixel size"),
        ("a.txt", b"hello", {}, "not a raster format"),
    ],
)
def test_unreadable(m, name, data, sides, reason):
    with pytest.raises(granules.Unreadable, match=reason):
        granules.read_bytes(name, data if data is not None else m.png(), sides.get)


def test_candidates():
    assert granules.is_candidate("sub/x.TIF")
    assert granules.is_candidate("a.jpeg")
    assert not granules.is_candidate("sample_image.tif")
    assert not granules.is_candidate("a.tfw")
    assert not granules.is_candidate("indexer.properties")
    assert not granules.is_candidate(".hidden.tif")
