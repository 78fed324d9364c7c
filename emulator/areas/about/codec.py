"""The about endpoints on the wire: ``about``/``resource`` (versions and manifests), the module
status list and the system-status ``metrics``, in XML, JSON and HTML.

JSON mirrors GeoServer's XStream+Jettison output: attributes as ``@name``, every leaf typed
as Jettison types it (see ``wire/geoserver/jettison.py``), a one-element implicit collection written
as an object and an empty one as ``""`` (the JSON persister's legacy mode); the module
status list goes through the catalog-list converter, which always writes an array.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ...wire import json as wjson
from ...wire import xml as wxml
from ...wire.geoserver.html import esc
from ...wire.geoserver.html import page as html_page
from ...wire.geoserver.java import string_of as java_string
from ...wire.geoserver.java import url_encode
from ...wire.geoserver.jettison import leaf
from ...wire.geoserver.xstream import names_json, names_xml
from .metrics import MetricValue
from .model import ModuleStatus, Resource


def _implicit(items: list[dict[str, Any]]) -> Any:
    """An XStream implicit collection as the legacy Jettison persister writes it."""
    return items[0] if len(items) == 1 else items


# -- versions and manifests ----------------------------------------------------------------


def dump_about_xml(resources: Sequence[Resource], vendor_prefix: str) -> bytes:
    root = wxml.element("about")
    for r in resources:
        el = wxml.sub(root, "resource", attrib={"name": r.name})
        for key, value in r.emitted(vendor_prefix):
            wxml.sub(el, key, value)
    return wxml.dump(root)


def dump_about_json(resources: Sequence[Resource], vendor_prefix: str) -> bytes:
    if not resources:
        return wjson.dumps({"about": ""})
    items = [
        {"@name": leaf(r.name), **{k: leaf(v) for k, v in r.emitted(vendor_prefix)}}
        for r in resources
    ]
    return wjson.dumps({"about": {"resource": _implicit(items)}})


def dump_about_html(resources: Sequence[Resource], vendor_prefix: str) -> str:
    parts = ["<h2>About:</h2>", "<ul>"]
    for r in resources:
        parts.append(f"\t<li><h3>Resource name: {esc(r.name)}</h3>\n\t\t<ul>")
        parts += [f"\t\t\t<li><b>{esc(k)}</b> : {esc(v)}</li>" for k, v in r.emitted(vendor_prefix)]
        parts.append("\t\t</ul>\n\t</li>")
    parts.append("</ul>")
    return html_page("\n".join(parts))


# -- module status -------------------------------------------------------------------------


def dump_status_xml(modules: Sequence[ModuleStatus], page: str) -> bytes:
    """``<statuss><status><name/><atom:link/></status>…``: links are ``page``/name."""
    entries = [(m.name, f"{page}/{url_encode(m.name)}.xml") for m in modules]
    return names_xml("statuss", "status", entries)


def dump_status_json(modules: Sequence[ModuleStatus], page: str) -> bytes:
    entries = [(m.name, f"{page}/{url_encode(m.name)}.json") for m in modules]
    return names_json("statuss", "status", entries, name=leaf)


def dump_status_html(modules: Sequence[ModuleStatus]) -> str:
    parts = ["<h2>About:</h2>", "<ul>"]
    for m in modules:
        rows = [("Module", m.module)]
        rows += [
            (k, v) for k, v in (("Component", m.component), ("Version", m.version)) if v is not None
        ]
        rows += [("Enabled", java_string(m.enabled)), ("Available", java_string(m.available))]
        items = "".join(f"\n            <li><b>{k}</b> : {esc(v)}</li>" for k, v in rows)
        if m.message is not None:
            message = esc(
                m.message.replace("\x1b", "ESC").replace("\b", "BACK").replace("\x07", "BELL")
            )
            items += f"\n            <li><b>Message</b> : {message.replace(chr(10), '<br/>')}</li>"
        head = f"    <li><h3>Module name: {esc(m.name)}</h3>"
        parts.append(f"{head}\n        <ul>{items}\n        </ul>\n    </li>")
    parts.append("</ul>")
    return html_page("\n".join(parts))


# -- system status -------------------------------------------------------------------------


def _metric_fields(m: MetricValue) -> list[tuple[str, Any]]:
    return [
        ("available", m.available),
        ("description", m.description),
        ("name", m.name),
        ("unit", m.unit),
        ("category", m.category),
        ("identifier", m.identifier),
        ("priority", m.priority),
        ("value", java_string(m.value)),
    ]


def dump_metrics_xml(metrics: Sequence[MetricValue]) -> bytes:
    root = wxml.element("metrics")
    for m in metrics:
        wxml.fields(wxml.sub(root, "metric"), _metric_fields(m))
    return wxml.dump(root)


def dump_metrics_json(metrics: Sequence[MetricValue]) -> bytes:
    if not metrics:
        return wjson.dumps({"metrics": ""})
    items = [{k: leaf(v) for k, v in _metric_fields(m)} for m in metrics]
    return wjson.dumps({"metrics": {"metric": _implicit(items)}})


def dump_metrics_html(metrics: Sequence[MetricValue]) -> str:
    """A readable table page: one row per metric (``/html/body/table/tr``)."""
    rows = "".join(
        f'\n<tr class="{"even" if i % 2 else "odd"}"><td>{esc(m.description)}</td>'
        f"<td>{esc(m.value_unit())}</td></tr>"
        for i, m in enumerate(metrics)
    )
    return (
        "<html>\n<head>\n<title>GeoServer system status</title>\n<style>\n"
        "body { font-family: Tahoma, Verdana, sans-serif; margin: 0; padding: 0; }\n"
        "td { padding: 4px 10px 4px 5px; }\n"
        "thead th { border-bottom: 1px solid #0076a1; }\n"
        "tr.even td { background: #e2efcd; }\n"
        "</style>\n</head>\n<body>\n"
        f'<table width="100%">\n<thead><th>Info</th><th>Value</th></thead>{rows}\n</table>\n'
        "</body>\n</html>\n"
    )
