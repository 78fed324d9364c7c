"""Ant-style path patterns as Spring's ``AntPathMatcher`` matches them.

``?`` is one character and ``*`` any run of characters within a segment, ``**`` (a whole
segment) any number of segments, ``{name}`` a template variable within a segment. Paths and
patterns are cut into segments on ``/`` with empty segments dropped, so ``/rest//x`` reads as
``/rest/x``; a pattern and a path must agree on starting with ``/``, and a pattern that ends
where the path does must agree with it on a trailing ``/``.

Segments match in linear time (``core.wildcard``): ``*a*a*a*b`` against a long path segment
costs no more than the segment's length times the pattern's. A ``{name:regex}`` variable is
a regular expression, matched under a timeout.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from .budget import MATCH_SECONDS, MAX_REGEX_WEIGHT, TooCostly, regex_weight
from .lazy import LazyModule
from .wildcard import ANY_ONE, ANY_RUN, Token, Wildcard

_regex: Any = LazyModule("regex")  # the one third-party module here: only for {var:regex}

SEP = "/"
_REGEX_META = frozenset(".^$*+?{}[]()|\\")


def _tokens(path: str) -> list[str]:
    return [t for t in path.split(SEP) if t]


class _Template:
    """A segment with ``{name:regex}`` variables: a regular expression, matched with the
    ``regex`` package under a timeout (``TooCostly`` when it runs out: a rule that cannot be
    decided refuses the request rather than letting a later rule decide)."""

    def __init__(self, segment: str, source: str) -> None:
        self.segment = segment
        self.source = source
        self.compiled: Any = None
        if regex_weight(source) > MAX_REGEX_WEIGHT:
            return  # never compiled (it could take minutes): read as written
        try:
            self.compiled = _regex.compile(source, _regex.DOTALL)
        except (_regex.error, RecursionError):
            pass

    def fullmatch(self, text: str) -> bool:
        if self.compiled is None:  # not a usable regular expression: the segment as written
            return text == self.segment
        try:
            return self.compiled.fullmatch(text, timeout=MATCH_SECONDS) is not None
        except TimeoutError:
            raise TooCostly(
                f"The path pattern {self.source!r} takes too long to match this path"
            ) from None


@lru_cache(maxsize=1024)
def _segment_matcher(segment: str) -> Wildcard | _Template:
    """One pattern segment: ``?``, ``*`` and ``{var}`` as a linear-time wildcard, and a
    segment with ``{var:regex}`` as a time-bounded regular expression."""
    tokens: list[Token] = []
    out: list[str] = []
    templated = False
    i = 0
    while i < len(segment):
        c = segment[i]
        if c == "?":
            tokens.append((ANY_ONE, c))
            out.append(".")
        elif c == "*":
            tokens.append((ANY_RUN, c))
            out.append(".*")
        elif c == "{" and _closing(segment, i) > 0:
            end = _closing(segment, i)
            _, colon, regex = segment[i + 1 : end].partition(":")
            templated = templated or bool(colon)
            tokens.append((ANY_RUN, "*"))
            out.append(f"({regex})" if colon else "(.*)")
            i = end
        else:
            tokens.append(("", c))
            out.append(_regex_escape(c))
        i += 1
    if templated:
        return _Template(segment, "".join(out))
    return Wildcard(tokens)


def _closing(segment: str, start: int) -> int:
    """The index of the ``}`` closing the ``{`` at ``start`` (braces inside count, as
    Spring counts them), or -1."""
    depth = 0
    for i in range(start, len(segment)):
        if segment[i] == "{":
            depth += 1
        elif segment[i] == "}":
            depth -= 1
            if depth == 0:
                return i
    return -1


def _regex_escape(c: str) -> str:
    return "\\" + c if c in _REGEX_META else c


def _segment_match(pattern: str, segment: str) -> bool:
    if pattern == "*":
        return True
    return _segment_matcher(pattern).fullmatch(segment)


def _all_double_star(parts: list[str]) -> bool:
    return all(p == "**" for p in parts)


@lru_cache(maxsize=4096)
def ant_match(pattern: str, path: str) -> bool:
    """Whether ``path`` matches ``pattern`` in full (remembered: a pure function, asked for
    the same REST rules and paths on every request)."""
    if path.startswith(SEP) != pattern.startswith(SEP):
        return False
    patt, dirs = _tokens(pattern), _tokens(path)
    ps, pe, ds, de = 0, len(patt) - 1, 0, len(dirs) - 1
    # leading segments, up to the first **
    while ps <= pe and ds <= de and patt[ps] != "**":
        if not _segment_match(patt[ps], dirs[ds]):
            return False
        ps, ds = ps + 1, ds + 1
    if ds > de:  # path used up
        if ps > pe:
            return pattern.endswith(SEP) == path.endswith(SEP)
        if ps == pe and patt[ps] == "*" and path.endswith(SEP):
            return True
        return _all_double_star(patt[ps : pe + 1])
    if ps > pe:  # pattern used up, path not
        return False
    # trailing segments, back to the last **
    while ps <= pe and ds <= de and patt[pe] != "**":
        if not _segment_match(patt[pe], dirs[de]):
            return False
        if pe == len(patt) - 1 and pattern.endswith(SEP) != path.endswith(SEP):
            return False
        pe, de = pe - 1, de - 1
    if ds > de:
        return _all_double_star(patt[ps : pe + 1])
    return _match_middle(patt, dirs, ps, pe, ds, de)


def _match_middle(patt: list[str], dirs: list[str], ps: int, pe: int, ds: int, de: int) -> bool:
    """Between two ``**``: find each run of fixed segments, leftmost first."""
    while ps != pe and ds <= de:
        nxt = next((i for i in range(ps + 1, pe + 1) if patt[i] == "**"), -1)
        if nxt == ps + 1:  # "**/**": skip one
            ps += 1
            continue
        run = patt[ps + 1 : nxt]
        found = -1
        for start in range(ds, de - len(run) + 2):
            if all(_segment_match(p, dirs[start + j]) for j, p in enumerate(run)):
                found = start
                break
        if found == -1:
            return False
        ps, ds = nxt, found + len(run)
    return _all_double_star(patt[ps : pe + 1])
