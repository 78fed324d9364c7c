"""Java ``.properties`` files, as ``java.util.Properties.load`` reads them.

Lines are ``key=value``, ``key:value`` or ``key value``; ``#`` and ``!`` start comments; a
backslash at the end of a line continues it; ``\\t``, ``\\n``, ``\\uXXXX`` and escaped
separators are decoded. Later keys win.
"""

from __future__ import annotations

import re

ESCAPES = {"t": "\t", "n": "\n", "r": "\r", "f": "\f"}


def parse(text: str) -> dict[str, str]:
    out: dict[str, str] = {}
    for line in _logical_lines(text):
        key, value = _split(line)
        out[_unescape(key)] = _unescape(value)
    return out


def dump(values: dict[str, str]) -> str:
    """Write ``values`` so that ``parse`` reads them back (separators and spaces escaped)."""
    lines = []
    for key, value in values.items():
        v = _escape(value, "")
        if v.startswith(" "):
            v = "\\" + v
        lines.append(f"{_escape(key, ' =:#!')}={v}")
    return "\n".join(lines) + "\n"


def _escape(text: str, specials: str) -> str:
    out = []
    for c in text:
        if c == "\\":
            out.append("\\\\")
        elif c in "\n\r\t\f":
            out.append("\\" + {"\n": "n", "\r": "r", "\t": "t", "\f": "f"}[c])
        elif c in specials:
            out.append("\\" + c)
        else:
            out.append(c)
    return "".join(out)


def _logical_lines(text: str) -> list[str]:
    out: list[str] = []
    pending = ""
    for raw in re.split(r"\r\n|\r|\n", text):
        line = raw.lstrip(" \t\f")
        if not pending and (not line or line[0] in "#!"):
            continue
        trailing = len(line) - len(line.rstrip("\\"))
        if trailing % 2 == 1:
            pending += line[:-1]
            continue
        out.append(pending + line)
        pending = ""
    if pending:
        out.append(pending)
    return out


def _split(line: str) -> tuple[str, str]:
    i, n = 0, len(line)
    while i < n:
        c = line[i]
        if c == "\\":
            i += 2
            continue
        if c in "=: \t\f":
            break
        i += 1
    key = line[:i]
    rest = line[i:].lstrip(" \t\f")
    if rest and rest[0] in "=:":
        rest = rest[1:]
    return key, rest.lstrip(" \t\f")


def _unescape(s: str) -> str:
    out: list[str] = []
    i, n = 0, len(s)
    while i < n:
        c = s[i]
        if c != "\\" or i + 1 >= n:
            out.append(c)
            i += 1
            continue
        nxt = s[i + 1]
        if nxt == "u" and i + 6 <= n:
            try:
                out.append(chr(int(s[i + 2 : i + 6], 16)))
                i += 6
                continue
            except ValueError:
                pass
        out.append(ESCAPES.get(nxt, nxt))
        i += 2
    return "".join(out)
