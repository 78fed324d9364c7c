"""From the ECQL grammar's parse tree to pygeofilter's AST: the transformer our parser runs.

pygeofilter's own ECQL module builds a parser of its own as it is imported (about half a
second), which ``filters.py`` would throw away for its corrected grammar, and its ISO 8601
transformer loads ``dateparser`` (a tenth of a second) for literals the grammar has already
checked to be ISO 8601; this transformer lets ``filters.py`` import only the grammar file, the
AST and the WKT transformer, and build one parser, with its tables cached on disk.

Each rule of the grammar maps to one AST node built from the rule's children in order;
``tests/areas/mosaics/test_ecql_tree.py`` checks that it builds the AST pygeofilter's own
transformer builds, for every rule.
"""

from __future__ import annotations

import re
from datetime import UTC, date, datetime, timedelta
from typing import Any

from lark import v_args
from pygeofilter import ast, values
from pygeofilter.parsers.wkt import WKTTransformer

SPATIAL = {
    "INTERSECTS": ast.GeometryIntersects,
    "DISJOINT": ast.GeometryDisjoint,
    "CONTAINS": ast.GeometryContains,
    "WITHIN": ast.GeometryWithin,
    "TOUCHES": ast.GeometryTouches,
    "CROSSES": ast.GeometryCrosses,
    "OVERLAPS": ast.GeometryOverlaps,
    "EQUALS": ast.GeometryEquals,
}

TWO_SIDED = {
    "and_": ast.And, "or_": ast.Or,
    "eq": ast.Equal, "ne": ast.NotEqual,
    "lt": ast.LessThan, "lte": ast.LessEqual, "gt": ast.GreaterThan, "gte": ast.GreaterEqual,
    "before": ast.TimeBefore, "before_or_during": ast.TimeBeforeOrDuring,
    "during": ast.TimeDuring, "during_or_after": ast.TimeDuringOrAfter, "after": ast.TimeAfter,
    "add": ast.Add, "sub": ast.Sub, "mul": ast.Mul, "div": ast.Div,
}  # fmt: skip
"""rules whose node is made of the rule's two children as they come"""

DURATION = re.compile(
    r"(?P<sign>[+-])?P(?:(?P<years>\d+(?:\.\d+)?)Y)?(?:(?P<months>\d+(?:\.\d+)?)M)?"
    r"(?:(?P<days>\d+(?:\.\d+)?)D)?T?(?:(?P<hours>\d+(?:\.\d+)?)H)?"
    r"(?:(?P<minutes>\d+(?:\.\d+)?)M)?(?:(?P<seconds>\d+(?:\.\d+)?)S)?"
)
DAYS_IN = {"years": 365, "months": 30, "days": 1}
"""a duration's calendar parts in days, as pygeofilter counts them"""
SECONDS_IN = {"hours": 3600, "minutes": 60, "seconds": 1}

LIKES = {"like": (False, False), "not_like": (False, True), "ilike": (True, False)}
LIKES["not_ilike"] = (True, True)
"""rule: (ignores case, negated)"""


def _two_sided(cls: type) -> Any:
    return lambda self, lhs, rhs: cls(lhs, rhs)


def _like(nocase: bool, negated: bool) -> Any:
    return lambda self, node, pattern: ast.Like(node, pattern, nocase, "%", ".", "\\", negated)


@v_args(meta=False, inline=True)
class ECQLTree(WKTTransformer):  # type: ignore[misc]  # pygeofilter ships no types
    """The grammar's rules and terminals, as pygeofilter's AST and values."""

    locals().update({rule: _two_sided(cls) for rule, cls in TWO_SIDED.items()})
    locals().update({rule: _like(*flags) for rule, flags in LIKES.items()})

    def not_(self, node: Any) -> Any:
        return ast.Not(node)

    def between(self, lhs: Any, low: Any, high: Any) -> Any:
        return ast.Between(lhs, low, high, False)

    def not_between(self, lhs: Any, low: Any, high: Any) -> Any:
        return ast.Between(lhs, low, high, True)

    def in_(self, node: Any, *options: Any) -> Any:
        return ast.In(node, list(options), False)

    def not_in(self, node: Any, *options: Any) -> Any:
        return ast.In(node, list(options), True)

    def null(self, node: Any) -> Any:
        return ast.IsNull(node, False)

    def not_null(self, node: Any) -> Any:
        return ast.IsNull(node, True)

    def exists(self, attribute: Any) -> Any:
        return ast.Exists(attribute, False)

    def does_not_exist(self, attribute: Any) -> Any:
        return ast.Exists(attribute, True)

    def include(self) -> Any:
        return ast.Include(False)

    def exclude(self) -> Any:
        return ast.Include(True)

    def binary_spatial_predicate(self, op: Any, lhs: Any, rhs: Any) -> Any:
        return SPATIAL[op](lhs, rhs)

    def relate_spatial_predicate(self, lhs: Any, rhs: Any, pattern: Any) -> Any:
        return ast.Relate(lhs, rhs, pattern)

    def distance_spatial_predicate(
        self, op: Any, lhs: Any, rhs: Any, distance: Any, units: Any
    ) -> Any:
        kind = ast.DistanceWithin if op == "DWITHIN" else ast.DistanceBeyond
        return kind(lhs, rhs, distance, units)

    def distance_units(self, value: Any) -> Any:
        return value

    def bbox_spatial_predicate(
        self, lhs: Any, minx: Any, miny: Any, maxx: Any, maxy: Any, crs: Any = None
    ) -> Any:
        return ast.BBox(lhs, minx, miny, maxx, maxy, crs)

    def function(self, name: Any, *arguments: Any) -> Any:
        return ast.Function(str(name), list(arguments))

    def neg(self, value: Any) -> Any:
        return -value

    def attribute(self, name: Any) -> Any:
        return ast.Attribute(str(name))

    def period(self, start: Any, end: Any) -> Any:
        return values.Interval(start, end)

    def INT(self, token: Any) -> Any:
        return int(token)

    def FLOAT(self, token: Any) -> Any:
        return float(token)

    def BOOLEAN(self, token: Any) -> Any:
        return token.lower() == "true"

    def DOUBLE_QUOTED(self, token: Any) -> Any:
        return token[1:-1]

    def SINGLE_QUOTED(self, token: Any) -> Any:
        return token[1:-1]

    def geometry(self, value: Any) -> Any:
        return values.Geometry(value)

    def envelope(self, x1: Any, x2: Any, y1: Any, y2: Any) -> Any:
        return values.Envelope(x1, x2, y1, y2)

    def DATETIME(self, token: Any) -> Any:
        parsed = datetime.fromisoformat(str(token))
        return parsed.astimezone(UTC) if parsed.tzinfo is not None else parsed

    def DATE(self, token: Any) -> Any:
        return date.fromisoformat(str(token))

    def DURATION(self, token: Any) -> Any:
        found = DURATION.fullmatch(str(token))
        if found is None:
            raise ValueError(f"Could not parse ISO 8601 duration from {str(token)!r}")
        parts = {k: float(v) for k, v in found.groupdict().items() if v and k != "sign"}
        days = sum(parts.get(k, 0.0) * n for k, n in DAYS_IN.items())
        seconds = sum(parts.get(k, 0.0) * n for k, n in SECONDS_IN.items())
        return (-1 if found["sign"] == "-" else 1) * timedelta(days, seconds)
