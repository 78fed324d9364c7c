"""ECQL filters on granules: parsing (with GeoServer's additions), evaluation rules, and a
property test against a plain Python model of the same filters."""

from __future__ import annotations

import fnmatch
import operator
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from geoserver_emulator.core.errors import Invalid
from geoserver_emulator.crs.envelope import Envelope
from geoserver_emulator.filters.predicates import compile_filter, like_matcher

G1 = {
    "location": "g1.tif",
    "t": datetime(2008, 10, 31, tzinfo=UTC),
    "e": 0,
    "v": 1.5,
    "the_geom": Envelope(0, 0, 1, 1),
}
G2 = {
    "location": "g3.tif",
    "t": datetime(2008, 11, 1, tzinfo=UTC),
    "e": 100,
    "v": None,
    "the_geom": Envelope(5, 5, 6, 6),
}
G3 = {
    "location": "x_1.tif",
    "t": None,
    "e": None,
    "v": -2.0,
    "the_geom": Envelope(0.5, 0.5, 5.5, 5.5),
}
ALL = [G1, G2, G3]


def select(cql: str) -> list[str]:
    pred = compile_filter(cql)
    return [g["location"] for g in ALL if pred is None or pred(g)]


@pytest.mark.parametrize(
    ("cql", "expected"),
    [
        ("INCLUDE", ["g1.tif", "g3.tif", "x_1.tif"]),
        ("EXCLUDE", []),
        ("t = 2008-11-01T00:00:00Z", ["g3.tif"]),
        ("t = '2008-11-01T00:00:00Z'", ["g3.tif"]),
        ("t = '2008-11-01'", ["g3.tif"]),
        ("e = '100'", ["g3.tif"]),
        ("e <> 0", ["g3.tif"]),
        ("NOT (e = 0)", ["g3.tif", "x_1.tif"]),
        ("NOT e = 0", ["g3.tif", "x_1.tif"]),
        ("e IS NULL", ["x_1.tif"]),
        ("e IS NOT NULL", ["g1.tif", "g3.tif"]),
        ("location LIKE 'g_.tif'", ["g1.tif", "g3.tif"]),
        ("location LIKE 'x\\_%'", ["x_1.tif"]),
        ("location ILIKE 'G%'", ["g1.tif", "g3.tif"]),
        ("location NOT LIKE 'g%'", ["x_1.tif"]),
        ("e NOT BETWEEN 0 AND 50", ["g3.tif", "x_1.tif"]),
        ("e NOT IN (0)", ["g3.tif", "x_1.tif"]),
        ("v < 0", ["x_1.tif"]),
        ("v * 2 = 3", ["g1.tif"]),
        ("e / 0 > 1", ["g3.tif"]),
        ("t AFTER 2008-10-31T00:00:00Z", ["g3.tif"]),
        ("t DURING 2008-10-31T00:00:00Z/2008-11-01T00:00:00Z", []),
        ("t BEFORE OR DURING 2008-10-01T00:00:00Z/2008-10-31T00:00:00Z", ["g1.tif"]),
        ("t DURING OR AFTER 2008-11-01T00:00:00Z/2008-12-01T00:00:00Z", ["g3.tif"]),
        ("t DURING P1D/2008-11-01T12:00:00Z", ["g3.tif"]),
        ("t DURING 2008-10-30T12:00:00Z/P1D", ["g1.tif"]),
        ("BBOX(the_geom, 4, 4, 10, 10)", ["g3.tif", "x_1.tif"]),
        ("INTERSECTS(the_geom, POINT(0.25 0.25))", ["g1.tif"]),
        ("WITHIN(the_geom, POLYGON((0 0, 7 0, 7 7, 0 7, 0 0)))", ["g1.tif", "g3.tif", "x_1.tif"]),
        ("CONTAINS(the_geom, POINT(3 3))", ["x_1.tif"]),
        ("DISJOINT(the_geom, ENVELOPE(4 10 4 10))", ["g1.tif"]),
        ("DWITHIN(the_geom, POINT(7 7), 1.5, meters)", ["g3.tif"]),
        ("RELATE(the_geom, POINT(0.5 0.5), 'T********')", ["g1.tif"]),
        ("missing = 1", []),
        ("missing IS NULL", ["g1.tif", "g3.tif", "x_1.tif"]),
        ("location EXISTS", ["g1.tif", "g3.tif", "x_1.tif"]),
        ("strToUpperCase(location) = 'G1.TIF'", ["g1.tif"]),
        ("strLength(location) > 6", ["x_1.tif"]),
        ("e = 0 OR e = 100 AND v IS NULL", ["g1.tif", "g3.tif"]),
    ],
)
def test_evaluation(cql, expected):
    assert select(cql) == expected


@pytest.mark.parametrize(
    "cql",
    [
        "",
        "a =",
        "a == 1",
        "location LIKE",
        "NOT",
        "(a = 1",
        "a = 'x",
        "nosuch(a) = 1",
        "strLength(a, b) = 1",
        "-a = 1",
        "BBOX(the_geom, 1, 2)",
    ],
)
def test_syntax_errors(cql):
    with pytest.raises(Invalid) as info:
        compile_filter(cql)
    assert info.value.message.startswith("Invalid cql syntax: ")


def test_no_filter_selects_everything():
    assert compile_filter(None) is None
    assert compile_filter("INCLUDE") is None


def test_like_matcher_escapes():
    assert like_matcher("a.b%").fullmatch("a.bcd")
    assert not like_matcher("a.b%").fullmatch("axbcd")
    assert like_matcher("100\\%").fullmatch("100%")
    assert not like_matcher("100\\%").fullmatch("1000")


# -- property: any filter selects what a plain Python model selects --------------------------------

ALPHABET = "abc01-"
BASE = datetime(2008, 10, 30, tzinfo=UTC)
OPS: dict[str, Callable[[Any, Any], bool]] = {
    "=": operator.eq,
    "<>": operator.ne,
    "<": operator.lt,
    "<=": operator.le,
    ">": operator.gt,
    ">=": operator.ge,
}

Model = Callable[[dict[str, Any]], bool]

instants = st.integers(0, 72).map(lambda h: BASE + timedelta(hours=h))
small = st.integers(-5, 5)
halves = st.integers(-10, 10).map(lambda n: n / 2)
texts = st.text(ALPHABET, max_size=4)


def _iso(dt: datetime) -> str:
    return dt.strftime("%Y-%m-%dT%H:%M:%SZ")


def _num(x: float) -> str:
    return repr(x) if x >= 0 else f"({x!r})"


granule = st.fixed_dictionaries(
    {
        "location": texts,
        "e": st.none() | small,
        "v": st.none() | halves,
        "t": st.none() | instants,
        "box": st.tuples(small, small, st.integers(0, 3), st.integers(0, 3)),
    }
).map(
    lambda g: {
        **g,
        "the_geom": Envelope(
            g["box"][0], g["box"][1], g["box"][0] + g["box"][2], g["box"][1] + g["box"][3]
        ),
    }
)


def _cmp(
    attr: str, values: st.SearchStrategy[Any], render: Callable[[Any], str]
) -> st.SearchStrategy[tuple[str, Model]]:
    def build(op: str, lit: Any) -> tuple[str, Model]:
        fn = OPS[op]
        return f"{attr} {op} {render(lit)}", lambda g: g[attr] is not None and fn(g[attr], lit)

    return st.builds(build, st.sampled_from(sorted(OPS)), values)


def _like() -> st.SearchStrategy[tuple[str, Model]]:
    def build(parts: list[str], negate: bool) -> tuple[str, Model]:
        pattern = "".join(parts)
        glob = pattern.replace("%", "*").replace("_", "?")
        match: Model = lambda g: fnmatch.fnmatchcase(g["location"], glob)  # noqa: E731
        if negate:
            return f"location NOT LIKE '{pattern}'", lambda g: not match(g)
        return f"location LIKE '{pattern}'", match

    return st.builds(
        build, st.lists(st.sampled_from([*ALPHABET, "%", "_"]), max_size=4), st.booleans()
    )


def _between() -> st.SearchStrategy[tuple[str, Model]]:
    def build(low: int, high: int) -> tuple[str, Model]:
        return (
            f"e BETWEEN {_num(low)} AND {_num(high)}",
            lambda g: g["e"] is not None and low <= g["e"] <= high,
        )

    return st.builds(build, small, small)


def _in() -> st.SearchStrategy[tuple[str, Model]]:
    def build(items: list[int]) -> tuple[str, Model]:
        return f"e IN ({', '.join(_num(i) for i in items)})", lambda g: g["e"] in items

    return st.builds(build, st.lists(small, min_size=1, max_size=3))


def _null() -> st.SearchStrategy[tuple[str, Model]]:
    def build(attr: str, negate: bool) -> tuple[str, Model]:
        if negate:
            return f"{attr} IS NOT NULL", lambda g: g[attr] is not None
        return f"{attr} IS NULL", lambda g: g[attr] is None

    return st.builds(build, st.sampled_from(["e", "v", "t"]), st.booleans())


def _temporal() -> st.SearchStrategy[tuple[str, Model]]:
    def build(kind: str, a: datetime, b: datetime) -> tuple[str, Model]:
        t = "t"
        if kind == "BEFORE":
            return f"t BEFORE {_iso(a)}", lambda g: g[t] is not None and g[t] < a
        if kind == "AFTER":
            return f"t AFTER {_iso(a)}", lambda g: g[t] is not None and g[t] > a
        return f"t DURING {_iso(a)}/{_iso(b)}", lambda g: g[t] is not None and a < g[t] < b

    return st.builds(build, st.sampled_from(["BEFORE", "AFTER", "DURING"]), instants, instants)


def _bbox() -> st.SearchStrategy[tuple[str, Model]]:
    def build(x: int, y: int, w: int, h: int) -> tuple[str, Model]:
        box = Envelope(x, y, x + w, y + h)
        return f"BBOX(the_geom, {x}, {y}, {x + w}, {y + h})", lambda g: g["the_geom"].intersects(
            box
        )

    return st.builds(build, small, small, st.integers(0, 3), st.integers(0, 3))


leaves = st.one_of(
    _cmp("e", small, _num),
    _cmp("v", halves, _num),
    _cmp("location", texts, lambda s: f"'{s}'"),
    _cmp("t", instants, _iso),
    _like(),
    _between(),
    _in(),
    _null(),
    _temporal(),
    _bbox(),
)


def _combine(
    children: st.SearchStrategy[tuple[str, Model]],
) -> st.SearchStrategy[tuple[str, Model]]:
    def both(op: str, a: tuple[str, Model], b: tuple[str, Model]) -> tuple[str, Model]:
        (ta, fa), (tb, fb) = a, b
        if op == "AND":
            return f"{ta} AND {tb}", lambda g: fa(g) and fb(g)
        return f"({ta} OR {tb})", lambda g: fa(g) or fb(g)

    def negate(a: tuple[str, Model]) -> tuple[str, Model]:
        text, fn = a
        return f"NOT ({text})", lambda g: not fn(g)

    return st.builds(both, st.sampled_from(["AND", "OR"]), children, children) | st.builds(
        negate, children
    )


filters = st.recursive(leaves, _combine, max_leaves=6)


@settings(max_examples=300, deadline=None)
@given(st.lists(granule, max_size=8), filters)
def test_any_filter_selects_what_the_model_selects(granules, case):
    text, model = case
    predicate = compile_filter(text)
    assert predicate is not None
    assert [g for g in granules if predicate(g)] == [g for g in granules if model(g)], text
