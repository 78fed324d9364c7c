"""OGC CQL2 read into a ``Filter``: the text encoding (``cql2-text``) and the JSON one
(``cql2-json``), as GeoServer's OGC APIs accept them.

CQL2 text is ECQL with other spellings, so ``parse_text`` rewrites the places where the two
differ and reads the result with ``ecql.parse`` (the same tree, the same evaluation):

- spatial functions ``S_INTERSECTS(a, b)`` … ``S_CONTAINS`` → ECQL's ``INTERSECTS(a, b)`` …;
- ``DATE('2020-01-01')`` and ``TIMESTAMP('…')`` → the instant as a string (compared with a
  date attribute as GeoTools converts a literal to the attribute's type);
- ``BBOX(minx, miny, maxx, maxy)`` (a geometry literal in CQL2) → the rectangle as a WKT
  polygon;
- ``CASEI(x)`` → ``strToLowerCase(x)`` (a string literal: lower-cased in place, so that it
  may stand as a ``LIKE`` pattern), ``ACCENTI(x)`` → ``accenti(x)``;
- the temporal functions GeoServer evaluates on instants (``T_AFTER``, ``T_BEFORE``,
  ``T_EQUALS``, ``T_INTERSECTS``, ``T_DURING``, ``T_DISJOINT``, with an instant or an
  ``INTERVAL('start', 'end')`` whose ends may be ``'..'``) → comparisons.

ECQL's own spellings of what CQL2 writes differently (``INTERSECTS(…)``, ``BBOX(attr, …)``,
``BEFORE``/``AFTER``/``DURING``, ``EXISTS``) are refused, as GeoTools' CQL2 parser refuses
them; so are array functions (``A_…``), the other temporal functions and ``%``/``div``
(GeoServer declares none of their conformance classes). Errors are ``Invalid`` with
``Invalid cql syntax: …`` messages.

``parse_json`` reads CQL2 JSON (``{"op": "=", "args": [{"property": "name"}, "x"]}``) into
pygeofilter's AST directly.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import date
from typing import Any, NamedTuple

from ..core.errors import Invalid
from ..core.lazy import LazyModule
from . import ecql
from .converters import parse_instant
from .tree import Filter

ast: Any = LazyModule("pygeofilter.ast")
values: Any = LazyModule("pygeofilter.values")

SPATIAL = frozenset(
    {"INTERSECTS", "EQUALS", "DISJOINT", "TOUCHES", "WITHIN", "OVERLAPS", "CROSSES", "CONTAINS"}
)
ECQL_ONLY_CALLS = frozenset({*SPATIAL, "DWITHIN", "BEYOND", "RELATE"})
ECQL_ONLY_WORDS = frozenset({"BEFORE", "AFTER", "DURING", "TEQUALS", "EXISTS"})
TEMPORAL = frozenset({"T_AFTER", "T_BEFORE", "T_EQUALS", "T_INTERSECTS", "T_DURING"})
TEMPORAL = TEMPORAL | {"T_DISJOINT"}
OPEN = ".."
"""an open end of an ``INTERVAL``"""

_TOKEN = re.compile(
    r"\s*(?:(?P<str>'(?:[^']|'')*')|(?P<qid>\"(?:[^\"]|\"\")*\")"
    r"|(?P<num>(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?)"
    r"|(?P<word>[A-Za-z_][A-Za-z0-9_.:]*)|(?P<op><>|<=|>=|[=<>(),+\-*/%]))"
)


class Token(NamedTuple):
    kind: str
    text: str
    start: int
    end: int


def tokens(text: str) -> list[Token]:
    """The tokens of a CQL2 text; ``Invalid`` at a character no token starts with."""
    out: list[Token] = []
    pos = 0
    while pos < len(text):
        if text[pos:].strip() == "":
            break
        m = _TOKEN.match(text, pos)
        if m is None or m.lastgroup is None:
            where = len(text) - len(text[pos:].lstrip())
            raise Invalid(f"Invalid cql syntax: unexpected {text[where]!r} at column {where + 1}")
        out.append(Token(m.lastgroup, m.group(m.lastgroup), m.start(m.lastgroup), m.end()))
        pos = m.end()
    return out


def parse_text(text: str) -> Filter:
    """The ``Filter`` of a CQL2 text (see the module docstring)."""
    return ecql.parse(to_ecql(text))


def to_ecql(text: str) -> str:
    """The ECQL text that reads as the CQL2 ``text`` does."""
    toks = tokens(text)
    edits: list[tuple[int, int, str]] = []
    i = 0
    while i < len(toks):
        tok = toks[i]
        upper = tok.text.upper()
        call = tok.kind == "word" and i + 1 < len(toks) and toks[i + 1].text == "("
        if (tok.kind, tok.text) == ("op", "%") or (tok.kind == "word" and upper == "DIV"):
            raise Invalid(f"Invalid cql syntax: {tok.text} is not supported")
        if tok.kind != "word":
            i += 1
            continue
        if upper in ECQL_ONLY_WORDS or (call and upper in ECQL_ONLY_CALLS):
            raise Invalid(f"Invalid cql syntax: {tok.text} is ECQL, not CQL2 (use cql2 spellings)")
        if not call:
            i += 1
            continue
        close = _closing(toks, i + 1)
        edit = _rewrite(text, toks, i, close, upper)
        if edit is not None:
            edits.append(edit)
            i = close + 1 if edit[1] == toks[close].end else i + 1
        else:
            i += 1
    out = text
    for start, end, new in sorted(edits, reverse=True):
        out = out[:start] + new + out[end:]
    return out


def _closing(toks: list[Token], open_at: int) -> int:
    """The index of the ``)`` closing the ``(`` at ``open_at``."""
    depth = 0
    for j in range(open_at, len(toks)):
        if toks[j].text == "(":
            depth += 1
        elif toks[j].text == ")":
            depth -= 1
            if depth == 0:
                return j
    raise Invalid("Invalid cql syntax: a parenthesis is not closed")


def _args(toks: list[Token], open_at: int, close: int) -> list[list[Token]]:
    """The arguments between ``(`` and ``)``, split at the commas outside parentheses."""
    out: list[list[Token]] = [[]]
    depth = 0
    for tok in toks[open_at + 1 : close]:
        if tok.text == "," and depth == 0:
            out.append([])
            continue
        depth += {"(": 1, ")": -1}.get(tok.text, 0)
        out[-1].append(tok)
    return out if out != [[]] else []


def _rewrite(
    text: str, toks: list[Token], at: int, close: int, name: str
) -> tuple[int, int, str] | None:
    """The edit (start, end, replacement) for the call ``name(…)`` at token ``at``."""
    start, end = toks[at].start, toks[close].end
    if name.startswith("S_") and name[2:] in SPATIAL:
        return toks[at].start, toks[at].end, name[2:]
    if name.startswith("A_"):
        raise Invalid(f"Invalid cql syntax: array function {toks[at].text} is not supported")
    if name in ("DATE", "TIMESTAMP"):
        return start, end, _quoted(_instant_text(toks, at, close))
    if name == "INTERVAL":
        raise Invalid("Invalid cql syntax: INTERVAL is only read inside a temporal function")
    if name == "BBOX":
        return start, end, _bbox_polygon(toks, at, close)
    if name == "CASEI":
        args = _args(toks, at + 1, close)
        if len(args) == 1 and len(args[0]) == 1 and args[0][0].kind == "str":
            return start, end, args[0][0].text.lower()
        return toks[at].start, toks[at].end, "strToLowerCase"
    if name == "ACCENTI":
        return toks[at].start, toks[at].end, "accenti"
    if name.startswith("T_"):
        if name not in TEMPORAL:
            raise Invalid(f"Invalid cql syntax: temporal function {toks[at].text} is not supported")
        return start, end, _temporal(text, toks, at, close, name)
    return None


def _instant_text(toks: list[Token], at: int, close: int) -> str:
    """The text of ``DATE('…')`` / ``TIMESTAMP('…')`` (checked to be an instant)."""
    args = _args(toks, at + 1, close)
    if len(args) != 1 or len(args[0]) != 1 or args[0][0].kind != "str":
        raise Invalid(f"Invalid cql syntax: {toks[at].text} takes one quoted instant")
    value = args[0][0].text[1:-1].replace("''", "'")
    if parse_instant(value) is None:
        raise Invalid(f"Invalid cql syntax: not an instant: {value}")
    return value


def _quoted(value: str) -> str:
    return "'" + value.replace("'", "''") + "'"


def _number(toks: list[Token]) -> float:
    text = "".join(t.text for t in toks)
    try:
        return float(text)
    except ValueError:
        raise Invalid(f"Invalid cql syntax: not a number: {text}") from None


def _bbox_polygon(toks: list[Token], at: int, close: int) -> str:
    args = _args(toks, at + 1, close)
    if args and args[0] and args[0][0].kind in ("word", "qid"):
        raise Invalid(
            "Invalid cql syntax: BBOX(attribute, …) is ECQL, not CQL2: "
            "use S_INTERSECTS(attribute, BBOX(…))"
        )
    if len(args) not in (4, 6):
        raise Invalid("Invalid cql syntax: BBOX takes 4 or 6 numbers")
    nums = [_number(a) for a in args]
    minx, miny = nums[0], nums[1]
    maxx, maxy = (nums[2], nums[3]) if len(nums) == 4 else (nums[3], nums[4])
    ring = [(minx, miny), (maxx, miny), (maxx, maxy), (minx, maxy), (minx, miny)]
    return "POLYGON((" + ", ".join(f"{x!r} {y!r}" for x, y in ring) + "))"


def _temporal(text: str, toks: list[Token], at: int, close: int, name: str) -> str:
    args = _args(toks, at + 1, close)
    if len(args) != 2 or not args[0] or not args[1]:
        raise Invalid(f"Invalid cql syntax: {toks[at].text} takes two arguments")
    lhs = text[args[0][0].start : args[0][-1].end]
    rhs = args[1]
    head = rhs[0].text.upper()
    if head == "INTERVAL" and len(rhs) > 1 and rhs[1].text == "(":
        ends = [_interval_end(a) for a in _args(toks, _index(toks, rhs[1]), _index(toks, rhs[-1]))]
        if len(ends) != 2:
            raise Invalid("Invalid cql syntax: INTERVAL takes two instants")
        return _interval_test(lhs, name, ends[0], ends[1])
    if head in ("DATE", "TIMESTAMP") and len(rhs) > 1:
        value = _instant_text(toks, _index(toks, rhs[0]), _index(toks, rhs[-1]))
    elif len(rhs) == 1 and rhs[0].kind == "str":
        value = _interval_end(rhs)
    else:
        raise Invalid(f"Invalid cql syntax: {toks[at].text} needs an instant or an INTERVAL")
    op = {"T_AFTER": ">", "T_BEFORE": "<"}.get(name, "=")
    test = f"{lhs} {op} {_quoted(value)}"
    return f"(NOT ({test}))" if name == "T_DISJOINT" else f"({test})"


def _index(toks: list[Token], tok: Token) -> int:
    return next(i for i, t in enumerate(toks) if t.start == tok.start)


def _interval_end(arg: list[Token]) -> str:
    """One end of an ``INTERVAL``: a quoted instant, ``'..'``, or ``DATE``/``TIMESTAMP``."""
    if len(arg) == 1 and arg[0].kind == "str":
        value = arg[0].text[1:-1]
    elif len(arg) == 4 and arg[0].text.upper() in ("DATE", "TIMESTAMP") and arg[2].kind == "str":
        value = arg[2].text[1:-1]
    else:
        raise Invalid("Invalid cql syntax: an interval end is a quoted instant or '..'")
    if value != OPEN and parse_instant(value) is None:
        raise Invalid(f"Invalid cql syntax: not an instant: {value}")
    return value


def _interval_test(lhs: str, name: str, start: str, end: str) -> str:
    """``lhs`` (an instant) against the interval [start, end] (``..``: open)."""
    low = None if start == OPEN else _quoted(start)
    high = None if end == OPEN else _quoted(end)
    if name == "T_BEFORE":
        parts = [f"{lhs} < {low}"] if low else []
    elif name == "T_AFTER":
        parts = [f"{lhs} > {high}"] if high else []
    elif name == "T_DURING":
        parts = [p for p in (low and f"{lhs} > {low}", high and f"{lhs} < {high}") if p]
    else:  # T_INTERSECTS, T_EQUALS, T_DISJOINT
        parts = [p for p in (low and f"{lhs} >= {low}", high and f"{lhs} <= {high}") if p]
    test = " AND ".join(parts) if parts else f"{lhs} IS NOT NULL"
    if name in ("T_BEFORE", "T_AFTER") and not parts:
        test = "EXCLUDE"
    return f"(NOT ({test}))" if name == "T_DISJOINT" else f"({test})"


# -- CQL2 JSON ---------------------------------------------------------------------------------


def parse_json(text: str) -> Filter:
    """The ``Filter`` of a CQL2 JSON text; ``Invalid`` naming what is wrong."""
    from ..wire import json as wjson

    try:
        doc = wjson.loads(text, "CQL2 JSON filter")
    except Invalid as exc:
        raise Invalid(f"Invalid cql syntax: {exc.message}") from None
    return Filter(None, _predicate(doc))


COMPARISONS = {
    "=": "Equal",
    "<>": "NotEqual",
    "<": "LessThan",
    "<=": "LessEqual",
    ">": "GreaterThan",
    ">=": "GreaterEqual",
}
ARITHMETIC = {"+": "Add", "-": "Sub", "*": "Mul", "/": "Div"}
SPATIAL_NODES = {
    "s_intersects": "GeometryIntersects",
    "s_equals": "GeometryEquals",
    "s_disjoint": "GeometryDisjoint",
    "s_touches": "GeometryTouches",
    "s_within": "GeometryWithin",
    "s_overlaps": "GeometryOverlaps",
    "s_crosses": "GeometryCrosses",
    "s_contains": "GeometryContains",
}


def _bad(what: str) -> Invalid:
    return Invalid(f"Invalid cql syntax: {what}")


def _predicate(node: Any) -> Any:
    """A boolean expression of CQL2 JSON as a pygeofilter node."""
    if isinstance(node, bool):
        return ast.Include(not node)
    if not isinstance(node, dict) or not isinstance(node.get("op"), str):
        raise _bad(f"expected an operation object, got {_shown(node)}")
    op, args = node["op"].lower(), node.get("args")
    if not isinstance(args, list):
        raise _bad(f"the arguments of {op} are not an array")
    builder = _PREDICATES.get(op)
    if builder is None:
        if op.startswith("t_"):
            return _temporal_json(op, args)
        raise _bad(f"unsupported operation {node['op']}")
    return builder(args)


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _arity(args: list[Any], n: int, op: str) -> list[Any]:
    if len(args) != n:
        raise _bad(f"{op} takes {n} argument(s)")
    return args


def _logical(kind: str) -> Callable[[list[Any]], Any]:
    def build(args: list[Any]) -> Any:
        if len(args) < 2:
            raise _bad(f"{kind.lower()} takes at least two arguments")
        out = _predicate(args[0])
        for arg in args[1:]:
            out = getattr(ast, kind)(out, _predicate(arg))
        return out

    return build


def _not(args: list[Any]) -> Any:
    return ast.Not(_predicate(_arity(args, 1, "not")[0]))


def _comparison(op: str, kind: str) -> Callable[[list[Any]], Any]:
    def build(args: list[Any]) -> Any:
        a, b = _arity(args, 2, op)
        return getattr(ast, kind)(_expression(a), _expression(b))

    return build


def _like(args: list[Any]) -> Any:
    a, pattern = _arity(args, 2, "like")
    nocase = isinstance(pattern, dict) and "casei" in _unwrap_casei(pattern)
    text = _casei_literal(pattern)
    if not isinstance(text, str):
        raise _bad("the pattern of like is a string")
    return ast.Like(_expression(a), text, nocase, "%", "_", "\\", False)


def _unwrap_casei(value: dict[str, Any]) -> dict[str, Any]:
    if value.get("op") == "casei":
        return {"casei": (value.get("args") or [None])[0]}
    return value


def _casei_literal(value: Any) -> Any:
    if isinstance(value, dict):
        inner = _unwrap_casei(value).get("casei")
        if isinstance(inner, str):
            return inner.lower()
    return value


def _between(args: list[Any]) -> Any:
    if len(args) == 2 and isinstance(args[1], list) and len(args[1]) == 2:
        args = [args[0], *args[1]]
    a, low, high = _arity(args, 3, "between")
    return ast.Between(_expression(a), _expression(low), _expression(high), False)


def _in(args: list[Any]) -> Any:
    a, options = _arity(args, 2, "in")
    if not isinstance(options, list):
        raise _bad("the second argument of in is an array")
    return ast.In(_expression(a), [_expression(o) for o in options], False)


def _is_null(args: list[Any]) -> Any:
    return ast.IsNull(_expression(_arity(args, 1, "isNull")[0]), False)


def _spatial(op: str, kind: str) -> Callable[[list[Any]], Any]:
    def build(args: list[Any]) -> Any:
        a, b = _arity(args, 2, op)
        return getattr(ast, kind)(_expression(a), _expression(b))

    return build


_PREDICATES: dict[str, Callable[[list[Any]], Any]] = {
    "and": _logical("And"),
    "or": _logical("Or"),
    "not": _not,
    "like": _like,
    "between": _between,
    "in": _in,
    "isnull": _is_null,
    **{op: _comparison(op, kind) for op, kind in COMPARISONS.items()},
    **{op: _spatial(op, kind) for op, kind in SPATIAL_NODES.items()},
}


def _temporal_json(op: str, args: list[Any]) -> Any:
    name = op.upper()
    if name not in TEMPORAL:
        raise _bad(f"temporal operation {op} is not supported")
    a, b = _arity(args, 2, op)
    lhs = _expression(a)
    if isinstance(b, dict) and "interval" in b:
        ends = b["interval"]
        if not isinstance(ends, list) or len(ends) != 2:
            raise _bad("an interval has two ends")
        low, high = (None if e == OPEN else _instant(e) for e in ends)
        return _interval_node(lhs, name, low, high)
    value = _instant(b)
    kind = {"T_AFTER": "GreaterThan", "T_BEFORE": "LessThan"}.get(name, "Equal")
    test = getattr(ast, kind)(lhs, value)
    return ast.Not(test) if name == "T_DISJOINT" else test


def _interval_node(lhs: Any, name: str, low: Any, high: Any) -> Any:
    if name == "T_BEFORE":
        parts = [ast.LessThan(lhs, low)] if low is not None else []
    elif name == "T_AFTER":
        parts = [ast.GreaterThan(lhs, high)] if high is not None else []
    elif name == "T_DURING":
        parts = [ast.GreaterThan(lhs, low)] if low is not None else []
        parts += [ast.LessThan(lhs, high)] if high is not None else []
    else:
        parts = [ast.GreaterEqual(lhs, low)] if low is not None else []
        parts += [ast.LessEqual(lhs, high)] if high is not None else []
    if not parts:
        test = ast.Include(name in ("T_BEFORE", "T_AFTER"))
        if name not in ("T_BEFORE", "T_AFTER"):
            test = ast.IsNull(lhs, True)
    else:
        test = parts[0] if len(parts) == 1 else ast.And(parts[0], parts[1])
    return ast.Not(test) if name == "T_DISJOINT" else test


def _instant(value: Any) -> Any:
    """A ``{"date": …}`` / ``{"timestamp": …}`` object (or a string) as a date or datetime."""
    text = value
    if isinstance(value, dict):
        text = value.get("date", value.get("timestamp"))
    if not isinstance(text, str):
        raise _bad(f"expected an instant, got {_shown(value)}")
    found = parse_instant(text)
    if found is None:
        raise _bad(f"not an instant: {text}")
    if isinstance(value, dict) and "date" in value:
        return date(found.year, found.month, found.day)
    return found


def _expression(node: Any) -> Any:
    """An operand: a literal, a property, a geometry, a function or arithmetic."""
    if node is None or isinstance(node, bool | int | float | str):
        return node
    if isinstance(node, list):
        raise _bad("an array is not a value here")
    if not isinstance(node, dict):
        raise _bad(f"unexpected value {_shown(node)}")
    if "property" in node:
        if not isinstance(node["property"], str):
            raise _bad("a property name is a string")
        return ast.Attribute(node["property"])
    if "date" in node or "timestamp" in node:
        return _instant(node)
    if "bbox" in node:
        return _envelope(node["bbox"])
    if "type" in node and ("coordinates" in node or "geometries" in node):
        return values.Geometry(node)
    if "casei" in node:
        return ast.Function("strToLowerCase", [_expression(node["casei"])])
    if "accenti" in node:
        return ast.Function("accenti", [_expression(node["accenti"])])
    if "op" in node:
        return _operation(node)
    if "function" in node:  # the draft's ``{"function": {"name", "arguments"}}``
        fn = node["function"]
        if not isinstance(fn, dict) or not isinstance(fn.get("name"), str):
            raise _bad("a function has a name")
        args = fn.get("arguments", fn.get("args", []))
        return ast.Function(fn["name"], [_expression(a) for a in _list(args)])
    raise _bad(f"unexpected value {_shown(node)}")


def _operation(node: dict[str, Any]) -> Any:
    op, args = node["op"], _list(node.get("args", []))
    if not isinstance(op, str):
        raise _bad("an operation is named by a string")
    if op in ARITHMETIC:
        a, b = _arity(args, 2, op)
        return getattr(ast, ARITHMETIC[op])(_expression(a), _expression(b))
    if op.lower() == "casei":
        return ast.Function("strToLowerCase", [_expression(_arity(args, 1, op)[0])])
    if op.lower() == "accenti":
        return ast.Function("accenti", [_expression(_arity(args, 1, op)[0])])
    if op in ("%", "div", "^"):
        raise _bad(f"{op} is not supported")
    return ast.Function(op, [_expression(a) for a in args])


def _list(value: Any) -> list[Any]:
    if not isinstance(value, list):
        raise _bad("arguments are an array")
    return value


def _envelope(box: Any) -> Any:
    if not isinstance(box, list) or len(box) not in (4, 6):
        raise _bad("a bbox has 4 or 6 numbers")
    if not all(isinstance(v, int | float) and not isinstance(v, bool) for v in box):
        raise _bad("a bbox has 4 or 6 numbers")
    minx, miny = box[0], box[1]
    maxx, maxy = (box[2], box[3]) if len(box) == 4 else (box[3], box[4])
    return values.Envelope(minx, maxx, miny, maxy)
