"""Scenario section ``authFilters``: the stored filter configurations.

    "authFilters": {"filters": [{"name": "basic", "id": "...",
        "className": "org.geoserver.security.filter.GeoServerBasicAuthenticationFilter",
        "configClass": "org.geoserver.security.config.BasicAuthenticationFilterConfig",
        "fields": {"useRememberMe": true}}]}

``fields`` are the configuration's own fields as the JSON view writes them (a role source is
``{"@class": …, "$": …}``); they are typed and checked as a REST create would check them.
A later scenario (one that ``extends``) may redefine a filter by name.
"""

from __future__ import annotations

from typing import Any

from ...core.errors import Invalid, ScenarioError
from ...core.state import State
from ...scenarios.context import ScenarioContext
from ...scenarios.fields import Section
from . import codec
from .model import draft, validate


def apply(state: State, sec: Section, ctx: ScenarioContext) -> None:
    sec.only({"filters"})
    store = state.auth_filters
    for f in sec.items("filters"):
        f.only({"name", "id", "className", "configClass", "fields"})
        name = f.str("name", required=True)
        try:
            cfg = draft(
                name,
                codec.read_class(ctx.vendor, f.str("className", required=True)),
                codec.read_class(ctx.vendor, f.str("configClass", required=True)),
                codec.fields_from_json(f.dict("fields"), ctx.vendor),
            )
            validate(cfg)
        except Invalid as exc:
            raise ScenarioError(f"{f.where}: {exc.message}") from None
        cfg.id = f.str("id") or state.ids.object_id("authfilter")
        store.configs[name] = cfg


def dump(state: State, ctx: ScenarioContext) -> dict[str, Any]:
    return {
        "filters": [
            {
                "name": f.name,
                "id": f.id,
                "className": codec.write_class(ctx.vendor, f.class_name),
                "configClass": codec.write_class(ctx.vendor, f.config_class),
                "fields": codec.fields_to_json(f.fields, ctx.vendor),
            }
            for f in state.auth_filters.configs.values()
        ]
    }
