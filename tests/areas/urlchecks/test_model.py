"""The URL check store: GeoServer's create/update/delete rules and the evaluation semantics."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from geoserver_emulator.areas.urlchecks.model import CheckInput, UrlCheck, UrlCheckStore
from geoserver_emulator.core.errors import Conflict, Invalid, NotFound


def store(*checks: UrlCheck, enabled: bool = True) -> UrlCheckStore:
    return UrlCheckStore(enabled=enabled, checks=list(checks))


def test_fresh_store_is_on_and_denies_everything():
    s = UrlCheckStore()
    assert s.enabled is True
    assert not s.allows("https://example.com/")


def test_checks_off_allow_everything_even_empty():
    s = store(enabled=False)
    assert s.allows("https://anything/")
    assert s.allows("")


def test_empty_url_is_denied_when_on():
    assert not store(UrlCheck("all", ".*", enabled=True)).allows("")


def test_full_match_not_search():
    s = store(UrlCheck("c", "https://example\\.com/.*", enabled=True))
    assert s.allows("https://example.com/a.png")
    assert not s.allows("xhttps://example.com/a.png")
    assert not store(UrlCheck("c", "example", enabled=True)).allows("https://example.com/")


def test_disabled_checks_are_ignored_and_first_match_wins():
    s = store(
        UrlCheck("off", ".*", enabled=False),
        UrlCheck("a", "https://a/.*", enabled=True),
        UrlCheck("any", "https://.*", enabled=True),
    )
    assert s.evaluate("https://a/x").matched_by == "a"
    assert s.evaluate("https://b/x").matched_by == "any"
    assert not s.allows("ftp://b/x")


def test_java_quoting_is_understood():
    s = store(UrlCheck("q", "\\Qhttps://a.b/\\E.*", enabled=True))
    assert s.allows("https://a.b/x")
    assert not s.allows("https://aXb/x")


def test_create_orders_its_complaints_as_geoserver():
    s = store(UrlCheck("dup", "x", enabled=True))
    with pytest.raises(Conflict, match="URL check 'dup' already exists"):
        s.create(CheckInput(name="dup"))
    with pytest.raises(Invalid, match="The URL check name is required"):
        s.create(CheckInput(regex="x"))
    with pytest.raises(Invalid, match="The URL check name is required"):
        s.create(CheckInput(name="", regex="x"))
    with pytest.raises(Invalid, match="The URL check configuration is required"):
        s.create(CheckInput(name="n"))
    with pytest.raises(Invalid, match="The URL check configuration is required"):
        s.create(CheckInput(name="n", regex=""))
    assert [c.name for c in s.checks] == ["dup"]


def test_create_defaults_enabled_to_false():
    s = UrlCheckStore()
    assert s.create(CheckInput(name="n", regex="x")).enabled is False
    assert s.create(CheckInput(name="m", regex="x", enabled=True)).enabled is True


@pytest.mark.parametrize("pattern", ["(unclosed", "[z-a]", "a{2,1}", "*"])
def test_create_refuses_bad_syntax(pattern):
    s = UrlCheckStore()
    with pytest.raises(Invalid, match="Invalid URL check regular expression"):
        s.create(CheckInput(name="n", regex=pattern))
    assert s.checks == []


@pytest.mark.parametrize("pattern", ["(a|aa)+$", "https://example\\.com/(a|a)*$", "(x|xx)+y"])
def test_create_refuses_catastrophic_patterns(pattern):
    s = UrlCheckStore()
    with pytest.raises(Invalid, match="backtracks catastrophically"):
        s.create(CheckInput(name="n", regex=pattern))
    assert s.checks == []


def test_create_refuses_overlong_patterns():
    with pytest.raises(Invalid, match="longer than"):
        UrlCheckStore().create(CheckInput(name="n", regex="a" * 5000))


def test_overlong_patterns_are_refused_before_the_verdict_cache():
    """The cache of vetting verdicts keeps only patterns short enough to be stored: a long
    body sent again and again cannot fill it with megabytes."""
    from geoserver_emulator.areas.urlchecks import regexes

    before = regexes._verdict.cache_info()
    with pytest.raises(Invalid, match="longer than"):
        regexes.vet("b" * (regexes.MAX_PATTERN_LENGTH + 1) + "unique to this test")
    after = regexes._verdict.cache_info()
    assert (after.misses, after.currsize) == (before.misses, before.currsize)


def test_catastrophic_pattern_never_hangs_evaluation():
    """A pattern that slipped past vetting (written into the state directly) costs bounded
    time: the match runs out, counts as no match, and the next check still answers."""
    s = store(UrlCheck("evil", "(a|aa)+$", enabled=True), UrlCheck("ok", "b+", enabled=True))
    result = s.evaluate("a" * 60 + "!")
    assert result.allowed is False
    assert result.timed_out == ("evil",)
    assert s.evaluate("bbb").matched_by == "ok"


def test_invalid_pattern_in_state_is_skipped():
    s = store(UrlCheck("broken", "(", enabled=True), UrlCheck("ok", "x", enabled=True))
    assert s.evaluate("x").matched_by == "ok"


def test_update_copies_given_fields_and_renames_in_place():
    s = store(UrlCheck("a", "x", "d", True), UrlCheck("b", "y", None, True))
    s.update("a", CheckInput(name="new", description="nd", regex="z", enabled=False))
    assert [c.name for c in s.checks] == ["new", "b"]
    assert s.checks[0] == UrlCheck("new", "z", "nd", False)


def test_update_without_enabled_disables_and_keeps_the_rest():
    s = store(UrlCheck("a", "x", "d", True))
    s.update("a", CheckInput())
    assert s.checks[0] == UrlCheck("a", "x", "d", False)


def test_update_errors_leave_state_unchanged():
    s = store(UrlCheck("a", "x", "d", True), UrlCheck("b", "y", None, True))
    with pytest.raises(NotFound, match=re.escape("Can't change a non existent URL check (zz)")):
        s.update("zz", CheckInput())
    with pytest.raises(Invalid, match="The URL check configuration is required"):
        s.update("a", CheckInput(regex="", enabled=False))
    with pytest.raises(Conflict, match="URL check 'b' already exists"):
        s.update("a", CheckInput(name="b"))
    with pytest.raises(Invalid, match="The URL check name is required"):
        s.update("a", CheckInput(name=""))
    with pytest.raises(Invalid, match="backtracks"):
        s.update("a", CheckInput(regex="(a|aa)+$"))
    assert s.checks == [UrlCheck("a", "x", "d", True), UrlCheck("b", "y", None, True)]


def test_delete_and_get():
    s = store(UrlCheck("a", "x"))
    with pytest.raises(NotFound, match="No such URL check found: 'b'"):
        s.get("b")
    with pytest.raises(NotFound, match="No such URL check found: 'b'"):
        s.delete("b")
    s.delete("a")
    assert s.checks == []


def test_names_are_case_sensitive():
    s = store(UrlCheck("Icons", "x"))
    with pytest.raises(NotFound):
        s.get("icons")


# -- property: evaluation equals a reference model -----------------------------------------

ALPHABET = "ab/:.-"
_fragments = st.sampled_from(
    ["a", "b", "/", ":", "\\.", ".", ".*", "[ab]+", "(a|b)", "a?", "b*", "[^/]*"]
)
patterns = st.lists(_fragments, min_size=1, max_size=5).map("".join)
checks = st.lists(st.tuples(patterns, st.booleans()), max_size=5).map(
    lambda items: [UrlCheck(f"c{i}", p, enabled=e) for i, (p, e) in enumerate(items)]
)


def reference(enabled: bool, checks: list[UrlCheck], url: str) -> tuple[bool, str | None]:
    """GeoServerURLChecker.confirm, written out with the standard library."""
    if not enabled:
        return True, None
    if not url:
        return False, None
    for c in checks:
        if c.enabled and re.fullmatch(c.regex, url):
            return True, c.name
    return False, None


@settings(max_examples=200, deadline=None)
@given(enabled=st.booleans(), checks=checks, url=st.text(alphabet=ALPHABET, max_size=12))
def test_evaluation_equals_the_reference_model(enabled, checks, url):
    result = store(*checks, enabled=enabled).evaluate(url)
    assert (result.allowed, result.matched_by) == reference(enabled, checks, url)
