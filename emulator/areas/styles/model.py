"""The styles model. (Filled in by the styles issue.)"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class StyleStore:
    pass
