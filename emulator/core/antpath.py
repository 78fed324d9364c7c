"""Ant-style path patterns as Spring matches them: ``?``, ``*`` within a segment, ``**`` across."""

from __future__ import annotations

import re
from functools import lru_cache


@lru_cache(maxsize=512)
def compile_ant(pattern: str) -> re.Pattern[str]:
    out = []
    i = 0
    while i < len(pattern):
        c = pattern[i]
        if pattern.startswith("/**", i) and (i + 3 == len(pattern) or pattern[i + 3] == "/"):
            out.append("(?:/.*)?")
            i += 3
        elif pattern.startswith("**", i):
            out.append(".*")
            i += 2
        elif c == "*":
            out.append("[^/]*")
            i += 1
        elif c == "?":
            out.append("[^/]")
            i += 1
        else:
            out.append(re.escape(c))
            i += 1
    return re.compile("".join(out) + r"\Z")


def ant_match(pattern: str, path: str) -> bool:
    return compile_ant(pattern).match(path) is not None
