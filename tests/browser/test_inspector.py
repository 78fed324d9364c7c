"""The inspector page and the landing page in a real headless browser (Debian's Chromium,
driven through chromedriver). Skipped, saying why, where the browser is not installed."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest

from geoserver_emulator import Emulator

from .webdriver import Browser

ADMIN = ("admin", "geoserver")
SEED = {
    "seedRequest": {
        "name": "topp:states",
        "zoomStart": 0,
        "zoomStop": 8,
        "type": "seed",
        "threadCount": 1,
        "srs": {"number": 4326},
        "format": "image/png",
    }
}


@pytest.fixture
def served() -> Iterator[tuple[Emulator, str]]:
    with Emulator("stock") as emu, emu.serve(port=0) as url:
        yield emu, url


def reload_after(browser: Browser, css: str) -> None:
    """Click a button whose script reloads the page, and wait for the new page."""
    browser.script("window.__before = true")
    browser.click(css)
    browser.wait_for("return !window.__before && document.readyState === 'complete'")


def progress(browser: Browser) -> list[list[float]]:
    return browser.script(
        "return [...document.querySelectorAll('table.tasks progress')].map(p => [p.value, p.max])"
    )


def test_landing_page_links_to_the_inspector_and_rest(browser, served):
    emu, url = served
    browser.get(f"{url}/")
    assert browser.title() == "geoserver-emulator"
    links = browser.script("return [...document.querySelectorAll('a')].map(a => a.href)")
    assert f"{url}/rest" in links and f"{url}/__emulator/" in links
    browser.click("a[href$='/__emulator/']")
    browser.wait_for("return document.title === 'geoserver-emulator inspector'")


def test_catalog_styles_and_security(browser, served):
    emu, url = served
    browser.get(f"{url}/__emulator/")
    workspaces = browser.script(
        "return [...document.querySelectorAll('li.workspace > details > summary b')]"
        ".map(b => b.textContent)"
    )
    assert "topp" in workspaces and "ne" in workspaces
    tree = browser.text("#catalog")
    assert "states" in tree  # a layer of topp's store, inside the open workspace
    # a style's SLD, shown when its entry is opened
    browser.script("document.querySelector('li.style details').open = true")
    assert "StyledLayerDescriptor" in browser.text("li.style pre")
    assert browser.text("#catalog-mode") == "HIDE"
    assert "admin" in browser.text("table.users")
    assert browser.text("table.providers tbody tr td:nth-child(2)") == "default"
    assert "ROLE_ADMINISTRATOR" in browser.text("#security")


def test_seed_progress_moves_with_advance_and_drain(browser, served):
    emu, url = served
    r = httpx.post(f"{url}/gwc/rest/seed/topp:states.json", json=SEED, auth=ADMIN)
    assert r.status_code == 200
    browser.get(f"{url}/__emulator/")
    (before,) = progress(browser)
    browser.type("#seconds", "3")
    reload_after(browser, "#advance")
    assert browser.text("#now") == "3"
    (after,) = progress(browser)
    assert after[0] > (before[0] if before[1] > 1 else 0)
    assert after[0] < after[1]  # not finished yet
    reload_after(browser, "#drain")
    rows = browser.text("table.tasks")
    assert "DONE" in rows
    (done,) = progress(browser)
    assert done[0] == done[1]


def test_bad_advance_shows_the_error(browser, served):
    emu, url = served
    browser.get(f"{url}/__emulator/")
    browser.type("#seconds", "-5")
    browser.click("#advance")
    message = browser.wait_for("return document.getElementById('message').textContent")
    assert "non-negative" in message
    assert emu.clock.now() == 0


def test_journal_filter_and_bodies(browser, served):
    emu, url = served
    with httpx.Client(base_url=url, auth=ADMIN) as c:
        c.post("/rest/workspaces.json", json={"workspace": {"name": "seen"}})
        c.get("/rest/about/version.json")
        c.get("/rest/nosuch")
    browser.get(f"{url}/__emulator/")
    assert len(browser.find_all("table.journal tbody tr")) == 3
    browser.type("input[name=path]", "/rest/workspaces*")
    browser.type("input[name=method]", "POST")
    browser.script("window.__before = true")
    browser.click("#journal form button[type=submit]")
    browser.wait_for("return !window.__before && document.readyState === 'complete'")
    rows = browser.find_all("table.journal tbody tr")
    assert len(rows) == 1
    browser.script("document.querySelector('table.journal details').open = true")
    assert '"seen"' in browser.text("table.journal pre")
    # a bad filter is said, not a crash
    browser.get(f"{url}/__emulator/?status=abc")
    assert "status must be an HTTP status code" in browser.text("#filter-error")


def test_faults_and_coverage(browser, served):
    emu, url = served
    emu.faults.add("GET", "/rest/styles/**", status=503, times=2)
    httpx.get(f"{url}/rest/about/version.json", auth=ADMIN)
    browser.get(f"{url}/__emulator/")
    assert "/rest/styles/**" in browser.text("#faults")
    assert browser.text("#coverage-summary").startswith("1 of ")


def test_no_external_assets(browser, served):
    emu, url = served
    browser.get(f"{url}/__emulator/")
    origin = url.rsplit("/", 1)[0]
    resources = browser.script("return performance.getEntriesByType('resource').map(r => r.name)")
    assert all(r.startswith(origin) for r in resources)
    loaded = browser.script(
        "return [...document.querySelectorAll('img, script[src], link')]"
        ".map(e => e.getAttribute('src') || e.getAttribute('href'))"
    )
    assert all(u.startswith(("/geoserver/", "data:")) for u in loaded), loaded
