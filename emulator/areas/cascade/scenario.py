"""Scenario section ``cascade``: remote servers' capabilities, cascaded stores and layers.

    "cascade": {
      "remotes": [{"url": "http://maps.example.com/wms", "capabilities": "<WMS_Capabilities …"},
                  {"url": "http://tiles.example.com/wmts", "file": "tiles-caps.xml"}],
      "wmsStores": [{"workspace": "topp", "name": "remote", "capabilitiesUrl":
                     "http://maps.example.com/wms?request=GetCapabilities",
                     "layers": [{"name": "roads", "nativeName": "osm:roads", "srs": "EPSG:4326",
                                 "latLonBoundingBox": {"minx": -180, "maxx": 180,
                                                       "miny": -90, "maxy": 90}}]}],
      "wmtsStores": [{"workspace": "topp", "name": "tiles", "capabilitiesUrl": "…",
                      "layers": [{"name": "basemap"}]}]
    }

A remote's document is given inline (``capabilities``) or as a file beside the scenario
(``file``); it must read as a WMS 1.1.1/1.3.0 or WMTS 1.0.0 capabilities document. Stores
and layers are written out in full (nothing is read from the documents when a scenario is
applied), so a dump loads back exactly. Each layer is published unless ``"layer": false``;
``layer`` takes the catalog's layer keys (``defaultStyle`` defaults to ``raster``). The generic
fields (metadata and data links, i18n title, a published layer's attribution…) travel as the
catalog's do, ``"fields": {tag: normal form}`` on a layer and on its ``layer``. A
bounding box without ``crs`` takes the layer's ``srs`` (native) or ``EPSG:4326`` (lat/lon).

The fields are tables (``STORE_FIELDS``, ``LAYER_FIELDS``…): one list drives reading and
writing, so every field round-trips.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ...core.errors import EmulatorError, ScenarioError
from ...core.state import State
from ...scenarios.context import ScenarioContext
from ...scenarios.fields import Section
from ..catalog import fields
from ..catalog.entities import BBox, Layer
from ..catalog.scenario import generic_fields, style_ref
from . import capabilities
from .entities import HTTPStore, RemoteStyle, WMSLayer, WMSStore, WMTSLayer, WMTSStore

Table = tuple[tuple[str, str, str], ...]
"""(scenario key, attribute, type): ``str``, ``bool``, ``int``, ``number``, ``strings``,
``bbox``, ``metadata``"""

STORE_FIELDS: Table = (
    ("type", "type", "str"),
    ("description", "description", "str"),
    ("enabled", "enabled", "bool"),
    ("default", "default", "bool"),
    ("dateCreated", "date_created", "str"),
    ("dateModified", "date_modified", "str"),
    ("disableOnConnFailure", "disable_on_conn_failure", "bool"),
    ("metadata", "metadata", "metadata"),
    ("connectionParameters", "connection_parameters", "metadata"),
    ("capabilitiesUrl", "capabilities_url", "str"),
    ("user", "user", "str"),
    ("password", "password", "str"),
    ("maxConnections", "max_connections", "int"),
    ("readTimeout", "read_timeout", "int"),
    ("connectTimeout", "connect_timeout", "int"),
)
WMTS_STORE_FIELDS: Table = (
    ("headerName", "header_name", "str"),
    ("headerValue", "header_value", "str"),
)
LAYER_FIELDS: Table = (
    ("nativeName", "native_name", "str"),
    ("title", "title", "str"),
    ("abstract", "abstract", "str"),
    ("description", "description", "str"),
    ("keywords", "keywords", "strings"),
    ("srs", "srs", "str"),
    ("nativeCrs", "native_crs", "str"),
    ("nativeBoundingBox", "native_bbox", "bbox"),
    ("latLonBoundingBox", "latlon_bbox", "bbox"),
    ("projectionPolicy", "projection_policy", "str"),
    ("enabled", "enabled", "bool"),
    ("advertised", "advertised", "bool"),
    ("metadata", "metadata", "metadata"),
    ("dateCreated", "date_created", "str"),
    ("dateModified", "date_modified", "str"),
)
WMS_LAYER_FIELDS: Table = (
    ("forcedRemoteStyle", "forced_remote_style", "str"),
    ("preferredFormat", "preferred_format", "str"),
    ("selectedRemoteFormats", "selected_remote_formats", "strings"),
    ("selectedRemoteStyles", "selected_remote_styles", "strings"),
    ("minScale", "min_scale", "number"),
    ("maxScale", "max_scale", "number"),
    ("metadataBBoxRespected", "metadata_bbox_respected", "bool"),
)
PUBLISHED_FIELDS: Table = (
    ("enabled", "enabled", "bool"),
    ("advertised", "advertised", "bool"),
    ("queryable", "queryable", "bool"),
    ("opaque", "opaque", "bool"),
    ("path", "path", "str"),
    ("dateCreated", "date_created", "str"),
    ("dateModified", "date_modified", "str"),
)
STYLE_FIELDS: Table = (
    ("legendUrl", "legend_url", "str"),
    ("legendFormat", "legend_format", "str"),
    ("legendWidth", "legend_width", "int"),
    ("legendHeight", "legend_height", "int"),
)
KINDS = (
    ("wmsStores", WMSStore, STORE_FIELDS, WMSLayer, LAYER_FIELDS + WMS_LAYER_FIELDS),
    ("wmtsStores", WMTSStore, STORE_FIELDS + WMTS_STORE_FIELDS, WMTSLayer, LAYER_FIELDS),
)


# -- reading ----------------------------------------------------------------------------------


def apply(state: State, sec: Section, ctx: ScenarioContext) -> None:
    sec.only({"remotes", "wmsStores", "wmtsStores"})
    for r in sec.items("remotes"):
        _remote(state, r, ctx)
    cat = state.catalog
    try:
        for key, store_cls, store_table, layer_cls, layer_table in KINDS:
            for s in sec.items(key):
                s.only({"workspace", "name", "layers", *(k for k, _, _ in store_table)})
                store = store_cls(s.str("name", required=True), s.str("workspace", required=True))
                _read(store, s, store_table)
                cat.add_store(store)
                for lyr in s.items("layers"):
                    _layer(state, store, layer_cls, layer_table, lyr)
    except EmulatorError as exc:
        raise ScenarioError(f"{sec.where}: {exc.message}") from None


def _remote(state: State, r: Section, ctx: ScenarioContext) -> None:
    r.only({"url", "capabilities", "file"})
    url = r.str("url", required=True)
    text, name = r.str("capabilities"), r.str("file")
    if (text is None) == (name is None):
        raise ScenarioError(f"{r.where}: give exactly one of capabilities and file")
    if name is not None:
        path = Path(name) if ctx.base_dir is None else ctx.base_dir / name
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise ScenarioError(f"{r.where}.file: cannot read {name}: {exc}") from None
    try:
        capabilities.parse(text or "")
    except EmulatorError as exc:
        raise ScenarioError(f"{r.where}: {exc.message}") from None
    state.cascade.register(url, text or "")


def _layer(state: State, store: HTTPStore, cls: type[Any], table: Table, r: Section) -> None:
    extra = {"remoteStyles"} if cls is WMSLayer else set()
    r.only({"name", "layer", "fields", *extra, *(k for k, _, _ in table)})
    layer = cls(r.str("name", required=True), store.workspace, store.name)
    _read(layer, r, table)
    layer.extras = generic_fields(r, fields.TABLES[layer.kind])
    if isinstance(layer, WMSLayer):
        for s in r.items("remoteStyles"):
            s.only({"name", *(k for k, _, _ in STYLE_FIELDS)})
            values = {attr: _value(s, key, kind, None) for key, attr, kind in STYLE_FIELDS}
            layer.remote_styles.append(RemoteStyle(s.str("name", required=True), **values))
    state.catalog.add_resource(layer, publish=False)
    raw = r.data.get("layer", {})
    if raw is False:
        return
    p = Section(raw, f"{r.where}.layer").only(
        {"defaultStyle", "styles", "fields", *(k for k, _, _ in PUBLISHED_FIELDS)}
    )
    published = Layer(layer.name, layer.workspace)
    default = p.str("defaultStyle")
    published.default_style = style_ref(default) if default else None
    published.styles = [style_ref(x) for x in p.strings("styles")]
    _read(published, p, PUBLISHED_FIELDS)
    published.extras = generic_fields(p, fields.LAYER)
    state.catalog.add_layer(published)


def _read(target: Any, s: Section, table: Table) -> None:
    for key, attr, kind in table:
        if s.has(key):
            setattr(target, attr, _value(s, key, kind, getattr(target, "srs", None)))


def _value(s: Section, key: str, kind: str, srs: str | None) -> Any:
    if kind == "str":
        return s.str(key)
    if kind == "bool":
        return s.bool(key)
    if kind == "int":
        return s.int(key)
    if kind == "number":
        return s.number(key)
    if kind == "strings":
        return list(s.strings(key))
    if kind == "bbox":
        return _bbox(s, key, srs if key == "nativeBoundingBox" else "EPSG:4326")
    return _metadata(s, key)


def _bbox(s: Section, key: str, default_crs: str | None) -> BBox | None:
    b = s.obj(key)
    if b is None:
        return None
    b.only({"minx", "maxx", "miny", "maxy", "crs"})
    minx, maxx, miny, maxy = (
        float(b.number(k, required=True)) for k in ("minx", "maxx", "miny", "maxy")
    )
    return BBox(minx, maxx, miny, maxy, b.str("crs", default_crs))


def _metadata(s: Section, key: str) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for k, v in s.dict(key).items():
        if isinstance(v, bool) or not isinstance(v, str | int | float | dict):
            raise ScenarioError(f"{s.where}.{key}.{k}: expected a string or an object")
        out[k] = v if isinstance(v, dict) else str(v)
    return out


# -- writing ----------------------------------------------------------------------------------


def dump(state: State, ctx: ScenarioContext) -> dict[str, Any]:
    cat = state.catalog
    out: dict[str, Any] = {
        "remotes": [{"url": url, "capabilities": doc} for url, doc in state.cascade.listed()]
    }
    for key, store_cls, store_table, _, layer_table in KINDS:
        out[key] = []
        for ws in cat.list_workspaces():
            for store in cat.list_stores(ws.name, store_cls.kind):
                entry = {"workspace": store.workspace, "name": store.name}
                entry.update(_write(store, store_table))
                entry["layers"] = [
                    _dump_layer(cat, r, layer_table)
                    for r in cat.list_resources(store.workspace, store=store.name)
                ]
                out[key].append(entry)
    return out


def _dump_layer(cat: Any, layer: Any, table: Table) -> dict[str, Any]:
    entry: dict[str, Any] = {"name": layer.name, **_write(layer, table)}
    if layer.extras:
        entry["fields"] = dict(layer.extras)
    if isinstance(layer, WMSLayer) and layer.remote_styles:
        entry["remoteStyles"] = [
            {"name": s.name, **_write(s, STYLE_FIELDS)} for s in layer.remote_styles
        ]
    published = cat.layers.get((layer.workspace, layer.name))
    if published is None:
        entry["layer"] = False
        return entry
    inner = _write(published, PUBLISHED_FIELDS)
    if published.default_style is not None:
        inner["defaultStyle"] = published.default_style.prefixed
    if published.styles:
        inner["styles"] = [s.prefixed for s in published.styles]
    if published.extras:
        inner["fields"] = dict(published.extras)
    entry["layer"] = inner
    return entry


def _write(source: Any, table: Table) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, attr, kind in table:
        value = getattr(source, attr)
        if value is None or (kind in ("strings", "metadata") and not value):
            continue
        if kind == "bbox":
            value = {
                "minx": value.minx,
                "maxx": value.maxx,
                "miny": value.miny,
                "maxy": value.maxy,
                "crs": value.crs,
            }
        elif kind in ("strings", "metadata"):
            value = list(value) if kind == "strings" else dict(value)
        out[key] = value
    return out
