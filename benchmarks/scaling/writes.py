"""Writes at scale (issue 34): each write, a refused write and the first read after it at
several catalog sizes against the same on stock (goal ≤ 2× at the largest size), beside a
bare Starlette dict write; building a catalog over REST (seconds, not minutes), and adding
one layer to it as it grows."""

from __future__ import annotations

import statistics
import time
from pathlib import Path

import httpx

from geoserver_emulator import Emulator

from .common import absolute, bare_wsgi, big_catalog, client, paired, row, sized

ROOT = Path(__file__).resolve().parent.parent.parent
SLD_TYPE = {"Content-Type": "application/vnd.ogc.sld+xml"}
WRITE_GOAL = 2.0
"""every write and refused write at the largest size ≤ 2× the same on stock"""


def _sld() -> bytes:
    return (ROOT / "emulator/scenarios/stock/styles/burg.sld").read_bytes()


class Writes:
    """The measured requests on one emulator (each leaves the catalog as big as it was)."""

    def __init__(self, c: httpx.Client) -> None:
        self.c = c
        self.n = 0
        self.sld = _sld()

    def create(self) -> None:
        self.n += 1
        body = {"featureType": {"name": f"bench{self.n}", "nativeName": "roads"}}
        r = self.c.post("/rest/workspaces/sf/datastores/sf/featuretypes.json", json=body)
        assert r.status_code == 201, r.text

    def delete(self) -> None:
        path = f"/rest/workspaces/sf/datastores/sf/featuretypes/bench{self.n}.json?recurse=true"
        r = self.c.delete(path)
        assert r.status_code == 200, r.text

    def style(self) -> None:
        r = self.c.put("/rest/styles/line", content=self.sld, headers=SLD_TYPE)
        assert r.status_code == 200, r.text

    def refused(self) -> None:
        r = self.c.put("/rest/workspaces/sf/datastores/sf.json", json={})
        assert r.status_code == 400, r.text

    def read(self) -> None:
        r = self.c.get("/rest/layers/sf:roads.json")
        assert r.status_code == 200, r.text


def _timed_pairs(w: Writes, calls: int) -> dict[str, float]:
    """Median CPU seconds of each figure; create and delete alternate (the size holds), and
    each read follows a refused write (not timed)."""
    now = time.thread_time
    samples: dict[str, list[float]] = {k: [] for k in ("create", "delete", "style", "refused")}
    samples["read"] = []
    for step in range(calls + 1):
        for name in ("create", "delete", "style", "refused"):
            start = now()
            getattr(w, name)()
            samples[name].append(now() - start)
        w.refused()
        start = now()
        w.read()
        samples["read"].append(now() - start)
        if step == 0:  # warm-up round
            for times in samples.values():
                times.clear()
    return {name: statistics.median(times) for name, times in samples.items()}


FIGURES = [
    ("create", "create feature type + layer (POST)"),
    ("delete", "delete feature type + layer"),
    ("style", "update a style (PUT SLD)"),
    ("refused", "refused write (undone)"),
    ("read", "first read after a refused write"),
]


def write_figures(sizes: list[int], calls: int) -> None:
    print(f"\nWrites at +{', +'.join(map(str, sizes))} extra layers (CPU, medians of {calls})")
    results: list[dict[str, float]] = []
    for size in sizes:
        emu = Emulator(big_catalog(size) if size else "stock")
        results.append(_timed_pairs(Writes(client(emu.wsgi_app)), calls))
    for key, label in FIGURES:
        sized(label, sizes, [r[key] for r in results], WRITE_GOAL)
    stock = results[0]
    bare = client(bare_wsgi())
    body = _sld()
    floor_write, floor_read = paired(
        [
            lambda: bare.put("/table/line", content=body, headers=SLD_TYPE),
            lambda: bare.get("/table/line"),
        ],
        calls * 4,
    )
    row("on stock: PUT SLD", stock["style"], floor_write, 4.0, "a bare Starlette dict write")
    row("on stock: create feature type + layer", stock["create"], floor_write, None, "the same")
    row("on stock: first read after a refusal", stock["read"], floor_read, None, "a dict read")


def _post_layer(c: httpx.Client, i: int) -> None:
    body = {"featureType": {"name": f"rest{i:05d}", "nativeName": "roads"}}
    r = c.post("/rest/workspaces/sf/datastores/sf/featuretypes", json=body)
    assert r.status_code == 201, r.text


def rest_figures(total: int, at: int, window: int = 50) -> None:
    """Build a ``total``-layer catalog over REST on stock (wall seconds, whole), and the
    median POST near ``at`` layers against the first ones."""
    emu = Emulator("stock")
    c = client(emu.wsgi_app)
    times: list[float] = []
    start = time.perf_counter()
    for i in range(total):
        t = time.thread_time()
        _post_layer(c, i)
        times.append(time.thread_time() - t)
    elapsed = time.perf_counter() - start
    early = sorted(times[1 : window + 1])[window // 2]
    near = sorted(times[at : at + window])[min(window, len(times) - at) // 2]
    row(f"adding one layer over REST at +{at} layers", near, early, WRITE_GOAL, "at stock")
    absolute(f"building a {total}-layer catalog over REST", elapsed, 60.0, unit="s")


def undo_figures(size: int, calls: int) -> None:
    """The write and the refused write with the undo record against the same with a record
    that keeps nothing (what the undo log itself costs)."""
    from geoserver_emulator.core.state import State

    class Nothing:
        def commit(self) -> None: ...
        def undo(self) -> None: ...
        def close(self) -> None: ...

    for label, scenario in (("stock", "stock"), (f"+{size} layers", big_catalog(size))):
        w = Writes(client(Emulator(scenario).wsgi_app))
        begin = State.begin
        guarded = paired([w.style, w.refused], calls)
        State.begin = lambda self: Nothing()  # type: ignore[assignment,method-assign,return-value]
        try:
            bare = paired([w.style, w.refused], calls)
        finally:
            State.begin = begin  # type: ignore[method-assign]
        row(f"PUT SLD with its undo record ({label})", guarded[0], bare[0], None, "without")
        row(f"refused write with its undo record ({label})", guarded[1], bare[1], None, "without")
