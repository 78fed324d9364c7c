"""The emulator at scale: big catalogs, big mosaics, many providers (issues 26 and 34).

    python benchmarks/scale.py [--quick] [--layers N] [--repeat N]

Every figure is printed beside a comparator measured in the same run, as a ratio with its
goal and "met" or "not met", so a shared or slow machine moves both alike:

- issue 34's table at 0, 1,000 and 10,000 extra layers (``scaling/``): each write, a refused
  write and the first read after it against the same on stock (≤ 2×) and a bare Starlette
  dict write (on stock, a write ≤ 4×); adding a layer over REST as the catalog grows and
  building a 10,000-layer catalog over REST (seconds, not minutes); WMS, WMTS and WFS
  GetCapabilities after a change against a naive string-built document of the same layers
  (≤ 5×) and repeated with nothing changed (≤ 0.2 ms); a cheap GET against a bare route in
  process (≤ 1.2×) and over loopback (≤ 1.15×); three requests through the plugin's client
  against the ``responses`` library; what the undo record itself costs;
- ``GET /rest/layers.json`` with N extra layers, against a bare Starlette route listing the
  same names and links through the same transport (goal ≤ 2×); ``reset()`` + that list
  (≤ 3×); a fresh ``Emulator(document)`` from an already-loaded document + that list (≤ 5×);
- mosaic loading with 10× the granules (≤ 12× the smaller figure: linear); an ECQL granule
  query on the bigger mosaic against the same predicate written in plain Python (≤ 4×); the
  first ECQL query in a fresh process (≤ 50 ms);
- a single-object GET and an authenticated cheap GET with few and with many layers, styles and
  authentication providers (the ratio many/few: ≈ 1 when independent of the count);
- feature data (``features/``): a transaction inserting one feature into a table of 100× the
  features against one of 1× (≤ 3×: no scan per insert), and a read by feature id likewise.

Figures are never asserted by tests. ``--quick`` uses small sizes (the benchmark smoke test).
"""

from __future__ import annotations

import argparse
import gc
import json
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import httpx  # noqa: E402
from starlette.applications import Starlette  # noqa: E402
from starlette.responses import Response  # noqa: E402
from starlette.routing import Route  # noqa: E402

from geoserver_emulator import Emulator  # noqa: E402
from geoserver_emulator.scenarios.builder import ScenarioBuilder  # noqa: E402

AUTH = ("admin", "geoserver")
ROWS: list[tuple[str, float, float, float | None]] = []


def best(fn: Callable[[], Any], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return min(times)


def row(name: str, ours: float, comparator: float, goal: float | None) -> None:
    ROWS.append((name, ours, comparator, goal))
    ratio = ours / comparator if comparator else float("inf")
    verdict = "" if goal is None else ("  met" if ratio <= goal else "  not met")
    goal_text = "" if goal is None else f" (goal ≤ {goal:g}×)"
    print(
        f"{name:<58} {ours * 1000:9.2f} ms  vs {comparator * 1000:9.2f} ms  "
        f"= {ratio:6.2f}×{goal_text}{verdict}",
        flush=True,
    )


def client(app: Any) -> httpx.Client:
    return httpx.Client(
        transport=httpx.WSGITransport(app=app), base_url="http://localhost/geoserver", auth=AUTH
    )


# -- a big catalog -------------------------------------------------------------------------------


def big_catalog(layers: int) -> dict[str, Any]:
    b = ScenarioBuilder("stock")
    store = b.workspace("big", uri="http://big.example.com").datastore(
        "db", type="PostGIS", connection_parameters={"host": "db"}
    )
    for i in range(layers):
        store.feature_type(f"layer{i:05d}", attributes=["the_geom:Point"], bbox=(0, 0, 1, 1))
    return b.document()


def naive_list_app(names: list[str]) -> Any:
    """What listing N layers costs with nothing but Starlette and json: the comparator."""

    async def layers(request: Any) -> Response:
        base = "http://localhost/geoserver/rest/layers/"
        body = {"layers": {"layer": [{"name": n, "href": f"{base}{n}.json"} for n in names]}}
        return Response(json.dumps(body), media_type="application/json")

    async def cheap(request: Any) -> Response:
        return Response('{"about":{}}', media_type="application/json")

    from geoserver_emulator.http.wsgi import WSGIApp

    app = Starlette(
        routes=[Route("/geoserver/rest/layers.json", layers), Route("/geoserver/cheap", cheap)]
    )
    return WSGIApp(app)


def catalog_figures(layers: int, repeat: int) -> None:
    doc = big_catalog(layers)
    emu = Emulator(doc)
    ours = client(emu.wsgi_app)
    names = [entry["name"] for entry in ours.get("/rest/layers.json").json()["layers"]["layer"]]
    naive = client(naive_list_app(names))
    naive_list = best(lambda: naive.get("/rest/layers.json"), repeat)
    row(
        f"GET /rest/layers.json, {len(names)} layers",
        best(lambda: ours.get("/rest/layers.json"), repeat),
        naive_list,
        2,
    )

    def reset_and_list() -> None:
        emu.reset()
        ours.get("/rest/layers.json")

    row("reset() + first list", best(reset_and_list, repeat), naive_list, 3)

    def fresh_and_list() -> None:
        fresh = Emulator(doc)
        with client(fresh.wsgi_app) as c:
            c.get("/rest/layers.json")

    row("fresh Emulator(document) + first list", best(fresh_and_list, repeat), naive_list, 5)
    one = best(lambda: ours.get("/rest/layers/big:layer00001.json"), repeat * 5)
    small = client(Emulator("stock").wsgi_app)
    row(
        f"single layer GET, {len(names)} layers vs stock",
        one,
        best(lambda: small.get("/rest/layers/topp:states.json"), repeat * 5),
        1.5,
    )


def style_figures(styles: int, repeat: int) -> None:
    """A single-style GET with many extra styles against the stock ones (the issue names
    styles beside layers and providers: their count must not matter either)."""
    b = ScenarioBuilder("stock")
    body = (ROOT / "emulator/scenarios/stock/styles/burg.sld").read_text(encoding="utf-8")
    extra = [
        {"name": f"style{i:05d}", "filename": f"style{i:05d}.sld", "body": body}
        for i in range(styles)
    ]
    b.section("styles", {"styles": extra})
    many = client(Emulator(b.document()).wsgi_app)
    few = client(Emulator("stock").wsgi_app)
    row(
        f"single style GET, {styles} extra styles vs stock",
        best(lambda: many.get("/rest/styles/style00001.json"), repeat * 5),
        best(lambda: few.get("/rest/styles/burg.json"), repeat * 5),
        1.5,
    )


def provider_figures(providers: int, repeat: int) -> None:
    from geoserver_emulator.core.record import replace

    emu = Emulator("stock")
    store = emu.state.auth_providers
    default = store.configs["default"]
    for i in range(providers):  # enabled after "default", as a big import would have them
        name = f"p{i:05d}"
        store.configs[name] = replace(default, name=name, id=f"id-{i}")
        store.active.append(name)
    many = client(emu.wsgi_app)
    few = client(Emulator("stock").wsgi_app)
    path = "/rest/about/version.json"
    row(
        f"authenticated GET, {providers} extra providers vs stock",
        best(lambda: many.get(path), repeat * 10),
        best(lambda: few.get(path), repeat * 10),
        1.5,
    )


# -- big mosaics -----------------------------------------------------------------------------


def mosaic_document(granules: int) -> dict[str, Any]:
    items = [
        {
            "location": f"g{i:06d}.tif",
            "bbox": [i % 360 - 180, (i // 360) % 180 - 90, i % 360 - 179, (i // 360) % 180 - 89],
            "values": {"ingestion": f"2008-{1 + i % 12:02d}-01T00:00:00Z", "elevation": i % 50},
        }
        for i in range(granules)
    ]
    store = {
        "workspace": "sf",
        "store": "big",
        "parameters": {
            "TimeAttribute": "ingestion",
            "ElevationAttribute": "elevation",
            "Schema": "*the_geom:Polygon,location:String,"
            "ingestion:java.util.Date,elevation:Integer",
        },
        "crs": "EPSG:4326",
        "granules": items,
    }
    return {"extends": "stock", "mosaics": {"stores": [store]}}


def mosaic_figures(small: int, repeat: int) -> None:
    from geoserver_emulator.scenarios import loader

    big = small * 10
    docs = {n: mosaic_document(n) for n in (small, big)}
    runs = iter(range(1_000_000))

    def load(n: int) -> None:  # a new document each run: the loader caches parsed ones
        doc = json.loads(json.dumps(docs[n]))
        doc["mosaics"]["stores"][0]["store"] = f"big{next(runs)}"
        loader.load_document(doc)

    times = {n: best(lambda n=n: load(n), repeat) for n in docs}
    row(f"load a mosaic of {big} granules vs {small}", times[big], times[small], 12)

    emu = Emulator(docs[big])
    mosaic = next(m for m in emu.state.mosaics.all() if m.name == "big")
    from geoserver_emulator.filters import predicates as filters

    text = "elevation > 25 AND ingestion AFTER 2008-06-15T00:00:00Z"
    predicate = filters.compile_filter(text)
    assert predicate is not None
    ecql = best(lambda: mosaic.select("big", filters.compile_filter(text)), repeat * 3)
    cut = time.strptime("2008-06-15", "%Y-%m-%d")

    def plain() -> list[Any]:
        out = []
        for g in mosaic.granules:
            if g.coverage != "big":
                continue
            v = g.values
            when = v.get("ingestion")
            if v.get("elevation", 0) > 25 and when is not None and when.timetuple() > cut:
                out.append(g)
        return out

    assert len(plain()) == len(mosaic.select("big", predicate)), "the comparator must agree"
    row(
        f"ECQL granule query over {big} granules vs plain Python",
        ecql,
        best(plain, repeat * 3),
        4,
    )

    code = (
        "import time\nt=time.perf_counter()\n"
        "from geoserver_emulator.filters import predicates\n"
        "predicates.compile_filter(\"elevation > 25 AND location LIKE 'g%'\")\n"
        "print(time.perf_counter()-t)"
    )
    firsts = [
        float(
            subprocess.run(
                [sys.executable, "-c", code], capture_output=True, text=True, check=True
            ).stdout
        )
        for _ in range(max(1, repeat // 2))
    ]
    first = min(firsts)
    print(
        f"{'first ECQL query in a fresh process':<58} {first * 1000:9.2f} ms  (goal ≤ 50 ms)"
        f"{'  met' if first <= 0.05 else '  not met'}",
        flush=True,
    )


# -- feature data -------------------------------------------------------------------------------


def feature_figures(small: int, repeat: int) -> None:
    """One feature inserted (and committed) into a big table against a small one, and one
    feature read by id from each: both independent of the table's size."""
    from geoserver_emulator.features.memory import MemorySource, schema_of
    from geoserver_emulator.features.model import Attribute, Feature, FeatureStore, FeatureTable
    from geoserver_emulator.features.query import Query

    class Type:
        workspace, store, name, native_name, srs = "ws", "st", "t", None, "EPSG:4326"
        attributes: list[Any] = []

    def source(n: int) -> MemorySource:
        table = FeatureTable("t", [Attribute("n", "java.lang.Integer")], None, "EPSG:4326")
        table.features = [Feature(f"t.{i}", {"n": i}) for i in range(1, n + 1)]
        return MemorySource(FeatureStore(), ("ws", "st", "t"), table, schema_of(Type(), table))

    sources = {n: source(n) for n in (small, small * 100)}

    def insert(n: int) -> None:
        for _ in range(20):
            tx = sources[n].transaction()
            tx.insert([{"n": 0}])
            tx.commit()

    def read(n: int) -> None:
        for i in range(1, 21):
            assert len(list(sources[n].read(Query(fids=(f"t.{i}",))))) == 1

    for label, fn in (("20 transactions inserting one feature", insert), ("20 reads by fid", read)):
        fn(small)  # the fid index is built once per table
        fn(small * 100)
        times = {n: best(lambda n=n, fn=fn: fn(n), repeat) for n in sources}
        row(f"{label}: {small * 100} vs {small} features", times[small * 100], times[small], 3)


# -- the journal's memory ------------------------------------------------------------------------


def journal_figures(requests: int) -> None:
    """Bytes held by a journal after ``requests`` requests with 4 KiB bodies: bounded as
    ``serve`` bounds it, against unbounded; then after ``clear()``."""
    import tracemalloc

    from geoserver_emulator.cli import SERVE_BODY_LIMIT, SERVE_JOURNAL_BYTES, SERVE_JOURNAL_LIMIT
    from geoserver_emulator.core.journal import Journal, JournalEntry

    def held(journal: Journal) -> tuple[int, int]:
        tracemalloc.start()
        for i in range(requests):
            body = bytes(4096)[: journal.body_limit or None]
            journal.record(JournalEntry("PUT", f"/rest/styles/s{i}", "", 200, body=body))
        full = tracemalloc.get_traced_memory()[0]
        journal.clear()
        after = tracemalloc.get_traced_memory()[0]
        tracemalloc.stop()
        return full, after

    bounded = Journal(
        limit=min(SERVE_JOURNAL_LIMIT, requests // 4),
        max_bytes=SERVE_JOURNAL_BYTES,
        body_limit=SERVE_BODY_LIMIT,
    )
    b_full, b_after = held(bounded)
    u_full, u_after = held(Journal(body_limit=None))
    mib = 1024 * 1024
    print(
        f"{f'journal after {requests} requests, bounded vs unbounded':<58}"
        f" {b_full / mib:9.2f} MiB vs {u_full / mib:9.2f} MiB = {b_full / u_full:6.2f}×",
        flush=True,
    )
    print(
        f"{'  the same after clear()':<58} {b_after / mib:9.2f} MiB vs {u_after / mib:9.2f} MiB",
        flush=True,
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small sizes (smoke test)")
    parser.add_argument("--layers", type=int, default=10_000, help="extra layers (default 10000)")
    parser.add_argument("--granules", type=int, default=1_000, help="the smaller mosaic (1000)")
    parser.add_argument("--providers", type=int, default=10_000, help="extra providers (10000)")
    parser.add_argument("--styles", type=int, default=10_000, help="extra styles (10000)")
    parser.add_argument("--repeat", type=int, default=5, help="runs per figure, best kept (5)")
    args = parser.parse_args()
    if args.quick:
        args.layers, args.granules, args.providers, args.styles, args.repeat = 200, 50, 50, 50, 1
    gc.collect()
    print("Scale (best of runs; ratio against the comparator measured in the same run)")
    catalog_figures(args.layers, args.repeat)
    style_figures(args.styles, args.repeat)
    provider_figures(args.providers, args.repeat)
    mosaic_figures(args.granules, args.repeat)
    feature_figures(args.granules, args.repeat)
    journal_figures(4_000 if args.quick else 40_000)
    issue_34_figures(args)
    return 0


def issue_34_figures(args: argparse.Namespace) -> None:
    from scaling.capabilities import capabilities_figures
    from scaling.overhead import overhead_figures
    from scaling.writes import rest_figures, undo_figures, write_figures

    sizes = [0, args.layers // 10, args.layers]
    calls = 40 if args.quick else 200
    write_figures(sizes, calls)
    undo_figures(args.layers, calls)
    total = 300 if args.quick else args.layers
    rest_figures(total, at=min(3_000, total // 3))
    overhead_figures(60 if args.quick else 600)
    capabilities_figures(sizes, 2 if args.quick else 3)


if __name__ == "__main__":
    raise SystemExit(main())
