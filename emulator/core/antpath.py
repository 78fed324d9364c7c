"""Ant-style path patterns as Spring's ``AntPathMatcher`` matches them.

``?`` is one character and ``*`` any run of characters within a segment, ``**`` (a whole
segment) any number of segments, ``{name}`` a template variable within a segment. Paths and
patterns are cut into segments on ``/`` with empty segments dropped, so ``/rest//x`` reads as
``/rest/x``; a pattern and a path must agree on starting with ``/``, and a pattern that ends
where the path does must agree with it on a trailing ``/``.
"""

from __future__ import annotations

import re
from functools import lru_cache

SEP = "/"


def _tokens(path: str) -> list[str]:
    return [t for t in path.split(SEP) if t]


@lru_cache(maxsize=1024)
def _segment_regex(segment: str) -> re.Pattern[str]:
    """One pattern segment as a regular expression (``?``, ``*``, ``{var}``, ``{var:regex}``)."""
    out: list[str] = []
    i = 0
    while i < len(segment):
        c = segment[i]
        if c == "?":
            out.append(".")
        elif c == "*":
            out.append(".*")
        elif c == "{" and "}" in segment[i:]:
            end = segment.index("}", i)
            _, colon, regex = segment[i + 1 : end].partition(":")
            out.append(f"({regex})" if colon else "(.*)")
            i = end
        else:
            out.append(re.escape(c))
        i += 1
    try:
        return re.compile("".join(out), re.DOTALL)
    except re.error:
        return re.compile(re.escape(segment))


def _segment_match(pattern: str, segment: str) -> bool:
    if pattern == "*":
        return True
    return _segment_regex(pattern).fullmatch(segment) is not None


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
