"""User regular expressions, matched as Java's ``String.matches`` does, that cannot hang us.

GeoServer evaluates URL checks and the about filters with ``java.util.regex`` full matches.
Here the ``regex`` package stands in for it: same syntax for everything a URL pattern uses
(possessive quantifiers and atomic groups included; ``\\Q…\\E`` quoting is translated), and a
``timeout`` on every match, so that a catastrophic-backtracking pattern costs a bounded
amount of time (``MATCH_TIMEOUT``, CPU time of the matching thread as ``regex`` counts it);
all the matches of one evaluation share a ``core.budget.Budget`` (``TOTAL_TIMEOUT``), past
which the evaluation stops with a 400.
Patterns that users store (URL checks) are also probed once, when they are saved, with
inputs built to trigger exponential backtracking; a pattern that runs out of time on a
probe is refused, and so is one whose probes together exceed the budget.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from ...core.budget import (
    MATCH_SECONDS,
    MAX_REGEX_WEIGHT,
    PATTERN_SECONDS,
    Budget,
    regex_weight,
)
from ...core.errors import Invalid
from ...core.lazy import LazyModule

regex: Any = LazyModule("regex")  # slow to import: on first use

MAX_PATTERN_LENGTH = 2048
"""longer patterns are refused outright"""
MATCH_TIMEOUT = MATCH_SECONDS
"""seconds one match may take before it counts as no match"""
TOTAL_TIMEOUT = PATTERN_SECONDS
"""seconds all the matches of one evaluation (or one vetting) may take together; past it,
the evaluation stops with ``core.budget.TooCostly`` (400)"""
PROBE_TIMEOUT = 0.02
"""seconds one probe may take when a stored pattern is vetted (a probe that runs out is
tried once more with ``PROBE_RETRY_TIMEOUT`` before the pattern is refused)"""
PROBE_RETRY_TIMEOUT = 0.05
PROBE_LENGTHS = (32, 512)
"""characters of pumped input per probe: short for exponential, long for cubic blow-ups"""

_META = frozenset(".^$*+?{}[]()|\\")
_PUMP_EXTRA = "a0A/._- "
_PUMP_PUNCTUATION = frozenset("/:._-=&%#@~,; !")


class PatternTimeout(Exception):
    """A match ran out of time."""


def java_to_python(pattern: str) -> str:
    """The pattern with Java-only syntax rewritten (``\\Q…\\E`` literal quoting)."""
    if "\\Q" not in pattern:
        return pattern
    out: list[str] = []
    i = 0
    while i < len(pattern):
        if pattern.startswith("\\Q", i):
            end = pattern.find("\\E", i + 2)
            stop = len(pattern) if end < 0 else end
            out.append(regex.escape(pattern[i + 2 : stop]))
            i = stop + 2
        elif pattern[i] == "\\" and i + 1 < len(pattern):
            out.append(pattern[i : i + 2])
            i += 2
        else:
            out.append(pattern[i])
            i += 1
    return "".join(out)


@lru_cache(maxsize=256)
def compile_java(pattern: str) -> regex.Pattern[str]:
    """Compile a Java-syntax pattern, or raise ``regex.error`` (also for a pattern whose
    repeats expand beyond ``core.budget.MAX_REGEX_WEIGHT``, or nested too deeply to read)."""
    source = java_to_python(pattern)
    if regex_weight(source) > MAX_REGEX_WEIGHT:
        raise regex.error(f"its repeat counts expand it beyond {MAX_REGEX_WEIGHT} elements")
    try:
        return regex.compile(source)
    except RecursionError:
        raise regex.error("it is nested too deeply") from None


def fullmatch(pattern: str, text: str, budget: Budget | None = None) -> bool:
    """Whether ``text`` matches all of ``pattern``; ``regex.error`` or ``PatternTimeout``."""
    timeout = MATCH_TIMEOUT if budget is None else budget.timeout(MATCH_TIMEOUT)
    try:
        return compile_java(pattern).fullmatch(text, timeout=timeout) is not None
    except TimeoutError:
        raise PatternTimeout(pattern) from None


def checked_fullmatch(pattern: str, text: str, what: str, budget: Budget) -> bool:
    """``fullmatch`` for a pattern a request carries: any trouble is a 400 naming ``what``."""
    if len(pattern) > MAX_PATTERN_LENGTH:
        raise Invalid(
            f"The {what} regular expression is longer than {MAX_PATTERN_LENGTH} characters"
        )
    try:
        return fullmatch(pattern, text, budget)
    except regex.error as exc:
        raise Invalid(f"Invalid {what} regular expression {pattern!r}: {exc}") from None
    except PatternTimeout:
        raise Invalid(
            f"The {what} regular expression {pattern!r} takes too long to evaluate"
        ) from None


def vet(pattern: str) -> None:
    """Refuse (``Invalid``) a pattern that does not compile, is too long or backtracks badly.
    A pattern is probed once per process (a scenario may repeat one many times)."""
    if len(pattern) > MAX_PATTERN_LENGTH:  # before the cache: its keys stay this short
        raise Invalid(
            f"The URL check regular expression is longer than {MAX_PATTERN_LENGTH} characters"
        )
    refusal = _verdict(pattern)
    if refusal is not None:
        raise Invalid(refusal)


@lru_cache(maxsize=1024)
def _verdict(pattern: str) -> str | None:
    """Why ``vet`` refuses ``pattern``, or None."""
    try:
        _vet(pattern)
    except Invalid as exc:
        return exc.message
    return None


def _vet(pattern: str) -> None:
    try:
        compiled = compile_java(pattern)
    except regex.error as exc:
        raise Invalid(f"Invalid URL check regular expression {pattern!r}: {exc}") from None
    prefix = _literal_prefix(pattern)
    budget = Budget("URL check regular expression", TOTAL_TIMEOUT)
    for pump in _pumps(pattern):
        for length in PROBE_LENGTHS:
            for suffix in ("!", "\x00", ""):
                probe = prefix + pump * max(1, length // len(pump)) + suffix
                if budget.left() <= 0:
                    raise Invalid(
                        f"The URL check regular expression {pattern!r} is refused: probing it "
                        f"for catastrophic backtracking took longer than {TOTAL_TIMEOUT:g} s"
                    )
                if _runs_out(compiled, probe):
                    raise Invalid(
                        f"The URL check regular expression {pattern!r} is refused: it backtracks "
                        "catastrophically (for example on inputs such as "
                        f"{probe[:24]!r}...)"
                    )


def _runs_out(compiled: regex.Pattern[str], probe: str) -> bool:
    for timeout in (PROBE_TIMEOUT, PROBE_RETRY_TIMEOUT):
        try:
            compiled.fullmatch(probe, timeout=timeout)
            return False
        except TimeoutError:
            continue
    return True


def _literal_prefix(pattern: str) -> str:
    """The literal text every match starts with, as far as it is plain (escapes resolved)."""
    out: list[str] = []
    i = 1 if pattern.startswith("^") else 0
    while i < len(pattern):
        c = pattern[i]
        if c == "\\" and i + 1 < len(pattern) and not pattern[i + 1].isalnum():
            out.append(pattern[i + 1])
            i += 2
            continue
        if c in _META:
            break
        out.append(c)
        i += 1
    if i < len(pattern) and pattern[i] in "*?{" and out:
        out.pop()  # the last literal is quantified: it may be absent
    return "".join(out)


def _pumps(pattern: str) -> list[str]:
    """Strings to repeat in probes: characters of the pattern and a few common ones,
    plus the pairs of them the pattern writes side by side."""
    literal = [c for c in pattern if c.isalnum() or c in _PUMP_PUNCTUATION]
    chars = list(dict.fromkeys(literal + list(_PUMP_EXTRA)))[:20]
    allowed = set(chars)
    pairs = [
        a + b for a, b in zip(pattern, pattern[1:], strict=False) if a in allowed and b in allowed
    ]
    return chars + list(dict.fromkeys(pairs))[:12]
