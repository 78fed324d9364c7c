"""Amplification (issue 36): what one request costs the standalone server, row by row.

    python benchmarks/amplification.py [--quick] [--only TEXT] [--timeout S]

Each row of ``ROWS`` is one request (with the requests that set it up and any that follow
it), sent to a fresh ``geoserver-emulator serve`` (a subprocess on 127.0.0.1, stock
scenario, manual clock). While it runs another client sends ``GET /rest/workspaces.json``
in a loop. Printed per row: the answer's status, the time to answer, the server's peak
resident memory growth (``VmHWM`` after the row minus ``VmRSS`` before it, from
``/proc/<pid>/status``), its CPU time over the row (less sensitive to the machine's load
than the time) and the other client's slowest answer; then "met" or "not met"
against the issue's bounds: at most ``RSS_BOUND`` of growth, ``TIME_BOUND`` to answer, and
``LATENCY_BOUND`` for the other client. Figures, never asserted (``tests/test_benchmarks.py``
runs ``--quick`` as a smoke test; ``tests/fuzz/test_amplification.py`` asserts the refusals).

The rows are data: the issue's table (the sizes it measured) and, for each operation, the
largest request the limits let through. Add a row for a new operation (the OGC ones: a
legend, a map, a tile, a coverage, a transaction) as one more ``Row``; ``quick=True`` puts
it in the smoke test.
"""

from __future__ import annotations

import argparse
import io
import os
import struct
import subprocess
import sys
import threading
import time
import zipfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import httpx  # noqa: E402

AUTH = ("admin", "geoserver")
MiB = 1024 * 1024
RSS_BOUND = 256 * MiB
TIME_BOUND = 2.0
LATENCY_BOUND = 0.1
CHEAP = "/rest/workspaces.json"
JSON, XML, ZIP, TEXT, TIFF = (
    "application/json", "text/xml", "application/zip", "text/plain", "image/tiff"
)  # fmt: skip


# -- bodies -------------------------------------------------------------------------------


def json_numbers(n: int) -> bytes:
    """A workspace whose unknown field holds ``n`` numbers."""
    return b'{"workspace":{"name":"amp","junk":[' + b",".join([b"0"] * n) + b"]}}"


def json_objects(n: int) -> bytes:
    return b'{"workspace":{"name":"amp","junk":[' + b",".join([b"{}"] * n) + b"]}}"


def xml_elements(n: int) -> bytes:
    return b"<workspace><name>amp</name><junk>" + b"<a/>" * n + b"</junk></workspace>"


def nested_quota(depth: int) -> bytes:
    inner = b'{"a":' * depth + b"1" + b"}" * depth
    return b'{"gwcQuotaConfiguration":{"enabled":true,"junk":' + inner + b"}}"


def seed(threads: int) -> bytes:
    return (
        b'{"seedRequest":{"name":"topp:states","gridSetId":"EPSG:4326","zoomStart":0,'
        b'"zoomStop":2,"format":"image/png","type":"seed","threadCount":%d}}' % threads
    )


def gridset(levels: int) -> bytes:
    """A gridset of ``levels`` resolutions, each a little finer than the last."""
    res = "".join(f"<double>{1.0 / (1.0 + i / levels):.17g}</double>" for i in range(levels))
    return (
        "<gridSet><name>amp</name><srs><number>4326</number></srs><extent><coords>"
        "<double>-180</double><double>-90</double><double>180</double><double>90</double>"
        f"</coords></extent><alignTopLeft>false</alignTopLeft><resolutions>{res}"
        "</resolutions><metersPerUnit>111319.49</metersPerUnit><pixelSize>0.00028</pixelSize>"
        "<tileHeight>256</tileHeight><tileWidth>256</tileWidth></gridSet>"
    ).encode()


def arcgrid(n: int) -> bytes:
    """An ArcGrid ASCII file of ``n`` × ``n`` cells."""
    head = f"ncols {n}\nnrows {n}\nxllcorner 0\nyllcorner 0\ncellsize 1\nNODATA_value -9999\n"
    return head.encode() + (b"12 " * n + b"\n") * n


def shapefile(n: int) -> bytes:
    """A zipped shapefile of ``n`` points with one numeric attribute."""
    points = b"".join(
        struct.pack(">ii", i + 1, 10) + struct.pack("<idd", 1, i % 360 - 180.0, i % 180 - 90.0)
        for i in range(n)
    )

    def header(size: int) -> bytes:
        return (
            struct.pack(">7i", 9994, 0, 0, 0, 0, 0, size // 2)
            + struct.pack("<2i", 1000, 1)
            + struct.pack("<8d", -180, -90, 180, 90, 0, 0, 0, 0)
        )

    shx = b"".join(struct.pack(">ii", (100 + i * 28) // 2, 10) for i in range(n))
    fields = b"id".ljust(11, b"\0") + b"N" + b"\0" * 4 + bytes([10, 0]) + b"\0" * 14
    dbf = struct.pack("<4BIHH", 3, 126, 1, 1, n, 32 + len(fields) + 1, 11) + b"\0" * 20
    dbf += fields + b"\r" + b"".join(b" " + b"%10d" % i for i in range(n)) + b"\x1a"
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED, compresslevel=1) as z:
        z.writestr("pts.shp", header(100 + len(points)) + points)
        z.writestr("pts.shx", header(100 + len(shx)) + shx)
        z.writestr("pts.dbf", dbf)
    return out.getvalue()


def geotiff(width: int, height: int, strip: int) -> bytes:
    """An uncompressed 8-bit GeoTIFF (pixel scale and tie point tags) declaring ``width`` ×
    ``height`` pixels in one strip of ``strip`` bytes: lying when that is fewer."""
    count = 11
    data_at = 8 + 2 + 12 * count + 4
    scale_at, tie_at = data_at + strip, data_at + strip + 24
    tags = [
        (256, 4, 1, width), (257, 4, 1, height), (258, 3, 1, 8), (259, 3, 1, 1),
        (262, 3, 1, 1), (273, 4, 1, data_at), (277, 3, 1, 1), (278, 4, 1, height),
        (279, 4, 1, strip), (33550, 12, 3, scale_at), (33922, 12, 6, tie_at),
    ]  # fmt: skip
    ifd = struct.pack("<H", count)
    for tag, kind, n, value in tags:
        if kind == 3:
            ifd += struct.pack("<HHIHH", tag, kind, n, value, 0)
        else:
            ifd += struct.pack("<HHII", tag, kind, n, value)
    extra = struct.pack("<3d", 0.001, 0.001, 0.0) + struct.pack("<6d", 0, 0, 0, 0.0, 50.0, 0)
    return b"II*\x00" + struct.pack("<I", 8) + ifd + struct.pack("<I", 0) + b"\x00" * strip + extra


# -- rows ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Step:
    method: str
    path: str
    body: Callable[[], bytes] | None = None
    content_type: str | None = None


@dataclass(frozen=True)
class Row:
    """One measured request (``steps[-1]``'s answer is the one shown; every step counts)."""

    name: str
    steps: tuple[Step, ...]
    quick: bool = False
    answers: tuple[int, ...] = ()
    """the statuses the emulator is designed to give (shown beside what it gave)"""


def put(path: str, body: Callable[[], bytes], ct: str) -> Step:
    return Step("PUT", path, body, ct)


def post(path: str, body: Callable[[], bytes], ct: str) -> Step:
    return Step("POST", path, body, ct)


WS = "/rest/workspaces"
SEED = "/gwc/rest/seed/topp:states.json"
GRIDSET = "/gwc/rest/gridsets/amp"
ROWS: list[Row] = [
    Row("JSON: 20,000,000 numbers in an unknown field (38 MiB)",
        (post(WS, lambda: json_numbers(20_000_000), JSON),), answers=(400,)),
    Row("JSON: 10,000,000 empty objects (28 MiB)",
        (post(WS, lambda: json_objects(10_000_000), JSON),), answers=(400,)),
    Row("JSON: the largest accepted (100,000 numbers)",
        (post(WS, lambda: json_numbers(99_990), JSON),), quick=True, answers=(201,)),
    Row("XML: 8,000,000 empty elements (30 MiB)",
        (post(WS, lambda: xml_elements(8_000_000), XML),), answers=(400,)),
    Row("XML: the largest accepted (100,000 elements)",
        (post(WS, lambda: xml_elements(99_990), XML),), quick=True, answers=(201,)),
    Row("disk quota PUT with a 900-deep unknown field, then a write",
        (put("/gwc/rest/diskquota.json", lambda: nested_quota(900), JSON),
         post(WS, lambda: b'{"workspace":{"name":"after"}}', JSON)), quick=True,
        answers=(201,)),
    Row("seed topp:states levels 0-2 with threadCount 2147483647",
        (post(SEED, lambda: seed(2_147_483_647), JSON),), quick=True, answers=(400,)),
    Row("seed topp:states levels 0-2 with threadCount 128 (the most accepted)",
        (post(SEED, lambda: seed(128), JSON),), quick=True, answers=(200,)),
    Row("a gridset of 2,500,000 resolutions, then GET it as XML",
        (put(GRIDSET + ".xml", lambda: gridset(2_500_000), XML), Step("GET", GRIDSET + ".xml")),
        answers=(404,)),
    Row("a gridset of 256 resolutions (the most accepted), then GET it as XML",
        (put(GRIDSET + ".xml", lambda: gridset(256), XML), Step("GET", GRIDSET + ".xml")),
        quick=True, answers=(200,)),
    Row("ArcGrid upload of 4,000 x 4,000 cells (46 MiB)",
        (put(WS + "/topp/coveragestores/g/file.arcgrid", lambda: arcgrid(4000), TEXT),),
        answers=(201, 400)),
    Row("shapefile upload of 1,000,000 points",
        (put(WS + "/topp/datastores/pts/file.shp", lambda: shapefile(1_000_000), ZIP),),
        answers=(400,)),
    Row("shapefile upload of 100,000 points (the most accepted)",
        (put(WS + "/topp/datastores/pts/file.shp", lambda: shapefile(100_000), ZIP),),
        answers=(201,)),
    Row("GeoTIFF declaring 100,000 x 100,000 pixels with a 12-byte strip",
        (put(WS + "/topp/coveragestores/t/file.geotiff",
             lambda: geotiff(100_000, 100_000, 12), TIFF),), quick=True, answers=(400,)),
    Row("clock advanced past the year 9999, then capabilities",
        (Step("POST", "/__emulator/clock/advance?seconds=3e11"),
         Step("GET", "/wms?service=WMS&request=GetCapabilities")), quick=True,
        answers=(200,)),
]  # fmt: skip


# -- the server ---------------------------------------------------------------------------


def start_server() -> tuple[subprocess.Popen[str], str]:
    proc = subprocess.Popen(
        [
            sys.executable, "-m", "geoserver_emulator", "serve", "--host", "127.0.0.1",
            "--port", "0", "--clock", "manual",
        ],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, cwd=ROOT,
    )  # fmt: skip
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


def cpu_seconds(pid: int) -> float:
    """User and system CPU time of a process so far (``/proc/<pid>/stat``)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def memory(pid: int) -> dict[str, int]:
    """``VmRSS`` and ``VmHWM`` of a process, in bytes."""
    out: dict[str, int] = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        key, _, value = line.partition(":")
        if key in ("VmRSS", "VmHWM"):
            out[key] = int(value.split()[0]) * 1024
    return out


@dataclass
class Result:
    status: str = "none"
    seconds: float = 0.0
    cpu: float = 0.0
    """the server's CPU seconds over the row (the other client's requests included)"""
    growth: int = 0
    other: list[float] = field(default_factory=list)

    def met(self) -> bool:
        worst = max(self.other, default=0.0)
        return (
            self.status != "none"
            and self.growth <= RSS_BOUND
            and self.seconds <= TIME_BOUND
            and worst <= LATENCY_BOUND
        )


def measure(row: Row, timeout: float) -> Result:
    bodies = [s.body() if s.body is not None else None for s in row.steps]
    proc, base = start_server()
    result = Result()
    try:
        with httpx.Client(base_url=base, auth=AUTH, timeout=timeout) as heavy:
            heavy.get(CHEAP)
            before = memory(proc.pid)["VmRSS"]
            cpu = cpu_seconds(proc.pid)
            done = threading.Event()
            watcher = threading.Thread(target=_other_client, args=(base, done, result.other))
            watcher.start()
            start = time.perf_counter()
            try:
                for step, body in zip(row.steps, bodies, strict=True):
                    headers = {"Content-Type": step.content_type} if step.content_type else {}
                    r = heavy.request(step.method, step.path, content=body, headers=headers)
                    result.status = str(r.status_code)
            except httpx.HTTPError as exc:
                result.status = f"none ({type(exc).__name__})"
            result.seconds = time.perf_counter() - start
            done.set()
            watcher.join()
            result.growth = memory(proc.pid)["VmHWM"] - before
            result.cpu = cpu_seconds(proc.pid) - cpu
    finally:
        stop_server(proc)
    if result.status.startswith("none"):
        result.status = "none"
    return result


def _other_client(base: str, done: threading.Event, latencies: list[float]) -> None:
    with httpx.Client(base_url=base, auth=AUTH, timeout=60) as light:
        while not done.is_set():
            start = time.perf_counter()
            try:
                light.get(CHEAP)
            except httpx.HTTPError:
                latencies.append(60.0)
                return
            latencies.append(time.perf_counter() - start)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="only the rows marked quick")
    ap.add_argument("--only", default="", help="only the rows whose name holds this text")
    ap.add_argument("--timeout", type=float, default=20.0, help="seconds to wait for an answer")
    args = ap.parse_args()
    rows = [r for r in ROWS if (r.quick or not args.quick) and args.only in r.name]
    print(
        f"amplification, one fresh serve per row (bounds: +{RSS_BOUND // MiB} MiB peak RSS,"
        f" {TIME_BOUND:g} s, another client's GET {LATENCY_BOUND * 1000:.0f} ms):"
    )
    print(f"  {'request':<70} {'status':>6} {'time':>8} {'cpu':>7} {'peak RSS':>10} {'other':>9}")
    unmet = 0
    for row in rows:
        res = measure(row, args.timeout)
        designed = "/".join(str(a) for a in row.answers)
        worst = max(res.other, default=0.0)
        verdict = "met" if res.met() else "not met"
        unmet += not res.met()
        status = (
            res.status
            if not designed or res.status in designed.split("/")
            else (
                f"{res.status}!"  # not the designed answer
            )
        )
        print(
            f"  {row.name[:70]:<70} {status:>6} {res.seconds:7.2f}s {res.cpu:6.2f}s"
            f" {res.growth / MiB:+8.0f}MiB {worst * 1000:7.1f}ms  {verdict}",
            flush=True,
        )
    print(f"rows: {len(rows)}, met: {len(rows) - unmet}, not met: {unmet}")
    print(f"(load average now: {os.getloadavg()[0]:.1f}; times grow with the machine's load)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
