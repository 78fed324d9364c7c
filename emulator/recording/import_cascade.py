"""The ``cascade`` section of an imported scenario: WMS and WMTS stores with their cascaded
layers (each with its published layer). The remote servers' capabilities documents are not
read (the importer talks only to the GeoServer it imports): register them afterwards in the
section's ``remotes`` to let the emulator create more layers from those stores."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..areas.catalog import fields
from ..scenarios.scrub import is_secret_key
from .import_catalog import _extras, _resource, _store_base, _strings
from .import_values import entries, listed, names, seg, unwrap

if TYPE_CHECKING:
    from .importer import Context

STORE_VALUES = ("maxConnections", "readTimeout", "connectTimeout", "headerName", "headerValue")
WMS_VALUES = (
    "forcedRemoteStyle",
    "preferredFormat",
    "minScale",
    "maxScale",
    "metadataBBoxRespected",
)
KINDS = (
    ("wmsStores", "wmsstores", "wmsStore", "wmslayers", "wmsLayers", "wmsLayer"),
    ("wmtsStores", "wmtsstores", "wmtsStore", "layers", "wmtsLayers", "wmtsLayer"),
)


def read_cascade(ctx: Context) -> dict[str, Any] | None:
    r = ctx.reader
    listing = r.json("/rest/workspaces.json")
    if listing is None:
        return None
    out: dict[str, Any] = {"wmsStores": [], "wmtsStores": []}
    for ws in names(listing, "workspaces", "workspace"):
        for key, segment, item, child, outer, inner in KINDS:
            base = f"/rest/workspaces/{seg(ws)}/{segment}"
            for name in names(r.json(f"{base}.json"), f"{item}s", item):
                store = _store(ctx, ws, name, unwrap(r.json(f"{base}/{seg(name)}.json")))
                path = f"{base}/{seg(name)}/{child}"
                store["layers"] = [
                    _layer(ctx, ws, unwrap(r.json(f"{path}/{seg(layer)}.json")))
                    for layer in names(r.json(f"{path}.json"), outer, inner)
                ]
                out[key].append(store)
    count = sum(len(out[k]) for k in ("wmsStores", "wmtsStores"))
    if count:
        r.notes.append(
            f"cascade: {count} WMS/WMTS stores; their remote capabilities documents are not "
            "imported (add them to cascade.remotes)"
        )
    return out


def _store(ctx: Context, ws: str, name: str, data: dict[str, Any]) -> dict[str, Any]:
    out = _store_base(data, ws, name)
    url = data.get("capabilitiesURL") or data.get("capabilitiesUrl")
    if isinstance(url, str):
        out["capabilitiesUrl"] = url
    if isinstance(data.get("user"), str):
        out["user"] = data["user"]
    if isinstance(data.get("password"), str) and data["password"]:
        out["password"] = ctx.secret(data["password"])
    out.update({k: data[k] for k in STORE_VALUES if data.get(k) is not None})
    params = entries(data.get("connectionParameters"))
    if params:
        out["connectionParameters"] = {
            k: ctx.secret(v) if is_secret_key(k) and v else v for k, v in params.items()
        }
    return out


def _layer(ctx: Context, ws: str, data: dict[str, Any]) -> dict[str, Any]:
    out = _resource(ctx, ws, data)
    _extras(out, data, fields.WMTS_LAYER)  # the resource fields both layer kinds have
    out.update({k: data[k] for k in WMS_VALUES if data.get(k) is not None})
    for key in ("selectedRemoteFormats", "selectedRemoteStyles"):
        if data.get(key):
            out[key] = _strings(data[key])
    styles = []
    for s in listed(data, "allAvailableRemoteStyles", "style"):
        if isinstance(s, dict) and isinstance(s.get("name"), str):
            legend = s.get("legend") if isinstance(s.get("legend"), dict) else {}
            entry: dict[str, Any] = {"name": s["name"]}
            for src, dst in (
                ("onlineResource", "legendUrl"),
                ("format", "legendFormat"),
                ("width", "legendWidth"),
                ("height", "legendHeight"),
            ):
                if legend.get(src) is not None:
                    entry[dst] = legend[src]
            styles.append(entry)
    if styles:
        out["remoteStyles"] = styles
    return out
