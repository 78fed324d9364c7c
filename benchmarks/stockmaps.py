"""What serving and drawing the stock data costs: start-up, the per-test reset, and GetMap.

    python benchmarks/stockmaps.py [--quick] [--base REF]

1. Start-up: ``import geoserver_emulator`` + ``create_app(Emulator("stock"))`` + ``reset()``
   in fresh interpreters (CPU, best of N), for this tree and for ``--base`` (a git ref; by
   default the parent of the commit that added ``features/stock.py``), with the ratio.
2. Per test: ``reset()`` and one WFS ``resultType=hits`` of ``topp:states`` (what a test of
   the stock data does), against ``reset()`` and a hits of a type without data: the shared
   data is never copied, so the two are alike.
3. GetMap of ``topp:states`` (768 × 384 PNG with ``population``): the first in a fresh
   interpreter (decoding the layer, numpy and shapely's import included) and warm ones.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

import stockdata as startup  # noqa: E402  (the start-up measurement of benchmarks/stockdata.py)

GETMAP = (
    "/geoserver/wms?service=WMS&version=1.1.1&request=GetMap&layers=topp:states&styles="
    "&srs=EPSG:4326&bbox=-125,24,-66,50&width=768&height=384&format=image/png"
)
HITS = "/geoserver/wfs?service=WFS&version=2.0.0&request=GetFeature&resultType=hits&typeNames="
FIRST = """
import json, time
t0 = time.perf_counter()
import httpx
from geoserver_emulator import Emulator
emu = Emulator("stock")
client = httpx.Client(transport=httpx.WSGITransport(app=emu.wsgi_app), base_url="http://x")
t1 = time.perf_counter()
r = client.get(PATH)
t2 = time.perf_counter()
assert r.status_code == 200
print(json.dumps([t1 - t0, t2 - t1]))
"""


def _before_the_stock_source() -> str | None:
    log = subprocess.run(
        ["git", "log", "--diff-filter=A", "--format=%H", "--", "emulator/features/stock.py"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    added = log.stdout.split()
    return f"{added[-1]}~1" if log.returncode == 0 and added else None


def per_test(repeat: int) -> None:
    import httpx

    from geoserver_emulator import Emulator

    emu = Emulator("stock")
    client = httpx.Client(transport=httpx.WSGITransport(app=emu.wsgi_app), base_url="http://x")
    client.get(HITS + "topp:states")  # the shared table decoded once
    print(f"per test: reset() + one WFS hits, median of {repeat}, ms")
    for name in ("topp:states", "tiger:poi"):
        runs = []
        for _ in range(repeat):
            t0 = time.perf_counter()
            emu.reset()
            r = client.get(HITS + name)
            runs.append(time.perf_counter() - t0)
            assert r.status_code == 200
        note = "stock features" if name == "topp:states" else "no features"
        print(f"  {statistics.median(runs) * 1e3:8.2f}  {name} ({note})")


def getmap(repeat: int) -> None:
    import httpx

    from geoserver_emulator import Emulator

    out = subprocess.run(
        [sys.executable, "-c", FIRST.replace("PATH", repr(GETMAP))],
        capture_output=True,
        text=True,
        check=True,
    )
    ready, first = json.loads(out.stdout)
    emu = Emulator("stock")
    client = httpx.Client(transport=httpx.WSGITransport(app=emu.wsgi_app), base_url="http://x")
    client.get(GETMAP)
    runs = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        client.get(GETMAP)
        runs.append(time.perf_counter() - t0)
    print("GetMap topp:states 768x384 PNG (population), ms")
    print(f"  {first * 1e3:8.1f}  first in a fresh interpreter (after {ready * 1e3:.0f} ms ready)")
    print(f"  {statistics.median(runs) * 1e3:8.1f}  warm, median of {repeat}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="few runs of each figure")
    parser.add_argument("--base", help="the git ref to compare start-up with")
    args = parser.parse_args()
    repeat = 3 if args.quick else 15
    with tempfile.TemporaryDirectory():
        startup.start_up(1 if args.quick else 7, args.base or _before_the_stock_source())
    per_test(repeat)
    getmap(repeat)


if __name__ == "__main__":
    main()
