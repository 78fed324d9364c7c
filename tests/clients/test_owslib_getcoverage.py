"""OWSLib's ``getCoverage`` (WCS 1.0.0, 1.1.1 and 2.0.1) against the live emulator: the
coverage it reads back holds the uploaded GeoTIFF's pixels."""

from __future__ import annotations

import email
import io

import numpy as np
import pytest
import requests
import tifffile

owslib_wcs = pytest.importorskip("owslib.wcs")

PIXELS = (np.arange(30 * 40, dtype=np.int16).reshape(30, 40) * 3) - 100


def geotiff() -> bytes:
    """40 × 30 pixels of 0.5°, upper left corner at (10, 50), EPSG:4326."""
    keys = (1, 1, 0, 3, 1024, 0, 1, 2, 1025, 0, 1, 1, 2048, 0, 1, 4326)
    out = io.BytesIO()
    tifffile.imwrite(
        out,
        PIXELS,
        extratags=[
            (33550, "d", 3, (0.5, 0.5, 0.0), True),
            (33922, "d", 6, (0.0, 0.0, 0.0, 10.0, 50.0, 0.0), True),
            (34735, "H", len(keys), keys, True),
        ],
        metadata=None,
    )
    return out.getvalue()


@pytest.fixture
def uploaded(base_url: str) -> None:
    r = requests.put(
        f"{base_url}/rest/workspaces/sf/coveragestores/relief/file.geotiff",
        data=geotiff(),
        headers={"Content-Type": "image/tiff"},
        auth=("admin", "geoserver"),
        timeout=10,
    )
    assert r.status_code == 201, r.text


def read(data: bytes) -> np.ndarray:
    return tifffile.imread(io.BytesIO(data))


@pytest.mark.filterwarnings("ignore::FutureWarning")
def test_wcs_100_get_coverage(base_url, uploaded):
    wcs = owslib_wcs.WebCoverageService(f"{base_url}/wcs", version="1.0.0")
    assert "sf:relief" in wcs.contents
    got = wcs.getCoverage(identifier="sf:relief", bbox=(15, 40, 20, 45), crs="EPSG:4326",
                          format="GeoTIFF", width=10, height=10)  # fmt: skip
    assert np.array_equal(read(got.read()), PIXELS[10:20, 10:20])


@pytest.mark.filterwarnings("ignore::FutureWarning")
def test_wcs_111_get_coverage(base_url, uploaded):
    wcs = owslib_wcs.WebCoverageService(f"{base_url}/wcs", version="1.1.1")
    got = wcs.getCoverage(identifier="sf:relief", bbox=(15, 40, 20, 45), format="image/tiff")
    message = email.message_from_bytes(
        b"Content-Type: " + got.info()["Content-Type"].encode() + b"\r\n\r\n" + got.read()
    )
    parts = [p for p in message.walk() if not p.is_multipart()]
    coverage = next(p for p in parts if p["Content-ID"] == "<theCoverage>")
    assert np.array_equal(read(coverage.get_payload(decode=True)), PIXELS[10:20, 10:20])


def test_wcs_201_get_coverage(base_url, uploaded):
    wcs = owslib_wcs.WebCoverageService(f"{base_url}/wcs", version="2.0.1")
    assert "sf__relief" in wcs.contents
    got = wcs.getCoverage(identifier="sf__relief", format="image/tiff",
                          subsets=[("Long", 15, 20), ("Lat", 40, 45)])  # fmt: skip
    assert np.array_equal(read(got.read()), PIXELS[10:20, 10:20])
