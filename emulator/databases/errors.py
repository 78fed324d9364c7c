"""What a database store's failures answer, in GeoServer's words.

GeoServer's JDBC stores surface a failed connection as GeoTools' ``RuntimeException("Unable
to obtain connection: " + cause)`` (a REST 500 whose body is that text), the PostgreSQL
driver's refusal reading ``Connection to HOST:PORT refused. Check that the hostname and port
are correct and that the postmaster is accepting TCP/IP connections.``; an exhausted pool
(DBCP) ``Cannot get a connection, pool error Timeout waiting for idle object``; a statement
past its time ``ERROR: canceling statement due to statement timeout``.

    ServerError (500)
    └── DatabaseError              a statement failed (its PostgreSQL message)
        ├── StatementTimeout       past the statement time limit
        └── Unavailable            no connection: refused, not allowed
            └── Exhausted          every pooled connection busy past the wait limit
"""

from __future__ import annotations

from ..core.errors import ServerError

OBTAIN = "Unable to obtain connection: "
REFUSED = (
    "Connection to {where} refused. Check that the hostname and port are correct and that"
    " the postmaster is accepting TCP/IP connections."
)
POOL_EXHAUSTED = "Cannot get a connection, pool error Timeout waiting for idle object"
TIMEOUT = "ERROR: canceling statement due to statement timeout"


class DatabaseError(ServerError):
    """A statement the database refused or could not finish."""

    message = "Error occurred accessing the database"


class StatementTimeout(DatabaseError):
    message = TIMEOUT


class Unavailable(DatabaseError):
    """No connection could be had (the database is down, not allowed, or the pool is full)."""

    message = OBTAIN + "Cannot create PoolableConnectionFactory"


class Exhausted(Unavailable):
    """Every connection of the pool stayed busy past ``Connection timeout``: the database
    answers, so ``auto`` mode does not fall back to memory."""

    message = OBTAIN + POOL_EXHAUSTED


def refused(where: str) -> Unavailable:
    return Unavailable(
        OBTAIN + "Cannot create PoolableConnectionFactory (" + REFUSED.format(where=where) + ")"
    )


def exhausted() -> Exhausted:
    return Exhausted(OBTAIN + POOL_EXHAUSTED)
