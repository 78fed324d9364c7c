"""A PostGIS store over the session's throwaway cluster (``tests/pgcluster.py``): each test
gets its own database (pytest-postgresql's ``postgresql`` fixture: a fresh clone of the
PostGIS template) and an emulator with workspace ``ws`` and store ``pg`` pointing at it."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import httpx
import psycopg
import pytest

from geoserver_emulator import Emulator

BASE = "http://localhost:8080/geoserver"
ADMIN = ("admin", "geoserver")
STORE = "/rest/workspaces/ws/datastores/pg"


def params_of(conn: psycopg.Connection[Any], **extra: str) -> dict[str, str]:
    info = conn.info
    return {
        "dbtype": "postgis",
        "host": info.host,
        "port": str(info.port),
        "database": info.dbname,
        "user": info.user,
        "passwd": "",
        "schema": "public",
        **extra,
    }


def store_body(params: dict[str, str], name: str = "pg") -> dict[str, Any]:
    entries = [{"@key": k, "$": v} for k, v in params.items()]
    return {"dataStore": {"name": name, "connectionParameters": {"entry": entries}}}


@pytest.fixture
def pg(postgresql: psycopg.Connection[Any]) -> psycopg.Connection[Any]:
    """The test's own database (autocommit, so that what a test inserts is seen at once)."""
    postgresql.autocommit = True
    return postgresql


@pytest.fixture
def make_emu(pg: psycopg.Connection[Any]) -> Iterator[Callable[..., Emulator]]:
    made: list[Emulator] = []

    def make(params: dict[str, str] | None = None, **kwargs: Any) -> Emulator:
        emu = Emulator("empty", **kwargs)
        made.append(emu)
        with client_of(emu) as c:
            assert c.post("/rest/workspaces", json={"workspace": {"name": "ws"}}).status_code == 201
            r = c.post("/rest/workspaces/ws/datastores", json=store_body(params or params_of(pg)))
            assert r.status_code == 201, r.text
        return emu

    yield make
    for emu in made:
        assert not emu.internal_errors, "\n".join(emu.internal_errors)
        emu.close()


def client_of(emu: Emulator) -> httpx.Client:
    return httpx.Client(transport=httpx.WSGITransport(app=emu.wsgi_app), base_url=BASE, auth=ADMIN)


@pytest.fixture
def emu(make_emu: Callable[..., Emulator]) -> Emulator:
    return make_emu()


@pytest.fixture
def client(emu: Emulator) -> Iterator[httpx.Client]:
    with client_of(emu) as c:
        yield c
