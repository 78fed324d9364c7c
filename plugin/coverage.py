"""``--geoserver-coverage``: the emulated endpoints a run exercised, and those it never touched.

Endpoints come from the route table (``http.app.all_routes()``): one row per route
path and method, control plane left out. Every emulator the plugin builds reports its
journal entries here; under xdist each worker sends its counts to the controller, which
prints the table at the end of the run.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from starlette.routing import BaseRoute, Mount, Route

from geoserver_emulator.core.journal import JournalEntry
from geoserver_emulator.http import endpoints as _endpoints
from geoserver_emulator.http.endpoints import Endpoint, tally

WORKER_KEY = "geoserver_coverage"


def endpoints(routes: list[BaseRoute] | None = None) -> list[tuple[str, str, Any]]:
    """(method, path template, compiled regex) for every emulated route, control plane excluded."""
    if routes is None:
        from geoserver_emulator.http.app import all_routes

        routes = all_routes()
    return _endpoints.endpoints(routes)


class CoverageCollector:
    """Counts requests per (method, path) and reports them per endpoint; a pytest plugin object."""

    def __init__(self, config: pytest.Config) -> None:
        self.config = config
        self.requests: Counter[tuple[str, str]] = Counter()

    def observe(self, entry: JournalEntry) -> None:
        method = "GET" if entry.method == "HEAD" else entry.method
        self.requests[(method, entry.path)] += 1

    # -- xdist: workers send their counts, the controller merges them ----------------------

    def pytest_sessionfinish(self, session: pytest.Session) -> None:
        workeroutput = getattr(self.config, "workeroutput", None)
        if workeroutput is not None:
            workeroutput[WORKER_KEY] = [[m, p, n] for (m, p), n in self.requests.items()]

    @pytest.hookimpl(optionalhook=True)
    def pytest_testnodedown(self, node: Any, error: Any) -> None:
        for method, path, count in getattr(node, "workeroutput", {}).get(WORKER_KEY, []):
            self.requests[(method, path)] += count

    # -- the report --------------------------------------------------------------------

    def tally(self) -> tuple[dict[Endpoint, int], int]:
        """Requests per endpoint (every endpoint listed), and requests that matched none."""
        return tally(self.requests.items(), endpoints())

    def pytest_terminal_summary(self, terminalreporter: Any) -> None:
        if hasattr(self.config, "workerinput"):
            return
        for line in report_lines(*self.tally()):
            terminalreporter.write_line(line)


def report_lines(hits: dict[Endpoint, int], unmatched: int) -> list[str]:
    """The coverage table as text lines."""
    used = [(e, n) for e, n in hits.items() if n]
    unused = [e for e, n in hits.items() if not n]
    total = len(hits) or 1
    width = max((len(p) for _, p in hits), default=10)
    lines = [
        "",
        f"geoserver-emulator endpoint coverage: {len(used)} of {len(hits)} endpoints exercised "
        f"({100 * len(used) / total:.0f}%)",
        "",
        f"exercised ({len(used)}):",
    ]
    lines += [
        f"  {m:<7} {p:<{width}}  {n:>6} requests"
        for (m, p), n in sorted(used, key=lambda x: (x[0][1], x[0][0]))
    ]
    lines += ["", f"never touched ({len(unused)}):"]
    lines += [f"  {m:<7} {p}" for m, p in sorted(unused, key=lambda e: (e[1], e[0]))]
    if unmatched:
        lines += ["", f"requests to no emulated endpoint (answered 404 or 405): {unmatched}"]
    return lines


def _area_of(route: Route) -> str:
    """The area a route belongs to, from its endpoint's module (``….areas.<area>…``)."""
    parts = getattr(route.endpoint, "__module__", "").split(".")
    if len(parts) > 2 and parts[1] == "areas":
        return parts[2]
    return parts[1] if len(parts) > 1 else "?"


def markdown() -> str:
    """``docs/coverage.md``: every emulated endpoint, by area, from the route table."""
    from geoserver_emulator.http.app import all_routes
    from geoserver_emulator.http.routing import unwrapped

    rows: dict[str, list[tuple[str, str]]] = {}

    def walk(routes: list[BaseRoute], prefix: str) -> None:
        for route in map(unwrapped, routes):
            if isinstance(route, Mount):
                walk(list(route.routes), prefix + route.path)
            elif isinstance(route, Route):
                methods = set(route.methods or {"GET"})
                shown = sorted(m for m in methods if not (m == "HEAD" and "GET" in methods))
                answers = getattr(route, "answers", None) or ", ".join(shown)
                support = getattr(route, "support", None)
                if support:  # a canned or no-op route says so
                    answers += f" ({support})"
                rows.setdefault(_area_of(route), []).append((prefix + route.path, answers))

    walk(all_routes(), "")
    total = sum(len(r) for r in rows.values())
    out = [
        "# Endpoint coverage",
        "",
        "Generated from the route table by "
        "`python -m geoserver_emulator_pytest.coverage > docs/coverage.md`;",
        "a test fails when it is stale. Paths are relative to the context root; `{x}` is a",
        "path parameter. Every row is implemented (the emulator has no stub routes); a method a",
        "path does not list answers 405 with `Allow`.",
        "",
        f"{total} route paths in {len(rows)} areas.",
    ]
    for area in sorted(rows):
        out += ["", f"## {area}", "", "| Path | Methods |", "|---|---|"]
        out += [f"| `{path}` | {methods} |" for path, methods in rows[area]]
    out += ogc_operations()
    return "\n".join(out + reference_section()) + "\n"


def compare_reference() -> tuple[list[tuple[str, str, str, str]], list[tuple[str, str, str]]]:
    """Each core operation of GeoServer's REST reference (``reference.OPERATIONS``) that the
    route table answers (or that the reference documents as 405), and those it does not:
    (method, path, reason from ``reference.EXCEPTIONS``, "" when none is given)."""
    import re

    from starlette.routing import compile_path

    from geoserver_emulator.http.app import all_routes
    from geoserver_emulator.http.endpoints import flatten

    from .reference import EXCEPTIONS, OPERATIONS

    table = [(set(methods), compile_path(path)[0]) for path, methods in flatten(all_routes(), "")]
    answered, missing = [], []
    for source, method, path, note in OPERATIONS:
        sample = re.sub(r"\{[^}]+\}", "x", path)
        methods = set().union(*(ms for ms, rx in table if rx.match(sample)))
        wanted = "GET" if method == "HEAD" else method
        if note == "405" or wanted in methods:
            answered.append((source, method, path, note))
        else:
            missing.append((method, path, EXCEPTIONS.get((method, path), "")))
    return answered, missing


def reference_section() -> list[str]:
    """The comparison with GeoServer's REST reference, for ``docs/coverage.md``."""
    answered, missing = compare_reference()
    documented_405 = sum(1 for *_, note in answered if note == "405")
    out = [
        "",
        "## GeoServer's REST reference",
        "",
        "Every core operation of GeoServer's REST API reference (the OpenAPI files"
        " `doc/en/api/1.0.0/*.yaml` of geoserver/geoserver; the list, with its source, is",
        "`plugin/reference.py`), compared with the route table above:"
        f" {len(answered) + len(missing)} operations, {len(answered)} answered"
        f" ({documented_405} of them documented as 405, use another method),"
        f" {len(missing)} answered otherwise, each with its reason:",
        "",
        "| Method | Reference path | Why |",
        "|---|---|---|",
    ]
    out += [f"| {m} | `{p}` | {why or 'no reason given'} |" for m, p, why in missing]
    return out


def ogc_operations() -> list[str]:
    """The OGC operations section: a row per operation of each service's dispatch table
    (``areas/<service>/operations.py`` ``SERVICE``), with its versions and support."""
    from geoserver_emulator.areas.ows.routes import SERVICES, service

    out = [
        "",
        "## OGC operations",
        "",
        "Generated from the OGC services' dispatch tables (`SERVICE` in",
        "`areas/<service>/operations.py`). They answer under the `ows` paths above (WMTS",
        "under `/gwc/service/wmts`), and their workspace and layer virtual services.",
        "*emulated*: answered from the state; *canned*: a fixed",
        "answer; *not emulated*: GeoServer has it, the emulator answers",
        "`OperationNotSupported` (see `docs/ows.md`).",
        "",
        "| Service | Versions | Operation | Support |",
        "|---|---|---|---|",
    ]
    for name in SERVICES:
        found = service(name)
        if found is None:  # pragma: no cover - every name is a module of the table
            continue
        for op in found.operations:
            versions = ", ".join(op.versions or found.versions)
            support = f"{op.support}: {op.note}" if op.note else op.support
            out.append(f"| {name.upper()} | {versions} | {op.name} | {support} |")
    return out


if __name__ == "__main__":
    import sys

    sys.stdout.write(markdown())
