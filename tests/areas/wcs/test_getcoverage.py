"""WCS GetCoverage over HTTP: an uploaded GeoTIFF read back in 1.0.0, 1.1.1 and 2.0.1, the
pixels equal to the source's, with GeoServer's georeferencing, formats and answers."""

from __future__ import annotations

import email
import gzip

import numpy as np
import pytest

SOURCE = (np.arange(60 * 80, dtype=np.float32).reshape(1, 60, 80) % 997) - 5.0
RGB = (np.arange(3 * 20 * 30, dtype=np.uint8).reshape(3, 20, 30) * 7) % 251


@pytest.fixture
def dem(client, g):
    """``sf:dem``: 80 × 60 float pixels of 1° from (0, 100) down to (80, 40), no-data -9999."""
    data = SOURCE.copy()
    data[0, 0, 0] = -9999.0
    g.upload(client, "dem", g.geotiff(data, nodata=-9999))
    return data


def wcs(client, version: str, **params):
    return client.get(
        "/wcs", params={"service": "WCS", "version": version, "request": "GetCoverage", **params}
    )


def test_201_whole_coverage_is_the_file(anon, dem, g):
    r = wcs(anon, "2.0.1", coverageId="sf__dem")
    assert r.status_code == 200, r.text
    assert r.headers["content-type"] == "image/tiff"
    assert r.headers["content-disposition"] == "inline; filename=sf__dem.tif"
    pixels, tags = g.read_tiff(r.content)
    assert np.array_equal(pixels, dem)
    assert tags[33550] == (1.0, 1.0, 0.0)
    assert tags[33922] == (0.0, 0.0, 0.0, 0.0, 100.0, 0.0)
    geokeys = tags[34735]
    assert (2048, 0, 1, 4326) == tuple(geokeys[12:16]) and geokeys[4:8] == (1024, 0, 1, 2)
    assert tags[42113] == "-9999.0"


def test_201_subset_on_lat_long_crops_on_pixel_edges(anon, dem, g):
    r = wcs(anon, "2.0.1", coverageId="sf__dem", subset=["Long(10.5,20.2)", "Lat(50,60)"])
    pixels, tags = g.read_tiff(r.content)
    assert np.array_equal(pixels, dem[:, 40:50, 10:21])
    assert tags[33922][3:5] == (10.0, 60.0)


def test_201_slice_and_open_bounds(anon, dem, g):
    r = wcs(anon, "2.0.1", coverageId="sf__dem", subset=["Long(*,5)", "Lat(70.5)"])
    pixels, _ = g.read_tiff(r.content)
    assert np.array_equal(pixels, dem[:, 29:30, 0:5])


def test_201_scalesize_and_scalefactor_keep_the_envelope(anon, dem, g):
    r = wcs(anon, "2.0.1", coverageId="sf__dem", scalesize="i(40),j(30)")
    pixels, tags = g.read_tiff(r.content)
    assert pixels.shape == (1, 30, 40)
    # nearest neighbour: target centre 2k+1 lies on an edge of the source, takes k*2+1
    assert np.array_equal(pixels, dem[:, 1::2, 1::2])
    assert tags[33550][:2] == (2.0, 2.0)
    r = wcs(anon, "2.0.1", coverageId="sf__dem", scalefactor="0.5")
    assert g.read_tiff(r.content)[0].shape == (1, 30, 40)
    r = wcs(anon, "2.0.1", coverageId="sf__dem", scaleaxes="i(2),j(1)")
    assert g.read_tiff(r.content)[0].shape == (1, 60, 160)
    r = wcs(anon, "2.0.1", coverageId="sf__dem", scaleextent="i(0:9),j(0:4)")
    assert g.read_tiff(r.content)[0].shape == (1, 5, 10)


def test_201_bilinear_between_pixels(anon, client, g):
    ramp = np.tile(np.arange(4, dtype=np.float32) * 10, (1, 4, 1))
    g.upload(client, "ramp", g.geotiff(ramp, maxy=4.0))
    interp = "http://www.opengis.net/def/interpolation/OGC/1/linear"
    r = wcs(anon, "2.0.1", coverageId="sf__ramp", scalesize="i(8),j(4)", interpolation=interp)
    row = g.read_tiff(r.content)[0][0, 0]
    # target centres at -0.25, 0.25, ... 3.25 source pixels; the border is copied
    assert row.tolist() == [0.0, 2.5, 7.5, 12.5, 17.5, 22.5, 27.5, 30.0]


def test_201_rangesubset_names_and_intervals(anon, client, g):
    g.upload(client, "rgb", g.geotiff(RGB, maxy=20.0))
    r = wcs(anon, "2.0.1", coverageId="sf__rgb", rangesubset="BLUE_BAND,RED_BAND")
    pixels, _ = g.read_tiff(r.content)
    assert np.array_equal(pixels, RGB[[2, 0]])
    r = wcs(anon, "2.0.1", coverageId="sf__rgb", rangesubset="GREEN_BAND:BLUE_BAND")
    assert np.array_equal(g.read_tiff(r.content)[0], RGB[1:3])


def test_201_png_jpeg_gif_of_8_bit_bands(anon, client, g):
    from io import BytesIO

    from PIL import Image

    g.upload(client, "rgb", g.geotiff(RGB, maxy=20.0))
    r = wcs(anon, "2.0.1", coverageId="sf__rgb", format="image/png")
    assert r.headers["content-type"] == "image/png"
    assert r.headers["content-disposition"] == "inline; filename=sf__rgb.png"
    assert np.array_equal(np.moveaxis(np.asarray(Image.open(BytesIO(r.content))), -1, 0), RGB)
    for fmt, magic in (("image/jpeg", b"\xff\xd8"), ("image/gif", b"GIF8")):
        r = wcs(anon, "2.0.1", coverageId="sf__rgb", format=fmt)
        assert r.status_code == 200 and r.content[:4].startswith(magic)


def test_arcgrid_text(anon, dem, g):
    r = wcs(anon, "2.0.1", coverageId="sf__dem", format="text/plain", subset="Lat(98,100)")
    assert r.headers["content-type"].startswith("text/plain")
    lines = r.content.decode().splitlines()
    assert lines[:6] == [
        "NCOLS 80",
        "NROWS 2",
        "XLLCORNER 0.0",
        "YLLCORNER 98.0",
        "CELLSIZE 1.0",
        "NODATA_VALUE -9999.0",
    ]
    assert [float(v) for v in lines[7].split()] == dem[0, 1].tolist()
    r = wcs(anon, "1.0.0", coverage="sf:dem", crs="EPSG:4326", bbox="0,99,80,100",
            width=80, height=1, format="ArcGrid-GZIP")  # fmt: skip
    assert r.headers["content-type"] == "application/x-gzip"
    assert gzip.decompress(r.content).startswith(b"NCOLS 80\nNROWS 1\n")


def test_100_bbox_width_height_and_response_crs(anon, dem, g):
    r = wcs(anon, "1.0.0", coverage="sf:dem", crs="EPSG:4326", bbox="10,50,30,60",
            width=20, height=10, format="GeoTIFF")  # fmt: skip
    assert r.status_code == 200, r.text
    assert r.headers["content-disposition"] == "inline; filename=sf:dem.tif"
    pixels, _ = g.read_tiff(r.content)
    assert np.array_equal(pixels, dem[:, 40:50, 10:30])
    r = wcs(anon, "1.0.0", coverage="sf:dem", crs="EPSG:4326", bbox="10,50,30,60",
            resx=2, resy=2, format="image/tiff")  # fmt: skip
    assert np.array_equal(g.read_tiff(r.content)[0], dem[:, 41:50:2, 11:30:2])
    r = wcs(anon, "1.0.0", coverage="sf:dem", crs="EPSG:4326", bbox="10,50,30,60",
            width=20, height=10, response_crs="EPSG:3857", format="GeoTIFF")  # fmt: skip
    pixels, tags = g.read_tiff(r.content)
    assert pixels.shape == (1, 10, 20)
    assert tuple(tags[34735][12:16]) == (3072, 0, 1, 3857)
    assert tags[33922][3] == pytest.approx(1113194.9, rel=1e-6)


def test_111_multipart_with_the_coverages_document(anon, dem, g):
    r = wcs(anon, "1.1.1", identifier="sf:dem", boundingbox="10,50,30,60", format="image/tiff")
    assert r.status_code == 200, r.text
    assert r.headers["content-type"].startswith("multipart/related")
    assert r.headers["content-disposition"] == 'attachment;filename="sf_dem.eml"'
    message = email.message_from_bytes(r.content)
    xml, tiff = message.get_payload()
    assert xml["Content-ID"] == "<urn:ogc:wcs:1.1:coverages>"
    assert b"cid:theCoverage" in xml.get_payload(decode=True)
    assert tiff["Content-ID"] == "<theCoverage>"
    pixels, _ = g.read_tiff(tiff.get_payload(decode=True))
    assert np.array_equal(pixels, dem[:, 40:50, 10:30])


def test_111_urn_bbox_is_latitude_first_and_store_true(anon, dem, g):
    from lxml import etree

    r = wcs(anon, "1.1.1", identifier="sf:dem", format="GeoTIFF", store="true",
            boundingbox="50,10,60,30,urn:ogc:def:crs:EPSG::4326")  # fmt: skip
    assert r.headers["content-type"] == "application/xml"
    root = etree.fromstring(r.content)
    href = root.find(".//{http://www.opengis.net/ows/1.1}Reference").get(
        "{http://www.w3.org/1999/xlink}href"
    )
    assert "/geoserver/temp/wcs/dem_" in href
    stored = anon.get(href.split("/geoserver", 1)[1])
    assert stored.headers["content-type"] == "image/tiff"
    assert np.array_equal(g.read_tiff(stored.content)[0], dem[:, 40:50, 10:30])


def test_111_range_subset_and_grid_offsets(anon, client, g):
    g.upload(client, "rgb", g.geotiff(RGB, maxy=20.0))
    r = wcs(anon, "1.1.1", identifier="sf:rgb", boundingbox="0,0,30,20", format="image/tiff",
            store="true", RangeSubset="contents:nearest[Bands[GREEN_BAND]]")  # fmt: skip
    from lxml import etree

    href = etree.fromstring(r.content).find(".//{http://www.opengis.net/ows/1.1}Reference")
    stored = anon.get(href.get("{http://www.w3.org/1999/xlink}href").split("/geoserver", 1)[1])
    assert np.array_equal(g.read_tiff(stored.content)[0], RGB[1:2])
    r = wcs(anon, "1.1.1", identifier="sf:rgb", boundingbox="0,0,30,20", format="image/tiff",
            store="true", GridOffsets="2,0,0,-2")  # fmt: skip
    href = etree.fromstring(r.content).find(".//{http://www.opengis.net/ows/1.1}Reference")
    stored = anon.get(href.get("{http://www.w3.org/1999/xlink}href").split("/geoserver", 1)[1])
    assert g.read_tiff(stored.content)[0].shape == (3, 10, 15)


def test_100_band_selection(anon, client, g):
    g.upload(client, "rgb", g.geotiff(RGB, maxy=20.0))
    params = dict(coverage="sf:rgb", crs="EPSG:4326", bbox="0,0,30,20", width=30, height=20,
                  format="GeoTIFF")  # fmt: skip
    assert np.array_equal(g.read_tiff(wcs(anon, "1.0.0", band="3", **params).content)[0], RGB[2:])
    got = g.read_tiff(wcs(anon, "1.0.0", band="1/2", **params).content)[0]
    assert np.array_equal(got, RGB[:2])


def test_same_request_same_bytes(anon, dem):
    a = wcs(anon, "2.0.1", coverageId="sf__dem", subset="Lat(50,60)").content
    assert a == wcs(anon, "2.0.1", coverageId="sf__dem", subset="Lat(50,60)").content


def test_stock_coverage_pixels(anon, g):
    from geoserver_emulator import stockdata

    r = wcs(anon, "2.0.1", coverageId="nurc__Arc_Sample", subset=["Lat(0,10)", "Long(-10,0)"])
    grid = stockdata.load_grid("nurc", "Arc_Sample")
    assert np.array_equal(g.read_tiff(r.content)[0], grid.pixels[:, 160:180, 340:360])


def test_posted_xml_requests(anon, dem, g):
    v20 = b"""<wcs:GetCoverage xmlns:wcs="http://www.opengis.net/wcs/2.0" service="WCS"
        version="2.0.1"><wcs:CoverageId>sf__dem</wcs:CoverageId>
        <wcs:DimensionTrim><wcs:Dimension>Long</wcs:Dimension><wcs:TrimLow>10</wcs:TrimLow>
        <wcs:TrimHigh>30</wcs:TrimHigh></wcs:DimensionTrim>
        <wcs:DimensionTrim><wcs:Dimension>Lat</wcs:Dimension><wcs:TrimLow>50</wcs:TrimLow>
        <wcs:TrimHigh>60</wcs:TrimHigh></wcs:DimensionTrim>
        <wcs:format>image/tiff</wcs:format></wcs:GetCoverage>"""
    r = anon.post("/wcs", content=v20, headers={"Content-Type": "application/xml"})
    assert r.status_code == 200, r.text
    assert np.array_equal(g.read_tiff(r.content)[0], dem[:, 40:50, 10:30])
    v10 = b"""<GetCoverage xmlns="http://www.opengis.net/wcs" xmlns:gml="http://www.opengis.net/gml"
        service="WCS" version="1.0.0"><sourceCoverage>sf:dem</sourceCoverage>
        <domainSubset><spatialSubset><gml:Envelope srsName="EPSG:4326">
        <gml:pos>10 50</gml:pos><gml:pos>30 60</gml:pos></gml:Envelope>
        <gml:Grid dimension="2"><gml:limits><gml:GridEnvelope><gml:low>0 0</gml:low>
        <gml:high>19 9</gml:high></gml:GridEnvelope></gml:limits></gml:Grid>
        </spatialSubset></domainSubset>
        <output><format>GeoTIFF</format></output></GetCoverage>"""
    r = anon.post("/wcs", content=v10, headers={"Content-Type": "application/xml"})
    assert r.status_code == 200, r.text
    assert np.array_equal(g.read_tiff(r.content)[0], dem[:, 40:50, 10:30])
    v11 = b"""<GetCoverage xmlns="http://www.opengis.net/wcs/1.1.1"
        xmlns:ows="http://www.opengis.net/ows/1.1" service="WCS" version="1.1.1">
        <ows:Identifier>sf:dem</ows:Identifier><DomainSubset><ows:BoundingBox>
        <ows:LowerCorner>10 50</ows:LowerCorner><ows:UpperCorner>30 60</ows:UpperCorner>
        </ows:BoundingBox></DomainSubset><Output format="image/tiff" store="false"/>
        </GetCoverage>"""
    r = anon.post("/wcs", content=v11, headers={"Content-Type": "application/xml"})
    assert r.status_code == 200, r.text
    assert r.headers["content-type"].startswith("multipart/related")
