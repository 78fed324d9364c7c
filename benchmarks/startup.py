"""Start-up and request figures of the emulator, against the targets of issue 2.

    python benchmarks/startup.py [--strict] [--repeat N]

Each figure is the best of several runs (the machine may be shared; the best run is the
closest to the code's own cost) with the median beside it. Targets:

- a fresh ``Emulator("stock")`` once the scenario is parsed (cached): ≤ 5 ms
- ``Emulator.reset()``: ≤ 1 ms
- ``import geoserver_emulator`` + ``create_app(Emulator("stock"))`` in a fresh interpreter: ≤ 150 ms
  (timed inside the child, so the interpreter's own start-up is not counted; CPU time is
  compared, wall time is shown beside it). The children find the package's bytecode
  cached, as an installed package has it (pip compiles it at install): they run with a
  private ``PYTHONPYCACHEPREFIX`` after one warm-up run. Where ``PYTHONDONTWRITEBYTECODE``
  is set, an editable install compiles every module from source at each start; that
  figure is shown beside. In the same way the warm-up run leaves the parsed stock scenario
  in a private scenario cache (``emulator/scenarios/diskcache.py``), as the first start
  after an install does; the figure with that cache off is shown beside.
- one request in-process, through the ASGI app and through the WSGI callable: ≤ 1 ms
- one keep-alive request to the live server (``geoserver_url``): ≤ 5 ms, issue 3's bound
  per test (a listening socket without ``TCP_NODELAY`` on its connections costs ~40 ms)

``--strict`` exits 1 when a target is missed.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import io
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

AUTH = b"Basic " + base64.b64encode(b"admin:geoserver")
PATH = "/geoserver/rest/security/usergroup/users.json"

SLOW_IMPORTS = ("lxml", "werkzeug", "regex", "PIL", "shapely", "numpy", "pygeofilter", "lark")
"""imported on first use only (tests/test_startup.py checks it)"""

START = f"""
import time
w0, c0 = time.perf_counter(), time.process_time()
import geoserver_emulator
app = geoserver_emulator.create_app(geoserver_emulator.Emulator("stock"))
w1, c1 = time.perf_counter(), time.process_time()
import sys
loaded = [m for m in {SLOW_IMPORTS!r} if m in sys.modules] or ["none"]
"""
"""what import + create_app runs, timed; ``-X importtime`` breaks it down"""

CHILD = (
    START
    + f"""
import asyncio
loop = asyncio.new_event_loop()
def get(path):  # one GET through the ASGI app; its CPU milliseconds
    async def receive():
        return {{"type": "http.request", "body": b"", "more_body": False}}
    async def send(message):
        pass
    scope = {{"type": "http", "asgi": {{"version": "3.0"}}, "http_version": "1.1",
              "method": "GET", "scheme": "http", "path": path, "raw_path": path.encode(),
              "root_path": "", "query_string": b"", "server": ("localhost", 8080),
              "client": ("127.0.0.1", 1),
              "headers": [(b"host", b"localhost:8080"), (b"authorization", {AUTH!r})]}}
    c = time.process_time()
    loop.run_until_complete(app(scope, receive, send))
    return (time.process_time() - c) * 1000
# the first request, the same again, the first to the catalog, a 404 outside every area
first = [get({PATH!r}), get({PATH!r}), get("/geoserver/rest/workspaces.json"),
         get("/geoserver/rest/no/such/path")]
print((w1 - w0) * 1000, (c1 - c0) * 1000, ",".join(loaded), *first)
"""
)
"""``START``, then the first requests (an area's routes are imported when a request first
reaches it, and compiled on first match: see ``emulator/http/routing.py``; its stores are
unpickled on first use: ``emulator/core/state.py``); prints the times"""

FLOOR = """
import time
w0, c0 = time.perf_counter(), time.process_time()
import starlette.applications, starlette.routing, starlette.requests, starlette.responses
w1, c1 = time.perf_counter(), time.process_time()
print((w1 - w0) * 1000, (c1 - c0) * 1000)
"""


@dataclass
class Figure:
    name: str
    best_ms: float
    median_ms: float
    target_ms: float

    @property
    def ratio(self) -> float:
        return self.best_ms / self.target_ms

    def line(self) -> str:
        verdict = "ok" if self.best_ms <= self.target_ms else "MISSED"
        return (
            f"{self.name:<44} {self.best_ms:9.3f} ms  (median {self.median_ms:8.3f})"
            f"  target {self.target_ms:6.1f} ms  ratio {self.ratio:5.2f}  {verdict}"
        )


def timed(fn: Callable[[], object], runs: int, inner: int = 1) -> tuple[float, float]:
    """(best, median) milliseconds per call of ``fn``."""
    samples = []
    for _ in range(runs):
        start = time.perf_counter()
        for _ in range(inner):
            fn()
        samples.append((time.perf_counter() - start) * 1000 / inner)
    return min(samples), statistics.median(samples)


def cached_env(cache: str) -> dict[str, str]:
    """The environment of a child that reads (and writes) bytecode and the parsed built-in
    scenarios (``emulator/scenarios/diskcache.py``) under ``cache``."""
    env = dict(os.environ, PYTHONPYCACHEPREFIX=cache, GEOSERVER_EMULATOR_CACHE=cache)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def in_child(code: str, runs: int, env: dict[str, str] | None = None) -> list[list[str]]:
    return [
        subprocess.run(
            [sys.executable, "-c", code],
            capture_output=True, text=True, check=True, cwd=ROOT, env=env,
        ).stdout.split()
        for _ in range(runs)
    ]  # fmt: skip


def import_and_create_app(runs: int) -> tuple[Figure, str]:
    """CPU time is compared with the target: on a busy machine wall time mostly measures
    the other processes. Wall time and Starlette's own import (the floor) are shown too."""
    with tempfile.TemporaryDirectory(prefix="emulator-caches-") as cache:
        env = cached_env(cache)
        in_child(CHILD, 1, env)  # warm-up: writes the bytecode and the stock baseline
        in_child(FLOOR, 1, env)
        out = in_child(CHILD, runs, env)
        floor_cpu = min(float(o[1]) for o in in_child(FLOOR, runs, env))
        breakdown = import_breakdown(env)
        no_cache = dict(env, GEOSERVER_EMULATOR_CACHE="off")
        parsed = [float(o[1]) for o in in_child(CHILD, max(3, runs // 3), no_cache)]
    wall = [float(o[0]) for o in out]
    cpu = [float(o[1]) for o in out]
    first, again, catalog, missing = ([float(o[i]) for o in out] for i in (3, 4, 5, 6))
    notes = (
        f"  wall time: best {min(wall):.1f} ms, median {statistics.median(wall):.1f} ms;"
        f" Starlette's own import alone: {floor_cpu:.1f} ms CPU\n"
        f"  slow imports loaded by import + create_app: {out[-1][2]}"
        " (each is imported on first use)\n"
        f"  where the import time goes (self time, -X importtime): {breakdown}\n"
        f"  then, in the same child (CPU, best / median): first GET users.json"
        f" {min(first):.1f} / {statistics.median(first):.1f} ms, the same again"
        f" {min(again):.1f} / {statistics.median(again):.1f} ms, first GET"
        f" workspaces.json (another area) {min(catalog):.1f} /"
        f" {statistics.median(catalog):.1f} ms, a 404 outside every area"
        f" {min(missing):.1f} / {statistics.median(missing):.1f} ms\n"
        "  the stock baseline came from the scenario cache; parsing it instead (the first"
        " start after an install or a change, or GEOSERVER_EMULATOR_CACHE=off):"
        f" best {min(parsed):.1f} ms CPU"
    )
    if os.environ.get("PYTHONDONTWRITEBYTECODE"):
        source_env = dict(os.environ)
        source_env.pop("PYTHONPYCACHEPREFIX", None)
        source = [float(o[1]) for o in in_child(CHILD, max(3, runs // 3), source_env)]
        notes += (
            "\n  with PYTHONDONTWRITEBYTECODE set, as in this environment (every module of an"
            f" editable install compiled from source): best {min(source):.1f} ms CPU"
        )
    name = "import geoserver_emulator + create_app (fresh, CPU)"
    return Figure(name, min(cpu), statistics.median(cpu), 150.0), notes


def import_breakdown(env: dict[str, str], top: int = 8) -> str:
    """Import self time summed by owner: an area (``areas.catalog``), the rest of the
    package (``emulator``), or a third-party top-level package."""
    err = subprocess.run(
        [sys.executable, "-X", "importtime", "-c", START],
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
        env=env,
    ).stderr
    totals: dict[str, float] = {}
    for line in err.splitlines():
        parts = line.removeprefix("import time:").split("|")
        if len(parts) != 3 or not parts[0].strip().isdigit():
            continue
        module = parts[2].strip()
        pieces = module.split(".")
        if pieces[:2] == ["emulator", "areas"] and len(pieces) > 2:
            owner = "areas." + pieces[2]
        else:
            owner = pieces[0]
        totals[owner] = totals.get(owner, 0.0) + int(parts[0]) / 1000
    ranked = sorted(totals.items(), key=lambda kv: -kv[1])[:top]
    return ", ".join(f"{name} {ms:.0f}" for name, ms in ranked) + " (ms)"


def asgi_request(app: object) -> Callable[[], None]:
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "GET",
        "scheme": "http",
        "path": PATH,
        "raw_path": PATH.encode(),
        "root_path": "",
        "query_string": b"",
        "server": ("localhost", 8080),
        "client": ("127.0.0.1", 1),
        "headers": [(b"host", b"localhost:8080"), (b"authorization", AUTH), (b"accept", b"*/*")],
    }
    loop = asyncio.new_event_loop()

    async def one() -> None:
        status: list[int] = []

        async def receive() -> dict[str, object]:
            return {"type": "http.request", "body": b"", "more_body": False}

        async def send(message: dict[str, object]) -> None:
            if message["type"] == "http.response.start":
                status.append(int(message["status"]))  # type: ignore[call-overload]

        await app(dict(scope), receive, send)  # type: ignore[operator]
        assert status == [200], status

    return lambda: loop.run_until_complete(one())


def live_request(server_url: str) -> tuple[Callable[[], None], Callable[[], None]]:
    """One keep-alive GET over a real socket, and a function closing the client."""
    import httpx

    client = httpx.Client(base_url=server_url, headers={"authorization": AUTH.decode()})

    def one() -> None:
        r = client.get(PATH)
        assert r.status_code == 200, r.status_code

    return one, client.close


def wsgi_request(app: Callable[..., object]) -> Callable[[], None]:
    def one() -> None:
        environ = {
            "REQUEST_METHOD": "GET",
            "PATH_INFO": PATH,
            "QUERY_STRING": "",
            "SERVER_NAME": "localhost",
            "SERVER_PORT": "8080",
            "SERVER_PROTOCOL": "HTTP/1.1",
            "wsgi.url_scheme": "http",
            "wsgi.input": io.BytesIO(b""),
            "HTTP_HOST": "localhost:8080",
            "HTTP_AUTHORIZATION": AUTH.decode(),
            "HTTP_ACCEPT": "*/*",
        }
        seen: list[str] = []
        b"".join(app(environ, lambda status, headers: seen.append(status)))  # type: ignore[arg-type]
        assert seen[0].startswith("200"), seen

    return one


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--strict", action="store_true", help="exit 1 when a target is missed")
    parser.add_argument("--repeat", type=int, default=9, help="runs per figure (default 9)")
    args = parser.parse_args(argv)
    runs = max(3, args.repeat)

    startup, notes = import_and_create_app(runs)
    figures = [startup]

    from geoserver_emulator import Emulator
    from geoserver_emulator.core.state import STORES

    first_start = time.perf_counter()
    emu = Emulator("stock")
    first_ms = (time.perf_counter() - first_start) * 1000
    figures.append(
        Figure(
            'Emulator("stock"), scenario cached', *timed(lambda: Emulator("stock"), runs, 20), 5.0
        )
    )
    emu.state.users.create_user(None, "someone", "pw", True)
    figures.append(Figure("Emulator.reset()", *timed(emu.reset, runs, 50), 1.0))
    stores = list(STORES)

    def reset_and_touch_all() -> None:
        emu.reset()
        for name in stores:
            getattr(emu.state, name)

    full_best, full_median = timed(reset_and_touch_all, runs, 20)
    asgi = asgi_request(emu.asgi_app)
    asgi()  # warm up
    figures.append(Figure("GET users.json via ASGI", *timed(asgi, runs, 50), 1.0))
    wsgi = wsgi_request(emu.wsgi_app)
    wsgi()
    figures.append(Figure("GET users.json via WSGI", *timed(wsgi, runs, 50), 1.0))
    from geoserver_emulator.http.server import LiveServer

    server = LiveServer(emu.asgi_app).start()
    try:
        live, close = live_request(server.url(""))
        live()
        name = "GET users.json, live server, keep-alive"
        figures.append(Figure(name, *timed(live, runs, 20), 5.0))
        close()
    finally:
        server.stop()

    print(f"geoserver-emulator benchmarks (best of {runs}; Python {sys.version.split()[0]})")
    for figure in figures:
        print(figure.line())
    print(notes)
    print(
        f"  reset() then first use of every store (stores are unpickled on first use):"
        f" best {full_best:.3f} ms, median {full_median:.3f} ms"
    )
    where = "read from the scenario cache, or parsed when that is cold or off"
    print(f'  first Emulator("stock") in this process ({where}): {first_ms:.1f} ms')
    missed = [f.name for f in figures if f.best_ms > f.target_ms]
    if missed:
        print("missed: " + "; ".join(missed))
    return 1 if missed and args.strict else 0


if __name__ == "__main__":
    raise SystemExit(main())
