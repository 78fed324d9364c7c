"""pytest fixtures for testing code against an emulated GeoServer. (Completed by the plugin issue.)"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from emulator import Emulator


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "geoserver_scenario(name): the scenario a test starts from")
    config.addinivalue_line("markers", "geoserver_profile(name): the fidelity profile, spec or geoserver")


def _marker_arg(request: pytest.FixtureRequest, name: str) -> str | None:
    marker = request.node.get_closest_marker(name)
    return None if marker is None else str(marker.args[0])


@pytest.fixture
def geoserver_emulator(request: pytest.FixtureRequest) -> Emulator:
    return Emulator(
        _marker_arg(request, "geoserver_scenario") or "stock",
        profile=_marker_arg(request, "geoserver_profile"),
    )


@pytest.fixture
def geoserver_asgi_app(geoserver_emulator: Emulator) -> Any:
    return geoserver_emulator.asgi_app


@pytest.fixture
def geoserver_wsgi_app(geoserver_emulator: Emulator) -> Any:
    return geoserver_emulator.wsgi_app


@pytest.fixture
def geoserver_url(geoserver_emulator: Emulator) -> Iterator[str]:
    from emulator.server import LiveServer

    server = LiveServer(geoserver_emulator.asgi_app).start()
    try:
        yield server.url(geoserver_emulator.context_path)
    finally:
        server.stop()
