"""Filter configurations."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class FilterConfig:
    id: str
    name: str
    class_name: str
    config_class: str
    fields: dict[str, Any] = field(default_factory=dict)


@dataclass
class FilterStore:
    configs: dict[str, FilterConfig] = field(default_factory=dict)
    deleted: set[str] = field(default_factory=set)
