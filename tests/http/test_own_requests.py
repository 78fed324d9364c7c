"""The emulator's own requests are never journaled: the landing page, what a browser asks for
by itself (``/favicon.ico``), and what the inspector's page asks for (map previews, legends:
their ``Referer`` is the inspector). They move no step clock and take no injected fault, and
the coverage does not count them; a client's requests still are, whatever they carry."""

from __future__ import annotations

import httpx
import pytest

from geoserver_emulator import Emulator

BASE = "http://localhost:8080/geoserver"
INSPECTOR = f"{BASE}/__emulator/"
GETMAP = (
    "/wms?service=WMS&version=1.1.1&request=GetMap&layers=topp:states&styles="
    "&srs=EPSG:4326&bbox=-125,24,-66,50&width=64&height=32&format=image/png"
)


def _client(emu: Emulator) -> httpx.Client:
    return httpx.Client(
        transport=httpx.WSGITransport(app=emu.wsgi_app), base_url=BASE, auth=("admin", "geoserver")
    )


@pytest.mark.parametrize(
    "url",
    [
        "http://localhost:8080/favicon.ico",
        f"{BASE}/favicon.ico",
        f"{BASE}/apple-touch-icon.png",
        f"{BASE}/",
        BASE,
    ],
)
def test_the_browsers_own_requests_and_the_landing_page(url: str) -> None:
    emu = Emulator("stock", clock="step")
    with _client(emu) as c:
        c.get(url)
    assert len(emu.journal) == 0 and emu.clock.now() == 0


def test_what_the_inspector_asks_for_is_not_journaled_nor_faulted() -> None:
    emu = Emulator("stock", clock="step")
    emu.faults.add("GET", "/wms", status=503, times=1)
    with _client(emu) as c:
        own = c.get(GETMAP, headers={"Referer": INSPECTOR + "?path=/rest/**#catalog"})
        legend = c.get(
            "/wms?service=WMS&request=GetLegendGraphic&format=image/png&layer=topp:states",
            headers={"Referer": INSPECTOR},
        )
        assert own.status_code == 200 and own.headers["content-type"] == "image/png"
        assert legend.status_code == 200
        assert len(emu.journal) == 0 and emu.clock.now() == 0
        assert len(emu.faults) == 1  # still waiting for a client's request
        mine = c.get(GETMAP)  # the same request from a client
    assert mine.status_code == 503
    [entry] = emu.journal
    assert entry.path == "/wms" and entry.status == 503 and emu.clock.now() > 0


@pytest.mark.parametrize(
    ("method", "referer"),
    [
        ("POST", INSPECTOR),  # the inspector never writes outside the control plane
        ("GET", f"{BASE}/web/"),
        ("GET", "http://localhost:8080/elsewhere/__emulator/"),
        ("GET", f"{BASE}/__emulatorx/"),
    ],
)
def test_other_requests_are_journaled(method: str, referer: str) -> None:
    emu = Emulator("stock")
    with _client(emu) as c:
        c.request(method, "/rest/workspaces.json", headers={"Referer": referer})
    assert [(e.method, e.path) for e in emu.journal] == [(method, "/rest/workspaces.json")]


def test_the_coverage_counts_only_clients() -> None:
    emu = Emulator("stock")
    with _client(emu) as c:
        c.get("/rest/about/version.json")
        c.get("/favicon.ico")
        c.get(GETMAP, headers={"Referer": INSPECTOR})
        page = c.get("/__emulator/").text
    assert "1 of " in page and "reached no endpoint" not in page
