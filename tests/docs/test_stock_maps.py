"""docs/stock-maps.md lists every stock layer and layer group, and its images are what the
emulator draws today (``docs/tools/stockmaps.py`` draws them)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

from geoserver_emulator import Emulator

ROOT = Path(__file__).resolve().parents[2]
HOW = "run `python docs/tools/stockmaps.py` to draw them again, then look at the page"


def tool():
    spec = importlib.util.spec_from_file_location("stockmaps", ROOT / "docs/tools/stockmaps.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_page_lists_every_stock_layer_and_group():
    catalog = Emulator("stock").state.catalog
    text = (ROOT / "docs" / "stock-maps.md").read_text(encoding="utf-8")
    names = [f"{ws}:{n}" for ws, n in catalog.layers] + [
        g.prefixed for g in catalog.layer_groups.values()
    ]
    assert len(names) == 28
    missing = [n for n in names if f"| `{n}` |" not in text]
    assert not missing, f"not on the page: {missing}; {HOW}"


def test_the_committed_maps_are_what_the_emulator_draws():
    files = tool().render()
    stale = [str(p.relative_to(ROOT)) for p, data in files.items()
             if not p.is_file() or p.read_bytes() != data]  # fmt: skip
    assert not stale, f"these differ from what the emulator draws now: {stale}; {HOW}"
    drawn = {p.name for p in files if p.suffix == ".png"}
    committed = {p.name for p in (ROOT / "docs" / "stock-maps").glob("*.png")}
    assert committed == drawn, f"images no item draws: {sorted(committed - drawn)}; {HOW}"
    assert sum(len(d) for d in files.values()) < 500_000
