"""The worst user-supplied patterns (issue 18, item 4): how long each takes to be answered,
and how long another client waits meanwhile.

    python benchmarks/patterns.py [--quick]

In process (httpx over the WSGI app), each case is timed once and printed with its status:
``LIKE '%%%%%%%%%%%%x'`` over the stock mosaic's granules and over 5,000-character WFS
values, 1,200 URL checks ``.*a.*a.*b`` against an 8,000-character URL (directly and through
``remote.imagemosaic``), about filters, URL checks and parameter filters that backtrack or
expand, a REST rule's ``{name:regex}`` against a long path. For contrast, the translation
``LIKE`` had before (``%`` to ``.*`` under Python's ``re``) is run on one granule name in a
subprocess killed after a few seconds.

Live: ``serve`` (a subprocess on 127.0.0.1) with a scenario of those URL checks; while one
client asks for the evaluation against the long URL, another sends ``GET
/__emulator/health`` in a loop, and its slowest answer is printed (the goal: well under a
second). ``--quick`` uses 20 checks and fewer rounds. Figures, never asserted.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import httpx  # noqa: E402

from geoserver_emulator import Emulator  # noqa: E402
from geoserver_emulator.areas.urlchecks.model import UrlCheck  # noqa: E402

AUTH = ("admin", "geoserver")
BASE = "http://localhost:8080/geoserver"
GRANULES = "/rest/workspaces/nurc/coveragestores/mosaic/coverages/mosaic/index/granules.json"
LONG_URL = "https://example.com/" + "a" * 8000
CUBIC = ".*a.*a.*b"
OLD_LIKE = (
    "import re, time; t = time.perf_counter(); "
    "re.fullmatch('.*' * 12 + 'x', 'global_mosaic_12.tif' * 2); "
    "print(time.perf_counter() - t)"
)


def client(emu: Emulator) -> httpx.Client:
    return httpx.Client(transport=httpx.WSGITransport(app=emu.wsgi_app), base_url=BASE, auth=AUTH)


def timed(label: str, call: Callable[[], httpx.Response]) -> None:
    start = time.perf_counter()
    r = call()
    took = time.perf_counter() - start
    note = r.text.splitlines()[0][:70] if r.status_code >= 400 and r.text else ""
    print(f"  {label:<58} {r.status_code}  {took * 1000:8.1f} ms  {note}")


def in_process(checks: int) -> None:
    emu = Emulator("stock")
    c = client(emu)
    c.get(GRANULES, params={"filter": "location LIKE 'x%'"})  # imports the ECQL modules
    print("in process (one request each):")
    for op in ("LIKE", "ILIKE"):
        cql = f"location {op} '%%%%%%%%%%%%x'"
        timed(
            f"granules {op} '%%%%%%%%%%%%x' (25 granules)",
            lambda q=cql: c.get(GRANULES, params={"filter": q}),
        )
    props = b"_=name:String,geom:Point:srid=4326\n" + b"".join(
        b"p.%d=" % i + b"a" * 5000 + b"|POINT(1 1)\n" for i in range(50)
    )
    c.put(
        "/rest/workspaces/sf/datastores/long/file.properties",
        content=props,
        headers={"Content-Type": "text/plain"},
    )
    wfs = {
        "service": "WFS", "version": "1.1.0", "request": "GetFeature", "typeName": "sf:long",
        "outputFormat": "application/json", "CQL_FILTER": "name LIKE '%%%%%%%%%%%%x'",
    }  # fmt: skip
    timed(
        "WFS CQL_FILTER LIKE over 50 values of 5,000 characters", lambda: c.get("/wfs", params=wfs)
    )
    emu.state.urlchecks.checks = [UrlCheck(f"c{i}", CUBIC, enabled=True) for i in range(checks)]
    timed(
        f"{checks} URL checks {CUBIC} against an 8,000-character URL",
        lambda: c.get("/__emulator/urlchecks/evaluate", params={"url": LONG_URL}),
    )
    timed(
        "  the same through remote.imagemosaic",
        lambda: c.post(
            "/rest/workspaces/nurc/coveragestores/mosaic/remote.imagemosaic",
            content=LONG_URL,
            headers={"Content-Type": "text/plain"},
        ),
    )
    emu.state.urlchecks.checks = []
    for param in ("manifest", "value"):
        timed(
            f"about {param}=(.*?){{30}}\\d",
            lambda p=param: c.get("/rest/about/manifest.json", params={p: "(.*?){30}\\d"}),
        )
    for i, regex in enumerate(("(a|aa)+$", "(.*a){12}", "((a{1000}){1000}){1000}")):
        check = {"regexUrlCheck": {"name": f"x{i}", "regex": regex}}
        timed(
            f"create URL check {regex}",
            lambda body=check: c.post("/rest/urlchecks", json=body),
        )
    emu.state.security.rest_rules = {
        "/rest/{x:(?:(.*?){30})\\d}/**:GET": ["ROLE_ADMINISTRATOR"],
        **emu.state.security.rest_rules,
    }
    timed(
        "REST rule {x:(.*?){30}\\d} against a 60-character segment",
        lambda: c.get("/rest/" + "a" * 60 + "/x"),
    )
    emu.state.security.rest_rules = {"/rest/*a*a*a*a*a*a*a*a*b/**:GET": ["X"]}
    timed(
        "REST rule /rest/*a*a*a*a*a*a*a*a*b against 6,000 characters",
        lambda: c.get("/rest/" + "a" * 6000 + "/x"),
    )


def old_like(limit: float) -> None:
    try:
        out = subprocess.run(
            [sys.executable, "-c", OLD_LIKE], capture_output=True, text=True, timeout=limit
        )
        shown = f"{float(out.stdout) * 1000:.1f} ms"
    except subprocess.TimeoutExpired:
        shown = f"> {limit:g} s (stopped)"
    print(f"  for contrast, the old LIKE translation (re, '.*' x 12) on one name: {shown}")


def start_server(scenario: Path) -> tuple[subprocess.Popen[str], str]:
    proc = subprocess.Popen(
        [
            sys.executable, "-m", "geoserver_emulator", "serve", "--host", "127.0.0.1",
            "--port", "0", "--scenario", str(scenario),
        ],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, cwd=ROOT,
    )  # fmt: skip
    assert proc.stdout is not None
    for line in proc.stdout:
        if line.startswith("ready: "):
            return proc, line.split(" ", 1)[1].strip()
    proc.kill()
    raise SystemExit("serve did not print its ready line")


def live(checks: int, rounds: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        scenario = Path(tmp) / "checks.json"
        entries = [{"name": f"c{i}", "enabled": True, "regex": CUBIC} for i in range(checks)]
        scenario.write_text(json.dumps({"extends": "stock", "urlChecks": {"checks": entries}}))
        proc, base = start_server(scenario)
        try:
            worst: list[float] = []
            other: list[float] = []
            with (
                httpx.Client(base_url=base, auth=AUTH, timeout=60) as heavy,
                httpx.Client(base_url=base, timeout=60) as light,
            ):
                light.get("/__emulator/health")
                for _ in range(rounds):
                    done = threading.Event()

                    def run_heavy(done: threading.Event = done) -> None:
                        start = time.perf_counter()
                        heavy.get("/__emulator/urlchecks/evaluate", params={"url": LONG_URL})
                        worst.append(time.perf_counter() - start)
                        done.set()

                    t = threading.Thread(target=run_heavy)
                    t.start()
                    while not done.is_set():
                        start = time.perf_counter()
                        light.get("/__emulator/health")
                        other.append(time.perf_counter() - start)
                    t.join()
        finally:
            proc.terminate()
            proc.wait(timeout=10)
    print(f"live serve ({checks} URL checks, {rounds} rounds):")
    print(f"  the worst evaluation: slowest {max(worst) * 1000:.1f} ms")
    print(
        f"  another client's request meanwhile: {len(other)} sent, "
        f"slowest {max(other) * 1000:.1f} ms"
    )


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="20 checks, 2 live rounds")
    args = ap.parse_args()
    checks = 20 if args.quick else 1200
    in_process(checks)
    old_like(1.0 if args.quick else 5.0)
    live(checks, 2 if args.quick else 5)
    return 0


if __name__ == "__main__":
    sys.exit(main())
