"""The about model. (Filled in by the about issue.)"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class AboutStore:
    pass
