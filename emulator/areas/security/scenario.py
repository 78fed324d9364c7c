"""Scenario section ``security``.

    "security": {"keystorePassword": "geoserver", "rootLogin": false, "catalogMode": "HIDE",
                 "layerRules": {"*.*.r": "*"}, "serviceRules": {},
                 "restRules": {"/**:GET,HEAD,OPTIONS": "ROLE_ADMINISTRATOR"}}

Rule values are role lists separated by commas, as in GeoServer's properties files (a JSON
list of role names is accepted too). Rule keys use the REST API's syntax (``:`` between a REST
pattern and its methods) and are checked as the API checks them. A rule set that is given
replaces the one inherited; REST rules are tried in the order written.
"""

from __future__ import annotations

from typing import Any

from ...core.errors import EmulatorError, ScenarioError
from ...core.state import State
from ...scenarios.context import ScenarioContext
from ...scenarios.fields import Section
from .model import CATALOG_MODES
from .rules import LAYERS, REST, SERVICES

RULE_SECTIONS = (("layerRules", LAYERS), ("serviceRules", SERVICES), ("restRules", REST))


def _rules(sec: Section, key: str) -> dict[str, str]:
    out: dict[str, str] = {}
    for rule, roles in sec.dict(key).items():
        if isinstance(roles, list) and all(isinstance(r, str) for r in roles):
            roles = ",".join(roles)
        if not isinstance(roles, str):
            raise ScenarioError(f"{sec.where}.{key}.{rule}: expected a comma-separated role string")
        out[rule] = roles
    return out


def apply(state: State, sec: Section, ctx: ScenarioContext) -> None:
    sec.only({"keystorePassword", "rootLogin", "catalogMode", *(k for k, _ in RULE_SECTIONS)})
    s = state.security
    password = sec.str("keystorePassword", s.keystore_password)
    if not password.strip():
        raise ScenarioError(f"{sec.where}.keystorePassword: must not be blank")
    s.keystore_password = password.strip()
    s.root_login = sec.bool("rootLogin", s.root_login)
    mode = sec.str("catalogMode", s.catalog_mode)
    if mode not in CATALOG_MODES:
        raise ScenarioError(f"{sec.where}.catalogMode: expected HIDE, MIXED or CHALLENGE")
    s.catalog_mode = mode
    for key, kind in RULE_SECTIONS:
        if sec.has(key):
            try:
                s.replace_rules(kind, _rules(sec, key))
            except EmulatorError as exc:
                raise ScenarioError(f"{sec.where}.{key}: {exc.message}") from None


def dump(state: State, ctx: ScenarioContext) -> dict[str, Any]:
    s = state.security
    return {
        "keystorePassword": s.keystore_password,
        "rootLogin": s.root_login,
        "catalogMode": s.catalog_mode,
        **{key: {k: ",".join(v) for k, v in s.rules(kind).items()} for key, kind in RULE_SECTIONS},
    }
