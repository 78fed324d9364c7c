"""Scenario section ``filterChains``: the request chains in order (the whole list, when
given, replaces what the scenario extends; a fresh install has GeoServer's initial chains).

    "filterChains": {"chains": [
      {"name": "rest", "class": "org.geoserver.security.ServiceLoginFilterChain",
       "path": "/rest.*,/rest/**", "filters": ["basic", "anonymous"],
       "interceptorName": "restInterceptor", "allowSessionCreation": false}
    ]}
"""

from __future__ import annotations

from typing import Any

from ...core.errors import EmulatorError, ScenarioError
from ...core.state import State
from ...scenarios.context import ScenarioContext
from ...scenarios.fields import Section
from .model import FilterChain, _check

KEYS = ("disabled", "allowSessionCreation", "ssl", "matchHTTPMethod")
NAMES = ("interceptorName", "exceptionTranslationName", "roleFilterName")
ATTRS = {
    "disabled": "disabled",
    "allowSessionCreation": "allow_session_creation",
    "ssl": "require_ssl",
    "matchHTTPMethod": "match_http_method",
    "interceptorName": "interceptor_name",
    "exceptionTranslationName": "exception_translation_name",
    "roleFilterName": "role_filter_name",
}


def apply(state: State, sec: Section, ctx: ScenarioContext) -> None:
    sec.only({"chains"})
    if not sec.has("chains"):
        return
    chains: list[FilterChain] = []
    for c in sec.items("chains"):
        c.only({"name", "class", "path", "filters", *KEYS, *NAMES})
        chain = FilterChain(
            c.str("name", required=True),
            ctx.vendor.canonical(c.str("class", required=True)),
            [p for p in c.str("path", "").split(",") if p],
            c.strings("filters"),
        )
        for key in KEYS:
            setattr(chain, ATTRS[key], c.bool(key, False))
        for key in NAMES:
            setattr(chain, ATTRS[key], c.str(key))
        try:
            _check(chain)
        except EmulatorError as exc:
            raise ScenarioError(f"{c.where}: {exc.message}") from None
        chains.append(chain)
    state.filter_chains.chains = chains


def dump(state: State, ctx: ScenarioContext) -> dict[str, Any]:
    out = []
    for chain in state.filter_chains.chains:
        entry: dict[str, Any] = {
            "name": chain.name,
            "class": ctx.vendor.emit(chain.cls),
            "path": ",".join(chain.patterns),
            "filters": list(chain.filters),
        }
        for key, attr in ATTRS.items():
            value = getattr(chain, attr)
            if value not in (None, False):
                entry[key] = value
        out.append(entry)
    return {"chains": out}
