"""The urlchecks model. (Filled in by the urlchecks issue.)"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class UrlCheckStore:
    pass
