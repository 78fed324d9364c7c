"""``Databases``: an emulator's database connections and what it decided for each store.

One per ``Emulator`` (``emu.databases``): the policy (mode and allowed hosts), one ``Pool``
per database a store names (stores naming the same host, port, database and user share it),
and, per store, the back end last used (``postgis`` or ``memory``) for the inspector and the
journal. Nothing here is part of the state: a reset keeps the pools (the databases are
outside the emulator), ``close()`` closes them.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from . import errors
from .params import DEFAULT_STATEMENT_TIMEOUT, ConnectionParams, is_postgis, read
from .policy import Policy

if TYPE_CHECKING:
    import psycopg

    from ..core.state import State
    from .pool import Pool
    from .units import Unit

POSTGIS, MEMORY = "postgis", "memory"
LINK = "_databases"
"""where a state keeps the way to its emulator's ``Databases`` (in its ``__dict__``: not a
store, never pickled with the state)"""


class Databases:
    """The database side of one emulator (see the module docstring).

    Parameters:
        policy: the mode (``auto``, ``live``, ``memory``) and the allowed hosts.
        statement_timeout: seconds any statement may run (``docs/databases.md``).
    """

    def __init__(
        self, policy: Policy | None = None, statement_timeout: float = DEFAULT_STATEMENT_TIMEOUT
    ) -> None:
        self.policy = policy or Policy()
        self.statement_timeout = statement_timeout
        self._pools: dict[tuple[Any, ...], Pool] = {}
        self._lock = threading.Lock()
        self.backends: dict[tuple[str, str], str] = {}
        """(workspace, store) → ``postgis`` or ``memory``: what the store last used"""
        self.events: list[str] = []
        """notes for the journal of the request under way (``take_events``)"""
        self.units: dict[tuple[int, int], Unit] = {}
        """open database transactions shared by one request's writes (``units.py``)"""
        self._watch = threading.local()

    @property
    def mode(self) -> str:
        return self.policy.mode

    def pool(self, params: ConnectionParams) -> Pool:
        """The pool for ``params``' database (made on first use)."""
        from .pool import Pool

        key = (*params.key, params.max_connections, params.connection_timeout)
        with self._lock:
            found = self._pools.get(key)
            if found is None or found.closed:
                found = self._pools[key] = Pool(params, self.statement_timeout)
            return found

    def reach(
        self, store: tuple[str, str], connection_parameters: Mapping[str, str]
    ) -> Pool | None:
        """The pool of a PostGIS store whose database answers, else None (``auto``: keep
        the in-memory tables; ``memory``: never connect). In ``live`` mode an unreachable
        database raises ``errors.Unavailable`` (what GeoServer reports) instead."""
        if not is_postgis(connection_parameters):
            return None
        if self.mode == "memory":
            self._used(store, MEMORY)
            return None
        params = read(connection_parameters)
        try:
            if not self.policy.may_contact(params.host):
                raise errors.refused(params.where)
            pool = self.pool(params)
            if not pool.has_idle():  # answers? (an idle connection did: it is checked
                pool.release(pool.acquire())  # when next borrowed, as every borrow is)
        except errors.Exhausted:
            self._used(store, POSTGIS)
            raise  # it answers, but is busy: GeoServer's error in every mode
        except errors.Unavailable:
            if self.mode == "live":
                self._used(store, POSTGIS)
                raise
            self._used(store, MEMORY)
            return None
        self._used(store, POSTGIS)
        return pool

    @contextmanager
    def watched(self) -> Iterator[dict[str, str]]:
        """The stores reached by the work of the ``with`` block on this thread, as the
        journal notes them (``ws:store`` → ``postgis`` or ``memory``; mosaics' index
        databases left out)."""
        notes: dict[str, str] = {}
        previous = getattr(self._watch, "notes", None)
        self._watch.notes = notes
        try:
            yield notes
        finally:
            self._watch.notes = previous

    def _used(self, store: tuple[str, str], backend: str) -> None:
        notes = getattr(self._watch, "notes", None)
        if notes is not None and store[0] != "mosaic":
            notes[f"{store[0]}:{store[1]}"] = backend
        if self.backends.get(store) != backend:
            self.events.append(f"store {store[0]}:{store[1]} uses {backend}")
        self.backends[store] = backend

    def take_events(self) -> list[str]:
        out, self.events = self.events, []
        return out

    def close(self) -> None:
        with self._lock:
            pools = list(self._pools.values())
            self._pools.clear()
        for pool in pools:
            pool.close()


def attach(state: State, get: Callable[[], Databases]) -> None:
    """Give ``state`` the way to its emulator's databases (the emulator calls this for each
    state it runs on), so that the layers below the root reach them through the state."""
    state.__dict__[LINK] = get


def attached(state: State) -> Databases | None:
    """The databases of the emulator running on ``state``; None for a state no emulator
    runs on (one being built, one in a test of its own)."""
    get: Callable[[], Databases] | None = state.__dict__.get(LINK)
    return None if get is None else get()


@contextmanager
def session(pool: Pool, transaction: bool = False) -> Iterator[psycopg.Connection[Any]]:
    """A connection whose failures are GeoServer's errors (``errors``): each statement on
    its own (reads), or with ``transaction`` one transaction rolled back at the end unless
    committed inside."""
    with pool.connection(transaction) as conn, translated():
        yield conn


@contextmanager
def translated() -> Iterator[None]:
    """psycopg's exceptions as the domain's: a statement past its time, a connection lost
    mid-request, any other refusal (with PostgreSQL's message)."""
    import psycopg

    try:
        yield
    except psycopg.errors.QueryCanceled:
        raise errors.StatementTimeout() from None
    except psycopg.OperationalError:
        raise errors.DatabaseError("An I/O error occurred while sending to the backend.") from None
    except psycopg.Error as exc:
        primary = exc.diag.message_primary or str(exc).splitlines()[0]
        raise errors.DatabaseError(f"ERROR: {primary}") from None
