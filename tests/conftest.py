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
