"""Benchmark: coordinate transformations (``emulator/crs/``) and what they cost the services.

Run: ``.venv/bin/python benchmarks/crs.py [--repeat N] [--quick]``. Prints, each against
its comparator in the same run (CPU milliseconds, median of the runs):

- the WGS 84 → spherical Mercator fast path against a ``pyproj.Transformer`` doing the same
  (100,000 points at once; a 40-point box outline, the size of every map's area), the ratio
  saying whether the fast path pays;
- a 256×256 GetMap of 500 polygons held in EPSG:4326, drawn in EPSG:3857 (fast path) and in
  EPSG:3395 (World Mercator, through PROJ), and in their own CRS (no transformation);
- WMS 1.3.0 capabilities of the stock catalog with the whole EPSG list (made once per
  process) and with a list of three (the settings' ``srs``);
- the first transformation in a fresh process (importing pyproj, opening PROJ's database),
  which a client using only WGS 84 and spherical Mercator never pays (the fast path).

Figures are printed, never asserted.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from ows import _request, _setup


def _median_ms(run: Callable[[], object], repeat: int) -> float:
    run()
    times = []
    for _ in range(max(1, repeat)):
        start = time.process_time()
        run()
        times.append((time.process_time() - start) * 1000)
    return statistics.median(times)


def _points(repeat: int) -> None:
    import numpy as np
    from pyproj import Transformer

    from geoserver_emulator.crs.transform import between

    fast = between("EPSG:4326", "EPSG:3857")
    proj = Transformer.from_crs("EPSG:4326", "EPSG:3857", always_xy=True)
    rng = np.random.default_rng(1)
    xs, ys = rng.uniform(-180, 180, 100_000), rng.uniform(-85, 85, 100_000)
    box = (-10.0, 40.0, 10.0, 50.0)
    print("WGS 84 -> spherical Mercator (CPU ms: fast path / pyproj / ratio)")
    a = _median_ms(lambda: fast.arrays(xs, ys), repeat)
    b = _median_ms(lambda: proj.transform(xs, ys), repeat)
    print(f"  100,000 points            {a:8.3f} / {b:8.3f} / {b / a:5.1f}x")
    slow = between("EPSG:4326", "EPSG:3395")  # a PROJ transformation, same box size
    a = _median_ms(lambda: [fast.bounds(box) for _ in range(100)], repeat) / 100
    b = _median_ms(lambda: [slow.bounds(box) for _ in range(100)], repeat) / 100
    print(f"  a map's box (40 points)   {a:8.4f} / {b:8.4f} / {b / a:5.1f}x")


def _services(repeat: int) -> None:
    emu = _setup()
    app = emu.asgi_app
    ctx = "/geoserver"
    base = (
        "service=WMS&version=1.1.1&request=GetMap&layers=sf:cells&styles=polygon"
        "&width=256&height=256&format=image/png"
    )
    maps = {
        "EPSG:4326 (no transformation)": "&srs=EPSG:4326&bbox=-180,-80,180,80",
        "EPSG:3857 (fast path)": "&srs=EPSG:3857&bbox=-20037508,-15538711,20037508,15538711",
        "EPSG:3395 (PROJ)": "&srs=EPSG:3395&bbox=-20037508,-15496571,20037508,15496571",
    }
    print("GetMap 256x256 of 500 polygons held in EPSG:4326 (CPU ms, median)")
    for name, extra in maps.items():
        print(f"  {name:30} {_median_ms(_request(app, f'{ctx}/wms', base + extra), repeat):7.2f}")
    caps = "service=WMS&request=GetCapabilities&version=1.3.0"
    full = _median_ms(_request(app, f"{ctx}/wms", caps), repeat)
    emu.state.settings.services["wms"]["srs"] = ["EPSG:4326", "EPSG:3857", "EPSG:26713"]
    limited = _median_ms(_request(app, f"{ctx}/wms", caps), repeat)
    print("WMS 1.3.0 capabilities of the stock catalog (CPU ms, median; target 5)")
    print(f"  the whole EPSG list       {full:7.2f}  {'met' if full <= 5 else 'MISSED'}")
    print(f"  three CRSs (settings)     {limited:7.2f}")


def _first_use() -> None:
    code = (
        "import time; t = time.process_time()\n"
        "from geoserver_emulator.crs.transform import between\n"
        "between('EPSG:26713', 'EPSG:4326').point(600000, 4920000)\n"
        "print((time.process_time() - t) * 1000)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    figure = out.stdout.strip() or out.stderr.strip()
    print(f"first PROJ transformation in a fresh process: {figure[:60]} CPU ms")
    fast = (
        "import sys\n"
        "from geoserver_emulator.crs.transform import between\n"
        "between('EPSG:4326', 'EPSG:3857').point(10, 50)\n"
        "between('CRS:84', 'EPSG:900913').bounds((0, 0, 1, 1))\n"
        "print('pyproj' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", fast], capture_output=True, text=True)
    print(f"the fast path imports pyproj: {(out.stdout.strip() or out.stderr.strip())[:60]}")


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=20)
    parser.add_argument("--quick", action="store_true", help="one run of each")
    args = parser.parse_args()
    repeat = 1 if args.quick else args.repeat
    _points(repeat)
    _services(repeat)
    _first_use()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
