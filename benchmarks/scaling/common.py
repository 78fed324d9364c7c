"""What the scale figures share: clients, comparators, medians and the printed verdicts.

Every figure is a median over many calls (the issue's goals are medians), measured beside
its comparator in the same run and, where both run in this thread, in CPU time (a shared
machine's neighbours move wall time much more than CPU time). A ratio is printed with its
goal and "met" or "not met"; nothing here is asserted.
"""

from __future__ import annotations

import json
import statistics
import time
from collections.abc import Callable
from typing import Any

import httpx
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from geoserver_emulator.scenarios.builder import ScenarioBuilder

AUTH = ("admin", "geoserver")
BASE = "http://localhost/geoserver"
CLOCKS: dict[str, Callable[[], float]] = {"cpu": time.thread_time, "wall": time.perf_counter}


def client(app: Any) -> httpx.Client:
    """An in-process client over a WSGI app (the emulator's ``wsgi_app``, or a comparator)."""
    return httpx.Client(transport=httpx.WSGITransport(app=app), base_url=BASE, auth=AUTH)


def big_catalog(layers: int) -> dict[str, Any]:
    """The stock scenario plus ``layers`` feature types (each published) in one store."""
    b = ScenarioBuilder("stock")
    store = b.workspace("big", uri="http://big.example.com").datastore(
        "db", type="PostGIS", connection_parameters={"host": "db"}
    )
    for i in range(layers):
        store.feature_type(f"layer{i:05d}", attributes=["the_geom:Point"], bbox=(0, 0, 1, 1))
    return b.document()


def median(fn: Callable[[], Any], calls: int, clock: str = "cpu") -> float:
    """Median seconds of one call of ``fn`` over ``calls`` calls (after one warm-up call)."""
    return paired([fn], calls, clock)[0]


def paired(fns: list[Callable[[], Any]], calls: int, clock: str = "cpu") -> list[float]:
    """Median seconds per call of each of ``fns``, called in turn (so that a change in the
    machine's load moves them alike)."""
    now = CLOCKS[clock]
    for fn in fns:
        fn()
    samples: list[list[float]] = [[] for _ in fns]
    for _ in range(calls):
        for fn, times in zip(fns, samples, strict=True):
            start = now()
            fn()
            times.append(now() - start)
    return [statistics.median(times) for times in samples]


def verdict(ratio: float, goal: float | None) -> str:
    if goal is None:
        return ""
    return f"  (goal ≤ {goal:g}×)  " + ("met" if ratio <= goal else "not met")


def row(name: str, ours: float, comparator: float, goal: float | None, against: str = "") -> None:
    """One figure: ours and its comparator (seconds), their ratio, the goal and verdict."""
    ratio = ours / comparator if comparator else float("inf")
    label = f"{name} vs {against}" if against else name
    print(
        f"{label:<62} {ours * 1000:9.3f} ms vs {comparator * 1000:9.3f} ms"
        f" = {ratio:6.2f}×{verdict(ratio, goal)}",
        flush=True,
    )


def absolute(name: str, seconds: float, goal: float | None, unit: str = "ms") -> None:
    """One figure against an absolute goal (in ``unit``: ``ms`` or ``s``)."""
    scale = 1000.0 if unit == "ms" else 1.0
    value = seconds * scale
    text = (
        ""
        if goal is None
        else f"  (goal ≤ {goal:g} {unit})  " + ("met" if value <= goal else "not met")
    )
    print(f"{name:<62} {value:9.3f} {unit}{text}", flush=True)


def sized(name: str, sizes: list[int], figures: list[float], goal: float | None) -> None:
    """A figure at each catalog size, and the largest against the first (stock)."""
    cells = "  ".join(
        f"+{size}: {seconds * 1000:8.3f} ms" for size, seconds in zip(sizes, figures, strict=True)
    )
    ratio = figures[-1] / figures[0] if figures[0] else float("inf")
    print(
        f"{name:<44} {cells}  = {ratio:5.2f}× stock{verdict(ratio, goal)}",
        flush=True,
    )


# -- comparators: the same transport over nothing but Starlette and a dict -------------------

_TABLE: dict[str, bytes] = {}
CHEAP_BODY: list[bytes] = [b'{"about":{"resource":[]}}']
"""what the bare cheap GET answers (set to the emulator's own answer, for the same bytes)"""


async def _cheap(request: Request) -> Response:
    return Response(CHEAP_BODY[0], media_type="application/json")


async def _put(request: Request) -> Response:
    _TABLE[request.path_params["name"]] = await request.body()
    return Response(status_code=200)


async def _get(request: Request) -> Response:
    body = json.dumps({"item": {"name": request.path_params["name"], "size": len(_TABLE)}})
    return Response(body, media_type="application/json")


def bare_app() -> Starlette:
    """A bare Starlette app: a cheap GET, a dict write and a dict read under the same paths
    shapes as the emulator's (the floor our requests are measured against)."""
    return Starlette(
        routes=[
            Route("/geoserver/cheap", _cheap),
            Route("/geoserver/table/{name}", _put, methods=["PUT", "POST", "DELETE"]),
            Route("/geoserver/table/{name}", _get, methods=["GET"]),
        ]
    )


def bare_wsgi() -> Any:
    from geoserver_emulator.http.wsgi import WSGIApp

    return WSGIApp(bare_app())
