"""Benchmark: 1,000 running seed tasks advanced by one simulated hour (target: < 50 ms).

Run: ``.venv/bin/python benchmarks/seeding.py``. Three cases, each on a fresh emulator with
a pool of 1,000 threads:

- ``long``: 100 requests x 10 threads seeding zoom 0-20 of the world (none ends within the
  hour, the common case while a person watches);
- ``ending``: 1,000 single-thread requests that all end within the hour (1,000 events);
- ``shared``: 8 requests of 125 threads (a request may ask for at most 128), each request's
  threads sharing one iterator, ending within the hour.

Each case also times one status listing of the 1,000 tasks. Prints milliseconds; exits 1
if an advance takes 50 ms or more.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable

from geoserver_emulator import Emulator
from geoserver_emulator.areas.seeding.model import TileLayer
from geoserver_emulator.areas.seeding.request import SeedRequest

LIMIT_MS = 50.0


def _emulator() -> Emulator:
    emu = Emulator("empty")
    store = emu.state.seeding
    store.settings.pool_size = 1000
    store.tile_layers["bench:world"] = TileLayer("bench:world")
    return emu


def _submit(emu: Emulator, requests: int, threads: int, zoom_stop: int, rate: float) -> None:
    emu.state.seeding.settings.default_rate = rate
    for _ in range(requests):
        req = SeedRequest(
            gridset_id="EPSG:4326", zoom_start=0, zoom_stop=zoom_stop, thread_count=threads
        )
        emu.scheduler.submit("bench:world", req)


CASES: dict[str, Callable[[Emulator], None]] = {
    "long": lambda emu: _submit(emu, 100, 10, 20, 10.0),
    "ending": lambda emu: _submit(emu, 1000, 1, 7, 1.0),
    "shared": lambda emu: _submit(emu, 8, 125, 10, 1.0),
}


def main() -> int:
    worst = 0.0
    for name, setup in CASES.items():
        emu = _emulator()
        setup(emu)
        running = len(emu.state.seeding.running)
        start = time.perf_counter()
        emu.clock.advance(3600)
        advance_ms = (time.perf_counter() - start) * 1000
        start = time.perf_counter()
        rows = emu.scheduler.status()
        list_ms = (time.perf_counter() - start) * 1000
        ended = sum(1 for r in rows if r[4] == 2)
        print(
            f"{name:7s} {running} running: advance 1 h {advance_ms:7.2f} ms ({ended} ended),"
            f" list {list_ms:7.2f} ms"
        )
        worst = max(worst, advance_ms)
    print(f"worst advance: {worst:.2f} ms (limit {LIMIT_MS:.0f} ms)")
    return 0 if worst < LIMIT_MS else 1


if __name__ == "__main__":
    sys.exit(main())
