"""``Unit``: one database transaction shared by the feature transactions of one request on
one database, so that a WFS Transaction writing to several tables of a store commits or
rolls back all of them together.

Each feature transaction ``join``s the unit of its pool (``Databases.unit``), writes through
its connection, and ``leave``s it: the last one to leave with success commits, the first
to leave with failure rolls back (the others then find the unit over). The request's undo
record (``core/rollback.py``) holds ``abort`` as a safety net: a unit still open when the
request ends is rolled back and its connection goes back to the pool.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..core.rollback import running
from .service import translated

if TYPE_CHECKING:
    import psycopg

    from ..core.state import State
    from .pool import Pool
    from .service import Databases


class Unit:
    """An open transaction on one connection (see the module docstring)."""

    def __init__(self, pool: Pool, registry: dict[tuple[int, int], Unit] | None, key: Any):
        self.pool = pool
        self.conn: psycopg.Connection[Any] = pool.acquire(transaction=True)
        self.users = 0
        self.over = False
        self._registry = registry
        self._key = key

    def join(self) -> psycopg.Connection[Any]:
        if self.over:
            raise RuntimeError("the database transaction is over")
        self.users += 1
        return self.conn

    def leave(self, ok: bool) -> None:
        """One user is done: commit when it was the last and all went well, roll back at
        the first failure."""
        if self.over:
            return
        if not ok:
            self.abort()
            return
        self.users -= 1
        if self.users > 0:
            return
        try:
            with translated():
                self.conn.commit()
        finally:
            self._end()

    def abort(self) -> None:
        """Roll back (when still open) and give the connection back."""
        if not self.over:
            self._end()  # the pool rolls back what is not committed

    def _end(self) -> None:
        self.over = True
        if self._registry is not None:
            self._registry.pop(self._key, None)
        self.pool.release(self.conn)


def unit(databases: Databases, pool: Pool, owner: object | None) -> Unit:
    """The open unit of ``owner`` (a request's undo record) on ``pool``, made on first use;
    without an owner, a unit of its own."""
    if owner is None:
        return Unit(pool, None, None)
    key = (id(owner), id(pool))
    found = databases.units.get(key)
    if found is None or found.over:
        found = databases.units[key] = Unit(pool, databases.units, key)
        hold = getattr(owner, "on_outcome", None)
        if hold is not None:
            hold(found.abort, found.abort)
    return found


def held(state: State, pool: Pool) -> psycopg.Connection[Any]:
    """A connection in a transaction that ends with the REST write under way on ``state``:
    committed with a 2xx answer, rolled back otherwise (``core/rollback.py``), so that a
    refused write leaves the database as it was."""
    record = running(state)
    if record is None:
        raise RuntimeError("database writes run inside a REST write")
    conn = pool.acquire(transaction=True)

    def commit() -> None:
        try:
            with translated():
                conn.commit()
        finally:
            pool.release(conn)

    def undo() -> None:
        pool.release(conn)  # rolls back

    record.on_outcome(commit, undo)
    return conn
