"""The inspector's live stamp, its pictures' markup and the seed progress history, over
plain HTTP (the browser tests: tests/browser)."""

from __future__ import annotations

import httpx

from geoserver_emulator import Emulator
from geoserver_emulator.core.progress import POINTS, ProgressHistory

ADMIN = ("admin", "geoserver")
SEED = {"seedRequest": {"name": "topp:states", "zoomStart": 0, "zoomStop": 8, "type": "seed",
        "threadCount": 1, "srs": {"number": 4326}, "format": "image/png"}}  # fmt: skip


def _client(emu: Emulator, auth: tuple[str, str] | None = ADMIN) -> httpx.Client:
    transport = httpx.WSGITransport(app=emu.wsgi_app)
    return httpx.Client(transport=transport, base_url="http://x/geoserver", auth=auth)


def test_the_stamp_moves_with_what_the_page_shows_and_only_then() -> None:
    emu = Emulator("stock")
    with _client(emu) as c, _client(emu, None) as anon:
        assert anon.get("/__emulator/inspector/stamp").status_code == 401

        def stamp() -> str:
            return str(c.get("/__emulator/inspector/stamp").json()["stamp"])

        first = stamp()
        assert stamp() == first and c.get("/__emulator/").status_code == 200
        assert f'data-stamp="{first}"' in c.get("/__emulator/").text
        seen = {first}
        c.get("/rest/about/version.json")  # the journal
        seen.add(stamp())
        c.post("/__emulator/clock/advance", params={"seconds": 1})  # the clock
        seen.add(stamp())
        emu.faults.add("GET", "/rest/**", status=500)  # the faults
        seen.add(stamp())
        c.post("/__emulator/reset")  # a start-over that leaves the figures as at the start
        seen.add(stamp())
        assert len(seen) == 5 and stamp() != first
        assert len(emu.journal) == 0


def test_the_page_shows_pictures_of_the_state() -> None:
    emu = Emulator("stock")
    with _client(emu) as c:
        assert c.post("/gwc/rest/seed/topp:states.json", json=SEED).status_code == 200
        for _ in range(3):
            c.post("/__emulator/clock/advance", params={"seconds": 1})
        page = c.get("/__emulator/").text
        assert page == c.get("/__emulator/").text  # deterministic
    assert 'alt="map of topp:states"' in page and "format=application%2Fopenlayers" in page
    assert 'alt="map of spearfish"' in page  # a global layer group
    assert "request=GetLegendGraphic" in page and "style=population" in page
    assert '<figure class="level" data-zoom="0">' in page
    assert page.count("<polyline") == 1
    assert 'id="live"' in page and '<link rel="icon" href="data:,">' in page


def test_progress_history_is_bounded_and_keeps_its_span() -> None:
    history = ProgressHistory()
    for t in range(1000):
        history.sample(float(t), [(1, t, 1000)])
    points = history.points(1)
    assert len(points) <= POINTS + 1
    assert points[0] == (0.0, 0, 1000) and points[-1] == (999.0, 999, 1000)
    history.sample(1000.0, [(1, 999, 1000)])  # nothing new: not noted
    assert history.points(1)[-1] == (999.0, 999, 1000)
    history.clear()
    assert history.points(1) == []
