"""Fixtures for the seeding tests: tile layers to seed and a short way to submit requests."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from geoserver_emulator import Emulator
from geoserver_emulator.areas.seeding.model import TileLayer
from geoserver_emulator.areas.seeding.request import SeedRequest

STATES = (-124.73142200000001, 24.955967, -66.969849, 49.371735)
WORLD_4326_0_3 = {"gridset_id": "EPSG:4326", "zoom_start": 0, "zoom_stop": 3}
"""whole world, zoom 0-3 on EPSG:4326 with 4x4 metatiles: 12 metatiles, tilesTotal 178,
170 tiles stored"""

SCENARIO = """{
  "extends": "empty",
  "seeding": {
    "tileLayers": [
      {"name": "topp:states", "bounds": [-124.73142200000001, 24.955967, -66.969849, 49.371735]},
      {"name": "test:world"}
    ]
  }
}"""


def add_layers(emu: Emulator) -> None:
    store = emu.state.seeding
    store.tile_layers["topp:states"] = TileLayer("topp:states", bounds=STATES)
    store.tile_layers["test:world"] = TileLayer("test:world")


@pytest.fixture
def gwc() -> Emulator:
    """An emulator with ``topp:states`` (its real bounds) and ``test:world`` (whole world)."""
    emu = Emulator("empty")
    add_layers(emu)
    return emu


@pytest.fixture
def seed(gwc: Emulator) -> Callable[..., list[int]]:
    """``seed(layer="test:world", one_truncate_task=True, **SeedRequest fields)`` → task ids;
    the default request is ``WORLD_4326_0_3`` with one thread."""

    def submit(
        layer: str = "test:world", one_truncate_task: bool = True, **fields: object
    ) -> list[int]:
        base: dict[str, object] = {**WORLD_4326_0_3, "thread_count": 1, "type": "seed"}
        base.update(fields)
        req = SeedRequest(**base)  # type: ignore[arg-type]
        return gwc.scheduler.submit(layer, req, one_truncate_task=one_truncate_task)

    return submit


@pytest.fixture
def seeding_scenario(tmp_path: Path) -> Path:
    """A scenario file: empty plus ``topp:states`` and ``test:world`` tile layers."""
    path = tmp_path / "seeding.json"
    path.write_text(SCENARIO, encoding="utf-8")
    return path


@pytest.fixture
def emu(seeding_scenario: Path) -> Emulator:
    """The emulator behind ``client``: stock plus the two tile layers."""
    return Emulator(seeding_scenario)
