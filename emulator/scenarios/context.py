"""What an area's scenario reader and writer are given besides its section."""

from __future__ import annotations

from pathlib import Path

from ..core.record import record
from ..core.vendor import VendorNames


@record(frozen=True)
class ScenarioContext:
    vendor: VendorNames
    """class names in scenario files are written with the ``org.geoserver`` prefix"""
    base_dir: Path | None
    """the folder of the scenario file, for side files an area refers to"""
    where: str
    """the scenario's name, for error messages"""
