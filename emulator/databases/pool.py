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
    def connection(self, transaction: bool = False) -> Iterator[psycopg.Connection[Any]]:
        """A connection for the ``with`` block (see ``acquire``), returned to the pool
        afterwards (what it did not commit rolled back)."""
        conn = self.acquire(transaction)
        try:
            yield conn
        finally:
            self.release(conn)

    def acquire(self, transaction: bool = False) -> psycopg.Connection[Any]:
        """Borrow a connection (``release`` it); raises ``errors.Unavailable``. Without
        ``transaction`` each statement commits by itself (reads: no ``BEGIN`` and
        ``ROLLBACK`` round trips); with it, the statements are one transaction that the
        caller commits."""
        if self.closed:
            raise errors.Unavailable(errors.OBTAIN + "Data source is closed")
        if not self._slots.acquire(timeout=max(0.0, self.params.connection_timeout)):
            raise errors.exhausted()
        try:
            conn = self._take_idle() or self._connect()
        except BaseException:
            self._slots.release()
            raise
        if transaction:
            conn.autocommit = False
        return conn

    def release(self, conn: psycopg.Connection[Any]) -> None:
        """Give a borrowed connection back: rolled back and kept idle, or closed if broken."""
        try:
            if conn.closed or conn.broken:
                return
            try:
                conn.rollback()  # nothing sent when no transaction is open
                conn.autocommit = True
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

    def has_idle(self) -> bool:
        """Whether a connection waits in the pool (the database answered it lately)."""
        return bool(self._idle)

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
                autocommit=True,
            )
        except psycopg.OperationalError as exc:
            raise connect_error(p, exc) from None


def _alive(conn: psycopg.Connection[Any]) -> bool:
    """GeoTools' validation query (``select now()``) answers."""
    try:
        conn.execute("select now()")
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
