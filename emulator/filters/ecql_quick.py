"""The common ECQL filters read without lark: the first filter of a process then costs no
grammar (lark's import and parse tables are most of a first query's time).

Conditions made of ``AND``, ``OR``, ``NOT`` and parentheses over comparisons (``=``, ``<>``,
``<``, ``<=``, ``>``, ``>=``) of a plain attribute name with a number or a quoted string,
``[NOT] LIKE``/``ILIKE`` patterns, ``INCLUDE`` and ``EXCLUDE``. ``parse`` gives a small tree
of tuples, or None for anything else, which the grammar then reads (and words its errors);
``to_ast`` makes of it the pygeofilter tree the grammar gives (a property test compares the
two), and ``filters.py`` compiles it without importing pygeofilter.
"""

from __future__ import annotations

import re
from typing import Any

Tree = tuple[Any, ...]
"""``("or"|"and", a, b)``, ``("not", a)``, ``("include", excluded)``, ``(op, name, literal)``
for a comparison, ``("like", name, pattern, nocase, negated)``"""

TOKEN = re.compile(
    r"[ \t]*(?:(?P<number>-?[ \t]*\d+(?:\.\d+)?(?![\w.]))"
    r"|(?P<string>'[^'\n]*')"
    r"|(?P<word>[A-Za-z_]\w*)(?![\w.:])"
    r"|(?P<op><>|<=|>=|[=<>()]))",
    re.ASCII,
)
KEYWORDS = frozenset({"AND", "OR", "NOT", "LIKE", "ILIKE", "INCLUDE", "EXCLUDE"})
NAME = re.compile(r"[a-z_][a-z0-9_]*", re.ASCII)
"""attribute names read here: lower case, so that no keyword of the grammar is one"""
UNSURE = frozenset(
    "true false feet meters kilometers statute nautical miles point linestring polygon "
    "multipoint multilinestring multipolygon geometrycollection srid envelope empty z m zm".split()
)
"""lower-case words the grammar may read as something other than a name"""
COMPARE = {
    "=": "Equal", "<>": "NotEqual", "<": "LessThan", "<=": "LessEqual",
    ">": "GreaterThan", ">=": "GreaterEqual",
}  # fmt: skip
"""comparison operators, with pygeofilter's node class names"""


class _Unsure(Exception):
    """Outside what this reader takes on: the grammar decides."""


def parse(text: str) -> Tree | None:
    """The filter's tree, or None when the grammar must read it."""
    tokens = _tokens(text)
    if tokens is None:
        return None
    reader = _Reader(tokens)
    try:
        node = reader.condition()
    except (_Unsure, RecursionError):  # deep parentheses: the grammar reads them flat
        return None
    return node if reader.at_end() else None


def _tokens(text: str) -> list[tuple[str, Any]] | None:
    out: list[tuple[str, Any]] = []
    pos, end = 0, len(text)
    while pos < end:
        found = TOKEN.match(text, pos)
        if found is None:
            return None if text[pos:].strip(" \t") else out
        kind = found.lastgroup
        value = found.group(kind or "")
        if kind == "number":
            digits = value.replace(" ", "").replace("\t", "")
            out.append(("literal", float(digits) if "." in digits else int(digits)))
        elif kind == "string":
            out.append(("literal", value[1:-1]))
        elif kind == "word":
            if value in KEYWORDS:
                out.append((value, value))
            elif NAME.fullmatch(value) and value not in UNSURE:
                out.append(("name", value))
            else:
                return None
        else:
            out.append((value, value))
        pos = found.end()
    return out


class _Reader:
    def __init__(self, tokens: list[tuple[str, Any]]) -> None:
        self.tokens = tokens
        self.i = 0

    def at_end(self) -> bool:
        return self.i == len(self.tokens)

    def peek(self) -> str | None:
        return self.tokens[self.i][0] if self.i < len(self.tokens) else None

    def take(self, kind: str) -> Any:
        if self.peek() != kind:
            raise _Unsure
        value = self.tokens[self.i][1]
        self.i += 1
        return value

    def condition(self) -> Tree:
        node = self.conjunction()
        while self.peek() == "OR":
            self.i += 1
            node = ("or", node, self.conjunction())
        return node

    def conjunction(self) -> Tree:
        node = self.term()
        while self.peek() == "AND":
            self.i += 1
            node = ("and", node, self.term())
        return node

    def term(self) -> Tree:
        kind = self.peek()
        if kind == "NOT":
            self.i += 1
            return ("not", self.term())
        if kind == "(":
            self.i += 1
            node = self.condition()
            self.take(")")
            return node
        if kind in ("INCLUDE", "EXCLUDE"):
            self.i += 1
            return ("include", kind == "EXCLUDE")
        name = self.take("name")
        kind = self.peek()
        if kind in COMPARE:
            self.i += 1
            return (kind, name, self.take("literal"))
        negated = kind == "NOT"
        if negated:
            self.i += 1
            kind = self.peek()
        if kind not in ("LIKE", "ILIKE"):
            raise _Unsure
        self.i += 1
        pattern = self.take("literal")
        if not isinstance(pattern, str):
            raise _Unsure
        return ("like", name, pattern, kind == "ILIKE", negated)


def to_ast(tree: Tree) -> Any:
    """The pygeofilter tree the grammar gives for the same text."""
    from pygeofilter import ast

    kind = tree[0]
    if kind in ("and", "or"):
        cls = ast.And if kind == "and" else ast.Or
        return cls(to_ast(tree[1]), to_ast(tree[2]))
    if kind == "not":
        return ast.Not(to_ast(tree[1]))
    if kind == "include":
        return ast.Include(tree[1])
    if kind == "like":
        _, name, pattern, nocase, negated = tree
        return ast.Like(ast.Attribute(name), pattern, nocase, "%", ".", "\\", negated)
    return getattr(ast, COMPARE[kind])(ast.Attribute(tree[1]), tree[2])
