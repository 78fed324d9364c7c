"""Real client libraries against a live emulator.

``geoserver-rest`` (gicait, ``geo.Geoserver``) and ``geoserver-restconfig`` (GeoNode,
``geoserver.catalog.Catalog``) speak HTTP through ``requests``, so they need a socket: one
uvicorn server per module and profile, and the emulator is reset before every test. Every
client test runs in both fidelity profiles; a test fails if any request hit an unexpected
server exception.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from geoserver_emulator import Emulator
from geoserver_emulator.http.server import LiveServer

STYLES = Path(__file__).resolve().parents[2] / "emulator" / "scenarios" / "empty" / "styles"


@pytest.fixture(scope="module", params=["spec", "geoserver"])
def live(request: pytest.FixtureRequest) -> Iterator[tuple[Emulator, str]]:
    """(emulator, base URL ``http://127.0.0.1:PORT/geoserver``) for the module."""
    emu = Emulator("stock", profile=request.param)
    server = LiveServer(emu.asgi_app).start()
    try:
        yield emu, server.url(emu.context_path)
    finally:
        server.stop()


@pytest.fixture
def emu(live: tuple[Emulator, str], monkeypatch: pytest.MonkeyPatch) -> Iterator[Emulator]:
    """The module's emulator, back at the stock state; fails the test on a server error."""
    emulator, _ = live
    emulator.reset()
    emulator.internal_errors.clear()
    # requests honours proxy variables; the emulator is local
    monkeypatch.setenv("NO_PROXY", "127.0.0.1,localhost")
    monkeypatch.setenv("no_proxy", "127.0.0.1,localhost")
    yield emulator
    assert not emulator.internal_errors, "server errors:\n" + "\n".join(emulator.internal_errors)


@pytest.fixture
def base_url(live: tuple[Emulator, str], emu: Emulator) -> str:
    return live[1]


@pytest.fixture
def sld() -> str:
    """A valid SLD 1.0 document (the stock ``point`` style)."""
    return (STYLES / "default_point.sld").read_text(encoding="utf-8")
