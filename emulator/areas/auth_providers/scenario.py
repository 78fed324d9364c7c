"""Scenario section ``authProviders``.

    "authProviders": {
      "providers": [{"name": "default", "id": "...",
                     "className": "org.geoserver.security.auth.UsernamePasswordAuthenticationProvider",
                     "configClass": "org.geoserver.security.config.UsernamePasswordAuthenticationProviderConfig",
                     "userGroupServiceName": "default", "fields": {}}],
      "active": ["default"]
    }
"""

from __future__ import annotations

from typing import Any

from ...core.errors import ScenarioError
from ...scenarios.context import ScenarioContext
from ...scenarios.fields import Section
from ...state import State
from .model import USERNAME_PASSWORD_CONFIG, ProviderConfig


def apply(state: State, sec: Section, ctx: ScenarioContext) -> None:
    sec.only({"providers", "active"})
    store = state.auth_providers
    for p in sec.items("providers"):
        p.only({"name", "id", "className", "configClass", "userGroupServiceName", "fields"})
        name = p.str("name", required=True)
        store.configs[name] = ProviderConfig(
            id=p.str("id") or state.ids.object_id("authprovider"),
            name=name,
            class_name=ctx.vendor.canonical(p.str("className", required=True)),
            config_class=ctx.vendor.canonical(
                p.str("configClass", "org.geoserver." + USERNAME_PASSWORD_CONFIG)
            ),
            user_group_service=p.str("userGroupServiceName"),
            extra=dict(p.dict("fields")),
        )
    if sec.has("active"):
        active = sec.strings("active")
        unknown = [n for n in active if n not in store.configs]
        if unknown:
            raise ScenarioError(f"{sec.where}.active: unknown provider {unknown[0]}")
        store.active = list(active)


def dump(state: State, ctx: ScenarioContext) -> dict[str, Any]:
    store = state.auth_providers
    return {
        "providers": [
            {
                "name": p.name,
                "id": p.id,
                "className": ctx.vendor.emit(p.class_name),
                "configClass": ctx.vendor.emit(p.config_class),
                "userGroupServiceName": p.user_group_service,
                "fields": p.extra,
            }
            for p in store.configs.values()
        ],
        "active": list(store.active),
    }
