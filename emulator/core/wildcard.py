"""Wildcard patterns matched in linear time, whatever the pattern.

SQL ``LIKE`` (``%`` any run, ``_`` one character) and ant path segments (``*`` and ``?``)
are both wildcard patterns. Turned into a regular expression (``.*`` per ``%``) they
backtrack: ``%%%%%%%%%%%%x`` against a long text costs a power of its length. Here a
pattern is cut at its any-run wildcards into pieces of fixed length (literal characters and
one-character wildcards); the first piece must start the text, the last must end it, and
each piece between is found leftmost after the previous one. That is exact for such
patterns (a piece of fixed length matched leftmost never spoils a later match) and costs at
most the text's length times the pattern's, with no backtracking at all.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

ANY_RUN = "*"
"""token: any run of characters (possibly empty)"""
ANY_ONE = "?"
"""token: exactly one character"""

Token = tuple[str, str]
"""(kind, text): kind ``ANY_RUN``, ``ANY_ONE`` or ``""`` (a literal ``text``)"""


class _Piece:
    """A run of literal characters and one-character wildcards (fixed length)."""

    __slots__ = ("length", "literal", "regex")

    def __init__(self, tokens: list[Token], nocase: bool) -> None:
        self.length = len(tokens)
        plain = all(kind == "" for kind, _ in tokens)
        self.literal = "".join(t for _, t in tokens) if plain and not nocase else None
        self.regex = None
        if self.literal is None:
            body = "".join("." if kind == ANY_ONE else re.escape(t) for kind, t in tokens)
            self.regex = re.compile(body, re.DOTALL | (re.IGNORECASE if nocase else 0))

    def at(self, text: str, pos: int) -> bool:
        """Whether the piece matches ``text`` starting at ``pos``."""
        if self.literal is not None:
            return text.startswith(self.literal, pos)
        assert self.regex is not None
        return self.regex.match(text, pos) is not None

    def find(self, text: str, start: int, end: int) -> int:
        """The leftmost position in ``[start, end)`` where the piece matches inside
        ``text[:end]``, or -1."""
        if self.literal is not None:
            return text.find(self.literal, start, end)
        assert self.regex is not None
        found = self.regex.search(text, start, end)
        return -1 if found is None else found.start()


class Wildcard:
    """A compiled wildcard pattern; ``fullmatch(text)`` in at most ``len(text) *
    len(pattern)`` steps."""

    __slots__ = ("pieces", "open")

    def __init__(self, tokens: Iterable[Token], nocase: bool = False) -> None:
        runs: list[list[Token]] = [[]]
        for token in tokens:
            if token[0] == ANY_RUN:
                runs.append([])
            else:
                runs[-1].append(token)
        self.open = len(runs) > 1
        """whether the pattern has an any-run wildcard at all"""
        self.pieces = [_Piece(run, nocase) for run in runs]

    def fullmatch(self, text: str) -> bool:
        first = self.pieces[0]
        if not self.open:
            return len(text) == first.length and first.at(text, 0)
        last = self.pieces[-1]
        tail = len(text) - last.length
        if tail < first.length or not first.at(text, 0) or not last.at(text, tail):
            return False
        pos = first.length
        for piece in self.pieces[1:-1]:
            found = piece.find(text, pos, tail)
            if found < 0:
                return False
            pos = found + piece.length
        return True


def like(pattern: str, nocase: bool = False, escape: str = "\\") -> Wildcard:
    """An SQL/ECQL ``LIKE`` pattern: ``%`` any run, ``_`` one character, ``escape`` quotes
    the next character."""
    tokens: list[Token] = []
    i = 0
    while i < len(pattern):
        c = pattern[i]
        if c == escape and i + 1 < len(pattern):
            tokens.append(("", pattern[i + 1]))
            i += 2
            continue
        tokens.append((ANY_RUN, c) if c == "%" else (ANY_ONE, c) if c == "_" else ("", c))
        i += 1
    return Wildcard(tokens, nocase)


def glob(pattern: str) -> Wildcard:
    """A shell-style pattern without character classes: ``*`` any run, ``?`` one character."""
    return Wildcard(
        (ANY_RUN, c) if c == "*" else (ANY_ONE, c) if c == "?" else ("", c) for c in pattern
    )
