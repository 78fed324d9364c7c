"""A filter tree (``filters.tree.Filter``) as parameterised SQL, as GeoTools' ``FilterToSQL``
with the PostGIS dialect encodes it, and the part that stays in Python.

``split(ast, columns, ...)`` walks pygeofilter's AST and returns a ``Where`` for what SQL can
answer and the rest as an AST (None when nothing is left) that the caller evaluates in
Python over the rows the ``Where`` selects. Under ``AND`` each side goes its own way; under
``OR`` and ``NOT`` a subtree goes to SQL whole or not at all. Names are quoted identifiers
of known columns only, values are parameters only: a filter never pastes text into SQL.

What becomes SQL: comparisons of a column with a literal (the literal converted to the
column's type, as GeoTools converts it; one that does not convert stays in Python),
``BETWEEN``, ``IN``, ``IS [NOT] NULL``, ``EXISTS``, ``LIKE``/``ILIKE`` on text columns (the
ECQL pattern: ``%``, ``_``, ``\\`` escapes; literal ``%`` and ``_`` escaped for SQL),
``BEFORE``/``AFTER``/``DURING``/``BEFORE OR DURING``/``DURING OR AFTER`` on date columns,
``BBOX`` (``&&`` with ``Loose bbox``, else ``ST_Intersects``) and the spatial predicates
(``ST_Intersects``, ``ST_Disjoint``, ``ST_Contains``, ``ST_Within``, ``ST_Touches``,
``ST_Crosses``, ``ST_Overlaps``, ``ST_Equals``, ``ST_Relate``, ``ST_DWithin``) against a
literal geometry in the column's SRID. Arithmetic, functions, comparisons of two attributes
and names the table lacks stay in Python. SQL's three-valued logic applies to what SQL
answers, as it does for GeoServer with PostGIS (``NOT (a = 1)`` leaves out rows where ``a``
is null).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from ..core.lazy import LazyModule
from .literals import DATES, TEXT, Col, NotSql, literal, period
from .where import Where, all_of, any_of, negate

ast: Any = LazyModule("pygeofilter.ast")
values: Any = LazyModule("pygeofilter.values")
shapely: Any = LazyModule("shapely")

COMPARISONS = {
    "Equal": "=",
    "NotEqual": "<>",
    "LessThan": "<",
    "LessEqual": "<=",
    "GreaterThan": ">",
    "GreaterEqual": ">=",
}
SPATIAL = {
    "GeometryIntersects": "ST_Intersects",
    "GeometryDisjoint": "ST_Disjoint",
    "GeometryContains": "ST_Contains",
    "GeometryWithin": "ST_Within",
    "GeometryTouches": "ST_Touches",
    "GeometryCrosses": "ST_Crosses",
    "GeometryOverlaps": "ST_Overlaps",
    "GeometryEquals": "ST_Equals",
}


def split(
    node: Any, columns: Mapping[str, Col], geometry: str | None, loose_bbox: bool = True
) -> tuple[Where | None, Any]:
    """(the SQL part or None, the AST left for Python or None) of ``node``."""
    return _Compiler(columns, geometry, loose_bbox).split(node)


class _Compiler:
    def __init__(self, columns: Mapping[str, Col], geometry: str | None, loose: bool) -> None:
        self.columns = columns
        self.geometry = geometry
        self.loose = loose

    def split(self, node: Any) -> tuple[Where | None, Any]:
        stack, sql_parts, rest = [node], [], []
        while stack:  # the conjuncts, without recursion
            item = stack.pop()
            if isinstance(item, ast.And):
                stack += [item.rhs, item.lhs]
                continue
            try:
                sql_parts.append(self.exact(item))
            except (NotSql, RecursionError):
                rest.append(item)
        where = all_of(*sql_parts) if sql_parts else None
        left = None
        for item in rest:
            left = item if left is None else ast.And(left, item)
        return where, left

    # -- the whole subtree as SQL, else NotSql -----------------------------------------------

    def exact(self, node: Any) -> Where:
        if isinstance(node, ast.And):
            return all_of(self.exact(node.lhs), self.exact(node.rhs))
        if isinstance(node, ast.Or):
            return any_of(self.exact(node.lhs), self.exact(node.rhs))
        if isinstance(node, ast.Not):
            return negate(self.exact(node.sub_node))
        if isinstance(node, ast.Include):
            return _raw("FALSE" if node.not_ else "TRUE")
        build = self._builder(node)
        if build is None:
            raise NotSql
        where = build(node)
        return negate(where) if getattr(node, "not_", False) else where

    def _builder(self, node: Any) -> Callable[[Any], Where] | None:
        table: list[tuple[type, Callable[[Any], Where]]] = [
            (ast.Comparison, self.comparison),
            (ast.Between, self.between),
            (ast.Like, self.like),
            (ast.In, self.in_),
            (ast.IsNull, self.is_null),
            (ast.Exists, self.exists),
            (ast.TemporalPredicate, self.temporal),
            (ast.SpatialComparisonPredicate, self.spatial),
            (ast.Relate, self.relate),
            (ast.SpatialDistancePredicate, self.distance),
            (ast.BBox, self.bbox),
        ]
        return next((build for kind, build in table if isinstance(node, kind)), None)

    # -- pieces -----------------------------------------------------------------------------

    def column(self, expr: Any, geometry: bool = False) -> Col:
        """The column an expression names (``NotSql`` for anything else)."""
        if not isinstance(expr, ast.Attribute):
            raise NotSql
        name = str(expr.name).rsplit(":", 1)[-1]
        if name == "" and geometry and self.geometry:
            name = self.geometry
        col = self.columns.get(name)
        if col is None or col.is_geometry != geometry:
            raise NotSql
        return col

    def comparison(self, node: Any) -> Where:
        op = COMPARISONS[type(node).__name__]
        lhs, rhs = node.lhs, node.rhs
        if not isinstance(lhs, ast.Attribute) and isinstance(rhs, ast.Attribute):
            lhs, rhs = rhs, lhs
            op = {"<": ">", ">": "<", "<=": ">=", ">=": "<="}.get(op, op)
        col = self.column(lhs)
        return _cmp(col, op, literal(col, rhs))

    def between(self, node: Any) -> Where:
        col = self.column(node.lhs)
        low, high = literal(col, node.low), literal(col, node.high)
        sql = _sql()
        return Where(sql.SQL("{} BETWEEN %s AND %s").format(sql.Identifier(col.name)), (low, high))

    def in_(self, node: Any) -> Where:
        col = self.column(node.lhs)
        items = [literal(col, v) for v in node.sub_nodes]
        if not items:
            return _raw("FALSE")
        return any_of(*(_cmp(col, "=", v) for v in items))

    def is_null(self, node: Any) -> Where:
        col = self._any_column(node.lhs)
        sql = _sql()
        return Where(sql.SQL("{} IS NULL").format(sql.Identifier(col.name)))

    def exists(self, node: Any) -> Where:
        if not isinstance(node.lhs, ast.Attribute):
            raise NotSql
        name = str(node.lhs.name).rsplit(":", 1)[-1]
        return _raw("TRUE" if name in self.columns else "FALSE")

    def like(self, node: Any) -> Where:
        col = self.column(node.lhs)
        if col.binding != TEXT or not isinstance(node.pattern, str):
            raise NotSql
        sql = _sql()
        op = "ILIKE" if node.nocase else "LIKE"
        return Where(
            sql.SQL("{} {} %s ESCAPE '\\'").format(sql.Identifier(col.name), sql.SQL(op)),
            (sql_pattern(node.pattern),),
        )

    def temporal(self, node: Any) -> Where:
        col = self.column(node.lhs)
        if col.binding not in DATES:
            raise NotSql
        kind = type(node).__name__
        if isinstance(node.rhs, values.Interval):
            start, end = period(col, node.rhs)
            if kind == "TimeDuring":
                return all_of(_cmp(col, ">", start), _cmp(col, "<", end))
            if kind == "TimeBeforeOrDuring":
                return _cmp(col, "<=", end)
            if kind == "TimeDuringOrAfter":
                return _cmp(col, ">=", start)
            raise NotSql
        when = literal(col, node.rhs)
        if kind == "TimeBefore":
            return _cmp(col, "<", when)
        if kind == "TimeAfter":
            return _cmp(col, ">", when)
        raise NotSql

    def _geometry_arg(self, node: Any) -> tuple[Col, Any]:
        lhs, rhs = node.lhs, node.rhs
        if not isinstance(lhs, ast.Attribute) and isinstance(rhs, ast.Attribute):
            if type(node).__name__ in ("GeometryContains", "GeometryWithin"):
                raise NotSql  # the order matters: left to Python
            lhs, rhs = rhs, lhs
        col = self.column(lhs, geometry=True)
        return col, _geometry_sql(rhs, col)

    def spatial(self, node: Any) -> Where:
        col, (geom_sql, params) = self._geometry_arg(node)
        sql = _sql()
        function = sql.SQL(SPATIAL[type(node).__name__])
        return Where(
            sql.SQL("{}({}, {})").format(function, sql.Identifier(col.name), geom_sql), params
        )

    def relate(self, node: Any) -> Where:
        col, (geom_sql, params) = self._geometry_arg(node)
        sql = _sql()
        return Where(
            sql.SQL("ST_Relate({}, {}, %s)").format(sql.Identifier(col.name), geom_sql),
            (*params, str(node.pattern)),
        )

    def distance(self, node: Any) -> Where:
        col, (geom_sql, params) = self._geometry_arg(node)
        sql = _sql()
        where = Where(
            sql.SQL("ST_DWithin({}, {}, %s)").format(sql.Identifier(col.name), geom_sql),
            (*params, float(node.distance)),
        )
        return where if isinstance(node, ast.DistanceWithin) else negate(where)

    def bbox(self, node: Any) -> Where:
        col = self.column(node.lhs, geometry=True)
        from . import where

        minx, miny, maxx, maxy = (float(v) for v in (node.minx, node.miny, node.maxx, node.maxy))
        return where.bbox(col.name, minx, miny, maxx, maxy, col.srid or 0, self.loose)

    def _any_column(self, expr: Any) -> Col:
        if not isinstance(expr, ast.Attribute):
            raise NotSql
        col = self.columns.get(str(expr.name).rsplit(":", 1)[-1])
        if col is None:
            raise NotSql
        return col


def sql_pattern(pattern: str) -> str:
    """An ECQL ``LIKE`` pattern (``%``, ``_``, ``\\`` escapes the next character) as an SQL
    pattern whose escape character is ``\\``."""
    out: list[str] = []
    escaped = False
    for ch in pattern:
        if escaped:
            out.append("\\" + ch if ch in "%_\\" else ch)
            escaped = False
        elif ch == "\\":
            escaped = True
        else:
            out.append(ch)
    if escaped:
        out.append("\\\\")
    return "".join(out)


def _geometry_sql(value: Any, col: Col) -> tuple[Any, tuple[Any, ...]]:
    """A literal geometry (or envelope) in the column's SRID, as WKB."""
    sql = _sql()
    srid = max(col.srid or 0, 0)
    if isinstance(value, values.Envelope):
        return (
            sql.SQL("ST_MakeEnvelope(%s, %s, %s, %s, %s)"),
            (float(value.x1), float(value.y1), float(value.x2), float(value.y2), srid),
        )
    if not isinstance(value, values.Geometry):
        raise NotSql
    try:
        shape = shapely.geometry.shape(value.geometry)
    except (ValueError, TypeError, AttributeError, shapely.errors.GEOSException):
        raise NotSql from None
    return sql.SQL("ST_GeomFromWKB(%s, %s)"), (shapely.to_wkb(shape), srid)


def _cmp(col: Col, op: str, value: Any) -> Where:
    sql = _sql()
    return Where(sql.SQL("{} {} %s").format(sql.Identifier(col.name), sql.SQL(op)), (value,))


def _raw(text: str) -> Where:
    return Where(_sql().SQL(text))


def _sql() -> Any:
    from psycopg import sql

    return sql
