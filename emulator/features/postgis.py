"""The PostGIS source: a feature type of a JDBC store (``dbtype=postgis``) whose database the
emulator uses live, read and written in its table or SQL view, as GeoServer's JDBC store
(GeoTools' ``JDBCDataStore`` with the PostGIS dialect) does.

``provide`` is the provider (``resolver.PROVIDERS``): the store's database must answer in
the current mode (``databases.service.Databases.reach``: ``auto`` falls back to the memory
source when it does not, ``live`` answers GeoServer's connection error, ``memory`` never
connects). Nothing is cached across requests: every read runs its statements, so rows a test
inserts between two requests are seen by the second.

A ``Query`` becomes one statement: its ids (``<type>.<key>``, ``relations.decode_fid``), its
bbox (``&&`` with ``Loose bbox``, else ``ST_Intersects``) and its filter as far as it
compiles (``databases.filtersql``), its sort (ascending with empty values last, descending
first; then the key, for a stable order) and its page (``LIMIT``/``OFFSET``). What does not
compile is evaluated in Python over the rows SQL selected, which are then paged in Python.
``Query.params`` are the request's ``viewparams`` for an SQL view (validated, or refused
before any SQL runs). Writes: ``postgis_writes.py``.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from ..core.record import replace
from ..databases import filtersql, relations, rows, virtual
from ..databases import where as sqlwhere
from ..databases.convert import value_from_db
from ..databases.fetch import fetch, order_of
from ..databases.params import ConnectionParams, is_postgis, read
from ..databases.relations import Relation
from ..databases.service import attached, session
from ..databases.where import Where
from ..filters.tree import Filter
from . import select
from .model import GEOMETRY_PACKAGES, Attribute, Feature, make_feature
from .query import Bounds, Query, Schema, TypeRef

if TYPE_CHECKING:
    import psycopg

    from ..core.state import State
    from ..databases.pool import Pool
    from ..databases.service import Databases
    from .postgis_writes import PostgisTransaction


def provide(state: State, ft: TypeRef) -> PostgisSource | None:
    """The provider of feature types of PostGIS stores whose database is used live."""
    try:
        store = state.catalog.stores.get((ft.workspace, ft.store))
    except AttributeError:
        return None
    found: Mapping[str, str] | None = getattr(store, "connection_parameters", None)
    if not found or not is_postgis(found):
        return None
    databases = attached(state)
    if databases is None:
        return None
    pool = databases.reach((ft.workspace, ft.store), found)
    if pool is None:
        return None
    return PostgisSource(state, databases, pool, read(found), ft)


class PostgisSource:
    """A ``FeatureSource`` over a table or SQL view (see the module docstring)."""

    def __init__(
        self,
        state: State,
        databases: Databases,
        pool: Pool,
        params: ConnectionParams,
        ft: TypeRef,
    ) -> None:
        self.state = state
        self.databases = databases
        self.pool = pool
        self.params = params
        self.ft = ft
        metadata: Mapping[str, Any] = getattr(ft, "metadata", None) or {}
        self.view = virtual.from_metadata(metadata)
        self.native = ft.native_name or ft.name
        self._relations: dict[tuple[tuple[str, str], ...], Relation] = {}
        self._schema: Schema | None = None

    # -- what it is --------------------------------------------------------------------------

    def source(self, values: Mapping[str, str] | None = None) -> rows.Source:
        if self.view is not None:
            return rows.Source(self.params.schema, view=self.view, values=dict(values or {}))
        return rows.Source(self.params.schema, table=self.native)

    def relation(
        self, conn: psycopg.Connection[Any], values: Mapping[str, str] | None = None
    ) -> Relation:
        """The table or view (described once per source and parameter values); a table that
        is not there is GeoServer's ``relation does not exist`` error."""
        key = tuple(sorted((values or {}).items()))
        found = self._relations.get(key)
        if found is None:
            described = relations.describe_relation(conn, self.source(values))
            if described is None:
                from ..databases.errors import DatabaseError

                raise DatabaseError(
                    f'ERROR: relation "{self.params.schema}.{self.native}" does not exist'
                )
            found = self._relations[key] = described
        return found

    @property
    def schema(self) -> Schema:
        if self._schema is None:
            self._schema = self._configured() or self._described()
        return self._schema

    def _configured(self) -> Schema | None:
        attrs = tuple(
            Attribute(a.name, a.binding or "java.lang.String", a.nillable)
            for a in self.ft.attributes
        )
        if not attrs:
            return None
        geometry = next((a.name for a in attrs if a.binding.startswith(GEOMETRY_PACKAGES)), None)
        return Schema(attrs, geometry, self.ft.srs or "EPSG:4326")

    def _described(self) -> Schema:
        with session(self.pool) as conn:
            rel = self.relation(conn)
        hidden = set() if self.params.expose_primary_keys else set(rel.key)
        attrs = tuple(
            Attribute(c.name, c.binding) for c in rel.columns.values() if c.name not in hidden
        )
        geometry = next((a.name for a in attrs if a.binding.startswith(GEOMETRY_PACKAGES)), None)
        srid = rel.columns[geometry].srid if geometry else None
        srs = self.ft.srs or (f"EPSG:{srid}" if srid else "EPSG:4326")
        return Schema(attrs, geometry, srs)

    def fid_names(self) -> list[str]:
        return [self.ft.name, self.native]

    # -- reading -----------------------------------------------------------------------------

    def count(self, query: Query) -> int:
        with session(self.pool) as conn:
            rel = self.relation(conn, query.params)
            plan = self.plan(rel, query)
            if plan.python is None and plan.fids is None:
                return rows.count(conn, rel.source, plan.where)
            return len(self._select(conn, rel, replace(query, sort=(), start=0, count=None)))

    def read(self, query: Query) -> Iterator[Feature]:
        with session(self.pool) as conn:
            rel = self.relation(conn, query.params)
            found = self._select(conn, rel, query)
        names = query.properties
        if names is None:
            return iter([make_feature(fid, props) for fid, props in found])
        return iter([make_feature(fid, {n: props.get(n) for n in names}) for fid, props in found])

    def _select(
        self, conn: psycopg.Connection[Any], rel: Relation, query: Query
    ) -> list[tuple[str, dict[str, Any]]]:
        """(fid, properties) of the rows ``query`` selects, sorted and paged."""
        plan = self.plan(rel, query)
        in_sql = plan.python is None and plan.fids is None
        names = self._wanted(rel, query, in_sql)
        raw = fetch(
            conn,
            rel,
            names,
            plan.where,
            order_of(rel, query.sort),
            query.count if in_sql else None,
            query.start if in_sql else 0,
        )
        out = [(self._fid(rel, key, whole), values) for key, values, whole in raw]
        if not rel.key:  # the whole row was read for its id: keep the attributes
            kept = [a for a in names if a in {b.name for b in self.schema.attributes}]
            out = [(fid, {a: values[a] for a in kept}) for fid, values in out]
        if plan.fids is not None:
            out = [(fid, values) for fid, values in out if fid in plan.fids]
        if plan.python is not None:
            test = select.feature_test(plan.python, self.schema.geometry)
            if test is not None:
                out = [(fid, values) for fid, values in out if test(values)]
        if not in_sql:
            end = None if query.count is None else query.start + query.count
            out = out[query.start : end]
        return out

    def _wanted(self, rel: Relation, query: Query, in_sql: bool) -> list[str]:
        """The columns to read: every attribute (a filter left to Python reads any; a keyless
        id is made of the whole row), else the properties asked for."""
        attrs = [a.name for a in self.schema.attributes if a.name in rel.columns]
        if not rel.key:
            return [c for c in rel.columns if c not in rel.key]
        if query.properties is None or not in_sql:
            return attrs
        wanted = set(query.properties)
        return [a for a in attrs if a in wanted]

    def _fid(self, rel: Relation, key: list[Any], whole: tuple[Any, ...]) -> str:
        if rel.key:
            return relations.encode_fid(self.ft.name, key)
        return relations.row_fid(self.ft.name, whole)

    def plan(self, rel: Relation, query: Query) -> Plan:
        """What SQL answers of ``query`` and what is left for Python."""
        parts: list[Where] = []
        fids: set[str] | None = None
        if query.fids is not None:
            if rel.key:
                parts.append(self._by_ids(rel, query.fids))
            else:
                fids = set(query.fids)
        geometry = self.schema.geometry
        column = rel.columns.get(geometry) if geometry else None
        if query.bbox is not None:
            if column is None:
                parts.append(Where(_sql().SQL("FALSE")))
            else:
                srid = column.srid or 0
                loose = self.params.loose_bbox
                minx, miny, maxx, maxy = query.bbox
                parts.append(sqlwhere.bbox(column.name, minx, miny, maxx, maxy, srid, loose))
        python = None
        if query.filter is not None and not query.filter.includes_all:
            compiled, rest = filtersql.split(
                query.filter.ast, rel.columns, geometry, self.params.loose_bbox
            )
            if compiled is not None:
                parts.append(compiled)
            python = None if rest is None else Filter(node=rest)
        return Plan(sqlwhere.all_of(*parts), python, fids)

    def _by_ids(self, rel: Relation, fids: Sequence[str]) -> Where:
        keys = [k for k in (relations.decode_fid(self.fid_names(), rel, f) for f in fids) if k]
        if not keys:
            return Where(_sql().SQL("FALSE"))
        if len(rel.key) == 1:
            return sqlwhere.in_(rel.key[0], [k[0] for k in keys])
        return sqlwhere.any_of(
            *(
                sqlwhere.all_of(
                    *(sqlwhere.compare(c, "=", v) for c, v in zip(rel.key, k, strict=True))
                )
                for k in keys
            )
        )

    def bounds(self) -> Bounds | None:
        geometry = self.schema.geometry
        if geometry is None:
            return None
        with session(self.pool) as conn:
            rel = self.relation(conn)
            if geometry not in rel.columns:
                return None
            return rows.bounds(conn, rel.source, geometry)

    def values(self, attribute: str) -> list[Any]:
        from psycopg import sql

        with session(self.pool) as conn:
            rel = self.relation(conn)
            if attribute not in rel.columns or rel.columns[attribute].is_geometry:
                return []
            ident = sql.Identifier(attribute)
            query = sql.SQL("SELECT DISTINCT {} FROM {} WHERE {} IS NOT NULL ORDER BY {}").format(
                ident, rel.source.relation(), ident, ident
            )
            return [value_from_db(r[0]) for r in conn.execute(query, ()).fetchall()]

    def transaction(self) -> PostgisTransaction:
        from .postgis_writes import PostgisTransaction

        return PostgisTransaction(self)


class Plan:
    """A query's ``where`` for SQL, its filter left for Python (None: none), and the ids
    to keep in Python (a relation without a key; None: any)."""

    __slots__ = ("fids", "python", "where")

    def __init__(self, where: Where, python: Filter | None, fids: set[str] | None) -> None:
        self.where = where
        self.python = python
        self.fids = fids


def _sql() -> Any:
    from psycopg import sql

    return sql
