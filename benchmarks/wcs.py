"""Benchmark: WCS GetCoverage in-process (target: a 512x512 subset of an uploaded GeoTIFF
<= 20 ms).

Run: ``.venv/bin/python benchmarks/wcs.py [--repeat N]``. A 2048 x 2048 float GeoTIFF is
uploaded to a stock emulator; each request goes through the ASGI app. Printed beside each
GetCoverage, as the comparator measured in the same run: tifffile reading the uploaded file
and writing a 512x512 GeoTIFF by itself (the floor under any GetCoverage: decode the source,
encode the answer), and the ratio between the two. CPU milliseconds, median and best;
printed, never asserted.
"""

from __future__ import annotations

import argparse
import io
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from ows import _request

from geoserver_emulator import Emulator

TARGET = 20.0
SIZE = 2048


def _geotiff() -> bytes:
    import numpy as np
    import tifffile

    pixels = (np.arange(SIZE * SIZE, dtype=np.float32) % 1013).reshape(SIZE, SIZE)
    keys = (1, 1, 0, 3, 1024, 0, 1, 1, 1025, 0, 1, 1, 3072, 0, 1, 32633)
    out = io.BytesIO()
    tifffile.imwrite(
        out,
        pixels,
        extratags=[
            (33550, "d", 3, (10.0, 10.0, 0.0), True),
            (33922, "d", 6, (0.0, 0.0, 0.0, 500000.0, 5000000.0, 0.0), True),
            (34735, "H", len(keys), keys, True),
        ],
        metadata=None,
    )
    return out.getvalue()


def _setup(data: bytes) -> Emulator:
    import httpx

    emu = Emulator("stock")
    client = httpx.Client(
        transport=httpx.WSGITransport(app=emu.wsgi_app),
        base_url="http://localhost:8080/geoserver",
        auth=("admin", "geoserver"),
    )
    r = client.put(
        "/rest/workspaces/sf/coveragestores/big/file.geotiff",
        content=data,
        headers={"Content-Type": "image/tiff"},
    )
    assert r.status_code == 201, r.text
    return emu


def _floor(data: bytes) -> Callable[[], None]:
    import numpy as np
    import tifffile

    def run() -> None:
        pixels = tifffile.imread(io.BytesIO(data))
        out = io.BytesIO()
        tifffile.imwrite(out, np.ascontiguousarray(pixels[512:1024, 512:1024]), metadata=None)

    return run


def _time(run: Callable[[], None], repeat: int) -> list[float]:
    run()
    times = []
    for _ in range(max(1, repeat)):
        start = time.process_time()
        run()
        times.append((time.process_time() - start) * 1000)
    return times


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=30)
    args = parser.parse_args()
    data = _geotiff()
    app = _setup(data).asgi_app
    ctx = "/geoserver"
    box = "subset=E(505120,510240)&subset=N(4984880,4990000)"
    cases = {
        "2.0.1 512x512 subset": f"coverageId=sf__big&{box}",
        "2.0.1 512x512 bilinear": (
            f"coverageId=sf__big&{box}&scalesize=i(512),j(512)"
            "&interpolation=http://www.opengis.net/def/interpolation/OGC/1/linear"
        ),
        "1.0.0 512x512 bbox": (
            "coverage=sf:big&crs=EPSG:32633&bbox=505120,4984880,510240,4990000"
            "&width=512&height=512&format=GeoTIFF"
        ),
    }
    floor = statistics.median(_time(_floor(data), args.repeat))
    print(f"WCS GetCoverage in-process, {args.repeat} runs each (CPU ms: median / best / target)")
    print(f"  {'comparator: tifffile decode+encode':34} {floor:7.2f}")
    missed = 0
    for name, query in cases.items():
        version = "2.0.1" if name.startswith("2.0.1") else "1.0.0"
        full = f"service=WCS&request=GetCoverage&version={version}&{query}"
        times = _time(_request(app, f"{ctx}/wcs", full), args.repeat)
        median = statistics.median(times)
        mark = "met" if median <= TARGET else "MISSED"
        missed += mark == "MISSED"
        ratio = median / floor if floor else float("nan")
        print(
            f"  {name:34} {median:7.2f} / {min(times):7.2f} / {TARGET:.0f}  {mark}"
            f"  ({ratio:.1f}x the comparator)"
        )
    print(f"targets: {len(cases) - missed} met, {missed} missed (median against the target)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
