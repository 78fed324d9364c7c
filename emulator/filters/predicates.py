"""A ``Filter`` compiled into a Python predicate, evaluated as GeoTools evaluates filters.

- a comparison, ``LIKE``, ``IN`` or ``BETWEEN`` with an empty (null) value is false, and
  ``NOT`` of it true; literals convert to the attribute's type (a string to a date or a
  number) and values that cannot be compared never match;
- ``LIKE`` patterns use ``%``, ``_`` and ``\\`` (``ILIKE`` ignores case), matched in linear
  time by ``core.wildcard`` (never as a backtracking regular expression);
- ``BEFORE``/``AFTER`` compare instants; ``DURING`` excludes both ends, ``BEFORE OR DURING``
  and ``DURING OR AFTER`` include them;
- ``BBOX`` and the geometry predicates (through shapely) work on the values as they are, in
  their CRS (a ``BBOX`` CRS argument is not reprojected): pygeofilter geometries and
  envelopes, or a ``(minx, miny, maxx, maxy)`` named tuple (a granule footprint).

A predicate reads a mapping of attribute values; an attribute it does not have reads as
empty. A predicate compiled with a ``core.budget.Budget`` checks it before each feature:
evaluating one filter over many features stops with a 400 (``TooCostly``) once the budget
is spent.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from functools import cache
from typing import Any

from ..core import wildcard
from ..core.budget import Budget
from ..core.errors import Invalid
from ..core.lazy import LazyModule
from . import ecql, ecql_quick
from .expressions import (
    Feature,
    as_text,
    attribute,
    compare,
    constant,
    expression,
    instant,
    shape,
)
from .tree import Filter

Predicate = Callable[[Feature], bool]

shapely = LazyModule("shapely")
"""imported by the first spatial filter (with numpy, a third of a second)"""
ast: Any = LazyModule("pygeofilter.ast")
values: Any = LazyModule("pygeofilter.values")
"""pygeofilter's tree: imported by the first filter the grammar reads"""


def predicate(flt: Filter | None, budget: Budget | None = None) -> Predicate | None:
    """A predicate over features (mappings of attribute values); None for no filter or
    ``INCLUDE`` (every feature). With a ``budget``, the predicate raises ``TooCostly`` once
    it is spent."""
    if flt is None or flt.includes_all:
        return None
    # common filters: compiled without pygeofilter
    test = _quick_condition(flt.quick) if flt.quick is not None else _condition(flt.node)
    return test if budget is None else budget.guard(test)


def compile_filter(text: str | None, budget: Budget | None = None) -> Predicate | None:
    """``predicate`` of the ECQL ``text`` (``Invalid`` when it does not parse); None for no
    filter (every feature)."""
    if text is None:
        return None
    return predicate(ecql.parse(text), budget)


def _quick_condition(tree: ecql_quick.Tree) -> Predicate:
    """``_condition`` of ``ecql_quick.to_ast(tree)``, built from the same pieces."""
    kind = tree[0]
    if kind == "and":
        lhs, rhs = _quick_condition(tree[1]), _quick_condition(tree[2])
        return lambda f: lhs(f) and rhs(f)
    if kind == "or":
        lhs, rhs = _quick_condition(tree[1]), _quick_condition(tree[2])
        return lambda f: lhs(f) or rhs(f)
    if kind == "not":
        sub = _quick_condition(tree[1])
        return lambda f: not sub(f)
    if kind == "include":
        result = not tree[1]
        return lambda f: result
    if kind == "like":
        _, name, pattern, nocase, negated = tree
        return _negated(like(attribute(name), pattern, nocase), negated)
    _, name, literal = tree
    op = COMPARE[ecql_quick.COMPARE[kind]]
    return comparison(attribute(name), constant(literal), literal, op, True)


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
    for kind, build in _builders():
        if isinstance(node, kind):
            return _negated(build(node), getattr(node, "not_", False))
    raise Invalid(f"Invalid cql syntax: unsupported filter {type(node).__name__}")


def _negated(pred: Predicate, negate: bool) -> Predicate:
    return (lambda f: not pred(f)) if negate else pred


COMPARE: dict[str, Callable[[Any, Any], bool]] = {
    "Equal": lambda a, b: a == b,
    "NotEqual": lambda a, b: a != b,
    "LessThan": lambda a, b: a < b,
    "LessEqual": lambda a, b: a <= b,
    "GreaterThan": lambda a, b: a > b,
    "GreaterEqual": lambda a, b: a >= b,
}
"""by the name of pygeofilter's node class"""


def _comparison(node: Any) -> Predicate:
    lhs, rhs, op = expression(node.lhs), expression(node.rhs), COMPARE[type(node).__name__]
    return comparison(lhs, rhs, node.rhs, op, isinstance(node.lhs, ast.Attribute))


def comparison(
    lhs: Callable[[Feature], Any],
    rhs: Callable[[Feature], Any],
    literal: Any,
    op: Callable[[Any, Any], bool],
    by_attribute: bool,
) -> Predicate:
    """``lhs op rhs``; ``literal`` is the right side as written (``by_attribute``: the left
    side is an attribute)."""
    if type(literal) in (int, float) and by_attribute:
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
    return like(expression(node.lhs), str(node.pattern), node.nocase)


def like(value: Callable[[Feature], Any], pattern: str, nocase: bool) -> Predicate:
    matcher = like_matcher(pattern, nocase)

    def test(f: Feature) -> bool:
        v = value(f)
        return v is not None and matcher.fullmatch(as_text(v))

    return test


def like_matcher(pattern: str, nocase: bool = False) -> wildcard.Wildcard:
    """An ECQL ``LIKE`` pattern (``%`` any run, ``_`` one character, ``\\`` escape), matched
    in linear time."""
    return wildcard.like(pattern, nocase)


def _in(node: Any) -> Predicate:
    value, options = expression(node.lhs), [expression(n) for n in node.sub_nodes]
    return lambda f: any(compare(value(f), o(f), lambda a, b: a == b) for o in options)


def _is_null(node: Any) -> Predicate:
    value = expression(node.lhs)
    return lambda f: value(f) is None


def _exists(node: Any) -> Predicate:
    name = node.lhs.name
    return lambda f: name in f


TEMPORAL: dict[str, Callable[[datetime, Any], bool]] = {
    "TimeBefore": lambda v, t: v < t,
    "TimeAfter": lambda v, t: v > t,
    "TimeDuring": lambda v, p: p[0] < v < p[1],
    "TimeBeforeOrDuring": lambda v, p: v <= p[1],
    "TimeDuringOrAfter": lambda v, p: v >= p[0],
}
"""by the name of pygeofilter's node class"""


def _temporal(node: Any) -> Predicate:
    value, test = expression(node.lhs), TEMPORAL.get(type(node).__name__)
    if test is None:
        raise Invalid(f"Invalid cql syntax: unsupported temporal operator {type(node).__name__}")
    target = _period(node.rhs) if isinstance(node.rhs, values.Interval) else instant(node.rhs)

    def check(f: Feature) -> bool:
        raw = value(f)
        # an index date is already an instant in UTC; anything else is converted
        v = raw if type(raw) is datetime and raw.tzinfo is UTC else instant(raw)
        return v is not None and target is not None and test(v, target)

    return check


def _period(interval: Any) -> tuple[datetime, datetime] | None:
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


SPATIAL: dict[str, str] = {
    "GeometryIntersects": "intersects",
    "GeometryDisjoint": "disjoint",
    "GeometryContains": "contains",
    "GeometryWithin": "within",
    "GeometryTouches": "touches",
    "GeometryCrosses": "crosses",
    "GeometryOverlaps": "overlaps",
    "GeometryEquals": "equals",
}
"""by the name of pygeofilter's node class"""


def _spatial(node: Any) -> Predicate:
    shapely.geometry  # noqa: B018 - imported now, not while the filter runs under a budget
    lhs, rhs, method = expression(node.lhs), expression(node.rhs), SPATIAL[type(node).__name__]

    def test(f: Feature) -> bool:
        a, b = shape(lhs(f)), shape(rhs(f))
        return a is not None and b is not None and bool(getattr(a, method)(b))

    return test


def _relate(node: Any) -> Predicate:
    shapely.geometry  # noqa: B018 - imported now, not while the filter runs under a budget
    lhs, rhs, pattern = expression(node.lhs), expression(node.rhs), str(node.pattern)

    def test(f: Feature) -> bool:
        a, b = shape(lhs(f)), shape(rhs(f))
        return a is not None and b is not None and bool(a.relate_pattern(b, pattern))

    return test


def _distance(node: Any) -> Predicate:
    shapely.geometry  # noqa: B018 - imported now, not while the filter runs under a budget
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


@cache
def _builders() -> list[tuple[type, Callable[[Any], Predicate]]]:
    return [
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
