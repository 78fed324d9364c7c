"""Per-test overhead of the pytest fixtures, and the cost of a request through each transport.

    python benchmarks/plugin_overhead.py [--tests N] [--check]

Fixture overhead is measured the way a user pays it: a pytest session of N trivial tests
using the fixture, its setup and teardown times per test minus those of the same tests
without it. ``--check`` exits 1 when a target is missed.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest

from geoserver_emulator import Emulator

TARGETS_MS = {"geoserver_emulator": 2.0, "geoserver_url": 5.0}
AUTH = ("admin", "geoserver")
URL = "http://t/geoserver/rest/x"


class Phases:
    """A pytest plugin object that keeps setup + teardown time per test."""

    def __init__(self) -> None:
        self.per_test: dict[str, float] = {}

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        if report.when in ("setup", "teardown"):
            self.per_test[report.nodeid] = self.per_test.get(report.nodeid, 0.0) + report.duration


def session_cost(fixture: str | None, tests: int, folder: Path) -> list[float]:
    """Setup + teardown seconds of each test of a session whose tests take ``fixture``."""
    args = f"i, {fixture}" if fixture else "i"
    path = folder / f"test_{fixture or 'bare'}.py"
    path.write_text(
        "import pytest\n\n"
        f"@pytest.mark.parametrize('i', range({tests}))\ndef test_it({args}):\n    pass\n"
    )
    phases = Phases()
    quiet = ["-p", "no:cacheprovider", "-p", "no:terminal", "-W", "ignore"]
    code = pytest.main([str(path), *quiet], plugins=[phases])
    if code != 0:
        raise SystemExit(f"the {fixture} session failed ({code})")
    return list(phases.per_test.values())


def per_call(fn: Callable[[], Any], n: int) -> float:
    """Median seconds per call over ``n`` calls (after one warm-up call)."""
    fn()
    samples = []
    for _ in range(n):
        start = time.perf_counter()
        fn()
        samples.append(time.perf_counter() - start)
    return statistics.median(samples)


def transports(n: int) -> list[tuple[str, float]]:
    import asyncio

    from geoserver_emulator.http.server import LiveServer

    emu = Emulator("stock")
    rows: list[tuple[str, float]] = []
    with httpx.Client(transport=httpx.WSGITransport(app=emu.wsgi_app), auth=AUTH) as c:
        rows.append(
            ("WSGI, in-house adapter (httpx.WSGITransport)", per_call(lambda: c.get(URL), n))
        )
    try:
        from a2wsgi import ASGIMiddleware
    except ImportError:
        rows.append(("WSGI, a2wsgi (not installed)", float("nan")))
    else:
        bridge = ASGIMiddleware(emu.asgi_app)  # type: ignore[arg-type]
        with httpx.Client(transport=httpx.WSGITransport(app=bridge), auth=AUTH) as c:
            rows.append(("WSGI, a2wsgi (httpx.WSGITransport)", per_call(lambda: c.get(URL), n)))
    from geoserver_emulator_pytest.clients import httpx_client

    with httpx_client(emu.wsgi_app, "http://localhost:8080/geoserver", AUTH) as c:
        rows.append(("geoserver_client (in process)", per_call(lambda: c.get("/rest/x"), n)))

    async def asgi() -> float:
        transport = httpx.ASGITransport(app=emu.asgi_app)
        async with httpx.AsyncClient(transport=transport, auth=AUTH) as c:
            await c.get("http://t/geoserver/rest/x")
            samples = []
            for _ in range(n):
                start = time.perf_counter()
                await c.get("http://t/geoserver/rest/x")
                samples.append(time.perf_counter() - start)
            return statistics.median(samples)

    rows.append(("ASGI (httpx.ASGITransport)", asyncio.run(asgi())))
    server = LiveServer(emu.asgi_app).start()
    try:
        with httpx.Client(base_url=server.url("/geoserver"), auth=AUTH) as c:
            rows.append(
                ("live server (httpx.Client, keep-alive)", per_call(lambda: c.get("/rest/x"), n))
            )
    finally:
        server.stop()
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tests", type=int, default=300, help="tests per measured session")
    parser.add_argument("--check", action="store_true", help="exit 1 when a target is missed")
    args = parser.parse_args()
    ms = 1000.0
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        bare = statistics.median(session_cost(None, args.tests, folder))
        results = {f: session_cost(f, args.tests, folder) for f in TARGETS_MS}
    print(
        f"Fixture overhead per test, scenario stock ({args.tests} tests; "
        "setup + teardown minus a bare test)"
    )
    missed = False
    for fixture, costs in results.items():
        first, rest = costs[0], costs[1:]
        overhead = (statistics.median(rest) - bare) * ms
        ok = overhead <= TARGETS_MS[fixture]
        missed |= not ok
        print(
            f"  {fixture:<20} {overhead:6.2f} ms   target <= {TARGETS_MS[fixture]:.0f} ms   "
            f"{'ok' if ok else 'MISSED'}   (first test: {(first - bare) * ms:.1f} ms)"
        )
    print("\nOne request (GET, answered 404), median")
    for name, seconds in transports(500):
        print(f"  {name:<48} {seconds * ms:6.3f} ms")
    emu_ms = per_call(lambda: Emulator("stock"), 500) * ms
    print(f"\nEmulator('stock') alone: {emu_ms:.3f} ms")
    return 1 if (missed and args.check) else 0


if __name__ == "__main__":
    sys.exit(main())
