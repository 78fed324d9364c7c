"""Hypothesis: any subset and scale of an uploaded GeoTIFF, read with WCS 2.0.1, equals a
resample computed here independently (pixel by pixel, in plain Python)."""

from __future__ import annotations

import math

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

WIDTH, HEIGHT = 12, 10
SOURCE = ((np.arange(HEIGHT * WIDTH) * 37) % 101).astype(np.float32).reshape(1, HEIGHT, WIDTH)


def reference(c0: int, c1: int, r0: int, r1: int, w: int, h: int, method: str) -> np.ndarray:
    """The expected pixels of a w × h answer over source columns c0..c1, rows r0..r1."""
    out = np.zeros((h, w), dtype=np.float64)
    for j in range(h):
        for i in range(w):
            x = c0 + (i + 0.5) * (c1 - c0) / w - 0.5
            y = r0 + (j + 0.5) * (r1 - r0) / h - 0.5
            if method == "nearest":
                cx = min(max(math.floor(x + 0.5), 0), WIDTH - 1)
                cy = min(max(math.floor(y + 0.5), 0), HEIGHT - 1)
                out[j, i] = SOURCE[0, cy, cx]
                continue
            x0, y0 = math.floor(x), math.floor(y)
            fx, fy = x - x0, y - y0
            total = 0.0
            for dy, wy in ((0, 1 - fy), (1, fy)):
                for dx, wx in ((0, 1 - fx), (1, fx)):
                    cx = min(max(x0 + dx, 0), WIDTH - 1)
                    cy = min(max(y0 + dy, 0), HEIGHT - 1)
                    total += float(SOURCE[0, cy, cx]) * wx * wy
            out[j, i] = total
    return out


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    cols=st.tuples(st.integers(0, WIDTH - 1), st.integers(1, WIDTH)).filter(lambda t: t[0] < t[1]),
    rows=st.tuples(st.integers(0, HEIGHT - 1), st.integers(1, HEIGHT)).filter(
        lambda t: t[0] < t[1]
    ),
    size=st.tuples(st.integers(1, 25), st.integers(1, 25)),
    method=st.sampled_from(["nearest", "linear"]),
)
def test_subset_and_scale_equal_the_reference(client_for, g, cols, rows, size, method):
    client = client_for()
    r = client.get("/rest/workspaces/sf/coveragestores/grid.json")
    if r.status_code == 404:  # the emulator lives across the examples: upload once
        g.upload(client, "grid", g.geotiff(SOURCE, minx=100.0, maxy=50.0, px=0.5, py=0.25))
    (c0, c1), (r0, r1) = cols, rows
    longs = f"Long({100 + c0 * 0.5},{100 + c1 * 0.5})"
    lats = f"Lat({50 - r1 * 0.25},{50 - r0 * 0.25})"
    w, h = size
    interp = f"http://www.opengis.net/def/interpolation/OGC/1/{method}"
    r = client.get(
        "/wcs",
        params={
            "service": "WCS",
            "version": "2.0.1",
            "request": "GetCoverage",
            "coverageId": "sf__grid",
            "subset": [longs, lats],
            "scalesize": f"i({w}),j({h})",
            "interpolation": interp,
        },
    )
    assert r.status_code == 200, r.text
    got, tags = g.read_tiff(r.content)
    expected = reference(c0, c1, r0, r1, w, h, "nearest" if method == "nearest" else "bilinear")
    assert got.shape == (1, h, w)
    assert np.allclose(got[0], expected, rtol=0, atol=1e-3)
    assert tags[33922][3:5] == (100 + c0 * 0.5, 50 - r0 * 0.25)
