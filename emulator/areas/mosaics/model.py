"""The mosaics model. (Filled in by the mosaics issue.)"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class MosaicStore:
    pass
