"""Which area answers a URL is declared, not decided by the order of a list.

``http/app.py`` holds the URL ownership table (``AREA_PREFIXES``: the paths each area answers
under) and the declared precedences (``FIRST``: where two areas have routes that match the same
request, which answers). The routes are tried in ``routing_order``: the declared pairs in their
order, otherwise the more specific area first, then by name. Here the route tables are searched
for every pair of routes of two areas that match one request (the same path and a method in
common); each such pair of areas must be declared, and each declaration must be needed.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterable

import pytest
from starlette.routing import compile_path

from geoserver_emulator.http.app import AREA_PREFIXES, AREAS, FIRST, routing_order
from geoserver_emulator.http.routing import LazyRoutes

Table = dict[str, list[tuple[str, frozenset[str]]]]
"""area → (route path, methods) of each of its routes"""


def _tables() -> Table:
    out: Table = {}
    for area in AREAS:
        name = area.module.split(".")[2]
        out[name] = [
            (r.path, frozenset(r.methods or ()) - {"HEAD"})  # type: ignore[attr-defined]
            for r in area.routes
            if hasattr(r, "path")
        ]
    return out


def _literals(table: Table) -> set[str]:
    """Every literal word of every route path: the values a parameter is tried with, so that
    a parameter standing where another route has a literal meets it."""
    words = {"x"}
    for routes in table.values():
        for path, _ in routes:
            for part in re.split(r"\{[^}]*\}|[/.]", path):
                if part:
                    words.add(part)
    return words


def conflicts(table: Table, prefixes: dict[str, tuple[str, ...]]) -> dict[frozenset[str], str]:
    """Pairs of areas with routes that match one request, each with an example path."""
    covers = {
        area: LazyRoutes("unused", prefixes[area]) if area in prefixes else _EXACT[area]
        for area in table
    }
    compiled = {
        area: [(compile_path(path)[0], methods) for path, methods in routes]
        for area, routes in table.items()
    }
    found: dict[frozenset[str], str] = {}
    for area, routes in table.items():
        for path, methods in routes:
            for word in _literals(table):
                sample = re.sub(r"\{[^}]+\}", word, path)
                for other, others in compiled.items():
                    if other == area or not covers[other].covers(sample):
                        continue
                    if any(methods & m and rx.match(sample) for rx, m in others):
                        found.setdefault(frozenset((area, other)), sample)
    return found


_EXACT = {a.module.split(".")[2]: a for a in AREAS if a.module.split(".")[2] not in AREA_PREFIXES}
"""areas that answer exact paths only (``LazyPaths``: the REST index), outside the prefix table"""

TABLE = _tables()
FOUND = conflicts(TABLE, AREA_PREFIXES)


def test_the_search_finds_a_conflict_that_is_there() -> None:
    """Self-check: two areas with routes matching the same request are found."""
    table: Table = {
        "a": [("/rest/things/{name}", frozenset({"GET"}))],
        "b": [("/rest/{kind}/special", frozenset({"GET", "PUT"}))],
        "c": [("/rest/things/{name}", frozenset({"DELETE"}))],  # no method in common with a
    }
    prefixes = {"a": ("/rest/things",), "b": ("/rest/*/special",), "c": ("/rest/things",)}
    assert conflicts(table, prefixes) == {frozenset({"a", "b"}): "/rest/things/special"}


def test_every_pair_of_areas_answering_one_request_is_declared() -> None:
    declared = {frozenset((first, then)) for first, then, _ in FIRST}
    missing = {tuple(sorted(pair)): path for pair, path in FOUND.items() if pair not in declared}
    assert not missing, (
        "two areas have routes that match the same request; declare in http/app.py FIRST"
        f" which one answers: {missing}"
    )


def test_every_declaration_is_needed() -> None:
    stale = [(first, then) for first, then, _ in FIRST if frozenset((first, then)) not in FOUND]
    assert not stale, f"declared in FIRST but no route of one matches a route of the other: {stale}"


def test_the_routing_order_follows_the_declarations() -> None:
    order = [area.module.split(".")[2] for area in AREAS if area not in _EXACT.values()]
    assert sorted(order) == sorted(AREA_PREFIXES)
    for first, then, why in FIRST:
        assert order.index(first) < order.index(then), (first, then, why)


def _shuffled(
    items: Iterable[tuple[str, tuple[str, ...]]], seed: int
) -> dict[str, tuple[str, ...]]:
    listed = list(items)
    random.Random(seed).shuffle(listed)
    return dict(listed)


@pytest.mark.parametrize("seed", range(5))
def test_the_order_the_tables_list_areas_in_plays_no_part(seed: int) -> None:
    expected = routing_order(AREA_PREFIXES, FIRST)
    first = list(FIRST)
    random.Random(seed).shuffle(first)
    assert routing_order(_shuffled(AREA_PREFIXES.items(), seed), tuple(first)) == expected


def test_a_cycle_in_the_declarations_is_refused() -> None:
    prefixes = {"a": ("/x",), "b": ("/y",)}
    with pytest.raises(ValueError, match="cycle"):
        routing_order(prefixes, (("a", "b", ""), ("b", "a", "")))


def test_the_more_specific_area_goes_first_where_nothing_is_declared() -> None:
    prefixes = {"general": ("/gwc/rest",), "specific": ("/gwc/rest/seed",)}
    assert routing_order(prefixes, ()) == ["specific", "general"]
