"""GetCoverage on an image mosaic with time and elevation: the granules at the requested
(or default) values, as GeoServer's readers select them."""

from __future__ import annotations

import io
import zipfile

import numpy as np
import pytest

INDEXER = (
    "TimeAttribute=ingestion\n"
    "ElevationAttribute=elevation\n"
    "Schema=*the_geom:Polygon,location:String,ingestion:java.util.Date,elevation:Integer\n"
    "PropertyCollectors=TimestampFileNameExtractorSPI[timeregex](ingestion),"
    "IntegerFileNameExtractorSPI[elevationregex](elevation)\n"
)
DAYS = ("20081031", "20081101", "20081102")
ELEVATIONS = (0, 10)


def value(day: int, elevation: int) -> int:
    return 10 * (day + 1) + elevation // 10


def mosaic(g) -> bytes:
    files = {
        "indexer.properties": INDEXER,
        "timeregex.properties": "regex=[0-9]{8}T[0-9]{7}\n",
        "elevationregex.properties": "regex=(?<=_)[0-9]{3}(?=_)\n",
    }
    for d, day in enumerate(DAYS):
        for e in ELEVATIONS:
            pixels = np.full((1, 4, 4), value(d, e), dtype=np.uint8)
            name = f"NCOM_wattemp_{e:03d}_{day}T0000000_12.tiff"
            files[name] = g.geotiff(pixels, minx=0.0, maxy=45.0, px=0.25, py=0.25)
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as archive:
        for name, body in files.items():
            archive.writestr(name, body)
    return buf.getvalue()


@pytest.fixture
def watertemp(client, g):
    r = client.put(
        "/rest/workspaces/sf/coveragestores/watertemp/file.imagemosaic",
        content=mosaic(g),
        headers={"Content-Type": "application/zip"},
    )
    assert r.status_code in (200, 201), r.text
    entries = [
        {"@key": key, "dimensionInfo": {"enabled": True, "presentation": "LIST"}}
        for key in ("time", "elevation")
    ]
    r = client.put(
        "/rest/workspaces/sf/coveragestores/watertemp/coverages/watertemp",
        json={"coverage": {"metadata": {"entry": entries}}},
    )
    assert r.status_code == 200, r.text


def get(anon, g, version: str = "2.0.1", **params) -> np.ndarray:
    query = {"service": "WCS", "version": version, "request": "GetCoverage", **params}
    r = anon.get("/wcs", params=query)
    assert r.status_code == 200, r.text
    return g.read_tiff(r.content)[0]


def test_time_and_elevation_slices_select_the_granule(anon, watertemp, g):
    got = get(anon, g, coverageId="sf__watertemp",
              subset=['time("2008-11-01T00:00:00.000Z")', "elevation(10)"])  # fmt: skip
    assert got.shape == (1, 4, 4) and np.all(got == value(1, 10))


def test_the_nearest_time_is_taken(anon, watertemp, g):
    got = get(anon, g, coverageId="sf__watertemp", subset='time("2008-11-01T20:00:00Z")')
    assert np.all(got == value(2, 0))  # nearest day, default (lowest) elevation


def test_defaults_latest_time_lowest_elevation(anon, watertemp, g):
    assert np.all(get(anon, g, coverageId="sf__watertemp") == value(2, 0))
    got = get(anon, g, "1.0.0", coverage="sf:watertemp", crs="EPSG:4326",
              bbox="0,44,1,45", width=4, height=4, format="GeoTIFF")  # fmt: skip
    assert np.all(got == value(2, 0))


def test_100_time_and_elevation(anon, watertemp, g):
    got = get(anon, g, "1.0.0", coverage="sf:watertemp", crs="EPSG:4326", bbox="0,44,1,45",
              width=4, height=4, format="GeoTIFF", time="2008-10-31T00:00:00Z",
              elevation="10")  # fmt: skip
    assert np.all(got == value(0, 10))


def test_a_time_range_on_a_mosaic_takes_the_latest_on_top(anon, watertemp, g):
    got = get(anon, g, coverageId="sf__watertemp", subset=[
        'time("2008-10-31T00:00:00Z","2008-11-01T00:00:00Z")', "elevation(0)"])  # fmt: skip
    assert np.all(got == value(1, 0))


def test_time_on_a_coverage_without_it_is_an_invalid_axis(anon, client, g):
    g.upload(client, "flat", g.geotiff(np.zeros((1, 2, 2), np.uint8), maxy=2.0))
    query = {"service": "WCS", "version": "2.0.1", "request": "GetCoverage"}
    r = anon.get("/wcs", params={**query, "coverageId": "sf__flat", "subset": 'time("2008")'})
    assert r.status_code == 404
    assert g.ows_error(r)[:2] == ("InvalidAxisLabel", None)
