"""ECQL filters on granules, parsed by pygeofilter and evaluated here as GeoTools does.

Parsing uses pygeofilter's ECQL grammar with three corrections, so that it reads filters
as GeoTools' ECQL does: ``AND`` binds tighter than ``OR`` (pygeofilter gives them the same
precedence), ``NOT`` may precede a parenthesised condition, and date-time literals may be
compared (``ingestion=2008-11-01T00:00:00Z``). Evaluation follows GeoTools' rules:

- a comparison, ``LIKE``, ``IN`` or ``BETWEEN`` with an empty (null) value is false, and
  ``NOT`` of it true; literals convert to the attribute's type (a string to a date or a
  number) and values that cannot be compared never match;
- ``LIKE`` patterns use ``%``, ``_`` and ``\\`` (``ILIKE`` ignores case);
- ``BEFORE``/``AFTER`` compare instants; ``DURING`` excludes both ends, ``BEFORE OR DURING``
  and ``DURING OR AFTER`` include them;
- ``BBOX`` and the geometry predicates (through shapely) work on the granule footprint in
  the mosaic's CRS (a ``BBOX`` CRS argument is not reprojected).

An attribute the index does not have reads as empty.
"""

from __future__ import annotations

import importlib.util
import re
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pygeofilter import ast, values

from ...core.errors import Invalid
from ...core.lazy import LazyModule
from . import ecql_quick
from .expressions import as_text, compare, expression, instant, shape
from .model import Feature

if TYPE_CHECKING:
    from lark import Lark

Predicate = Callable[[Feature], bool]

shapely = LazyModule("shapely")
"""imported by the first spatial filter (with numpy, a third of a second)"""

GRAMMAR_ADDITIONS = r"""
%override ?condition: condition_and
            | condition "OR" condition_and                                    -> or_
?condition_and: condition_1
            | condition_and "AND" condition_1                                 -> and_
%override ?condition_1: predicate
            | "NOT" condition_1                                               -> not_
            | "(" condition ")"
%extend ?literal: DATETIME
"""


@lru_cache(maxsize=1)
def _parser() -> Lark:
    """pygeofilter's ECQL grammar with GeoServer's additions (built once per process; the
    grammar's tables are kept in the scenario cache folder, so a later process loads them;
    lark is imported here, by the first filter ``ecql_quick`` does not read)."""
    from lark import Lark

    from .ecql_tree import ECQLTree

    spec = importlib.util.find_spec("pygeofilter.parsers.ecql")  # not imported: see ecql_tree
    assert spec is not None and spec.submodule_search_locations
    folder = Path(spec.submodule_search_locations[0])
    grammar = (folder / "grammar.lark").read_text(encoding="utf-8") + GRAMMAR_ADDITIONS
    return Lark(
        grammar,
        parser="lalr",
        maybe_placeholders=False,
        transformer=ECQLTree(),
        import_paths=[str(folder.parent)],
        source_path=str(folder / "grammar.lark"),
        cache=_tables_file(),
    )


def _tables_file() -> str | bool:
    """Where lark keeps the grammar's parse tables (it checks the grammar's digest on
    reading), or False with the scenario cache off or its folder not writable."""
    from lark import __version__ as lark_version

    from ...scenarios import diskcache

    folder = diskcache.folder()
    if folder is None:
        return False
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError:
        return False
    return str(folder / f"ecql-lark-{lark_version}.tables")


def parse(text: str) -> ast.Node:
    """The AST of an ECQL filter, or ``Invalid`` with GeoServer's message."""
    quick = ecql_quick.parse(text)
    if quick is not None:
        return quick
    from lark.exceptions import LarkError

    try:
        node: ast.Node = _parser().parse(text)
    except LarkError as exc:
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise Invalid(f"Invalid cql syntax: {first}") from None
    except (TypeError, ValueError, AttributeError, ArithmeticError) as exc:
        # raised by the grammar's transformer on input it cannot build (``-attr``, bad WKT)
        raise Invalid(f"Invalid cql syntax: {exc}") from None
    return node


def compile_filter(text: str | None) -> Predicate | None:
    """A predicate over granule features; None for no filter (every granule)."""
    if text is None:
        return None
    node = parse(text)
    if isinstance(node, ast.Include) and not node.not_:
        return None
    return _condition(node)


def is_include(text: str | None) -> bool:
    return compile_filter(text) is None


# -- conditions ------------------------------------------------------------------------------


def _condition(node: Any) -> Predicate:
    if isinstance(node, ast.And):
        lhs, rhs = _condition(node.lhs), _condition(node.rhs)
        return lambda f: lhs(f) and rhs(f)
    if isinstance(node, ast.Or):
        lhs, rhs = _condition(node.lhs), _condition(node.rhs)
        return lambda f: lhs(f) or rhs(f)
    if isinstance(node, ast.Not):
        sub = _condition(node.sub_node)
        return lambda f: not sub(f)
    if isinstance(node, ast.Include):
        result = not node.not_
        return lambda f: result
    for kind, build in BUILDERS:
        if isinstance(node, kind):
            return _negated(build(node), getattr(node, "not_", False))
    raise Invalid(f"Invalid cql syntax: unsupported filter {type(node).__name__}")


def _negated(pred: Predicate, negate: bool) -> Predicate:
    return (lambda f: not pred(f)) if negate else pred


COMPARE: dict[type, Callable[[Any, Any], bool]] = {
    ast.Equal: lambda a, b: a == b,
    ast.NotEqual: lambda a, b: a != b,
    ast.LessThan: lambda a, b: a < b,
    ast.LessEqual: lambda a, b: a <= b,
    ast.GreaterThan: lambda a, b: a > b,
    ast.GreaterEqual: lambda a, b: a >= b,
}


def _comparison(node: Any) -> Predicate:
    lhs, rhs, op = expression(node.lhs), expression(node.rhs), COMPARE[type(node)]
    literal = node.rhs
    if type(literal) in (int, float) and isinstance(node.lhs, ast.Attribute):
        # an attribute against a number: a number read from the index compares as it is
        # (what ``compare`` would make of it), anything else goes the general way
        def against_number(f: Feature) -> bool:
            value = lhs(f)
            if type(value) in (int, float):
                return bool(op(value, literal))
            return compare(value, literal, op)

        return against_number
    return lambda f: compare(lhs(f), rhs(f), op)


def _between(node: Any) -> Predicate:
    value, low, high = expression(node.lhs), expression(node.low), expression(node.high)

    def test(f: Feature) -> bool:
        v = value(f)
        return compare(v, low(f), lambda a, b: a >= b) and compare(v, high(f), lambda a, b: a <= b)

    return test


def _like(node: Any) -> Predicate:
    value = expression(node.lhs)
    regex = like_regex(str(node.pattern), node.nocase)

    def test(f: Feature) -> bool:
        v = value(f)
        return v is not None and regex.fullmatch(as_text(v)) is not None

    return test


def like_regex(pattern: str, nocase: bool = False) -> re.Pattern[str]:
    """An ECQL ``LIKE`` pattern (``%`` any run, ``_`` one character, ``\\`` escape)."""
    out, i = [], 0
    while i < len(pattern):
        c = pattern[i]
        if c == "\\" and i + 1 < len(pattern):
            out.append(re.escape(pattern[i + 1]))
            i += 2
            continue
        out.append(".*" if c == "%" else "." if c == "_" else re.escape(c))
        i += 1
    return re.compile("".join(out), re.DOTALL | (re.IGNORECASE if nocase else 0))


def _in(node: Any) -> Predicate:
    value, options = expression(node.lhs), [expression(n) for n in node.sub_nodes]
    return lambda f: any(compare(value(f), o(f), lambda a, b: a == b) for o in options)


def _is_null(node: Any) -> Predicate:
    value = expression(node.lhs)
    return lambda f: value(f) is None


def _exists(node: Any) -> Predicate:
    name = node.lhs.name
    return lambda f: name in f


TEMPORAL: dict[type, Callable[[datetime, Any], bool]] = {
    ast.TimeBefore: lambda v, t: v < t,
    ast.TimeAfter: lambda v, t: v > t,
    ast.TimeDuring: lambda v, p: p[0] < v < p[1],
    ast.TimeBeforeOrDuring: lambda v, p: v <= p[1],
    ast.TimeDuringOrAfter: lambda v, p: v >= p[0],
}


def _temporal(node: Any) -> Predicate:
    value, test = expression(node.lhs), TEMPORAL.get(type(node))
    if test is None:
        raise Invalid(f"Invalid cql syntax: unsupported temporal operator {type(node).__name__}")
    target = _period(node.rhs) if isinstance(node.rhs, values.Interval) else instant(node.rhs)

    def check(f: Feature) -> bool:
        raw = value(f)
        # an index date is already an instant in UTC; anything else is converted
        v = raw if type(raw) is datetime and raw.tzinfo is UTC else instant(raw)
        return v is not None and target is not None and test(v, target)

    return check


def _period(interval: values.Interval) -> tuple[datetime, datetime] | None:
    start, end = interval.start, interval.end
    if isinstance(start, timedelta) and end is not None:
        end_dt = instant(end)
        return None if end_dt is None else (end_dt - start, end_dt)
    start_dt = instant(start)
    if start_dt is None:
        return None
    if isinstance(end, timedelta):
        return start_dt, start_dt + end
    end_dt = instant(end)
    return None if end_dt is None else (start_dt, end_dt)


SPATIAL: dict[type, str] = {
    ast.GeometryIntersects: "intersects",
    ast.GeometryDisjoint: "disjoint",
    ast.GeometryContains: "contains",
    ast.GeometryWithin: "within",
    ast.GeometryTouches: "touches",
    ast.GeometryCrosses: "crosses",
    ast.GeometryOverlaps: "overlaps",
    ast.GeometryEquals: "equals",
}


def _spatial(node: Any) -> Predicate:
    lhs, rhs, method = expression(node.lhs), expression(node.rhs), SPATIAL[type(node)]

    def test(f: Feature) -> bool:
        a, b = shape(lhs(f)), shape(rhs(f))
        return a is not None and b is not None and bool(getattr(a, method)(b))

    return test


def _relate(node: Any) -> Predicate:
    lhs, rhs, pattern = expression(node.lhs), expression(node.rhs), str(node.pattern)

    def test(f: Feature) -> bool:
        a, b = shape(lhs(f)), shape(rhs(f))
        return a is not None and b is not None and bool(a.relate_pattern(b, pattern))

    return test


def _distance(node: Any) -> Predicate:
    lhs, rhs, distance = expression(node.lhs), expression(node.rhs), float(node.distance)
    within = isinstance(node, ast.DistanceWithin)

    def test(f: Feature) -> bool:
        a, b = shape(lhs(f)), shape(rhs(f))
        if a is None or b is None:
            return False
        return bool(a.distance(b) <= distance) == within

    return test


def _bbox(node: Any) -> Predicate:
    lhs = expression(node.lhs)
    box = shapely.geometry.box(
        float(node.minx), float(node.miny), float(node.maxx), float(node.maxy)
    )

    def test(f: Feature) -> bool:
        a = shape(lhs(f))
        return a is not None and bool(a.intersects(box))

    return test


BUILDERS: list[tuple[type, Callable[[Any], Predicate]]] = [
    (ast.Comparison, _comparison),
    (ast.Between, _between),
    (ast.Like, _like),
    (ast.In, _in),
    (ast.IsNull, _is_null),
    (ast.Exists, _exists),
    (ast.TemporalPredicate, _temporal),
    (ast.SpatialComparisonPredicate, _spatial),
    (ast.Relate, _relate),
    (ast.SpatialDistancePredicate, _distance),
    (ast.BBox, _bbox),
]
