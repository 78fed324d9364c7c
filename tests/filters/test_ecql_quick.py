"""The lark-free reader of common filters gives exactly the grammar's tree, or leaves the
filter to the grammar (which then words the errors); what it compiles without pygeofilter
selects exactly what the grammar's tree selects."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from geoserver_emulator.filters import ecql, ecql_quick
from geoserver_emulator.filters import predicates as compiled

FEATURES = st.dictionaries(
    st.sampled_from(["elevation", "location", "a", "_x1"]),
    st.one_of(
        st.none(),
        st.integers(-5, 30),
        st.floats(-5, 30, allow_nan=False),
        st.booleans(),
        st.text(st.sampled_from("ab%_g1 "), max_size=4),
    ),
)

NAMES = st.sampled_from(["elevation", "location", "ingestion", "a", "_x1", "and", "true"])
NUMBERS = st.one_of(
    st.integers(-(10**6), 10**6).map(str),
    st.builds(lambda a, b: f"{a}.{b}", st.integers(0, 999), st.integers(0, 999)),
    st.sampled_from(["- 3", "-0.5", "007", "1e5", "1.", ".5"]),
)
STRINGS = st.text(st.sampled_from("ab%_\\' \"\n"), max_size=5).map(lambda t: f"'{t}'")
OPS = st.sampled_from(["=", "<>", "<", "<=", ">", ">=", "LIKE", "NOT LIKE", "ILIKE", "IN"])
SPACE = st.sampled_from(["", " ", "  ", "\t"])


@st.composite
def predicates(draw):
    op = draw(OPS)
    rhs = draw(STRINGS if "LIKE" in op and draw(st.booleans()) else st.one_of(NUMBERS, STRINGS))
    gap = draw(SPACE)
    return f"{draw(NAMES)}{gap}{op}{gap or ' '}{rhs}"


def conditions():
    return st.recursive(
        st.one_of(predicates(), st.sampled_from(["INCLUDE", "EXCLUDE", "include"])),
        lambda inner: st.one_of(
            st.builds(lambda a, b: f"{a} AND {b}", inner, inner),
            st.builds(lambda a, b: f"{a} OR {b}", inner, inner),
            st.builds(lambda a: f"NOT {a}", inner),
            st.builds(lambda a: f"({a})", inner),
            st.builds(lambda a: f"{a} and", inner),
        ),
        max_leaves=5,
    )


def grammar(text):
    try:
        return ecql._parser().parse(text)
    except Exception as exc:  # any refusal: the quick reader must not answer
        return exc


@settings(max_examples=400, deadline=None)
@given(conditions())
def test_the_quick_reader_agrees_with_the_grammar_or_stays_out(text):
    quick = ecql_quick.parse(text)
    if quick is not None:
        assert ecql_quick.to_ast(quick) == grammar(text), text
        assert ecql.parse(text).ast == grammar(text)


@settings(max_examples=300, deadline=None)
@given(conditions(), st.lists(FEATURES, max_size=6))
def test_what_the_quick_reader_compiles_selects_what_the_grammars_tree_does(text, features):
    quick = ecql_quick.parse(text)
    if quick is None:
        return
    ours = compiled.compile_filter(text)
    node = ecql_quick.to_ast(quick)
    if ours is None:  # INCLUDE: no filter
        assert node == compiled.ast.Include(False)
        return
    theirs = compiled._condition(node)
    assert [ours(f) for f in features] == [theirs(f) for f in features], text


@pytest.mark.parametrize(
    "text",
    [
        "elevation > 25 AND location LIKE 'g%'",
        "a = 1 OR b = 2 AND NOT (c <> 'x')",
        "a NOT ILIKE 'A_%' OR EXCLUDE",
        "elevation >= -3.5",
    ],
)
def test_common_filters_are_read_without_the_grammar(text):
    quick = ecql_quick.parse(text)
    assert quick is not None
    assert ecql_quick.to_ast(quick) == grammar(text)


@pytest.mark.parametrize(
    "text", ["", "a = ", "a BETWEEN 1 AND 2", "a.b = 1", "A = 1", "a = 1e5", "true = 1"]
)
def test_anything_else_is_left_to_the_grammar(text):
    assert ecql_quick.parse(text) is None


GRANULES = "/rest/workspaces/nurc/coveragestores/mosaic/coverages/mosaic/index/granules.json"


@pytest.mark.parametrize(
    "text",
    [
        "NOT (" * 400 + "location = 'x'" + ")" * 400,
        "(" * 600 + "location = 'x' AND location <> 'y'" + ")" * 600,
    ],
)
def test_parentheses_past_the_readers_stack_are_left_to_the_grammar(client, text):
    """Parentheses do not count toward the nesting limit: a filter within it answers, even
    where the quick reader's recursion runs out before the grammar's flat parse."""
    assert ecql_quick.parse(text) is None
    assert compiled.compile_filter(text) is not None
    assert client.get(GRANULES, params={"filter": text}).is_success
