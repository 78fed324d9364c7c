"""Scenario section ``urlChecks``: the global switch and the checks, in evaluation order.

    "urlChecks": {
      "enabled": true,
      "checks": [{"name": "icons", "description": "External graphic icons",
                  "enabled": true, "regex": "^https://styles\\.example\\.com/icons/.*$"}]
    }

``enabled`` (default: what the scenario extends, ``true`` in a fresh install) turns the checks
on; with them off every URL is allowed. A check with the name of an existing one replaces it
in place. Each regex is vetted as a REST create would vet it.
"""

from __future__ import annotations

from typing import Any

from ...core.errors import EmulatorError, ScenarioError
from ...core.state import State
from ...scenarios.context import ScenarioContext
from ...scenarios.fields import Section
from ...wire.xml import xml_safe
from . import regexes
from .model import UrlCheck


def apply(state: State, sec: Section, ctx: ScenarioContext) -> None:
    sec.only({"enabled", "checks"})
    store = state.urlchecks
    store.enabled = sec.bool("enabled", store.enabled)
    for c in sec.items("checks"):
        c.only({"name", "description", "enabled", "regex"})
        name = c.str("name", required=True)
        pattern = c.str("regex", required=True)
        if not name or not pattern:
            raise ScenarioError(f"{c.where}: name and regex must not be empty")
        for key in ("name", "description", "regex"):
            if not xml_safe(c.str(key, "")):
                raise ScenarioError(f"{c.where}.{key}: holds characters that XML cannot carry")
        try:
            regexes.vet(pattern)
        except EmulatorError as exc:
            raise ScenarioError(f"{c.where}.regex: {exc.message}") from None
        check = UrlCheck(name, pattern, c.str("description"), c.bool("enabled", True))
        existing = store.find(name)
        if existing is None:
            store.checks.append(check)
        else:
            store.checks[store.checks.index(existing)] = check


def dump(state: State, ctx: ScenarioContext) -> dict[str, Any]:
    store = state.urlchecks
    checks: list[dict[str, Any]] = []
    for c in store.checks:
        entry: dict[str, Any] = {"name": c.name}
        if c.description is not None:
            entry["description"] = c.description
        entry["enabled"] = c.enabled
        entry["regex"] = c.regex
        checks.append(entry)
    return {"enabled": store.enabled, "checks": checks}
