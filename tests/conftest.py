"""Shared fixtures for the project's own tests: a fresh emulator and HTTP clients over it."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import httpx
import pytest
from hypothesis import settings

from geoserver_emulator import Emulator

# Hypothesis' per-example deadline is a timed assertion: on a shared or slow machine it fails
# tests whose code is right. Timings belong to benchmarks/, so the suite runs without it.
settings.register_profile("suite", deadline=None)
settings.load_profile("suite")

BASE = "http://localhost:8080/geoserver"
ADMIN = ("admin", "geoserver")


@pytest.fixture
def emu() -> Emulator:
    return Emulator("stock")


@pytest.fixture
def client_for(emu: Emulator) -> Iterator[Callable[..., httpx.Client]]:
    """Clients over ``emu`` (its WSGI callable over the ASGI app): ``client_for(auth=(u, p))``."""
    clients: list[tuple[httpx.Client, Emulator]] = []

    def make(
        auth: tuple[str, str] | None = ADMIN, emulator: Emulator | None = None
    ) -> httpx.Client:
        target = emulator or emu
        c = httpx.Client(
            transport=httpx.WSGITransport(app=target.wsgi_app), base_url=BASE, auth=auth
        )
        clients.append((c, target))
        return c

    yield make
    for c, target in clients:
        c.close()
        assert not target.internal_errors, "unexpected server errors:\n" + "\n".join(
            target.internal_errors
        )


@pytest.fixture
def client(client_for: Callable[..., httpx.Client]) -> httpx.Client:
    """An administrator's client."""
    return client_for()


@pytest.fixture
def anon(client_for: Callable[..., httpx.Client]) -> httpx.Client:
    """A client without credentials."""
    return client_for(auth=None)


# -- a throwaway PostgreSQL + PostGIS (tests/databases/, tests/examples/) ---------------


@pytest.fixture(scope="session")
def postgresql_proc(request: pytest.FixtureRequest) -> Iterator[object]:
    """pytest-postgresql's process fixture, overridden: one cluster per session (per xdist
    worker) that also runs when the tests run as root, with a PostGIS template; skips, saying
    why, where PostgreSQL or PostGIS is missing (``tests/pgcluster.py``)."""
    from .pgcluster import cluster, skip_reason

    pg_ctl, why = skip_reason(request.config)
    if pg_ctl is None:
        pytest.skip(why or "")
    yield from cluster(pg_ctl)
