"""CQL2 text and CQL2 JSON read into the filter engine's tree (``filters/cql2.py``): the
spellings where CQL2 differs from ECQL, the JSON operators, the errors, and a property: a
CQL2 text and the ECQL it stands for select the same features."""

from __future__ import annotations

import datetime as dt
import json

import pytest
from hypothesis import given
from hypothesis import strategies as st
from shapely.geometry import Point

from geoserver_emulator.core.errors import Invalid
from geoserver_emulator.features.model import Feature
from geoserver_emulator.features.query import Query
from geoserver_emulator.features.select import select
from geoserver_emulator.filters import cql2, ecql

FEATURES = [
    Feature("f.1", {"name": "Café", "n": 5, "ok": True, "d": dt.date(2020, 1, 1)}),
    Feature("f.2", {"name": "beta", "n": 15, "ok": False, "d": dt.date(2021, 6, 1)}),
    Feature("f.3", {"name": None, "n": 25, "ok": True, "d": None}),
]
for _feature, _xy in zip(FEATURES, (1, 5, 9), strict=True):
    _feature.properties["g"] = Point(_xy, _xy)


BOX = "0.0 0.0, 2.0 0.0, 2.0 2.0, 0.0 2.0, 0.0 0.0"
RING = "0 0, 6 0, 6 6, 0 6, 0 0"
DURING = "(d > '2019-01-01' AND d < '2020-12-31')"


def chosen(flt) -> list[str]:
    return [f.fid for f in select(FEATURES, None, "g", Query(filter=flt))]


@pytest.mark.parametrize(
    ("text", "ecql_text"),
    [
        ("name = 'beta'", "name = 'beta'"),
        ("S_INTERSECTS(g, BBOX(0,0,2,2))", f"INTERSECTS(g, POLYGON(({BOX})))"),
        (f"s_within(g, POLYGON(({RING})))", f"WITHIN(g, POLYGON(({RING})))"),
        ("d > DATE('2020-06-01')", "d > '2020-06-01'"),
        ("T_AFTER(d, TIMESTAMP('2020-06-01T00:00:00Z'))", "(d > '2020-06-01T00:00:00Z')"),
        ("T_BEFORE(d, INTERVAL('2021-01-01', '..'))", "(d < '2021-01-01')"),
        ("T_DURING(d, INTERVAL('2019-01-01','2020-12-31'))", DURING),
        ("T_DISJOINT(d, DATE('2020-01-01'))", "(NOT (d = '2020-01-01'))"),
        ("CASEI(name) = casei('BETA')", "strToLowerCase(name) = 'beta'"),
        ("ACCENTI(name) = 'Cafe'", "accenti(name) = 'Cafe'"),
        ("n BETWEEN 1 AND 20 AND NOT ok = TRUE", "n BETWEEN 1 AND 20 AND NOT ok = TRUE"),
    ],
)
def test_text_rewrites_where_cql2_differs(text, ecql_text):
    assert cql2.to_ecql(text) == ecql_text
    assert chosen(cql2.parse_text(text)) == chosen(ecql.parse(ecql_text))


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("S_INTERSECTS(g, BBOX(0,0,2,2))", ["f.1"]),
        ("d > DATE('2020-06-01')", ["f.2"]),
        ("T_INTERSECTS(d, INTERVAL('2020-01-01','2020-12-31'))", ["f.1"]),
        ("CASEI(name) LIKE CASEI('BE%')", ["f.2"]),
        ("ACCENTI(name) = 'Cafe'", ["f.1"]),
        ("name IS NULL", ["f.3"]),
        ("n IN (5, 25)", ["f.1", "f.3"]),
    ],
)
def test_text_selects(text, expected):
    assert chosen(cql2.parse_text(text)) == expected


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("INTERSECTS(g, POINT(1 1))", "INTERSECTS is ECQL"),
        ("BBOX(g, 0, 0, 1, 1)", "is ECQL"),
        ("S_INTERSECTS(g, BBOX(0, 0, 1))", "BBOX takes 4 or 6 numbers"),
        ("S_INTERSECTS(g, BBOX(0, 0, 1, x1))", "not a number: x1"),
        ("d AFTER 2020-01-01T00:00:00Z", "AFTER is ECQL"),
        ("A_CONTAINS(tags, ('a'))", "array function"),
        ("T_MEETS(d, DATE('2020-01-01'))", "temporal function T_MEETS"),
        ("n % 2 = 1", "% is not supported"),
        ("d > DATE('yesterday')", "not an instant"),
        ("INTERVAL('a','b') = d", "INTERVAL is only read inside"),
        ("name = 'x' AND (", "not closed"),
        ("name = @", "unexpected '@'"),
        ("THIS IS NOT A FILTER", "Invalid cql syntax"),
    ],
)
def test_text_errors(text, says):
    with pytest.raises(Invalid) as info:
        cql2.parse_text(text)
    assert says in info.value.message and info.value.message.startswith("Invalid cql syntax")


def P(name: str) -> dict[str, str]:
    return {"property": name}


def op(name: str, *args: object) -> dict[str, object]:
    return {"op": name, "args": list(args)}


SQUARE = {"type": "Polygon", "coordinates": [[[4, 4], [6, 4], [6, 6], [4, 6], [4, 4]]]}


@pytest.mark.parametrize(
    ("doc", "expected"),
    [
        (op("=", P("name"), "beta"), ["f.2"]),
        (op("s_intersects", P("g"), {"bbox": [0, 0, 2, 2]}), ["f.1"]),
        (op("s_within", P("g"), SQUARE), ["f.2"]),
        (op("and", op(">", P("n"), 1), op("<", P("n"), 20), op("=", P("ok"), True)), ["f.1"]),
        (op("or", op("isNull", P("name")), op("=", P("n"), 5)), ["f.1", "f.3"]),
        (op("not", op("=", P("ok"), True)), ["f.2"]),
        (op("between", P("n"), 10, 30), ["f.2", "f.3"]),
        (op("between", P("n"), [10, 20]), ["f.2"]),
        (op("in", P("n"), [5, 25]), ["f.1", "f.3"]),
        (op("like", P("name"), "b%"), ["f.2"]),
        (op("like", op("casei", P("name")), op("casei", "BE%")), ["f.2"]),
        (op("t_after", P("d"), {"date": "2020-06-01"}), ["f.2"]),
        (op("t_intersects", P("d"), {"interval": ["2020-01-01", ".."]}), ["f.1", "f.2"]),
        (op(">", op("+", P("n"), 10), 30), ["f.3"]),
        (op("=", op("strToUpperCase", P("name")), "BETA"), ["f.2"]),
        (True, ["f.1", "f.2", "f.3"]),
        (False, []),
    ],
)
def test_json_selects(doc, expected):
    assert chosen(cql2.parse_json(json.dumps(doc))) == expected


@pytest.mark.parametrize(
    ("doc", "says"),
    [
        ("{nope", "Malformed CQL2 JSON filter"),
        ('"name"', "expected an operation object"),
        ('{"op": "=", "args": "x"}', "not an array"),
        ('{"op": "=", "args": [1]}', "= takes 2 argument(s)"),
        ('{"op": "and", "args": [true]}', "at least two"),
        ('{"op": "frobnicate", "args": []}', "unsupported operation"),
        ('{"op": "t_meets", "args": [{"property": "d"}, {"date": "2020-01-01"}]}', "t_meets"),
        ('{"op": "=", "args": [{"property": 5}, 1]}', "property name is a string"),
        ('{"op": "s_intersects", "args": [{"property": "g"}, {"bbox": [1, 2]}]}', "bbox"),
        ('{"op": "=", "args": [{"property": "n"}, [1]]}', "an array is not a value"),
        ('{"op": "t_after", "args": [{"property": "d"}, {"date": "soon"}]}', "not an instant"),
        ('{"op": "=", "args": [{"op": "%", "args": [1, 2]}, 1]}', "% is not supported"),
        ("[" * 300 + "]" * 300, "nested too deeply"),
    ],
)
def test_json_errors(doc, says):
    with pytest.raises(Invalid) as info:
        cql2.parse_json(doc)
    assert says in info.value.message, info.value.message


COMPARE = st.sampled_from(["=", "<>", "<", ">", "<=", ">="])
LEAF = st.one_of(
    st.tuples(st.just("n"), COMPARE, st.integers(-5, 30).map(str)),
    st.tuples(st.just("name"), st.sampled_from(["=", "<>"]), st.sampled_from(["'beta'", "'x'"])),
    st.tuples(st.just("d"), COMPARE, st.sampled_from(["DATE('2020-06-01')", "DATE('2021-06-01')"])),
)


def _texts(tree) -> tuple[str, str]:
    """(CQL2 text, ECQL text) of a tree of leaves under AND/OR/NOT."""
    if tree[0] in ("AND", "OR"):
        (a, b), (c, d) = _texts(tree[1]), _texts(tree[2])
        return f"({a} {tree[0]} {c})", f"({b} {tree[0]} {d})"
    if tree[0] == "NOT":
        a, b = _texts(tree[1])
        return f"NOT ({a})", f"NOT ({b})"
    attr, op, literal = tree
    plain = literal.replace("DATE(", "").replace(")", "") if literal.startswith("DATE") else literal
    return f"{attr} {op} {literal}", f"{attr} {op} {plain}"


TREES = st.recursive(
    LEAF,
    lambda inner: st.one_of(
        st.tuples(st.sampled_from(["AND", "OR"]), inner, inner),
        st.tuples(st.just("NOT"), inner),
    ),
    max_leaves=6,
)


@given(tree=TREES)
def test_cql2_text_selects_what_its_ecql_selects(tree):
    text, ecql_text = _texts(tree)
    assert chosen(cql2.parse_text(text)) == chosen(ecql.parse(ecql_text))
