"""The catalog page's scenario example loads, and the page names every key the section takes."""

from __future__ import annotations

import json
import re
from pathlib import Path

from geoserver_emulator import Emulator

PAGE = Path(__file__).resolve().parents[2] / "docs" / "catalog.md"


def test_the_example_section_loads_on_empty():
    text = PAGE.read_text(encoding="utf-8")
    block = re.search(r'```json\n("catalog".*?)```', text, re.DOTALL)
    assert block, "docs/catalog.md has no catalog section example"
    emu = Emulator({"extends": "empty", **json.loads("{" + block.group(1) + "}")})
    catalog = emu.dump_scenario()["catalog"]
    assert sorted(w["name"] for w in catalog["workspaces"]) == ["nurc", "topp"]
    assert catalog["layerGroups"][0]["layers"] == ["topp:states"]


def test_the_page_names_every_key():
    from geoserver_emulator.areas.catalog import scenario

    text = PAGE.read_text(encoding="utf-8")
    keys = scenario.STORE_KEYS | scenario.RESOURCE_KEYS | scenario.LAYER_KEYS
    missing = sorted(k for k in keys if f"`{k}`" not in text)
    assert not missing, f"docs/catalog.md does not name {missing}"
