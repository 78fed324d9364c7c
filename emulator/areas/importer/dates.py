"""Dates as ``DateFormatTransform`` reads them: a Java ``SimpleDateFormat`` pattern when the
transform has one, else GeoServer's usual forms (ISO 8601, compact or extended, date or
date-time, ``Z`` or an offset); times without a zone are UTC (``DatePattern`` parses in
GMT).

A pattern is checked when the transform is read: a letter ``SimpleDateFormat`` does not
know, or an unclosed quote, is ``Invalid date parsing format`` (GeoServer's
``ValidationException``). Every field of a pattern matches atomically (a field takes what it
can and never gives it back, as Java's parser reads abutting fields), so matching a value
takes time linear in its length whatever the pattern.
"""

from __future__ import annotations

import re
from datetime import datetime
from functools import lru_cache

from ...core.errors import Invalid
from ...filters.converters import instant_of, parse_instant

_LETTERS = frozenset("GyYMLwWDdFEuaHkKhmsSzZX")
_MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
MAX_PATTERN = 200


def _tokens(pattern: str) -> list[tuple[str, str]]:
    """(``lit``, text) and (``field``, a run of one letter) in pattern order."""
    out: list[tuple[str, str]] = []
    i = 0
    while i < len(pattern):
        c = pattern[i]
        if c == "'":
            end = pattern.find("'", i + 1)
            if end < 0:
                raise Invalid("Invalid date parsing format")
            out.append(("lit", pattern[i + 1 : end] or "'"))
            i = end + 1
        elif c.isascii() and c.isalpha():
            if c not in _LETTERS:
                raise Invalid("Invalid date parsing format")
            j = i
            while j < len(pattern) and pattern[j] == c:
                j += 1
            out.append(("field", pattern[i:j]))
            i = j
        else:
            out.append(("lit", c))
            i += 1
    return out


def check_pattern(pattern: str) -> None:
    if len(pattern) > MAX_PATTERN:
        raise Invalid("Invalid date parsing format")
    _tokens(pattern)


def _field(run: str, used: set[str]) -> str:
    c, n = run[0], len(run)
    if c in "yY":
        key, body = "y", r"\d{2}" if n == 2 else r"\d{1,4}"
    elif c == "M" or c == "L":
        key, body = ("mon", "[A-Za-z]{3,9}") if n >= 3 else ("mo", r"\d{1,2}")
    elif c == "d":
        key, body = "d", r"\d{1,2}"
    elif c in "Hk":
        key, body = "h", r"\d{1,2}"
    elif c in "hK":
        key, body = "h12", r"\d{1,2}"
    elif c == "a":
        key, body = "ampm", "[AaPp][Mm]"
    elif c == "m":
        key, body = "mi", r"\d{1,2}"
    elif c == "s":
        key, body = "s", r"\d{1,2}"
    elif c == "S":
        key, body = "f", r"\d{1,9}"
    elif c in "ZXz":
        key, body = "z", r"Z|[+-]\d{2}:?\d{2}|UTC|GMT"
    elif c == "E":
        return "[A-Za-z]++"
    else:
        return r"\d++"
    if key in used:
        return f"(?>{body})"
    used.add(key)
    return f"(?P<{key}>(?>{body}))"


@lru_cache(maxsize=64)
def _regex(pattern: str) -> re.Pattern[str]:
    used: set[str] = set()
    parts = [
        re.escape(text) if kind == "lit" else _field(text, used) for kind, text in _tokens(pattern)
    ]
    return re.compile("".join(parts))


def parse(value: str, pattern: str | None) -> datetime | None:
    """The instant ``value`` names (UTC), None when neither the pattern nor the usual forms
    read it."""
    text = value.strip()
    if pattern:
        match = _regex(pattern).fullmatch(text)
        if match is not None:
            found = _instant(match.groupdict())
            if found is not None:
                return found
    return parse_instant(text)


def _instant(g: dict[str, str | None]) -> datetime | None:
    groups: dict[str, str | None] = dict(g)
    year = groups.get("y")
    if year is not None and len(year) == 2:
        groups["y"] = str(2000 + int(year) if int(year) < 50 else 1900 + int(year))
    mon = groups.pop("mon", None)
    if mon is not None:
        key = mon[:3].lower()
        if key not in _MONTHS:
            return None
        groups["mo"] = str(_MONTHS.index(key) + 1)
    h12, ampm = groups.pop("h12", None), groups.pop("ampm", None)
    if h12 is not None:
        hour = int(h12) % 12 + (12 if (ampm or "").lower() == "pm" else 0)
        groups["h"] = str(hour)
    zone = groups.get("z")
    if zone in ("UTC", "GMT"):
        groups["z"] = "Z"
    elif zone and zone not in ("Z",) and ":" not in zone:
        groups["z"] = zone[:3] + ":" + zone[3:]
    if groups.get("y") is None:
        groups["y"] = "1970"
    return instant_of(groups)
