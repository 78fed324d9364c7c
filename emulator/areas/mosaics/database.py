"""A mosaic's granule index kept in PostGIS, as GeoServer's ImageMosaic keeps it when the
mosaic's ``datastore.properties`` names a PostGIS database (``SPI=…PostgisNGDataStoreFactory``
or ``dbtype=postgis``) that the emulator uses live (``databases/``: the mode and the hosts
decide, as for a data store; ``auto`` keeps the in-memory index when the database does not
answer).

One table per coverage of the mosaic, named as the coverage (ImageMosaic's type name), in
the properties' ``schema``, made as GeoTools' ``createSchema`` makes it when the first
granule goes in: a generated ``fid`` key, then the index schema's attributes (the
footprint geometry typed and in the granules' SRID, the location, the collectors'
attributes; ``bindings.stored`` says which types a database keeps). A table already there is
used as it is.

The table is the index: ``live`` reads the granules from it (their ids are the rows' keys,
so a granule a test inserts with psycopg is listed too), and ``write`` puts a change into
it: the granules a harvest added (an entry of the same location replaced first, as a
re-harvest does) and those a deletion removed, in the REST request's transaction
(committed with a 2xx answer). The in-memory index follows, as a mirror.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ...core.record import replace
from ...crs.envelope import Envelope
from ...databases import dialect, relations, rows
from ...databases.convert import geometry_to_db, value_from_db, value_to_db
from ...databases.errors import DatabaseError
from ...databases.params import ConnectionParams, read
from ...databases.service import attached, session, translated
from ...databases.units import held
from .model import Granule, Mosaic
from .sources import FileRef, locate

if TYPE_CHECKING:
    import psycopg

    from ...core.state import State
    from ...databases.pool import Pool

CORNERS = ("XMin", "YMin", "XMax", "YMax")
POSTGIS_SPI = "postgis"
"""what ``SPI`` names for GeoTools' PostGIS factories (``PostgisNGDataStoreFactory``)"""


def names_postgis(params: Mapping[str, str] | None) -> bool:
    """Whether a mosaic's ``datastore.properties`` names a PostGIS database."""
    if not params:
        return False
    spi = str(params.get("SPI", "")).lower()
    return POSTGIS_SPI in spi.rsplit(".", 1)[-1] or str(params.get("dbtype", "")).lower() in (
        "postgis",
        "postgisng",
    )


def index_pool(state: State, mosaic: Mosaic) -> tuple[Pool, ConnectionParams] | None:
    """The pool of the database keeping ``mosaic``'s index, None when it is kept in memory."""
    given = mosaic.indexer.datastore
    if not names_postgis(given):
        return None
    databases = attached(state)
    if databases is None:
        return None
    params = {**(given or {}), "dbtype": "postgis"}
    pool = databases.reach(("mosaic", mosaic.root), params)
    return None if pool is None else (pool, read(params))


def live(state: State, mosaic: Mosaic) -> Mosaic:
    """The mosaic with the granules its table holds now (a copy); the mosaic itself when its
    index is in memory."""
    found = index_pool(state, mosaic)
    if found is None:
        return mosaic
    pool, params = found
    granules: list[Granule] = []
    with session(pool) as conn:
        for coverage in mosaic.coverage_names():
            granules += _read(conn, params.schema, mosaic, coverage)
    next_id = max((g.id for g in granules), default=0) + 1
    return replace(mosaic, granules=granules, next_id=max(next_id, 1))


def _read(
    conn: psycopg.Connection[Any], schema: str, mosaic: Mosaic, coverage: str
) -> list[Granule]:
    from psycopg import sql

    rel = relations.describe_relation(conn, rows.Source(schema, table=coverage))
    if rel is None or not rel.key:
        return []
    geometry = mosaic.geometry_attribute(coverage)
    location = mosaic.location_attribute
    others = [
        a.name
        for a in mosaic.schema(coverage)
        if not a.is_geometry and a.name != location and a.name in rel.columns
    ]
    ident = sql.Identifier(geometry)
    picked = [
        sql.Identifier(rel.key[0]),
        *(
            sql.SQL(f"ST_{f}({{}}::geometry)").format(ident)
            for f in ("XMin", "YMin", "XMax", "YMax")
        ),
        sql.Identifier(location) if location in rel.columns else sql.SQL("NULL"),
        *(sql.Identifier(n) for n in others),
    ]
    found = conn.execute(
        sql.SQL("SELECT {} FROM {} ORDER BY {}").format(
            sql.SQL(", ").join(picked), sql.Identifier(schema, coverage), sql.Identifier(rel.key[0])
        )
    ).fetchall()
    root = FileRef(*mosaic.root.split(":", 1))
    out = []
    for fid, minx, miny, maxx, maxy, where, *values in found:
        box = Envelope(minx or 0.0, miny or 0.0, maxx or 0.0, maxy or 0.0)
        held_values = {n: value_from_db(v) for n, v in zip(others, values, strict=True)}
        text = str(where or "")
        out.append(Granule(int(fid), coverage, text, box, held_values, _file(root, text)))
    return out


def _file(root: FileRef, location: str) -> str | None:
    """The file a location names (relative to the mosaic's folder, or absolute)."""
    if not location:
        return None
    if location.startswith("/"):
        try:
            found = locate(location)
        except Exception:  # a path the emulator cannot name: no file to purge
            return None
        return found.key if isinstance(found, FileRef) else None
    return root.child(location).key


def write(state: State, before: Mosaic, after: Mosaic) -> None:
    """Put into the tables what turned ``before`` (as ``live`` read it) into ``after``: the
    granules gone are deleted, the new ones inserted (their ids become the rows' keys)."""
    found = index_pool(state, after)
    if found is None:
        return
    pool, params = found
    kept = {g.id for g in before.granules}
    now = {g.id for g in after.granules}
    gone = [g for g in before.granules if g.id not in now]
    added = [g for g in after.granules if g.id not in kept]
    if not gone and not added:
        return
    conn = held(state, pool)
    with translated():
        for coverage in after.coverage_names():
            ids = [g.id for g in gone if g.coverage == coverage]
            new = [g for g in added if g.coverage == coverage]
            if ids:
                _delete(conn, params.schema, coverage, ids)
            if new:
                _insert(conn, params.schema, after, coverage, new)
    after.next_id = max([after.next_id, *(g.id + 1 for g in after.granules)])


def _delete(conn: psycopg.Connection[Any], schema: str, coverage: str, ids: list[int]) -> None:
    from psycopg import sql

    rel = relations.describe_relation(conn, rows.Source(schema, table=coverage))
    if rel is None or not rel.key:
        return
    conn.execute(
        sql.SQL("DELETE FROM {} WHERE {} = ANY(%s)").format(
            sql.Identifier(schema, coverage), sql.Identifier(rel.key[0])
        ),
        (ids,),
    )


def _insert(
    conn: psycopg.Connection[Any], schema: str, mosaic: Mosaic, coverage: str, new: list[Granule]
) -> None:
    from psycopg import sql

    rel = _table(conn, schema, mosaic, coverage)
    geometry, location = mosaic.geometry_attribute(coverage), mosaic.location_attribute
    cols = [c for c in rel.columns.values() if c.name not in rel.key]
    replaced = [g.location for g in new]
    if location in rel.columns:  # a re-harvest replaces the entry of the same file
        conn.execute(
            sql.SQL("DELETE FROM {} WHERE {} = ANY(%s)").format(
                sql.Identifier(schema, coverage), sql.Identifier(location)
            ),
            (replaced,),
        )
    query = sql.SQL("INSERT INTO {} ({}) VALUES ({}) RETURNING {}").format(
        sql.Identifier(schema, coverage),
        sql.SQL(", ").join(sql.Identifier(c.name) for c in cols),
        sql.SQL(", ").join(
            sql.SQL("ST_GeomFromWKB(%s, {})").format(sql.Literal(max(c.srid or 0, 0)))
            if c.is_geometry
            else sql.SQL("%s")
            for c in cols
        ),
        sql.Identifier(rel.key[0]),
    )
    for granule in new:
        values = _row(granule, geometry, location)
        params = tuple(
            geometry_to_db(c, values.get(c.name))
            if c.is_geometry
            else value_to_db(c, values.get(c.name))
            for c in cols
        )
        row = conn.execute(query, params).fetchone()
        granule.id = int(row[0]) if row else granule.id


def _row(granule: Granule, geometry: str, location: str) -> dict[str, Any]:
    import shapely

    e = granule.envelope  # JTS.toGeometry's ring: from the lower left corner, up first
    ring = [(e.minx, e.miny), (e.minx, e.maxy), (e.maxx, e.maxy), (e.maxx, e.miny)]
    return {**granule.values, location: granule.location, geometry: shapely.Polygon(ring)}


def _table(
    conn: psycopg.Connection[Any], schema: str, mosaic: Mosaic, coverage: str
) -> relations.Relation:
    """The coverage's table, made as ``createSchema`` makes it when it is not there."""
    source = rows.Source(schema, table=coverage)
    rel = relations.describe_relation(conn, source)
    if rel is None:
        srid = dialect.srid_of(mosaic.crs)
        columns = [
            dialect.Column(a.name, a.binding, True, None, None) for a in mosaic.schema(coverage)
        ]
        dialect.create_schema(conn, schema, coverage, columns, srid)
        rel = relations.describe_relation(conn, source)
    if rel is None or not rel.key:
        raise DatabaseError(f"The granule index table {schema}.{coverage} has no primary key")
    return rel
