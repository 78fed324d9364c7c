"""The catalog model. (Filled in by the catalog issue.)"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Catalog:
    default_workspace: str | None = None
    workspaces: dict[str, object] = field(default_factory=dict)
