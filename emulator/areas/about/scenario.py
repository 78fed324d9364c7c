"""Scenario section ``about``: component versions, jar manifests, module statuses and the
system-status metrics (built-ins of the server, so the ``empty`` scenario carries them).

    "about": {
      "versions":  [{"name": "GeoServer", "properties": {"Version": "2.27.1", ...}}],
      "manifests": [{"name": "gs-main-2.27.1", "properties": {"GeoServerModule": "core", ...}}],
      "modules":   [{"module": "gs-main", "name": "GeoServer Main", "enabled": true,
                     "available": true, "component": null, "version": "2.27.1",
                     "documentation": null, "message": null}],
      "systemStatus": {"source": "scenario",
                       "metrics": [{"metric": "OPERATING_SYSTEM", "value": "Linux 6.1"},
                                   {"metric": "PER_CPU_LOAD", "value": 7.5, "identifier": "CPU 1",
                                    "description": "CPU 1 load", "priority": 105}]}
    }

Versions and manifests merge into what the scenario extends by name (a property set to
``null`` is removed); modules merge by ``module``. ``systemStatus.metrics``, when given,
replaces the whole list; a metric left out reads ``NOT AVAILABLE``. ``source: "host"``
reads the values from the machine instead. A JSON integer is a Java ``Long``, a number
with a fraction or exponent a ``Double``: that decides how each format writes it.
"""

from __future__ import annotations

import re
from typing import Any

from ...core.errors import ScenarioError
from ...core.state import State
from ...scenarios.context import ScenarioContext
from ...scenarios.fields import Section
from ...wire.xml import xml_safe
from .metrics import INFOS_BY_NAME, MetricSample
from .model import ModuleStatus, Resource

XML_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9._-]*")
SOURCES = ("scenario", "host")


def apply(state: State, sec: Section, ctx: ScenarioContext) -> None:
    sec.only({"versions", "manifests", "modules", "systemStatus"})
    store = state.about
    _merge_resources(store.versions, sec.items("versions"))
    _merge_resources(store.manifests, sec.items("manifests"))
    for m in sec.items("modules"):
        status = _module(m)
        found = [i for i, x in enumerate(store.modules) if x.module == status.module]
        if found:
            store.modules[found[0]] = status
        else:
            store.modules.append(status)
    system = sec.obj("systemStatus")
    if system is not None:
        system.only({"source", "metrics"})
        source = system.str("source", store.metrics_source)
        if source not in SOURCES:
            raise ScenarioError(f"{system.where}.source: expected one of {', '.join(SOURCES)}")
        store.metrics_source = source
        if system.has("metrics"):
            store.metrics = [_sample(s) for s in system.items("metrics")]


def _merge_resources(target: list[Resource], items: list[Section]) -> None:
    for item in items:
        item.only({"name", "properties"})
        _require_xml_safe(item, ("name",))
        name = item.str("name", required=True)
        props = item.dict("properties")
        resource = next((r for r in target if r.name == name), None)
        if resource is None:
            resource = Resource(name)
            target.append(resource)
        for key, value in props.items():
            if not XML_NAME.fullmatch(key):
                raise ScenarioError(
                    f"{item.where}.properties.{key}: not usable as an XML element name"
                )
            if value is None:
                resource.properties.pop(key, None)
            elif isinstance(value, str) and xml_safe(value):
                resource.properties[key] = value
            else:
                raise ScenarioError(
                    f"{item.where}.properties.{key}: expected a string XML can carry"
                )


def _require_xml_safe(sec: Section, keys: tuple[str, ...]) -> None:
    for key in keys:
        if not xml_safe(sec.str(key, "")):
            raise ScenarioError(f"{sec.where}.{key}: holds characters that XML cannot carry")


MODULE_TEXTS = ("module", "name", "component", "version", "documentation", "message")


def _module(m: Section) -> ModuleStatus:
    m.only({*MODULE_TEXTS, "enabled", "available"})
    _require_xml_safe(m, MODULE_TEXTS)
    return ModuleStatus(
        module=m.str("module", required=True),
        name=m.str("name", required=True),
        component=m.str("component"),
        version=m.str("version"),
        documentation=m.str("documentation"),
        message=m.str("message"),
        enabled=m.bool("enabled", True),
        available=m.bool("available", True),
    )


def _sample(s: Section) -> MetricSample:
    s.only({"metric", "value", "available", "name", "description", "identifier", "priority"})
    metric = s.str("metric", required=True)
    if metric not in INFOS_BY_NAME:
        raise ScenarioError(f"{s.where}.metric: unknown metric {metric}")
    available = s.bool("available", True)
    value = s.data.get("value")
    if isinstance(value, bool) or not isinstance(value, str | int | float):
        if available or value is not None:
            raise ScenarioError(f"{s.where}.value: expected a string or a number")
        value = ""
    _require_xml_safe(s, ("name", "description", "identifier"))
    if isinstance(value, str) and not xml_safe(value):
        raise ScenarioError(f"{s.where}.value: holds characters that XML cannot carry")
    return MetricSample(
        metric,
        value,
        available,
        s.str("name"),
        s.str("description"),
        s.str("identifier"),
        s.int("priority"),
    )


def _resources(items: list[Resource]) -> list[dict[str, Any]]:
    return [{"name": r.name, "properties": dict(r.properties)} for r in items]


def dump(state: State, ctx: ScenarioContext) -> dict[str, Any]:
    store = state.about
    metrics: list[dict[str, Any]] = []
    for s in store.metrics:
        entry: dict[str, Any] = {"metric": s.metric, "value": s.value}
        if not s.available:
            entry["available"] = False
        for key in ("name", "description", "identifier", "priority"):
            if getattr(s, key) is not None:
                entry[key] = getattr(s, key)
        metrics.append(entry)
    return {
        "versions": _resources(store.versions),
        "manifests": _resources(store.manifests),
        "modules": [
            {
                "module": m.module,
                "name": m.name,
                "component": m.component,
                "version": m.version,
                "documentation": m.documentation,
                "message": m.message,
                "enabled": m.enabled,
                "available": m.available,
            }
            for m in store.modules
        ],
        "systemStatus": {"source": store.metrics_source, "metrics": metrics},
    }
