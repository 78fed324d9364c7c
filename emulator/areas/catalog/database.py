"""Feature types of PostGIS stores whose database answers (``emulator/databases``).

What GeoServer's ``FeatureTypeController`` does with a JDBC store, done against the real
database: a POSTed feature type whose table does not exist is created (``createSchema``) in
the store's schema, from the attributes given; an existing table, view or SQL view
(``JDBC_VIRTUAL_TABLE``) is described; attributes, SRS and bounds come from the data where
the client left them out. The work runs in one database transaction, held by the request's
undo record (``core/rollback.py``): committed when the REST answer is 2xx, rolled back
otherwise, so a refused write leaves the database as it was.

A store whose database does not answer keeps the emulator's in-memory behaviour in ``auto``
mode (``prepare`` returns False); ``live`` mode answers GeoServer's connection error;
``memory`` mode never connects. Deleting a feature type or a store never drops a table.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

from ...crs.envelope import Envelope, to_lonlat
from ...databases import dialect, rows, virtual
from ...databases.params import read
from ...databases.service import translated
from ...databases.units import held
from .entities import Attribute, BBox, DataStore, FeatureType, Resource, Store, is_projected

if TYPE_CHECKING:
    import psycopg

    from ...core.state import State
    from ...databases.pool import Pool
    from ...databases.service import Databases

T = TypeVar("T")

EMPTY = (0.0, -1.0, 0.0, -1.0)
"""JTS's empty envelope (minx, maxx, miny, maxy): the bounds of a table with no geometry"""


def reach(databases: Databases, store: Store) -> Pool | None:
    """The pool of a PostGIS data store whose database answers (see the module docstring)."""
    if not isinstance(store, DataStore):
        return None
    return databases.reach((store.workspace, store.name), store.connection_parameters)


async def off_loop(work: Callable[[], T]) -> T:
    """Run blocking database work in a thread, so that the event loop serves the others."""
    return await asyncio.to_thread(work)


def prepare_sync(state: State, pool: Pool, store: Store, res: FeatureType, given: set[str]) -> None:
    """Create or describe the table behind ``res`` and fill what the client left out."""
    params = read(store.connection_parameters)
    native = res.native_name or res.name
    view = virtual.from_metadata(res.metadata)
    conn = held(state, pool)
    with translated():
        if view is not None:
            source = rows.Source(params.schema, view=view)
            columns = rows.view_columns(conn, source)
        else:
            info = dialect.describe(conn, params.schema, native, params.expose_primary_keys)
            if info is None:
                created = [_column(a, res) for a in res.attributes]
                dialect.create_schema(conn, params.schema, native, created, _srid(res))
                info = dialect.describe(conn, params.schema, native, params.expose_primary_keys)
                assert info is not None
            source = rows.Source(params.schema, table=native)
            columns = info.columns
        fill(res, given, columns, conn, source, params.estimated_extents)


def fill(
    res: FeatureType,
    given: set[str],
    columns: list[dialect.Column],
    conn: psycopg.Connection[Any],
    source: rows.Source,
    estimated: bool,
) -> None:
    """Attributes, SRS and bounds from the data, for the fields the client did not give."""
    geometry = next((c for c in columns if c.is_geometry), None)
    if "attributes" not in given or not res.attributes:
        res.attributes = [
            Attribute(c.name, 0 if c.nillable else 1, 1, c.nillable, c.binding, c.length)
            for c in columns
        ]
    srid = geometry.srid if geometry is not None and geometry.srid else None
    if "srs" not in given and srid:
        res.srs = f"EPSG:{srid}"
    if "native_crs" not in given and srid:
        res.native_crs = f"EPSG:{srid}"
    if "native_bbox" not in given or "latlon_bbox" not in given:
        native, latlon = bounds(conn, source, geometry, res.srs, estimated)
        if "native_bbox" not in given:
            res.native_bbox = native
        if "latlon_bbox" not in given:
            res.latlon_bbox = latlon


def bounds(
    conn: psycopg.Connection[Any],
    source: rows.Source,
    geometry: dialect.Column | None,
    srs: str | None,
    estimated: bool,
) -> tuple[BBox, BBox | None]:
    """(native, lat/lon) bounds of the data: the native ones in ``srs``, the lat/lon ones
    transformed where the emulator can (widened when empty, as GeoServer widens them)."""
    raw = None
    if geometry is not None:
        raw = rows.bounds(conn, source, geometry.name, estimated=estimated)
    if raw is None:
        minx, maxx, miny, maxy = EMPTY
        return BBox(minx, maxx, miny, maxy, srs), BBox(minx, maxx, miny, maxy, "EPSG:4326")
    native = BBox(raw[0], raw[2], raw[1], raw[3], srs)
    return native, latlon_of(native)


def latlon_of(native: BBox) -> BBox | None:
    """The lat/lon box of a native box (None where the emulator cannot transform its CRS)."""
    minx, maxx, miny, maxy = native.minx, native.maxx, native.miny, native.maxy
    if maxx < minx or maxy < miny:
        return BBox(minx, maxx, miny, maxy, "EPSG:4326")
    if maxx - minx == 0 or maxy - miny == 0:
        grow = 1.0 if is_projected(native.crs) else 0.0001
        minx, miny, maxx, maxy = minx - grow, miny - grow, maxx + grow, maxy + grow
    env = to_lonlat(Envelope(minx, miny, maxx, maxy), native.crs)
    return None if env is None else BBox(env.minx, env.maxx, env.miny, env.maxy, "EPSG:4326")


def recalculate_sync(pool: Pool, store: Store, res: FeatureType, which: set[str]) -> None:
    """``?recalculate=nativebbox,latlonbbox`` on a feature type of a reachable store."""
    params = read(store.connection_parameters)
    native = res.native_name or res.name
    view = virtual.from_metadata(res.metadata)
    with pool.connection() as conn, translated():
        if view is not None:
            source = rows.Source(params.schema, view=view)
            columns = rows.view_columns(conn, source)
        else:
            info = dialect.describe(conn, params.schema, native, params.expose_primary_keys)
            source = rows.Source(params.schema, table=native)
            columns = info.columns if info is not None else []
        geometry = next((c for c in columns if c.is_geometry), None)
        if "nativebbox" in which:
            res.native_bbox = bounds(conn, source, geometry, res.srs, params.estimated_extents)[0]
    if "latlonbbox" in which and res.native_bbox is not None:
        res.latlon_bbox = latlon_of(res.native_bbox)


def available_sync(pool: Pool, store: Store) -> list[tuple[str, bool]]:
    """The store's schema's tables and views: (name, has a geometry)."""
    params = read(store.connection_parameters)
    with pool.connection() as conn, translated():
        return dialect.list_types(conn, params.schema)


def check_metadata(metadata: Any) -> None:
    """Refuse (400) a ``JDBC_VIRTUAL_TABLE`` entry that does not read as an SQL view."""
    if isinstance(metadata, dict):
        virtual.from_metadata(metadata)


def _column(attr: Attribute, res: Resource) -> dialect.Column:
    binding = attr.binding or "java.lang.String"
    return dialect.Column(attr.name, binding, attr.nillable, attr.length, None)


def _srid(res: Resource) -> int:
    return dialect.srid_of(res.native_crs) if res.native_crs else dialect.srid_of(res.srs)
