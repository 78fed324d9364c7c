"""A sustained load against ``geoserver-emulator serve`` (issue 18): throughput, latency and
the server's memory.

    python benchmarks/load.py [--quick] [--seconds S] [--threads N] [--max-requests N]

Starts ``serve`` as a subprocess on 127.0.0.1 (a free port), then for ``--seconds`` (60;
``--quick``: 3) runs ``--threads`` (8) client threads, each with its own keep-alive
connection, sending a mix of reads (lists and single objects of workspaces, layers, styles)
and writes (a workspace created and deleted again, a style's body replaced, a role added and
removed), so that the catalog keeps its size and what grows is only what the server keeps
per request. The run stops by itself at the time limit or after ``--max-requests`` requests
in all, whichever comes first, and the server is stopped.

Printed: requests and throughput, p50/p99/max latency, answers by status class (an
unexpected one is counted as an error), and the server's resident memory (``VmRSS`` from
``/proc/<pid>/status``) before the load, six times along the way (it stops growing once the
journal, bounded for ``serve``, is full), after it, and its peak (``VmHWM``). Figures, never
asserted (``tests/test_benchmarks.py`` runs ``--quick`` as a smoke test).
"""

from __future__ import annotations

import argparse
import random
import subprocess
import sys
import threading
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import httpx  # noqa: E402

AUTH = ("admin", "geoserver")
STYLE = (
    '<?xml version="1.0" encoding="UTF-8"?><StyledLayerDescriptor version="1.0.0" '
    'xmlns="http://www.opengis.net/sld"><NamedLayer><Name>x</Name><UserStyle><FeatureTypeStyle>'
    "<Rule><PointSymbolizer/></Rule></FeatureTypeStyle></UserStyle></NamedLayer>"
    "</StyledLayerDescriptor>"
)
READS = [
    "/rest/workspaces.json",
    "/rest/layers.json",
    "/rest/styles.json",
    "/rest/workspaces/topp.json",
    "/rest/layers/topp:states.xml",
    "/rest/security/roles.json",
    "/gwc/rest/layers.json",
]


def start_server() -> tuple[subprocess.Popen[str], str]:
    """``serve`` on a free loopback port; the process and its base URL."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "geoserver_emulator", "serve", "--host", "127.0.0.1", "--port", "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        cwd=ROOT,
    )
    assert proc.stdout is not None
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        if line.startswith("ready: "):
            return proc, line.split(" ", 1)[1].strip()
        if not line and proc.poll() is not None:
            break
    proc.kill()
    raise SystemExit("serve did not print its ready line")


def stop_server(proc: subprocess.Popen[str]) -> None:
    proc.terminate()
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def memory(pid: int) -> dict[str, int]:
    """``VmRSS`` and ``VmHWM`` of a process, in KiB."""
    out: dict[str, int] = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        key, _, value = line.partition(":")
        if key in ("VmRSS", "VmHWM"):
            out[key] = int(value.split()[0])
    return out


class Worker(threading.Thread):
    """One client: a keep-alive connection and a seeded mix of requests."""

    def __init__(self, base: str, index: int, stop: threading.Event, quota: list[int]) -> None:
        super().__init__(daemon=True)
        self.base, self.index, self.stop, self.quota = base, index, stop, quota
        self.lock = threading.Lock()
        self.latencies: list[float] = []
        self.statuses: Counter[str] = Counter()
        self.errors: list[str] = []

    def take(self) -> bool:
        with self.lock:
            if self.quota[0] <= 0:
                return False
            self.quota[0] -= 1
            return True

    def send(self, client: httpx.Client, method: str, path: str, ok: set[int], **kw) -> None:
        start = time.perf_counter()
        try:
            r = client.request(method, path, **kw)
            status = r.status_code
        except httpx.HTTPError as exc:
            self.errors.append(f"{method} {path}: {type(exc).__name__}")
            return
        self.latencies.append(time.perf_counter() - start)
        self.statuses[f"{status // 100}xx"] += 1
        if status not in ok:
            self.errors.append(f"{method} {path}: {status}")

    def run(self) -> None:
        rng = random.Random(self.index)
        n = 0
        with httpx.Client(base_url=self.base, auth=AUTH, timeout=30) as c:
            while not self.stop.is_set() and self.take():
                n += 1
                roll = rng.random()
                if roll < 0.7:
                    self.send(c, "GET", rng.choice(READS), {200})
                elif roll < 0.8:
                    name = f"load{self.index}_{n}"
                    self.send(
                        c, "POST", "/rest/workspaces", {201}, json={"workspace": {"name": name}}
                    )
                    self.send(c, "DELETE", f"/rest/workspaces/{name}", {200})
                elif roll < 0.9:
                    headers = {"Content-Type": "application/vnd.ogc.sld+xml"}
                    self.send(c, "PUT", "/rest/styles/point", {200}, content=STYLE, headers=headers)
                else:
                    role = f"LOAD_{self.index}_{n}"
                    self.send(c, "POST", f"/rest/security/roles/role/{role}", {201})
                    self.send(c, "DELETE", f"/rest/security/roles/role/{role}", {200})


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p * len(ordered)))] if ordered else 0.0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="3 seconds, 4 threads (smoke test)")
    ap.add_argument("--seconds", type=float, default=None, help="length of the load (60)")
    ap.add_argument("--threads", type=int, default=None, help="client threads (8)")
    ap.add_argument("--max-requests", type=int, default=200_000, help="stop after this many")
    args = ap.parse_args()
    seconds = args.seconds if args.seconds is not None else (3.0 if args.quick else 60.0)
    threads = args.threads if args.threads is not None else (4 if args.quick else 8)

    proc, base = start_server()
    try:
        with httpx.Client(base_url=base, auth=AUTH) as c:  # warm up every route once
            for path in READS:
                c.get(path)
        before = memory(proc.pid)
        stop, quota = threading.Event(), [args.max_requests]
        workers = [Worker(base, i, stop, quota) for i in range(threads)]
        started = time.perf_counter()
        for w in workers:
            w.start()
        deadline = started + seconds
        every = seconds / 6
        samples: list[tuple[float, int]] = []
        next_sample = started + every
        while time.perf_counter() < deadline and any(w.is_alive() for w in workers):
            time.sleep(0.05)
            if time.perf_counter() >= next_sample:
                done = sum(len(w.latencies) for w in workers)
                samples.append((done, memory(proc.pid)["VmRSS"]))
                next_sample += every
        stop.set()
        for w in workers:
            w.join(timeout=60)
        elapsed = time.perf_counter() - started
        after = memory(proc.pid)
    finally:
        stop_server(proc)

    latencies = [x for w in workers for x in w.latencies]
    statuses: Counter[str] = sum((w.statuses for w in workers), Counter())
    errors = [e for w in workers for e in w.errors]
    print(f"serve under load: {threads} threads, {elapsed:.1f} s, pid {proc.pid}")
    print(f"  requests: {len(latencies)} ({len(latencies) / elapsed:.0f} per second)")
    print(
        f"  latency: p50 {percentile(latencies, 0.5) * 1000:.1f} ms, "
        f"p99 {percentile(latencies, 0.99) * 1000:.1f} ms, "
        f"max {max(latencies, default=0) * 1000:.1f} ms"
    )
    print(f"  answers: {dict(sorted(statuses.items()))}; unexpected: {len(errors)}")
    for e in errors[:5]:
        print(f"    {e}")
    trail = ", ".join(f"{n} req: {kib / 1024:.1f}" for n, kib in samples)
    print(f"  server RSS along the way (MiB): {trail}")
    print(
        f"  server RSS: before {before['VmRSS'] / 1024:.1f} MiB, "
        f"after {after['VmRSS'] / 1024:.1f} MiB, peak {after['VmHWM'] / 1024:.1f} MiB"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
