"""The inspector in a real browser: it keeps itself current without losing the reader's
place, its journal wraps (nothing falls off at 1024 and 1280 px, checked on screenshots),
layers and groups have map previews, styles legends, tile layers their cached tiles per zoom
level, seed tasks their progress over time; and nothing it asks for is journaled."""

from __future__ import annotations

import importlib.util
import io
import time
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import httpx
import pytest
from PIL import Image

from geoserver_emulator import Emulator

from .test_inspector import ADMIN, SEED
from .webdriver import Browser


def _uploads() -> ModuleType:
    """The upload tests' file makers (``tests/areas/uploads/conftest.py``)."""
    path = Path(__file__).resolve().parents[1] / "areas" / "uploads" / "conftest.py"
    spec = importlib.util.spec_from_file_location("upload_files", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


LONG = "/rest/workspaces/" + "a-very-long-segment-" * 30 + ".json"


@pytest.fixture
def served() -> Iterator[tuple[Emulator, str]]:
    with Emulator("stock") as emu, emu.serve(port=0) as url:
        yield emu, url


def _width(page: Browser, width: int) -> None:
    """Make the page (``innerWidth``) exactly ``width`` pixels wide."""
    page.resize(width, 900)
    inner = page.script("return window.innerWidth")
    if inner != width:
        page.resize(2 * width - inner, 900)
    assert page.script("return window.innerWidth") == width


def _load_all_images(browser: Browser) -> int:
    """Make every lazy image load now; wait until all are done; how many loaded."""
    browser.script(
        "document.querySelectorAll('img[loading=lazy]').forEach(i => i.loading = 'eager')"
    )
    browser.wait_for("return [...document.images].every(i => i.complete)", timeout=60)
    return int(browser.script("return [...document.images].filter(i => i.naturalWidth > 0).length"))


def _inked(png: bytes) -> float:
    """The share of pixels that are not the page's white or near-white."""
    histogram = Image.open(io.BytesIO(png)).convert("L").histogram()
    return sum(histogram[:235]) / sum(histogram)


def test_nothing_the_inspector_asks_for_is_journaled(browser, served):
    emu, url = served
    browser.get(f"{url}/__emulator/")
    assert _load_all_images(browser) > 10  # previews and legends came from the WMS
    names = browser.script("return performance.getEntriesByType('resource').map(r => r.name)")
    assert any("request=GetMap" in n for n in names)
    assert any("request=GetLegendGraphic" in n for n in names)
    browser.get(f"{url}/")  # the landing page too, and whatever the browser asks for itself
    assert len(emu.journal) == 0
    httpx.get(f"{url}/rest/about/version.json", auth=ADMIN)
    assert [e.path for e in emu.journal] == ["/rest/about/version.json"]


def test_previews_legends_and_links(browser, served):
    """A store uploaded with features: its layer's preview draws them (the stock layers hold
    no features, so their previews are empty maps)."""
    emu, url = served
    files = _uploads()
    rows = [(f"p{i}", 1, 1.0, "20200101", (float(i % 4) * 2, float(i // 4) * 2)) for i in range(16)]
    zipped = files.make_zip(files.shapefile_files("blocks", kind="polygon", records=rows))
    r = httpx.put(f"{url}/rest/workspaces/sf/datastores/blocks/file.shp", content=zipped,
                  headers={"Content-Type": "application/zip"}, auth=ADMIN)  # fmt: skip
    assert r.status_code == 201, r.text
    emu.journal.clear()
    _width(browser, 1280)
    browser.get(f"{url}/__emulator/")
    _load_all_images(browser)
    store = "details[data-key='store-sf-blocks']"
    browser.script(f'document.querySelector("{store}").open = true')
    img = "li.layer img[alt='map of sf:blocks']"
    browser.script(f'document.querySelector("{img}").scrollIntoView()')
    assert _inked(browser.element_screenshot(img)) > 0.2  # the polygons are drawn
    links = browser.script(
        f"return [...document.querySelector(\"{img}\").closest('li').querySelectorAll('a')]"
        ".map(a => a.href)"
    )
    assert any("width=768" in h and "format=image%2Fpng" in h for h in links)
    assert any("format=application%2Fopenlayers" in h for h in links)
    group = "li.group img[alt='map of spearfish']"
    assert browser.script(f'return document.querySelector("{group}").naturalWidth') > 0
    legend = "li.style details[data-key='style-population'] img.legend"
    browser.script(f'document.querySelector("{legend}").scrollIntoView()')
    assert browser.script(f'return document.querySelector("{legend}").naturalWidth') > 0
    assert _inked(browser.element_screenshot(legend)) > 0.05
    assert len(emu.journal) == 0  # none of it journaled
    assert httpx.get(links[-1], auth=ADMIN).headers["content-type"].startswith("text/html")


def test_tiles_per_zoom_and_progress_over_time(browser, served):
    emu, url = served
    r = httpx.post(f"{url}/gwc/rest/seed/topp:states.json", json=SEED, auth=ADMIN)
    assert r.status_code == 200
    for _ in range(3):
        httpx.post(f"{url}/__emulator/clock/advance", params={"seconds": 2}, auth=ADMIN)
    browser.get(f"{url}/__emulator/")
    points = browser.script(
        "return document.querySelector('table.tasks polyline').getAttribute('points')"
    )
    assert len(points.split()) >= 3  # a sample per clock move
    levels = browser.script(
        "return [...document.querySelectorAll('#tiles figure.level')].map(f => f.dataset.zoom)"
    )
    assert levels and levels[0] == "0"
    caption = browser.text("#tiles figure.level[data-zoom='0'] figcaption")
    assert caption.startswith("z0: ")


def test_live_updates_keep_the_readers_place(browser, served):
    emu, url = served
    _width(browser, 1024)
    with httpx.Client(base_url=url, auth=ADMIN) as c:
        for n in range(12):
            c.post("/rest/workspaces.json", json={"workspace": {"name": f"w{n}"}})
    browser.get(f"{url}/__emulator/")
    assert browser.script("return document.getElementById('live').checked")
    browser.script("document.querySelector('table.journal details').open = true")
    browser.script("document.getElementById('journal').scrollIntoView()")
    top = browser.script("return document.getElementById('journal').getBoundingClientRect().top")
    httpx.get(f"{url}/rest/about/version.json", auth=ADMIN)
    browser.wait_for("return document.querySelectorAll('table.journal tbody tr').length === 13")
    assert browser.script("return document.querySelector('table.journal details').open")
    after = browser.script("return document.getElementById('journal').getBoundingClientRect().top")
    assert abs(after - top) <= 2  # the section the reader looks at did not move
    assert browser.script("return Number(document.body.dataset.updates)") >= 1
    # the toggle stops it (and is remembered)
    browser.click("#live")
    assert browser.text("#live-state") == "paused"
    httpx.get(f"{url}/rest/about/version.json", auth=ADMIN)
    time.sleep(3)  # three polling intervals: a paused page does not ask
    assert len(browser.find_all("table.journal tbody tr")) == 13
    browser.get(f"{url}/__emulator/")
    assert not browser.script("return document.getElementById('live').checked")
    browser.click("#live")  # back on, for the other tests


@pytest.mark.parametrize("width", [1024, 1280])
def test_nothing_falls_off_screen(browser, served, width, tmp_path: Path):
    emu, url = served
    with httpx.Client(base_url=url, auth=ADMIN) as c:
        c.get(LONG + "?" + "q=" + "x" * 400)
        c.post("/rest/workspaces.json", content=b'{"workspace":{"name":"' + b"n" * 300 + b'"}}',
               headers={"Content-Type": "application/json"})  # fmt: skip
    _width(browser, width)
    browser.get(f"{url}/__emulator/")
    _load_all_images(browser)
    browser.script("document.querySelectorAll('details').forEach(d => d.open = true)")
    overflow = browser.script(
        "return document.documentElement.scrollWidth - document.documentElement.clientWidth"
    )
    assert overflow <= 0
    wide = browser.script(
        "return [...document.querySelectorAll('main *')]"
        ".filter(e => e.getBoundingClientRect().right > window.innerWidth + 1)"
        ".map(e => e.tagName + '.' + e.className).slice(0, 5)"
    )
    assert wide == []
    browser.script("document.getElementById('journal').scrollIntoView()")
    shot = browser.screenshot()
    (tmp_path / f"inspector-{width}.png").write_bytes(shot)
    image = Image.open(io.BytesIO(shot))
    ratio = browser.script("return window.devicePixelRatio")
    assert image.width == round(width * ratio)
    # the long path is on screen, wrapped: the journal's rows are taller than one line
    assert _inked(shot) > 0.01
    height = browser.script("return document.querySelector('table.journal code').offsetHeight")
    assert height > 40


def test_the_landing_pages_rest_link_works(browser, served):
    emu, url = served
    browser.get(f"{url}/")
    browser.click("a[href$='/rest']")
    browser.wait_for("return location.pathname.endsWith('/rest')")
    assert httpx.get(f"{url}/rest", auth=ADMIN).status_code == 200
