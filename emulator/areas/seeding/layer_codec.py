"""GWC's tile-layer representations (``/gwc/rest/layers``), as GeoServer writes them.

XML is XStream's pretty printing (two-space indent, ``<?xml …?>`` header added by GWC's
converter) of ``GeoServerTileLayerInfoImpl`` under the root ``GeoServerLayer``, fields in
declaration order. JSON goes through XStream's JSON driver and then ``org.json``, whose
objects are ``HashMap``s: keys come out in Java hash order, which ``java.hash_order``
reproduces. The list is the names of a ``HashSet``, an array in JSON.

Reading (``parse_layer_xml``/``parse_layer_json``) is XStream's: absent fields keep Java's
defaults; JSON is mapped onto the same XML first (arrays stand for XStream lists).
"""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

from ...core.errors import Invalid
from ...wire import json as wjson
from ...wire import xml as wxml
from ...wire.geoserver.java import double_text as java_double
from ...wire.geoserver.xmltext import escape_attribute
from ...wire.geoserver.xstream import names_xml_pretty
from .codec import java_decode
from .java import hash_order
from .model import (
    GEOSERVER_LAYER,
    MAX_METATILING,
    WMS_LAYER,
    GridSubsetOptions,
    SeedingStore,
    TileLayer,
)

_esc = escape_attribute
"""text escaped as XStream's pretty printer escapes it"""


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
    if isinstance(value, dict):
        lines.append(f"{pad}<{name}>")
        for k, v in value.items():
            _xml_value(lines, k, v, pad + "  ")
        lines.append(f"{pad}</{name}>")
        return
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
    root = layer.kind
    lines = ['<?xml version="1.0" encoding="UTF-8"?>', f"<{root}>"]
    if layer.id is not None and root == GEOSERVER_LAYER:
        lines.append(f"  <id>{_esc(layer.id)}</id>")
    if root == WMS_LAYER:
        lines.append(f"  <name>{_esc(layer.name)}</name>")
    lines.append(f"  <enabled>{'true' if layer.enabled else 'false'}</enabled>")
    if layer.in_memory_cached is not None:
        _xml_value(lines, "inMemoryCached", layer.in_memory_cached, "  ")
    if root == GEOSERVER_LAYER:
        lines.append(f"  <name>{_esc(layer.name)}</name>")
    if layer.blob_store_id is not None:
        lines.append(f"  <blobStoreId>{_esc(layer.blob_store_id)}</blobStoreId>")
    _xml_value(lines, "mimeFormats", hash_order(layer.formats), "  ")
    _subsets_xml(store, layer, lines)
    for tag, value in layer.extras:
        _xml_value(lines, tag, value, "  ")
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
    _xml_value(lines, "cacheWarningSkips", list(layer.cache_warning_skips), "  ")
    lines.append(f"</{root}>")
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
        "cacheWarningSkips": list(layer.cache_warning_skips),
    }
    if layer.id is not None and layer.kind == GEOSERVER_LAYER:
        body["id"] = layer.id
    if layer.in_memory_cached is not None:
        body["inMemoryCached"] = layer.in_memory_cached
    if layer.blob_store_id is not None:
        body["blobStoreId"] = layer.blob_store_id
    for tag, value in layer.extras:
        body[tag] = value
    return {layer.kind: _ordered(body)}


def dump_layer_json(layer: TileLayer) -> bytes:
    return wjson.dumps(layer_json(layer))


PATH_SEGMENT_SAFE = ":@!$&'()*+,;="
"""what a URI path segment carries as is (RFC 3986 ``pchar``): the link names the layer as
written (``topp:states``), as GWC's ``XStreamListAliasWrapper`` builds it"""


def dump_layer_list_xml(names: list[str], base: str) -> bytes:
    """``<layers>`` with a ``<layer>`` (name, atom link to ``.xml``) per tile layer."""
    entries = [(n, f"{base}/gwc/rest/layers/{quote(n, safe=PATH_SEGMENT_SAFE)}.xml") for n in names]
    return names_xml_pretty("layers", "layer", entries, declaration=True)


def dump_layer_list_json(names: list[str]) -> bytes:
    return wjson.dumps(names)


# -- reading a tile layer ----------------------------------------------------------------

LAYER_ROOTS = (GEOSERVER_LAYER, WMS_LAYER)
FILTER_TYPES = (
    "regexParameterFilter", "stringParameterFilter", "floatParameterFilter",
    "integerParameterFilter", "styleParameterFilter",
)  # fmt: skip
FILTER_FIELDS = {
    "key",
    "defaultValue",
    "normalize",
    "regex",
    "values",
    "threshold",
    "allowedStyles",
}
LIST_ITEMS = {
    "mimeFormats": "string", "gridSubsets": "gridSubset", "metaWidthHeight": "int",
    "coords": "double", "allowedStyles": "string", "cacheWarningSkips": "string",
    "wmsUrl": "string", "scaleDenominators": "double", "resolutions": "double",
    "scaleNames": "string", "keywords": "string", "layerQuotas": "LayerQuota",
}  # fmt: skip
"""JSON arrays (GeoServer's own output) stand for XStream lists of these elements"""
WMS_FIELDS = (
    "metaInformation", "formatModifiers", "wmsUrl", "wmsLayers", "wmsStyles", "errorMime",
    "wmsVersion", "httpUsername", "httpPassword", "proxyUrl", "tiled", "transparent",
    "bgColor", "palette", "vendorParameters", "cachePrefix", "concurrency",
    "backendTimeout", "cacheBypassAllowed", "queryable", "allowCacheBypass", "expireCacheList",
    "expireClientsList", "requestFilters", "updateSources", "useETags", "metaInformation",
)  # fmt: skip


def _scalar(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return ""
    return str(value)


def _filter_tag(item: dict[str, Any]) -> str:
    given = item.get("@class") or item.get("type")
    if isinstance(given, str):
        return given
    if "regex" in item:
        return "regexParameterFilter"
    if "allowedStyles" in item or str(item.get("key", "")).upper() == "STYLES":
        return "styleParameterFilter"
    values = item.get("values")
    if "threshold" in item and isinstance(values, list):
        if all(isinstance(v, int) and not isinstance(v, bool) for v in values):
            return "integerParameterFilter"
        return "floatParameterFilter"
    return "stringParameterFilter"


def json_to_element(parent: wxml.Element, key: str, value: Any) -> None:
    """A JSON value as the XML XStream reads: objects are elements, arrays are lists of the
    element ``LIST_ITEMS`` names (or repeat the element, Jettison's way)."""
    if (
        isinstance(value, list)
        and key in ("parameterFilters", "values")
        or (isinstance(value, list) and key in LIST_ITEMS)
    ):
        holder = wxml.sub(parent, key)
        for item in value:
            if key == "parameterFilters":
                if not isinstance(item, dict):
                    raise Invalid("Each parameter filter must be a JSON object")
                fields = {k: v for k, v in item.items() if k not in ("@class", "type")}
                json_to_element(holder, _filter_tag(item), fields)
            elif key == "values":
                tag = "string" if isinstance(item, str) else "float"
                if isinstance(item, int) and not isinstance(item, bool):
                    tag = "int"
                json_to_element(holder, tag, item)
            else:
                json_to_element(holder, LIST_ITEMS[key], item)
        return
    if isinstance(value, list):
        for item in value:
            json_to_element(parent, key, item)
        return
    el = wxml.sub(parent, key)
    if isinstance(value, dict):
        for k, v in value.items():
            if k == "$":
                el.text = _scalar(v)
            elif k.startswith("@"):
                el.set(k[1:], _scalar(v))
            else:
                json_to_element(el, k, v)
    else:
        el.text = _scalar(value)


def json_document(body: bytes, roots: tuple[str, ...], what: str) -> wxml.Element:
    """A JSON body ``{"<root>": {...}}`` as the element XStream would read."""
    doc = wjson.as_object(wjson.loads(body, what), what)
    if (
        len(doc) != 1
        or next(iter(doc)) not in roots
        or not isinstance(next(iter(doc.values())), dict)
    ):
        raise Invalid(f"Expected a JSON object with one key, one of: {', '.join(roots)}")
    holder = wxml.element("holder")
    key, value = next(iter(doc.items()))
    json_to_element(holder, key, value)
    return holder[0]


def _elements(el: wxml.Element) -> list[wxml.Element]:
    return [c for c in el if isinstance(c.tag, str)]


def _bool(el: wxml.Element, what: str) -> bool:
    value = wxml.to_bool(wxml.text(el), what)
    return bool(value)


def _int(el: wxml.Element, what: str) -> int:
    return java_decode(wxml.text(el) or "", what)


def _double(text: str | None, what: str) -> float:
    try:
        value = float((text or "").strip())
    except ValueError:
        raise Invalid(f"Invalid value for {what}: {text!r} is not a number") from None
    if value != value or value in (float("inf"), float("-inf")):
        raise Invalid(f"Invalid value for {what}: {text!r} is not a finite number")
    return value


def read_box(el: wxml.Element, what: str) -> tuple[float, float, float, float]:
    coords = wxml.child(el, "coords")
    values = _elements(coords) if coords is not None else []
    if len(values) != 4:
        raise Invalid(f"{what} must hold coords with four numbers: minx, miny, maxx, maxy")
    x0, y0, x1, y1 = (_double(v.text, what) for v in values)
    return (x0, y0, x1, y1)


def _subset(el: wxml.Element) -> tuple[str, GridSubsetOptions]:
    name: str | None = None
    opts = GridSubsetOptions()
    for c in _elements(el):
        tag = wxml.local(c.tag)
        if tag == "gridSetName":
            name = wxml.text(c)
        elif tag == "extent":
            opts.extent = read_box(c, "extent")
        elif tag == "zoomStart":
            opts.zoom_start = _int(c, "zoomStart")
        elif tag == "zoomStop":
            opts.zoom_stop = _int(c, "zoomStop")
        elif tag not in ("minCachedLevel", "maxCachedLevel"):
            raise Invalid(f"Unknown field {tag} in gridSubset")
    if not name:
        raise Invalid("A gridSubset must have a gridSetName")
    return name, opts


def _typed_list(el: wxml.Element, what: str) -> list[object]:
    out: list[object] = []
    for c in _elements(el):
        tag = wxml.local(c.tag)
        if tag == "float" or tag == "double":
            out.append(_double(c.text, what))
        elif tag in ("int", "integer", "long"):
            out.append(_int(c, what))
        else:
            out.append(c.text or "")
    return out


def _filter(el: wxml.Element) -> dict[str, object]:
    kind = wxml.local(el.tag)
    if kind not in FILTER_TYPES:
        raise rest_filter_error()
    out: dict[str, object] = {"type": kind}
    for c in _elements(el):
        tag = wxml.local(c.tag)
        if tag not in FILTER_FIELDS:
            raise Invalid(f"Unknown field {tag} in {kind}")
        if tag in ("values", "allowedStyles"):
            out[tag] = _typed_list(c, f"{kind}.{tag}")
        elif tag == "normalize":
            out[tag] = {wxml.local(n.tag): n.text or "" for n in _elements(c)}
        elif tag == "threshold":
            out[tag] = (
                _int(c, "threshold")
                if kind == "integerParameterFilter"
                else _double(c.text, "threshold")
            )
        else:
            out[tag] = c.text or ""
    key = out.get("key")
    if not isinstance(key, str) or not key:
        raise Invalid(f"A {kind} must have a key")
    if kind == "regexParameterFilter":
        _check_regex(str(out.get("regex", "")))
    return out


def rest_filter_error() -> Invalid:
    return Invalid("parameterFilters contains an element that is not a known ParameterFilter")


def _check_regex(pattern: str) -> None:
    from .filters import compile_regex

    compile_regex(pattern)


def _extra(el: wxml.Element) -> object:
    kids = _elements(el)
    if not kids:
        return el.text or ""
    if all(wxml.local(k.tag) in ("string", "int", "float", "double") for k in kids):
        return _typed_list(el, wxml.local(el.tag))
    return {wxml.local(k.tag): _extra(k) for k in kids}


def layer_from_element(root: wxml.Element) -> TileLayer:
    """Read a ``GeoServerLayer`` or ``wmsLayer`` as XStream fills it: fields absent keep
    Java's defaults (``enabled`` false, no formats, no gridsets, no filters)."""
    kind = wxml.local(root.tag)
    if kind not in LAYER_ROOTS:
        raise Invalid(f"Unknown tile layer type: {kind or 'no element'}")
    layer = TileLayer("", enabled=False, kind=kind, gridsets=[], formats=[], parameter_filters=[])
    auto_styles: bool | None = None
    if kind == WMS_LAYER:
        layer.metatiling = (1, 1)  # AbstractTileLayer.DEFAULT_METATILING_FACTORS
    for el in _elements(root):
        tag = wxml.local(el.tag)
        if tag == "id" and kind == GEOSERVER_LAYER:
            layer.id = wxml.text(el) or None
        elif tag == "name":
            layer.name = wxml.text(el) or ""
        elif tag == "enabled":
            layer.enabled = _bool(el, "enabled")
        elif tag == "inMemoryCached":
            layer.in_memory_cached = _bool(el, "inMemoryCached")
        elif tag == "blobStoreId":
            layer.blob_store_id = wxml.text(el) or None
        elif tag == "mimeFormats":
            layer.formats = list(dict.fromkeys((c.text or "").strip() for c in _elements(el)))
        elif tag == "gridSubsets":
            layer.gridsets, layer.subsets = [], {}
            for c in _elements(el):
                name, opts = _subset(c)
                if name not in layer.gridsets:
                    layer.gridsets.append(name)
                if opts != GridSubsetOptions():
                    layer.subsets[name] = opts
        elif tag == "metaWidthHeight":
            values = [_int(c, "metaWidthHeight") for c in _elements(el)]
            if len(values) != 2:
                raise Invalid("metaWidthHeight must hold two integers")
            if max(values) > MAX_METATILING:
                raise Invalid(
                    f"metaWidthHeight {values[0]} × {values[1]}: a metatile is at most"
                    f" {MAX_METATILING} tiles wide and high"
                )
            layer.metatiling = (values[0], values[1])
        elif tag in ("expireCache", "expireClients", "gutter"):
            setattr(layer, {"expireCache": "expire_cache", "expireClients": "expire_clients",
                            "gutter": "gutter"}[tag], _int(el, tag))  # fmt: skip
        elif tag == "parameterFilters":
            filters: dict[str, dict[str, object]] = {}
            for c in _elements(el):
                f = _filter(c)
                filters[str(f["key"]).upper()] = f
            layer.parameter_filters = list(filters.values())
        elif tag == "cacheWarningSkips":
            layer.cache_warning_skips = [(c.text or "").strip() for c in _elements(el)]
        elif tag == "autoCacheStyles" and kind == GEOSERVER_LAYER:
            auto_styles = _bool(el, "autoCacheStyles")
        elif kind == WMS_LAYER and tag in WMS_FIELDS:
            layer.extras.append((tag, _extra(el)))
        else:
            raise Invalid(f"Unknown field {tag} in {kind}")
    if auto_styles is not None:
        styles = [f for f in layer.parameter_filters if str(f["key"]).upper() == "STYLES"]
        if auto_styles and not styles:
            layer.parameter_filters.append(
                {"type": "styleParameterFilter", "key": "STYLES", "defaultValue": ""}
            )
        elif not auto_styles:
            layer.parameter_filters = [
                f for f in layer.parameter_filters
                if not (f in styles and f["type"] == "styleParameterFilter")
            ]  # fmt: skip
    return layer


def parse_layer_xml(body: bytes) -> TileLayer:
    return layer_from_element(wxml.parse(body, "tile layer"))


def parse_layer_json(body: bytes) -> TileLayer:
    return layer_from_element(json_document(body, LAYER_ROOTS, "tile layer"))
