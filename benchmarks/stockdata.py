"""What the stock sample data costs: its size, the decode time per layer, and start-up with it.

    python benchmarks/stockdata.py [--quick] [--base REF]

1. The files (``emulator/stockdata``): bytes per layer and in all, against the budget.
2. Decoding, in a fresh interpreter: numpy and shapely's import (paid once, by the first
   layer a process loads), then each layer's first ``load`` (read, decompress, decode) and
   the best of several decodes of the same bytes (``codec.decode_*``).
3. Start-up: ``import geoserver_emulator`` + ``create_app(Emulator("stock"))`` +
   ``reset()`` in fresh interpreters (CPU time, best of N, bytecode and scenario cache warm),
   for this tree and for the comparator ``--base`` (a git ref; by default the parent of the
   commit that added ``emulator/stockdata``, unpacked with ``git archive``), with the ratio;
   and whether start-up imported the stock data (it must not).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

BUDGET = 3_000_000

DECODE = """
import json, time
t0 = time.perf_counter()
import numpy, shapely
imports = time.perf_counter() - t0
from geoserver_emulator import stockdata
from geoserver_emulator.stockdata import codec
out = {"imports": imports, "layers": {}}

def timed(decoder, data):
    t0 = time.perf_counter()
    decoder(data)
    return time.perf_counter() - t0

for ws, name in stockdata.layers() + stockdata.grids():
    grid = (ws, name) in stockdata.grids()
    t0 = time.perf_counter()
    (stockdata.load_grid if grid else stockdata.load)(ws, name)
    first = time.perf_counter() - t0
    data = stockdata.read_bytes(ws, name, stockdata.GRID_SUFFIX if grid else stockdata.TABLE_SUFFIX)
    decoder = codec.decode_grid if grid else codec.decode_table
    best = min(timed(decoder, data) for _ in range(REPEAT))
    out["layers"][f"{ws}:{name}"] = [first, best]
print(json.dumps(out))
"""

START = """
import json, sys, time
c0 = time.process_time()
import geoserver_emulator
emu = geoserver_emulator.Emulator("stock")
geoserver_emulator.create_app(emu)
emu.reset()
c1 = time.process_time()
print(json.dumps([c1 - c0, "geoserver_emulator.stockdata" in sys.modules]))
"""


def sizes() -> None:
    files = sorted((ROOT / "emulator/stockdata").glob("*.gs?"))
    total = sum(p.stat().st_size for p in files)
    print("stock data files (bytes)")
    for p in files:
        print(f"  {p.stat().st_size:>9}  {p.name}")
    print(f"  {total:>9}  in all ({total / BUDGET:.0%} of the {BUDGET:,} budget)")


def decode(repeat: int) -> None:
    code = DECODE.replace("REPEAT", str(repeat))
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    found = json.loads(out.stdout)
    print(f"numpy + shapely import (first layer of a process): {found['imports'] * 1e3:.1f} ms")
    print("decode (first load, then best of repeated decodes), ms")
    for name, (first, best) in found["layers"].items():
        print(f"  {first * 1e3:>8.2f} {best * 1e3:>8.2f}  {name}")


def _start(tree: Path, repeat: int, env: dict[str, str]) -> tuple[float, bool]:
    shim = tempfile.mkdtemp(prefix="stockbench-")
    os.symlink(tree / "emulator", Path(shim) / "geoserver_emulator")
    run_env = {**env, "PYTHONPATH": shim}
    subprocess.run([sys.executable, "-c", START], env=run_env, check=True, capture_output=True)
    runs = []
    for _ in range(repeat):
        out = subprocess.run(
            [sys.executable, "-c", START], env=run_env, check=True, capture_output=True, text=True
        )
        runs.append(json.loads(out.stdout))
    return min(r[0] for r in runs), any(r[1] for r in runs)


def _before_the_stock_data() -> str | None:
    """The parent of the commit that added the stock data, None without git history."""
    log = subprocess.run(
        ["git", "log", "--diff-filter=A", "--format=%H", "--", "emulator/stockdata/__init__.py"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    added = log.stdout.split()
    return f"{added[-1]}~1" if log.returncode == 0 and added else None


def _unpack(ref: str, into: Path) -> bool:
    archive = subprocess.run(["git", "archive", ref, "emulator"], cwd=ROOT, capture_output=True)
    if archive.returncode != 0:
        return False
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive.stdout, check=True)
    return True


def start_up(repeat: int, base: str | None) -> None:
    with tempfile.TemporaryDirectory(prefix="stockbench-") as work:
        env = {
            **os.environ,
            "PYTHONPYCACHEPREFIX": str(Path(work) / "pycache"),
            "GEOSERVER_EMULATOR_CACHE": str(Path(work) / "scenarios"),
        }
        ours, imported = _start(ROOT, repeat, env)
        print("import + create_app(Emulator('stock')) + reset(), CPU, best of", repeat)
        print(f"  {ours * 1e3:8.1f} ms  this tree (stock data imported: {imported})")
        old = Path(work) / "base"
        old.mkdir()
        if base is None or not _unpack(base, old):
            print(f"  (no comparator: {base or 'no git history'} cannot be unpacked)")
            return
        theirs, _ = _start(old, repeat, {**env, "GEOSERVER_EMULATOR_CACHE": f"{work}/base-sc"})
        print(f"  {theirs * 1e3:8.1f} ms  {base} (before the stock data)")
        print(f"  ratio {ours / theirs:.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="one run of each figure")
    parser.add_argument("--base", help="the git ref to compare start-up with")
    args = parser.parse_args()
    repeat = 1 if args.quick else 7
    sizes()
    decode(repeat)
    start_up(repeat, args.base or _before_the_stock_data())


if __name__ == "__main__":
    main()
