"""Scenario section ``security``.

    "security": {"keystorePassword": "geoserver", "rootLogin": false, "catalogMode": "HIDE",
                 "layerRules": {"*.*.r": "*"}, "serviceRules": {},
                 "restRules": {"/**:GET,HEAD,OPTIONS": "ROLE_ADMINISTRATOR"}}

Rule values are comma-separated role lists, as in GeoServer's properties files.
"""

from __future__ import annotations

from typing import Any

from ...core.errors import ScenarioError
from ...scenarios.context import ScenarioContext
from ...scenarios.fields import Section
from ...state import State


def _rules(sec: Section, key: str) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for rule, roles in sec.dict(key).items():
        if not isinstance(roles, str):
            raise ScenarioError(f"{sec.where}.{key}.{rule}: expected a comma-separated role string")
        out[rule] = [r.strip() for r in roles.split(",") if r.strip()]
    return out


def apply(state: State, sec: Section, ctx: ScenarioContext) -> None:
    sec.only({"keystorePassword", "rootLogin", "catalogMode", "layerRules", "serviceRules", "restRules"})
    s = state.security
    s.keystore_password = sec.str("keystorePassword", s.keystore_password)
    s.root_login = sec.bool("rootLogin", s.root_login)
    mode = sec.str("catalogMode", s.catalog_mode)
    if mode not in ("HIDE", "MIXED", "CHALLENGE"):
        raise ScenarioError(f"{sec.where}.catalogMode: expected HIDE, MIXED or CHALLENGE")
    s.catalog_mode = mode
    for key, attr in (("layerRules", "layer_rules"), ("serviceRules", "service_rules"), ("restRules", "rest_rules")):
        if sec.has(key):
            setattr(s, attr, _rules(sec, key))


def dump(state: State, ctx: ScenarioContext) -> dict[str, Any]:
    s = state.security
    return {
        "keystorePassword": s.keystore_password,
        "rootLogin": s.root_login,
        "catalogMode": s.catalog_mode,
        "layerRules": {k: ",".join(v) for k, v in s.layer_rules.items()},
        "serviceRules": {k: ",".join(v) for k, v in s.service_rules.items()},
        "restRules": {k: ",".join(v) for k, v in s.rest_rules.items()},
    }
