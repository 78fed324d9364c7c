"""Provider configurations and the active list that orders and enables them."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

USERNAME_PASSWORD_PROVIDER = "security.auth.UsernamePasswordAuthenticationProvider"
USERNAME_PASSWORD_CONFIG = "security.config.UsernamePasswordAuthenticationProviderConfig"


@dataclass
class ProviderConfig:
    id: str
    name: str
    class_name: str
    """canonical class name (see core.vendor)"""
    config_class: str
    """canonical config class name: the XML root element"""
    user_group_service: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)
    """fields of other provider classes, kept unchanged"""


@dataclass
class ProviderStore:
    configs: dict[str, ProviderConfig] = field(default_factory=dict)
    active: list[str] = field(default_factory=list)
    deleted: set[str] = field(default_factory=set)

    def active_configs(self) -> list[ProviderConfig]:
        return [self.configs[n] for n in self.active if n in self.configs]
