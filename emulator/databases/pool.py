"""``Pool``: a bounded pool of psycopg connections to one database, as GeoTools' DBCP pool
behaves for a JDBC store.

At most ``max connections`` are open at once; a caller waits at most ``Connection timeout``
seconds for one (then GeoServer's "pool error Timeout waiting for idle object"). A new
connection is made in the caller's thread, so a database that is down answers at once, as
the PostgreSQL driver's refusal does, instead of after the wait. Idle connections are kept
for ``Max connection idle time`` and checked (``validate connections``) before reuse, so the
pool recovers by itself when the database comes back. Every connection carries the statement
time limit (``statement_timeout``), so no statement runs unbounded, and reads and writes
instants in UTC (``TimeZone``: a timestamp without a zone is a UTC one).

psycopg-pool's pools were tried: their connections are made by a background worker that
retries, so a caller waits out the whole ``Connection timeout`` for a refused database, where
GeoServer answers at once.
"""

from __future__ import annotations

import threading
import time
from collections import deque
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from . import errors
from .params import ConnectionParams

if TYPE_CHECKING:
    import psycopg

CONNECT_TIMEOUT_CAP = 10
"""at most this many seconds to open one connection (libpq's ``connect_timeout``)"""


class Pool:
    """Connections to the database ``params`` names (see the module docstring)."""

    def __init__(self, params: ConnectionParams, statement_timeout: float) -> None:
        self.params = params
        self.statement_timeout = statement_timeout
        self._slots = threading.BoundedSemaphore(params.max_connections)
        self._idle: deque[tuple[float, psycopg.Connection[Any]]] = deque()
        self._lock = threading.Lock()
        self.closed = False

    @contextmanager
    def connection(self) -> Iterator[psycopg.Connection[Any]]:
        """A connection for the ``with`` block, in a transaction rolled back unless the
        block committed it; returned to the pool afterwards."""
        conn = self.acquire()
        try:
            yield conn
        finally:
            self.release(conn)

    def acquire(self) -> psycopg.Connection[Any]:
        """Borrow a connection (``release`` it); raises ``errors.Unavailable``."""
        if self.closed:
            raise errors.Unavailable(errors.OBTAIN + "Data source is closed")
        if not self._slots.acquire(timeout=max(0.0, self.params.connection_timeout)):
            raise errors.exhausted()
        try:
            return self._take_idle() or self._connect()
        except BaseException:
            self._slots.release()
            raise

    def release(self, conn: psycopg.Connection[Any]) -> None:
        """Give a borrowed connection back: rolled back and kept idle, or closed if broken."""
        try:
            if conn.closed or conn.broken:
                return
            try:
                conn.rollback()
            except Exception:
                conn.close()
                return
            with self._lock:
                if not self.closed:
                    self._idle.append((time.monotonic(), conn))
                    return
            conn.close()
        finally:
            self._slots.release()

    def close(self) -> None:
        """Close the idle connections; borrowed ones close when they are released."""
        with self._lock:
            self.closed = True
            idle = list(self._idle)
            self._idle.clear()
        for _, conn in idle:
            conn.close()

    def _take_idle(self) -> psycopg.Connection[Any] | None:
        now = time.monotonic()
        while True:
            with self._lock:
                if not self._idle:
                    return None
                since, conn = self._idle.pop()
            if now - since > self.params.max_idle_time or conn.closed or conn.broken:
                conn.close()
                continue
            if self.params.validate_connections and not _alive(conn):
                conn.close()
                continue
            return conn

    def _connect(self) -> psycopg.Connection[Any]:
        import psycopg

        p = self.params
        timeout_ms = max(1, int(self.statement_timeout * 1000))
        try:
            return psycopg.connect(
                host=p.host,
                port=p.port,
                dbname=p.database or None,
                user=p.user or None,
                password=p.passwd or None,
                connect_timeout=max(2, min(CONNECT_TIMEOUT_CAP, int(p.connection_timeout))),
                application_name="geoserver-emulator",
                options=f"-c statement_timeout={timeout_ms} -c TimeZone=UTC",
                sslmode="disable" if p.ssl_mode == "DISABLE" else "prefer",
            )
        except psycopg.OperationalError as exc:
            raise connect_error(p, exc) from None


def _alive(conn: psycopg.Connection[Any]) -> bool:
    """GeoTools' validation query (``select now()``) answers."""
    try:
        conn.execute("select now()")
        conn.rollback()
        return True
    except Exception:
        return False


def connect_error(params: ConnectionParams, exc: Exception) -> errors.Unavailable:
    """The refusal GeoServer's JDBC store reports for a connection that failed."""
    text = str(exc)
    if "refused" in text.lower() or "could not connect" in text.lower():
        return errors.refused(params.where)
    fatal = next(
        (line.strip() for line in text.splitlines() if "FATAL:" in line), text.splitlines()[0]
    )
    fatal = fatal[fatal.find("FATAL:") :] if "FATAL:" in fatal else fatal
    return errors.Unavailable(
        errors.OBTAIN + "Cannot create PoolableConnectionFactory (" + " ".join(fatal.split()) + ")"
    )
