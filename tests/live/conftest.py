"""The ``live`` fixture of this folder: start an emulator on a live server (uvicorn in a
thread) and get its base URL; every server is stopped at the test's end, its thread gone and
no unexpected server error left behind."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest

from geoserver_emulator import Emulator
from geoserver_emulator.http.server import LiveServer


@pytest.fixture
def live() -> Iterator[Callable[[Emulator], str]]:
    servers: list[tuple[LiveServer, Emulator]] = []

    def start(emu: Emulator) -> str:
        server = LiveServer(emu.asgi_app).start()
        servers.append((server, emu))
        return server.url(emu.context_path)

    yield start
    for server, emu in servers:
        server.stop()
        assert not server.thread.is_alive()
        assert not emu.internal_errors, emu.internal_errors
