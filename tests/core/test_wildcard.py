"""``core.wildcard``: LIKE and glob patterns match exactly what the backtracking regular
expression they replace matched, and ``core.budget``'s regular-expression weight."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from geoserver_emulator.core.budget import MAX_REGEX_WEIGHT, Budget, TooCostly, regex_weight
from geoserver_emulator.core.wildcard import glob, like


def like_as_regex(pattern: str, nocase: bool) -> re.Pattern[str]:
    """The translation ``LIKE`` used to have: ``%`` to ``.*``, ``_`` to ``.``."""
    out, i = [], 0
    while i < len(pattern):
        c = pattern[i]
        if c == "\\" and i + 1 < len(pattern):
            out.append(re.escape(pattern[i + 1]))
            i += 2
            continue
        out.append(".*" if c == "%" else "." if c == "_" else re.escape(c))
        i += 1
    return re.compile("".join(out), re.DOTALL | (re.IGNORECASE if nocase else 0))


@given(st.text("ab%_\\.", max_size=8), st.text("abAB%_\\.\n", max_size=10), st.booleans())
def test_like_matches_what_its_regex_matched(pattern, text, nocase):
    expected = like_as_regex(pattern, nocase).fullmatch(text) is not None
    assert like(pattern, nocase).fullmatch(text) is expected


@given(st.text("ab*?.", max_size=8), st.text("ab*?.", max_size=10))
def test_glob_matches_what_its_regex_matched(pattern, text):
    source = "".join(".*" if c == "*" else "." if c == "?" else re.escape(c) for c in pattern)
    assert glob(pattern).fullmatch(text) is (re.fullmatch(source, text, re.DOTALL) is not None)


@pytest.mark.parametrize(
    ("pattern", "text", "ok"),
    [
        ("%%%%%%%%%%%%x", "a" * 50_000, False),
        ("%%%%%%%%%%%%x", "a" * 50_000 + "x", True),
        ("%a" * 2000 + "%b", "a" * 20_000, False),
        ("%_a" * 2000 + "%", "ba" * 3000, True),
        ("", "", True),
        ("%", "", True),
        ("_", "", False),
        ("a%a", "a", False),
    ],
)
def test_catastrophic_like_patterns_answer(pattern, text, ok):
    assert like(pattern).fullmatch(text) is ok


@pytest.mark.parametrize(
    ("pattern", "weight"),
    [
        ("abc", 3),
        ("a{10}", 10),
        ("(ab){3}c", 7),
        ("(a{1000}){1000}", 1_000_000),
        ("((a{1000}){1000}){1000}", 1_000_000_000),
        ("x{3,}", 3),
        ("[{]{3}", 3),
        (".*a.*a.*b", 6),
    ],
)
def test_regex_weight(pattern, weight):
    assert regex_weight(pattern) == weight


def test_budgets_run_out_with_a_message():
    budget = Budget("filter", 0.0)
    with pytest.raises(TooCostly, match="Evaluating the filter took longer than"):
        budget.check()
    with pytest.raises(TooCostly):
        budget.timeout()
    assert MAX_REGEX_WEIGHT < regex_weight("((a{1000}){1000}){1000}")
