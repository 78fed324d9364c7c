"""Writes to a PostGIS table: the ``FeatureTransaction`` of ``PostgisSource``.

Every write of one request on one database runs in one database transaction
(``databases.units.Unit``, shared with the request's other PostGIS transactions): inserts,
updates and deletes are statements in it, seen by its later operations; ``commit`` commits
once the last transaction of the request commits, ``discard`` rolls everything back. A
refused operation (a constraint, a type the column refuses) is the database's error, and the
caller discards: nothing of the request stays in the table.

Inserts write every attribute given (absent ones as NULL, as GeoTools writes them) and leave
a key the database generates (a ``serial`` or identity column) to it, reading the new value
back (``RETURNING``), as GeoTools does with a sequence; an integer key it does not generate
takes the highest value plus one (GeoTools' ``NonIncrementingPrimaryKeyColumn``). With the
ids given (``idgen="UseExisting"``) the key comes from each id. Tables only: views and SQL
views are read-only, as GeoServer has them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from ..core.errors import Invalid
from ..core.record import replace
from ..core.rollback import running
from ..databases import relations
from ..databases.convert import geometry_to_db, value_to_db
from ..databases.fetch import converted, select_list
from ..databases.literals import Col
from ..databases.relations import Relation
from ..databases.service import translated
from ..databases.units import Unit, unit
from ..databases.where import Where
from .model import Attribute
from .query import Query
from .source import ReadOnly

if TYPE_CHECKING:
    import psycopg

    from .postgis import PostgisSource


class PostgisTransaction:
    """A ``FeatureTransaction`` on a ``PostgisSource`` (see the module docstring)."""

    def __init__(self, source: PostgisSource) -> None:
        self.source = source
        self._unit: Unit | None = None
        self._conn: psycopg.Connection[Any] | None = None
        self._open = True

    @property
    def attributes(self) -> Sequence[Attribute]:
        return self.source.schema.attributes

    def _begin(self) -> tuple[psycopg.Connection[Any], Relation]:
        if not self._open:
            raise RuntimeError("the transaction is over (committed or discarded)")
        if self._conn is None:
            owner = running(self.source.state)
            self._unit = unit(self.source.databases, self.source.pool, owner)
            self._conn = self._unit.join()
        rel = self.source.relation(self._conn)
        if self.source.view is not None or not rel.writable:
            raise ReadOnly(f"{self.source.ft.name} is read only")
        return self._conn, rel

    # -- operations --------------------------------------------------------------------------

    def insert(
        self, rows: Sequence[Mapping[str, Any]], fids: Sequence[str | None] | None = None
    ) -> list[str]:
        """Insert one row per mapping; their new ids. ``fids`` (``UseExisting``): the ids
        to keep, each giving its row's key."""
        with translated():
            conn, rel = self._begin()
            out = []
            for i, row in enumerate(rows):
                given = fids[i] if fids is not None and i < len(fids) else None
                out.append(self._insert_one(conn, rel, row, given))
            return out

    def _insert_one(
        self, conn: psycopg.Connection[Any], rel: Relation, row: Mapping[str, Any], fid: str | None
    ) -> str:
        from psycopg import sql

        values = {n: v for n, v in row.items() if n in rel.columns}
        if fid is not None:
            key = relations.decode_fid(self.source.fid_names(), rel, fid)
            if key is None:
                raise Invalid(f"Feature id {fid} does not name a key of {self.source.ft.name}")
            values.update(zip(rel.key, key, strict=True))
        for column in rel.key:
            if column not in values and column not in rel.generated:
                values[column] = self._next_key(conn, rel, rel.columns[column])
        used = [rel.columns[n] for n in values]
        query = sql.SQL("INSERT INTO {} ").format(sql.Identifier(rel.source.schema, rel.table))
        if used:
            query += sql.SQL("({}) VALUES ({})").format(
                sql.SQL(", ").join(sql.Identifier(c.name) for c in used),
                sql.SQL(", ").join(slot(c) for c in used),
            )
        else:
            query += sql.SQL("DEFAULT VALUES")
        names = [] if rel.key else list(rel.columns)
        query += sql.SQL(" RETURNING {}").format(sql.SQL(", ").join(select_list(rel, names)))
        found = conn.execute(query, tuple(param(c, values[c.name]) for c in used)).fetchall()
        (key, _, whole), *_ = converted(rel, names, found)
        if rel.key:
            return relations.encode_fid(self.source.ft.name, key)
        return relations.row_fid(self.source.ft.name, whole)

    def _next_key(self, conn: psycopg.Connection[Any], rel: Relation, col: Col) -> Any:
        from psycopg import sql

        if col.binding not in ("java.lang.Integer", "java.lang.Long", "java.lang.Short"):
            raise Invalid(f"Cannot generate a value for the key {col.name} of {rel.table}")
        row = conn.execute(
            sql.SQL("SELECT COALESCE(MAX({}), 0) + 1 FROM {}").format(
                sql.Identifier(col.name), sql.Identifier(rel.source.schema, rel.table)
            )
        ).fetchone()
        return int(row[0]) if row else 1

    def update(self, query: Query, changes: Mapping[str, Any]) -> int:
        from psycopg import sql

        with translated():
            conn, rel = self._begin()
            used = [rel.columns[n] for n in changes if n in rel.columns]
            if not used:
                return 0
            target = self._target(conn, rel, query)
            sets = sql.SQL(", ").join(
                sql.SQL("{} = {}").format(sql.Identifier(c.name), slot(c)) for c in used
            )
            cur = conn.execute(
                sql.SQL("UPDATE {} SET {} WHERE {}").format(
                    sql.Identifier(rel.source.schema, rel.table), sets, target.sql
                ),
                tuple(param(c, changes[c.name]) for c in used) + target.params,
            )
            return int(cur.rowcount)

    def delete(self, query: Query) -> int:
        from psycopg import sql

        with translated():
            conn, rel = self._begin()
            target = self._target(conn, rel, query)
            cur = conn.execute(
                sql.SQL("DELETE FROM {} WHERE {}").format(
                    sql.Identifier(rel.source.schema, rel.table), target.sql
                ),
                target.params,
            )
            return int(cur.rowcount)

    def _target(self, conn: psycopg.Connection[Any], rel: Relation, query: Query) -> Where:
        """The rows ``query`` selects: its SQL part when that is all of it, else the rows
        (by their physical id) that pass the Python part too."""
        from psycopg import sql

        plan = self.source.plan(rel, replace(query, sort=(), start=0, count=None))
        if plan.python is None and plan.fids is None:
            return plan.where
        names = (
            [c for c in rel.columns]
            if not rel.key
            else [a.name for a in self.source.schema.attributes if a.name in rel.columns]
        )
        picked = [sql.SQL("ctid::text"), *select_list(rel, names)]
        found = conn.execute(
            sql.SQL("SELECT {} FROM {} WHERE {}").format(
                sql.SQL(", ").join(picked), rel.source.relation(), plan.where.sql
            ),
            plan.where.params,
        ).fetchall()
        ctids = [r[0] for r in found]
        chosen = converted(rel, names, [r[1:] for r in found])
        test = None
        if plan.python is not None:
            from .select import feature_test

            test = feature_test(plan.python, self.source.schema.geometry)
        keep = []
        for ctid, (_key, values, whole) in zip(ctids, chosen, strict=True):
            if plan.fids is not None:
                fid = relations.row_fid(self.source.ft.name, whole)
                if fid not in plan.fids:
                    continue
            if test is None or test(values):
                keep.append(ctid)
        return Where(sql.SQL("ctid = ANY(%s::tid[])"), (keep,))

    # -- the end -----------------------------------------------------------------------------

    def commit(self) -> None:
        if not self._open:
            raise RuntimeError("the transaction is over (committed or discarded)")
        self._open = False
        if self._unit is not None:
            self._unit.leave(True)

    def discard(self) -> None:
        was_open, self._open = self._open, False
        if was_open and self._unit is not None:
            self._unit.leave(False)


def slot(col: Col) -> Any:
    from psycopg import sql

    if col.is_geometry:
        cast = "::geography" if col.typname == "geography" else ""
        return sql.SQL("ST_GeomFromWKB(%s, {}){}").format(
            sql.Literal(max(col.srid or 0, 0)), sql.SQL(cast)
        )
    return sql.SQL("%s")


def param(col: Col, value: Any) -> Any:
    if col.is_geometry:
        return geometry_to_db(col, value)
    return value_to_db(col, value)
