"""GWC's tile-layer representations (``/gwc/rest/layers``), as GeoServer writes them.

XML is XStream's pretty printing (two-space indent, ``<?xml …?>`` header added by GWC's
converter) of ``GeoServerTileLayerInfoImpl`` under the root ``GeoServerLayer``, fields in
declaration order. JSON goes through XStream's JSON driver and then ``org.json``, whose
objects are ``HashMap``s: keys come out in Java hash order, which ``java.hash_order``
reproduces. The list is the names of a ``HashSet``, an array in JSON.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any
from urllib.parse import quote

from ...wire import json as wjson
from .java import hash_order
from .model import SeedingStore, TileLayer

ATOM = "http://www.w3.org/2005/Atom"


def java_double(x: float) -> str:
    """``Double.toString``: plain between 10^-3 and 10^7, else ``d.dddE±n`` (shortest digits)."""
    if x == 0 or x != x or x in (float("inf"), float("-inf")):
        return {"inf": "Infinity", "-inf": "-Infinity", "nan": "NaN"}.get(repr(x), repr(x))
    sign, digits, exp = Decimal(repr(x)).as_tuple()
    text = "".join(map(str, digits)).rstrip("0") or "0"
    assert isinstance(exp, int)
    exp += len("".join(map(str, digits))) - len(text)
    sci = len(text) + exp - 1
    lead = "-" if sign else ""
    if 1e-3 <= abs(x) < 1e7:
        plain = format(Decimal(f"{lead}{text}E{exp}"), "f")
        return plain if "." in plain else plain + ".0"
    return f"{lead}{text[0]}.{text[1:] or '0'}E{sci}"


def _esc(text: str) -> str:
    for a, b in (
        ("&", "&amp;"),
        ("<", "&lt;"),
        (">", "&gt;"),
        ('"', "&quot;"),
        ("'", "&apos;"),
        ("\r", "&#xd;"),
    ):
        text = text.replace(a, b)
    return text


def _filter_type(f: dict[str, object]) -> str:
    given = f.get("type")
    if isinstance(given, str):
        return given
    return (
        "styleParameterFilter"
        if str(f.get("key", "")).upper() == "STYLES"
        else "stringParameterFilter"
    )


def _filter_fields(f: dict[str, object]) -> list[tuple[str, object]]:
    return [(k, v) for k, v in f.items() if k != "type"]


def _xml_value(lines: list[str], name: str, value: object, pad: str) -> None:
    if isinstance(value, list):
        if not value:
            lines.append(f"{pad}<{name}/>")
            return
        lines.append(f"{pad}<{name}>")
        for item in value:
            tag = (
                "string" if isinstance(item, str) else "float" if isinstance(item, float) else "int"
            )
            lines.append(f"{pad}  <{tag}>{_esc(str(item))}</{tag}>")
        lines.append(f"{pad}</{name}>")
    elif isinstance(value, bool):
        lines.append(f"{pad}<{name}>{'true' if value else 'false'}</{name}>")
    else:
        lines.append(f"{pad}<{name}>{_esc(str(value))}</{name}>")


def _subsets_xml(store: SeedingStore, layer: TileLayer, lines: list[str]) -> None:
    lines.append("  <gridSubsets>")
    for name in layer.gridsets:
        opts = layer.subset(name)
        lines.append("    <gridSubset>")
        lines.append(f"      <gridSetName>{_esc(name)}</gridSetName>")
        if opts.extent is not None:
            lines.append("      <extent>\n        <coords>")
            lines.extend(f"          <double>{java_double(v)}</double>" for v in opts.extent)
            lines.append("        </coords>\n      </extent>")
        if opts.zoom_start is not None:
            lines.append(f"      <zoomStart>{opts.zoom_start}</zoomStart>")
        if opts.zoom_stop is not None:
            lines.append(f"      <zoomStop>{opts.zoom_stop}</zoomStop>")
        lines.append("    </gridSubset>")
    lines.append("  </gridSubsets>")


def dump_layer_xml(store: SeedingStore, layer: TileLayer) -> bytes:
    lines = ['<?xml version="1.0" encoding="UTF-8"?>', "<GeoServerLayer>"]
    if layer.id is not None:
        lines.append(f"  <id>{_esc(layer.id)}</id>")
    lines.append(f"  <enabled>{'true' if layer.enabled else 'false'}</enabled>")
    lines.append(f"  <name>{_esc(layer.name)}</name>")
    _xml_value(lines, "mimeFormats", hash_order(layer.formats), "  ")
    _subsets_xml(store, layer, lines)
    mx, my = layer.metatiling
    lines.append(
        f"  <metaWidthHeight>\n    <int>{mx}</int>\n    <int>{my}</int>\n  </metaWidthHeight>"
    )
    lines.append(f"  <expireCache>{layer.expire_cache}</expireCache>")
    lines.append(f"  <expireClients>{layer.expire_clients}</expireClients>")
    if layer.parameter_filters:
        lines.append("  <parameterFilters>")
        for f in layer.parameter_filters:
            tag = _filter_type(f)
            lines.append(f"    <{tag}>")
            for k, v in _filter_fields(f):
                if isinstance(v, str) and v == "":
                    lines.append(f"      <{k}></{k}>")
                else:
                    _xml_value(lines, k, v, "      ")
            lines.append(f"    </{tag}>")
        lines.append("  </parameterFilters>")
    else:
        lines.append("  <parameterFilters/>")
    lines.append(f"  <gutter>{layer.gutter}</gutter>")
    lines.append("  <cacheWarningSkips/>")
    lines.append("</GeoServerLayer>")
    return "\n".join(lines).encode("utf-8")


def _ordered(obj: dict[str, Any]) -> dict[str, Any]:
    """An ``org.json`` object: keys in Java ``HashMap`` order, nested objects too."""
    out: dict[str, Any] = {}
    for k in hash_order(obj):
        v = obj[k]
        if isinstance(v, dict):
            v = _ordered(v)
        elif isinstance(v, list):
            v = [_ordered(i) if isinstance(i, dict) else i for i in v]
        out[k] = v
    return out


def layer_json(layer: TileLayer) -> dict[str, Any]:
    subsets = []
    for name in layer.gridsets:
        opts = layer.subset(name)
        s: dict[str, Any] = {"gridSetName": name}
        if opts.extent is not None:
            s["extent"] = {"coords": list(opts.extent)}
        if opts.zoom_start is not None:
            s["zoomStart"] = opts.zoom_start
        if opts.zoom_stop is not None:
            s["zoomStop"] = opts.zoom_stop
        subsets.append(s)
    body: dict[str, Any] = {
        "enabled": layer.enabled,
        "name": layer.name,
        "mimeFormats": hash_order(layer.formats),
        "gridSubsets": subsets,
        "metaWidthHeight": list(layer.metatiling),
        "expireCache": layer.expire_cache,
        "expireClients": layer.expire_clients,
        "parameterFilters": [dict(_filter_fields(f)) for f in layer.parameter_filters],
        "gutter": layer.gutter,
        "cacheWarningSkips": [],
    }
    if layer.id is not None:
        body["id"] = layer.id
    return {"GeoServerLayer": _ordered(body)}


def dump_layer_json(layer: TileLayer) -> bytes:
    return wjson.dumps(layer_json(layer))


def dump_layer_list_xml(names: list[str], base: str) -> bytes:
    """``<layers>`` with a ``<layer>`` (name, atom link to ``.xml``) per tile layer."""
    if not names:
        return b'<?xml version="1.0" encoding="UTF-8"?>\n<layers/>'
    lines = ['<?xml version="1.0" encoding="UTF-8"?>', "<layers>"]
    for name in names:
        href = f"{base}/gwc/rest/layers/{quote(name, safe='')}.xml"
        lines.append("  <layer>")
        lines.append(f"    <name>{_esc(name)}</name>")
        link = f'rel="alternate" href="{_esc(href)}" type="text/xml"'
        lines.append(f'    <atom:link xmlns:atom="{ATOM}" {link}/>')
        lines.append("  </layer>")
    lines.append("</layers>")
    return "\n".join(lines).encode("utf-8")


def dump_layer_list_json(names: list[str]) -> bytes:
    return wjson.dumps(names)
