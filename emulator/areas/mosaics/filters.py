"""ECQL filters on granules, parsed by pygeofilter and evaluated here as GeoTools does.

Parsing uses pygeofilter's ECQL grammar with three corrections, so that it reads filters
as GeoTools' ECQL does: ``AND`` binds tighter than ``OR`` (pygeofilter gives them the same
precedence), ``NOT`` may precede a parenthesised condition, and date-time literals may be
compared (``ingestion=2008-11-01T00:00:00Z``). Evaluation follows GeoTools' rules:

- a comparison, ``LIKE``, ``IN`` or ``BETWEEN`` with an empty (null) value is false, and
  ``NOT`` of it true; literals convert to the attribute's type (a string to a date or a
  number) and values that cannot be compared never match;
- ``LIKE`` patterns use ``%``, ``_`` and ``\\`` (``ILIKE`` ignores case), matched in linear
  time by ``core.wildcard`` (never as a backtracking regular expression);
- ``BEFORE``/``AFTER`` compare instants; ``DURING`` excludes both ends, ``BEFORE OR DURING``
  and ``DURING OR AFTER`` include them;
- ``BBOX`` and the geometry predicates (through shapely) work on the granule footprint in
  the mosaic's CRS (a ``BBOX`` CRS argument is not reprojected).

An attribute the index does not have reads as empty. A predicate compiled with a
``core.budget.Budget`` checks it before each feature: evaluating one filter over many
features stops with a 400 once the budget is spent.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from functools import cache, lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ...core import wildcard
from ...core.budget import Budget
from ...core.errors import Invalid
from ...core.lazy import LazyModule
from . import ecql_quick
from .expressions import as_text, attribute, compare, constant, expression, instant, shape
from .model import Feature

if TYPE_CHECKING:
    from lark import Lark

Predicate = Callable[[Feature], bool]

shapely = LazyModule("shapely")
"""imported by the first spatial filter (with numpy, a third of a second)"""
ast: Any = LazyModule("pygeofilter.ast")
values: Any = LazyModule("pygeofilter.values")
"""pygeofilter's tree: imported by the first filter the grammar reads"""

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


MAX_DEPTH = 500
"""the deepest nesting of ``AND``, ``OR`` and ``NOT`` a filter may have: deeper, it is
refused with 400 (evaluating it would exhaust Python's recursion limit)"""


def parse(text: str) -> Any:
    """The AST of an ECQL filter (pygeofilter's), or ``Invalid`` with GeoServer's message (or
    one naming the nesting limit, ``MAX_DEPTH``)."""
    quick, node = _read(text)
    return ecql_quick.to_ast(quick) if quick is not None else node


def _read(text: str) -> tuple[ecql_quick.Tree | None, Any]:
    """The quick reader's tree of a common filter, else the grammar's AST (the other is
    None), refused when ``AND``, ``OR`` and ``NOT`` nest deeper than ``MAX_DEPTH``."""
    try:
        quick = ecql_quick.parse(text)
        node = None if quick is not None else _grammar_parse(text)
    except RecursionError:
        raise Invalid(_too_deep()) from None
    depth = _depth(node, _children) if quick is None else _depth(quick, _quick_children)
    if depth > MAX_DEPTH:
        raise Invalid(_too_deep())
    return quick, node


def _grammar_parse(text: str) -> Any:
    """``parse`` through the grammar."""
    from lark.exceptions import LarkError

    try:
        return _parser().parse(text)
    except LarkError as exc:
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise Invalid(f"Invalid cql syntax: {first}") from None
    except (TypeError, ValueError, AttributeError, ArithmeticError) as exc:
        # raised by the grammar's transformer on input it cannot build (``-attr``, bad WKT)
        raise Invalid(f"Invalid cql syntax: {exc}") from None


def _too_deep() -> str:
    return f"Invalid cql syntax: the filter nests AND, OR and NOT more than {MAX_DEPTH} deep"


def _depth(root: Any, children: Callable[[Any], tuple[Any, ...]]) -> int:
    """How deep ``AND``, ``OR`` and ``NOT`` nest under ``root`` (walked without recursion):
    ``children`` gives the operands of one of them, nothing for anything else."""
    deepest = 0
    stack = [(root, 1)]
    while stack:
        item, depth = stack.pop()
        deepest = max(deepest, depth)
        stack += [(child, depth + 1) for child in children(item)]
    return deepest


def _children(node: Any) -> tuple[Any, ...]:
    """The operands of a pygeofilter ``And``, ``Or`` or ``Not``."""
    if isinstance(node, (ast.And, ast.Or)):
        return (node.lhs, node.rhs)
    return (node.sub_node,) if isinstance(node, ast.Not) else ()


def _quick_children(tree: ecql_quick.Tree) -> tuple[Any, ...]:
    """The operands of the quick reader's ``and``, ``or`` or ``not``."""
    if tree[0] in ("and", "or"):
        return tree[1:3]
    return tree[1:2] if tree[0] == "not" else ()


def compile_filter(text: str | None, budget: Budget | None = None) -> Predicate | None:
    """A predicate over granule features; None for no filter (every granule). With a
    ``budget``, the predicate raises ``TooCostly`` once it is spent."""
    if text is None:
        return None
    quick, node = _read(text)  # common filters: compiled without pygeofilter
    if quick is not None:
        if quick == ("include", False):
            return None
        predicate = _quick_condition(quick)
    elif isinstance(node, ast.Include) and not node.not_:
        return None
    else:
        predicate = _condition(node)
    return predicate if budget is None else budget.guard(predicate)


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
