"""The emulated endpoints, from the route table: (method, path template, compiled regex).

The control plane and the landing page are left out: they are the emulator's own, not
GeoServer's. The pytest plugin's coverage report and the inspector page count a journal's
requests against this list.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import Any

from starlette.routing import BaseRoute, Mount, Route, compile_path

Endpoint = tuple[str, str]
"""(method, route path)"""

OWN_PATHS = ("/__emulator",)
"""route paths (and what lies under them) that are the emulator's own"""


def endpoints(routes: list[BaseRoute]) -> list[tuple[str, str, Any]]:
    """(method, path template, compiled regex) for every emulated route of ``routes`` (an
    app's routes, or ``app.all_routes()``; areas not yet loaded are loaded)."""
    out: list[tuple[str, str, Any]] = []
    for path, methods in flatten(routes, ""):
        if path == "/" or path.startswith(OWN_PATHS):
            continue
        regex = compile_path(path)[0]
        shown = sorted(m for m in methods if not (m == "HEAD" and "GET" in methods))
        out.extend((method, path, regex) for method in shown)
    return out


def flatten(routes: list[BaseRoute], prefix: str) -> list[tuple[str, set[str]]]:
    """(path, methods) of every route, mounts and groups of routes expanded."""
    from .routing import unwrapped

    out: list[tuple[str, set[str]]] = []
    for route in map(unwrapped, routes):
        if isinstance(route, Mount):
            out.extend(flatten(list(route.routes), prefix + route.path))
        elif isinstance(route, Route):
            out.append((prefix + route.path, set(route.methods or {"GET"})))
        elif isinstance(getattr(route, "routes", None), list):  # a group (an area's routes)
            out.extend(flatten(list(route.routes), prefix))  # type: ignore[attr-defined]
    return out


def tally(
    requests: Iterable[tuple[tuple[str, str], int]], table: list[tuple[str, str, Any]]
) -> tuple[dict[Endpoint, int], int]:
    """Requests per endpoint of ``table`` (every endpoint listed) from ((method, path),
    count) pairs, and how many requests matched none. HEAD counts as GET."""
    hits: dict[Endpoint, int] = {(m, p): 0 for m, p, _ in table}
    unmatched = 0
    for (method, path), count in requests:
        method = "GET" if method == "HEAD" else method
        endpoint = next(((m, p) for m, p, rx in table if m == method and rx.match(path)), None)
        if endpoint is None:
            unmatched += count
        else:
            hits[endpoint] += count
    return hits, unmatched


def count(entries: Iterable[Any]) -> Counter[tuple[str, str]]:
    """(method, path) counts of journal entries."""
    return Counter((e.method, e.path) for e in entries)
