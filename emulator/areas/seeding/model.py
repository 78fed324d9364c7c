"""The seeding model. (Filled in by the seeding issue.)"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class SeedingStore:
    pass
