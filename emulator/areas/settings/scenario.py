"""Scenario section ``serverSettings``: global settings, logging, fonts, OWS services, what
workspaces have of their own, and Freemarker templates.

    "serverSettings": {
      "global": {"settings": {"numDecimals": 4, "contact": {"contactPerson": "Ann"}},
                 "globalServices": true},
      "logging": {"level": "VERBOSE_LOGGING"},
      "services": {"wms": {"title": "My maps", "srs": ["EPSG:4326", "EPSG:3857"]}},
      "workspaces": {"topp": {"settings": {"numDecimals": 2}, "wfs": {"maxFeatures": 50}}},
      "fonts": ["DejaVu Sans", "Dialog.plain"],
      "templates": {"templates/header.ftl": "<b>hello</b>",
                    "workspaces/topp/content.ftl": "${features}"}
    }

Values use the shapes of ``schema.py`` (GeoServer's element names; keywords as objects with
``value``, ``language``, ``vocabulary``; versions as strings). ``global``, ``logging`` and
each service in ``services`` are merged field by field onto what the scenario extends (the
stock values of a fresh GeoServer when it extends ``empty`` or ``stock``);
``workspaces``, ``fonts`` and ``templates`` replace what it extends. Workspaces must exist
in the catalog. The data directory's configuration files are written from the result.
"""

from __future__ import annotations

import base64
from typing import Any

from ...core.datadir import normalise
from ...core.errors import Invalid, ScenarioError
from ...scenarios.context import ScenarioContext
from ...scenarios.fields import Section
from ...state import State
from . import defaults, files, schema
from .model import KINDS

KEYS = ("global", "logging", "services", "workspaces", "fonts", "templates")


def _checked(table: schema.Table, value: Any, where: str) -> dict[str, Any]:
    try:
        return schema.check(table, value, where)
    except ValueError as exc:
        raise ScenarioError(str(exc)) from None


def apply(state: State, sec: Section, ctx: ScenarioContext) -> None:
    sec.only(KEYS)
    s = state.settings
    where = sec.where
    if sec.has("global"):
        patch = _checked(schema.GLOBAL, sec.data["global"], f"{where}.global")
        s.global_info = schema.merge(schema.GLOBAL, s.global_info, patch)
    if sec.has("logging"):
        patch = _checked(schema.LOGGING, sec.data["logging"], f"{where}.logging")
        s.logging = schema.merge(schema.LOGGING, s.logging, patch)
    if sec.has("services"):
        services = Section(sec.data["services"], f"{where}.services").only(KINDS)
        for kind, value in services.data.items():
            table = schema.SERVICES[kind]
            patch = _checked(table, value, f"{services.where}.{kind}")
            s.services[kind] = schema.merge(table, s.services[kind], patch)
    if sec.has("workspaces"):
        _apply_workspaces(state, Section(sec.data["workspaces"], f"{where}.workspaces"))
    if sec.has("fonts"):
        fonts = sec.data["fonts"]
        if not isinstance(fonts, list) or not all(isinstance(f, str) for f in fonts):
            raise ScenarioError(f"{where}.fonts: expected a list of font names")
        s.fonts = list(fonts)
    if sec.has("templates"):
        _apply_templates(state, Section(sec.data["templates"], f"{where}.templates"))
    files.sync(state)
    files.ensure_gwc_config(state)


def _apply_workspaces(state: State, sec: Section) -> None:
    s = state.settings
    settings: dict[str, dict[str, Any]] = {}
    services: dict[str, dict[str, dict[str, Any]]] = {kind: {} for kind in KINDS}
    for ws, value in sec.data.items():
        if state.catalog.workspace(ws) is None:
            raise ScenarioError(f"{sec.where}.{ws}: no such workspace in the catalog")
        own = Section(value, f"{sec.where}.{ws}").only(("settings", *KINDS))
        if own.has("settings"):
            values = _checked(schema.SETTINGS, own.data["settings"], f"{own.where}.settings")
            settings[ws] = {**defaults.fresh(defaults.NEW_SETTINGS), **values}
        for kind in KINDS:
            if own.has(kind):
                table = schema.SERVICES[kind]
                values = _checked(table, own.data[kind], f"{own.where}.{kind}")
                services[kind][ws] = {**defaults.fresh(defaults.NEW_SERVICES[kind]), **values}
    s.workspace_settings = settings
    s.workspace_services = services


def _is_template(path: str) -> bool:
    return path.endswith(".ftl") and path.startswith(("templates/", "workspaces/"))


def _apply_templates(state: State, sec: Section) -> None:
    dd = state.datadir
    wanted: dict[str, bytes] = {}
    for path, body in sec.data.items():
        try:
            clean = normalise(path)
        except Invalid as exc:
            raise ScenarioError(f"{sec.where}.{path}: {exc.message}") from None
        if not _is_template(clean):
            raise ScenarioError(
                f"{sec.where}.{path}: a template is a .ftl file under templates/ or workspaces/"
            )
        if isinstance(body, str):
            wanted[clean] = body.encode("utf-8")
        elif isinstance(body, dict) and isinstance(body.get("base64"), str):
            try:
                wanted[clean] = base64.b64decode(body["base64"], validate=True)
            except ValueError:
                raise ScenarioError(f"{sec.where}.{path}.base64: not valid base64") from None
        else:
            raise ScenarioError(f"{sec.where}.{path}: expected the template's text")
    for path in [p for p in dd.files if _is_template(p)]:
        dd.delete(path)
    for path, data in wanted.items():
        dd.write(path, data)


def dump(state: State, ctx: ScenarioContext) -> dict[str, Any]:
    s = state.settings
    workspaces: dict[str, dict[str, Any]] = {}
    for ws in s.workspaces_configured():
        own: dict[str, Any] = {}
        if ws in s.workspace_settings:
            own["settings"] = s.workspace_settings[ws]
        for kind in KINDS:
            if ws in s.workspace_services[kind]:
                own[kind] = s.workspace_services[kind][ws]
        workspaces[ws] = own
    templates: dict[str, Any] = {}
    for path, entry in sorted(state.datadir.files.items()):
        if _is_template(path):
            try:
                templates[path] = entry.data.decode("utf-8")
            except UnicodeDecodeError:
                templates[path] = {"base64": base64.b64encode(entry.data).decode("ascii")}
    return defaults.fresh(
        {
            "global": s.global_info,
            "logging": s.logging,
            "services": s.services,
            "workspaces": workspaces,
            "fonts": s.fonts,
            "templates": templates,
        }
    )
