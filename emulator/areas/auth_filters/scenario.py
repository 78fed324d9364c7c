"""Scenario section ``authFilters``.

    "authFilters": {"filters": [{"name": "anonymous", "id": "...",
        "className": "org.geoserver.security.filter.GeoServerAnonymousAuthenticationFilter",
        "configClass": "org.geoserver.security.config.AnonymousAuthenticationFilterConfig",
        "fields": {}}]}
"""

from __future__ import annotations

from typing import Any

from ...scenarios.context import ScenarioContext
from ...scenarios.fields import Section
from ...state import State
from .model import FilterConfig


def apply(state: State, sec: Section, ctx: ScenarioContext) -> None:
    sec.only({"filters"})
    store = state.auth_filters
    for f in sec.items("filters"):
        f.only({"name", "id", "className", "configClass", "fields"})
        name = f.str("name", required=True)
        store.configs[name] = FilterConfig(
            id=f.str("id") or state.ids.object_id("authfilter"),
            name=name,
            class_name=ctx.vendor.canonical(f.str("className", required=True)),
            config_class=ctx.vendor.canonical(f.str("configClass", required=True)),
            fields=dict(f.dict("fields")),
        )


def dump(state: State, ctx: ScenarioContext) -> dict[str, Any]:
    return {
        "filters": [
            {
                "name": f.name,
                "id": f.id,
                "className": ctx.vendor.emit(f.class_name),
                "configClass": ctx.vendor.emit(f.config_class),
                "fields": f.fields,
            }
            for f in state.auth_filters.configs.values()
        ]
    }
