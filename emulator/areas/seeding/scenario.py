"""Scenario section ``seeding``: gridsets, tile layers, the simulated pool, rates, failures.

    "seeding": {
      "poolSize": 16, "defaultRate": 10, "truncateSeconds": 1,
      "gridsets": [{"name": "UTM13", "srs": 26713, "extent": [589980, 4913700, 609000, 4928010],
                    "levels": 12}],
      "tileLayers": [{"name": "topp:states", "bounds": [-124.73, 24.96, -66.97, 49.37],
                      "gridsets": ["EPSG:4326", {"name": "EPSG:900913", "zoomStop": 14}],
                      "formats": ["image/png"], "metatiling": [4, 4], "rate": 5}],
      "rates": {"sf:roads": 2.5},
      "failures": {"topp:states": {"afterTiles": 64, "status": "aborted", "truncate": false}},
      "catalogIds": {"sf:roads": "LayerInfoImpl-…"}, "withoutTileLayers": ["sf:bugsites"],
      "blobStores": [{"type": "FileBlobStore", "id": "b1", "default": true,
                      "fields": {"baseDirectory": "/tmp/b1"}}],
      "diskQuota": {"enabled": "true"}, "global": {"backendTimeout": "60"}
    }

Applied after the catalog: a ``tileLayers`` entry updates the tile layer the catalog made
for that layer (only the keys it gives), or adds one. A gridset is defined by
``resolutions``, ``scaleDenominators`` or ``levels`` (GWC's three ways). ``catalogIds``
sets the catalog ids of published layers (a tile layer entry's ``id`` does too);
``withoutTileLayers`` names published layers whose tile layer was deleted over REST.
"""

from __future__ import annotations

from typing import Any

from ...core.errors import Invalid, ScenarioError
from ...core.state import State
from ...scenarios.context import ScenarioContext
from ...scenarios.fields import Section
from .config import BLOB_STORE_TYPES, BlobStore, Tree, check_blob_store, check_quota
from .gridsets import DEFAULT_GRIDSETS, Box, GridSet, create, create_by_levels
from .model import (
    GEOSERVER_LAYER,
    MAX_METATILING,
    WMS_LAYER,
    FailureRule,
    GridSubsetOptions,
    SeedingStore,
    TileLayer,
)

SECTION_KEYS = {
    "poolSize",
    "defaultRate",
    "truncateSeconds",
    "gridsets",
    "tileLayers",
    "rates",
    "failures",
    "catalogIds",
    "withoutTileLayers",
    "blobStores",
    "diskQuota",
    "global",
}
LAYER_KEYS = {
    "name", "id", "enabled", "bounds", "gridsets", "formats", "metatiling", "gutter",
    "parameterFilters", "expireCache", "expireClients", "rate", "failure", "kind",
    "inMemoryCached", "blobStoreId", "cacheWarningSkips", "wms",
}  # fmt: skip
GRIDSET_KEYS = {
    "name", "srs", "extent", "alignTopLeft", "resolutions", "scaleDenominators", "levels",
    "metersPerUnit", "pixelSize", "tileWidth", "tileHeight", "scaleNames", "description",
    "yCoordinateFirst",
}  # fmt: skip


def _box(sec: Section, key: str) -> Box | None:
    if not sec.has(key):
        return None
    v = sec.list(key)
    if len(v) != 4 or not all(isinstance(x, int | float) and not isinstance(x, bool) for x in v):
        raise ScenarioError(f"{sec.where}.{key}: expected four numbers minx, miny, maxx, maxy")
    if v[0] > v[2] or v[1] > v[3]:
        raise ScenarioError(f"{sec.where}.{key}: minimum above maximum")
    return (float(v[0]), float(v[1]), float(v[2]), float(v[3]))


def _positive(sec: Section, key: str, default: float) -> float:
    v = sec.number(key, default)
    if v <= 0:
        raise ScenarioError(f"{sec.where}.{key}: expected a positive number")
    return float(v)


def _numbers(sec: Section, key: str) -> list[float] | None:
    if not sec.has(key):
        return None
    v = sec.list(key)
    if not v or not all(
        isinstance(x, int | float) and not isinstance(x, bool) and x > 0 for x in v
    ):
        raise ScenarioError(f"{sec.where}.{key}: expected a list of positive numbers")
    return [float(x) for x in v]


def _gridset(g: Section) -> GridSet:
    g.only(GRIDSET_KEYS)
    name = g.str("name", required=True)
    extent = _box(g, "extent")
    if extent is None:
        raise ScenarioError(f"{g.where}.extent: missing")
    ways = [k for k in ("resolutions", "scaleDenominators", "levels") if g.has(k)]
    if len(ways) != 1:
        raise ScenarioError(
            f"{g.where}: give exactly one of resolutions, scaleDenominators, levels"
        )
    args: dict[str, Any] = {
        "meters_per_unit": g.number("metersPerUnit"),
        "pixel_size": _positive(g, "pixelSize", 0.00028),
        "tile_width": g.int("tileWidth", 256),
        "tile_height": g.int("tileHeight", 256),
        "definition": tuple(g.data.items()),
        "description": g.str("description"),
        "y_coordinate_first": g.bool("yCoordinateFirst", False),
    }
    names = g.strings("scaleNames") if g.has("scaleNames") else []
    if args["tile_width"] <= 0 or args["tile_height"] <= 0:
        raise ScenarioError(f"{g.where}: tile sizes must be positive")
    srs, top_left = g.int("srs", required=True), g.bool("alignTopLeft", False)
    try:
        if ways[0] == "levels":
            levels = g.int("levels")
            if not 1 <= levels <= 64:
                raise ScenarioError(f"{g.where}.levels: expected 1 to 64")
            return create_by_levels(name, srs, extent, top_left, levels, **args)
        values = _numbers(g, ways[0])
        if ways[0] == "resolutions":
            return create(name, srs, extent, top_left, values, None, **args, scale_names=names)
        return create(name, srs, extent, top_left, None, values, **args, scale_names=names)
    except Invalid as exc:
        raise ScenarioError(f"{g.where}: {exc.message}") from None


def _failure(sec: Section) -> FailureRule:
    sec.only({"afterTiles", "status", "truncate"})
    after = sec.int("afterTiles")
    if after is not None and after < 0:
        raise ScenarioError(f"{sec.where}.afterTiles: expected a non-negative integer")
    status = sec.str("status", "aborted")
    if status not in ("aborted", "crashed"):
        raise ScenarioError(f"{sec.where}.status: expected aborted or crashed")
    return FailureRule(after, status, sec.bool("truncate", False))


def _subsets(store: SeedingStore, sec: Section, layer: TileLayer) -> None:
    names: list[str] = []
    subsets: dict[str, GridSubsetOptions] = {}
    for i, item in enumerate(sec.list("gridsets")):
        where = f"{sec.where}.gridsets[{i}]"
        if isinstance(item, str):
            name, opts = item, GridSubsetOptions()
        else:
            s = Section(item, where).only({"name", "extent", "zoomStart", "zoomStop"})
            name = s.str("name", required=True)
            opts = GridSubsetOptions(_box(s, "extent"), s.int("zoomStart"), s.int("zoomStop"))
            if opts.zoom_start is not None and opts.zoom_start < 0:
                raise ScenarioError(f"{where}.zoomStart: expected a non-negative integer")
        names.append(name)
        if opts != GridSubsetOptions():
            subsets[name] = opts
    layer.gridsets, layer.subsets = names, subsets


def _tile_layer(store: SeedingStore, t: Section) -> None:
    t.only(LAYER_KEYS)
    name = t.str("name", required=True)
    layer = store.tile_layers.get(name) or TileLayer(name)
    layer.id = t.str("id", layer.id)
    if layer.id is not None and name in store.published:
        store.published[name] = layer.id
    layer.enabled = t.bool("enabled", layer.enabled)
    kind = t.str("kind", layer.kind)
    if kind not in (GEOSERVER_LAYER, WMS_LAYER):
        raise ScenarioError(f"{t.where}.kind: expected {GEOSERVER_LAYER} or {WMS_LAYER}")
    layer.kind = kind
    if t.has("inMemoryCached"):
        layer.in_memory_cached = t.bool("inMemoryCached")
    layer.blob_store_id = t.str("blobStoreId", layer.blob_store_id)
    if t.has("cacheWarningSkips"):
        layer.cache_warning_skips = t.strings("cacheWarningSkips")
    wms = t.obj("wms")
    if wms is not None:
        layer.extras = list(wms.data.items())
    layer.bounds = _box(t, "bounds") if t.has("bounds") else layer.bounds
    if t.has("gridsets"):
        _subsets(store, t, layer)
    if t.has("formats"):
        layer.formats = t.strings("formats")
    if t.has("metatiling"):
        m = t.list("metatiling")
        if len(m) != 2 or not all(
            isinstance(x, int) and not isinstance(x, bool) and 0 <= x <= MAX_METATILING for x in m
        ):
            raise ScenarioError(
                f"{t.where}.metatiling: expected two integers from 0 to {MAX_METATILING}"
            )
        layer.metatiling = (m[0], m[1])
    layer.gutter = t.int("gutter", layer.gutter)
    layer.expire_cache = t.int("expireCache", layer.expire_cache)
    layer.expire_clients = t.int("expireClients", layer.expire_clients)
    if t.has("parameterFilters"):
        filters = [
            Section(f, f"{t.where}.parameterFilters").data for f in t.list("parameterFilters")
        ]
        layer.parameter_filters = [dict(f) for f in filters]
    if t.has("rate"):
        store.settings.rates[name] = _positive(t, "rate", 1.0)
    failure = t.obj("failure")
    if failure is not None:
        store.settings.failures[name] = _failure(failure)
    store.tile_layers[name] = layer


def apply(state: State, sec: Section, ctx: ScenarioContext) -> None:
    sec.only(SECTION_KEYS)
    store = state.seeding
    settings = store.settings
    pool = sec.int("poolSize", settings.pool_size)
    if pool < 1:
        raise ScenarioError(f"{sec.where}.poolSize: expected a positive integer")
    settings.pool_size = pool
    settings.default_rate = _positive(sec, "defaultRate", settings.default_rate)
    truncate = sec.number("truncateSeconds", settings.truncate_seconds)
    if truncate < 0:
        raise ScenarioError(f"{sec.where}.truncateSeconds: expected a non-negative number")
    settings.truncate_seconds = float(truncate)
    for g in sec.items("gridsets"):
        gridset = _gridset(g)
        store.gridsets[gridset.name] = gridset
    rates = sec.obj("rates")
    for layer_name in rates.data if rates is not None else ():
        assert rates is not None
        settings.rates[layer_name] = _positive(rates, layer_name, 1.0)
    failures = sec.obj("failures")
    for layer_name in failures.data if failures is not None else ():
        assert failures is not None
        rule = failures.obj(layer_name)
        assert rule is not None
        settings.failures[layer_name] = _failure(rule)
    ids = sec.obj("catalogIds")
    for layer_name, layer_id in ids.data.items() if ids is not None else ():
        if not isinstance(layer_id, str) or layer_name not in store.published:
            raise ScenarioError(f"{sec.where}.catalogIds.{layer_name}: no such published layer")
        store.published[layer_name] = layer_id
        if layer_name in store.tile_layers:
            store.tile_layers[layer_name].id = layer_id
    for b in sec.items("blobStores"):
        _blob_store(store, b)
    if sec.has("diskQuota"):
        store.disk_quota.fields = _tree(sec.data["diskQuota"], f"{sec.where}.diskQuota")
        try:
            check_quota(store.disk_quota.fields)
        except Invalid as exc:
            raise ScenarioError(f"{sec.where}.diskQuota: {exc.message}") from None
    if sec.has("global"):
        store.global_config.fields = _tree(sec.data["global"], f"{sec.where}.global")
    for t in sec.items("tileLayers"):
        _tile_layer(store, t)
    for name in sec.strings("withoutTileLayers") if sec.has("withoutTileLayers") else ():
        store.tile_layers.pop(name, None)


def _tree(value: Any, where: str) -> Tree:
    """A configuration document written as JSON: objects, strings, lists of strings."""
    if not isinstance(value, dict):
        raise ScenarioError(f"{where}: expected an object")
    out: Tree = []
    for k, v in value.items():
        if isinstance(v, dict):
            out.append((k, _tree(v, f"{where}.{k}")))
        elif isinstance(v, list):
            out.append((k, [("string", str(x)) for x in v]))
        elif isinstance(v, bool):
            out.append((k, "true" if v else "false"))
        else:
            out.append((k, str(v)))
    return out


def _tree_doc(tree: Tree) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for k, v in tree:
        if isinstance(v, list) and v and all(t == "string" for t, _ in v):
            out[k] = [x for _, x in v]
        elif isinstance(v, list):
            out[k] = _tree_doc(v)
        else:
            out[k] = v
    return out


def _blob_store(store: SeedingStore, b: Section) -> None:
    b.only({"type", "id", "enabled", "default", "fields"})
    kind = b.str("type", "FileBlobStore")
    if kind not in BLOB_STORE_TYPES:
        raise ScenarioError(f"{b.where}.type: unknown blob store type {kind}")
    fields = _tree(b.data.get("fields", {}), f"{b.where}.fields")
    blob = BlobStore(kind, b.str("id", required=True), b.bool("enabled", True),
                     b.bool("default", False), fields)  # fmt: skip
    try:
        check_blob_store(blob)
    except Invalid as exc:
        raise ScenarioError(f"{b.where}: {exc.message}") from None
    if blob.default:
        for other in store.blob_stores.values():
            other.default = False
    store.blob_stores[blob.id] = blob


def _layer_doc(layer: TileLayer) -> dict[str, Any]:
    gridsets: list[Any] = []
    for name in layer.gridsets:
        opts = layer.subsets.get(name)
        if opts is None:
            gridsets.append(name)
            continue
        entry: dict[str, Any] = {"name": name}
        if opts.extent is not None:
            entry["extent"] = list(opts.extent)
        if opts.zoom_start is not None:
            entry["zoomStart"] = opts.zoom_start
        if opts.zoom_stop is not None:
            entry["zoomStop"] = opts.zoom_stop
        gridsets.append(entry)
    doc: dict[str, Any] = {"name": layer.name}
    if layer.id is not None:
        doc["id"] = layer.id
    doc["enabled"] = layer.enabled
    if layer.bounds is not None:
        doc["bounds"] = list(layer.bounds)
    doc.update(
        gridsets=gridsets, formats=list(layer.formats), metatiling=list(layer.metatiling),
        gutter=layer.gutter, parameterFilters=[dict(f) for f in layer.parameter_filters],
        expireCache=layer.expire_cache, expireClients=layer.expire_clients,
    )  # fmt: skip
    if layer.kind != GEOSERVER_LAYER:
        doc["kind"] = layer.kind
    if layer.in_memory_cached is not None:
        doc["inMemoryCached"] = layer.in_memory_cached
    if layer.blob_store_id is not None:
        doc["blobStoreId"] = layer.blob_store_id
    if layer.cache_warning_skips:
        doc["cacheWarningSkips"] = list(layer.cache_warning_skips)
    if layer.extras:
        doc["wms"] = dict(layer.extras)
    return doc


def dump(state: State, ctx: ScenarioContext) -> dict[str, Any]:
    store = state.seeding
    s = store.settings
    return {
        "poolSize": s.pool_size,
        "defaultRate": s.default_rate,
        "truncateSeconds": s.truncate_seconds,
        "gridsets": [
            _gridset_doc(g) for n, g in store.gridsets.items() if n not in DEFAULT_GRIDSETS
        ],
        "tileLayers": [_layer_doc(layer) for layer in store.tile_layers.values()],
        "rates": dict(s.rates),
        "failures": {
            name: {"afterTiles": f.after_tiles, "status": f.status, "truncate": f.truncate}
            for name, f in s.failures.items()
        },
        "catalogIds": {
            name: id
            for name, id in store.published.items()
            if name not in store.tile_layers or store.tile_layers[name].id != id
        },
        "withoutTileLayers": [name for name in store.published if name not in store.tile_layers],
        "blobStores": [
            {
                "type": b.kind,
                "id": b.id,
                "enabled": b.enabled,
                "default": b.default,
                "fields": _tree_doc(b.fields),
            }
            for b in store.blob_stores.values()
        ],  # fmt: skip
        "diskQuota": _tree_doc(store.disk_quota.fields),
        "global": _tree_doc(store.global_config.fields),
    }


def _gridset_doc(g: GridSet) -> dict[str, Any]:
    """A scenario entry for a gridset (its definition, or one written from its fields)."""
    if g.definition:
        return dict(g.definition)
    extent = list(g.original_extent or g.extent)
    doc: dict[str, Any] = {
        "name": g.name, "srs": g.srs, "extent": extent, "alignTopLeft": g.align_top_left,
    }  # fmt: skip
    if g.scale_denominators is not None:
        doc["scaleDenominators"] = list(g.scale_denominators)
    else:
        doc["resolutions"] = list(g.resolutions)
    doc.update(metersPerUnit=g.meters_per_unit, pixelSize=g.pixel_size,
               tileWidth=g.tile_width, tileHeight=g.tile_height)  # fmt: skip
    if g.scale_names:
        doc["scaleNames"] = list(g.scale_names)
    if g.description:
        doc["description"] = g.description
    if g.y_coordinate_first:
        doc["yCoordinateFirst"] = True
    return doc
