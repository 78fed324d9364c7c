"""The ``seeding`` section of an imported scenario (GWC REST): tile layers with their catalog
ids, custom gridsets, blob stores, the disk quota and global settings."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from lxml import etree

from ..areas.seeding.gridsets import builtin_names
from .import_values import as_list, seg

if TYPE_CHECKING:
    from .importer import Context


def read_seeding(ctx: Context) -> dict[str, Any] | None:
    r = ctx.reader
    layer_names = r.json("/gwc/rest/layers.json")
    if not isinstance(layer_names, list):
        return None
    gridsets = read_gridsets(ctx)
    known = set(builtin_names()) | {g["name"] for g in gridsets}
    layers = []
    for name in layer_names:
        if not isinstance(name, str):
            continue
        data = r.json(f"/gwc/rest/layers/{seg(name)}.json")
        body = (
            next(iter(data.values()), None) if isinstance(data, dict) and len(data) == 1 else None
        )
        if isinstance(body, dict):
            layers.append(_tile_layer(name, body, known, r.notes))
    out: dict[str, Any] = {"tileLayers": layers}
    if gridsets:
        out["gridsets"] = gridsets
    stores = read_blob_stores(ctx)
    if stores:
        out["blobStores"] = stores
    for key, path, root in (
        ("diskQuota", "/gwc/rest/diskquota.json", "gwcQuotaConfiguration"),
        ("global", "/gwc/rest/global.json", "global"),
    ):
        data = r.json(path)
        if isinstance(data, dict) and isinstance(data.get(root), dict):
            out[key] = _plain(data[root])
    return out


def _plain(doc: dict[str, Any]) -> dict[str, Any]:
    """A configuration object as the scenario writes it: strings, lists of strings, objects."""
    out: dict[str, Any] = {}
    for k, v in doc.items():
        if isinstance(v, dict):
            out[k] = _plain(v)
        elif isinstance(v, list):
            out[k] = [str(x) for x in v]
        elif isinstance(v, bool):
            out[k] = "true" if v else "false"
        else:
            out[k] = str(v)
    return out


def read_blob_stores(ctx: Context) -> list[dict[str, Any]]:
    r = ctx.reader
    names = r.json("/gwc/rest/blobstores.json")
    out = []
    for name in names if isinstance(names, list) else []:
        data = r.json(f"/gwc/rest/blobstores/{seg(str(name))}.json")
        if not isinstance(data, dict) or len(data) != 1:
            r.notes.append(f"blob store {name}: could not be read, left out")
            continue
        kind, body = next(iter(data.items()))
        if not isinstance(body, dict):
            continue
        fields = {
            k: v for k, v in body.items() if k not in ("id", "enabled", "default", "_default")
        }
        out.append({
            "type": kind, "id": str(body.get("id", name)),
            "enabled": body.get("enabled", True) is not False,
            "default": body.get("default", body.get("_default")) in (True, "true"),
            "fields": _plain(fields),
        })  # fmt: skip
    return out


def _tile_layer(
    name: str, body: dict[str, Any], known: set[str], notes: list[str]
) -> dict[str, Any]:
    layer: dict[str, Any] = {"name": name, "enabled": body.get("enabled", True) is not False}
    if isinstance(body.get("id"), str):
        layer["id"] = body["id"]
    if isinstance(body.get("inMemoryCached"), bool):
        layer["inMemoryCached"] = body["inMemoryCached"]
    if isinstance(body.get("blobStoreId"), str):
        layer["blobStoreId"] = body["blobStoreId"]
    subsets = []
    for sub in as_list(body.get("gridSubsets")):
        if not isinstance(sub, dict) or not isinstance(sub.get("gridSetName"), str):
            continue
        gridset = sub["gridSetName"]
        if gridset not in known:
            notes.append(f"tile layer {name}: gridset {gridset} is not known here, left out")
            continue
        entry: dict[str, Any] = {"name": gridset}
        coords = (
            sub.get("extent", {}).get("coords") if isinstance(sub.get("extent"), dict) else None
        )
        if isinstance(coords, list) and len(coords) == 4:
            entry["extent"] = [float(c) for c in coords]
        for key in ("zoomStart", "zoomStop"):
            if isinstance(sub.get(key), int):
                entry[key] = sub[key]
        subsets.append(entry if len(entry) > 1 else gridset)
    layer["gridsets"] = subsets
    if "mimeFormats" in body:
        layer["formats"] = [str(f) for f in as_list(body["mimeFormats"])]
    meta = body.get("metaWidthHeight")
    if isinstance(meta, list) and len(meta) == 2:
        layer["metatiling"] = [int(m) for m in meta]
    for src, dst in (
        ("gutter", "gutter"),
        ("expireCache", "expireCache"),
        ("expireClients", "expireClients"),
    ):
        if isinstance(body.get(src), int):
            layer[dst] = body[src]
    filters = [f for f in as_list(body.get("parameterFilters")) if isinstance(f, dict)]
    if filters:
        layer["parameterFilters"] = [
            {k: v for k, v in f.items() if not k.startswith("@")} for f in filters
        ]
    return layer


def read_gridsets(ctx: Context) -> list[dict[str, Any]]:
    """Custom gridsets (``/gwc/rest/gridsets``), as scenario gridsets; GWC's own are skipped."""
    r = ctx.reader
    listing = r.xml("/gwc/rest/gridsets.xml")
    if listing is None:
        return []
    out = []
    for el in listing.iter("name"):
        name = el.text or ""
        if not name or name in builtin_names():
            continue
        root = r.xml(f"/gwc/rest/gridsets/{seg(name)}.xml")
        gridset = _gridset(root) if root is not None else None
        if gridset is None:
            r.notes.append(f"gridset {name}: could not be read, left out")
        else:
            out.append(gridset)
    return out


def _gridset(root: etree._Element) -> dict[str, Any] | None:
    def text(path: str) -> str | None:
        found = root.find(path)
        return None if found is None or found.text is None else found.text.strip()

    def doubles(path: str) -> list[float]:
        return [float(d.text) for d in root.findall(f"{path}/double") if d.text]

    name, srs, extent = text("name"), text("srs/number"), doubles("extent/coords")
    if not name or not srs or len(extent) != 4:
        return None
    out: dict[str, Any] = {"name": name, "srs": int(srs), "extent": extent}
    out["alignTopLeft"] = text("alignTopLeft") == "true"
    if doubles("resolutions"):
        out["resolutions"] = doubles("resolutions")
    elif doubles("scaleDenominators"):
        out["scaleDenominators"] = doubles("scaleDenominators")
    else:
        return None
    for key, cast in (
        ("metersPerUnit", float),
        ("pixelSize", float),
        ("tileWidth", int),
        ("tileHeight", int),
    ):
        value = text(key)
        if value:
            out[key] = cast(value)
    return out
