"""GWC's parameter filters: which values a tile layer's filters accept (``applies``), for
``truncateOrphans``. Regular expressions are Java's, compiled and run under the time bound
of ``urlchecks.regexes``; the matches of one truncation share a ``core.budget.Budget``.
"""

from __future__ import annotations

from ...core.budget import Budget
from ...core.errors import Invalid

Filter = dict[str, object]


def compile_regex(pattern: str) -> None:
    """Refuse a pattern that does not compile or runs too long (checked on PUT)."""
    from ..urlchecks import regexes

    if len(pattern) > regexes.MAX_PATTERN_LENGTH:
        raise Invalid(f"The regexParameterFilter regex is longer than {regexes.MAX_PATTERN_LENGTH}")
    try:
        regexes.compile_java(pattern)
    except Exception as exc:  # regex.error, from a lazily imported module
        raise Invalid(f"Invalid regexParameterFilter regex {pattern!r}: {exc}") from None


def _regex_accepts(pattern: str, value: str, budget: Budget | None) -> bool:
    from ..urlchecks import regexes

    try:
        return regexes.fullmatch(pattern, value, budget)
    except regexes.PatternTimeout:  # a pattern that times out accepts nothing
        return False
    except regexes.regex.error:
        return False


def _number(value: str) -> float | None:
    try:
        return float(value)
    except ValueError:
        return None


def accepts(f: Filter, value: str, budget: Budget | None = None) -> bool:
    """``ParameterFilter.applies``: the value is one the filter can cache."""
    kind = f.get("type")
    if value == f.get("defaultValue", ""):
        return True
    if kind == "regexParameterFilter":
        return _regex_accepts(str(f.get("regex", "")), value, budget)
    if kind in ("floatParameterFilter", "integerParameterFilter"):
        n = _number(value)
        values = f.get("values")
        threshold = f.get("threshold")
        if n is None or not isinstance(values, list):
            return False
        limit = float(threshold) if isinstance(threshold, int | float) else 0.0
        return any(abs(float(v) - n) <= limit for v in values if isinstance(v, int | float))
    if kind == "styleParameterFilter":
        allowed = f.get("allowedStyles")
        return allowed is None or value in [str(a) for a in allowed]  # type: ignore[union-attr]
    values = f.get("values")
    return isinstance(values, list) and value in [str(v) for v in values]


def orphaned(
    filters: list[Filter], parameters: tuple[tuple[str, str], ...], budget: Budget | None = None
) -> bool:
    """Cached tiles under ``parameters`` that no request can reach with these filters
    (``core.budget.TooCostly`` when ``budget`` runs out)."""
    by_key = {str(f.get("key", "")).upper(): f for f in filters}
    for key, value in parameters:
        f = by_key.get(key.upper())
        if f is None or not accepts(f, value, budget):
            return True
    return False
