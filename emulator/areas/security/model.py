"""Keystore password, root login, catalog mode and the three access-rule sets."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class SecurityStore:
    keystore_password: str = "geoserver"
    root_login: bool = False
    catalog_mode: str = "HIDE"
    layer_rules: dict[str, list[str]] = field(default_factory=dict)
    service_rules: dict[str, list[str]] = field(default_factory=dict)
    rest_rules: dict[str, list[str]] = field(default_factory=dict)
    """``antPattern:METHOD[,METHOD]`` → roles, in evaluation order"""
    reloads: int = 0
    """how many times the security configuration was reloaded (provider, filter writes…)"""

    def reload(self) -> None:
        self.reloads += 1
