"""The ``catalog`` and ``styles`` sections of an imported scenario.

Workspaces (with their namespace URI), the default workspace, data stores with their
configured feature types, coverage stores with their coverages, each resource's layer
(styles, flags), and layer groups, global and per workspace (WMS and WMTS stores are
``import_cascade.py``'s); and the ``styles`` section, whose bodies are saved in
``<scenario>.styles/``.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..areas.catalog import fields
from ..areas.catalog.generic import read_extras
from ..core.errors import EmulatorError
from ..scenarios.scrub import is_secret_key
from .import_values import as_list, entries, listed, names, seg, unwrap

if TYPE_CHECKING:
    from .importer import Context

SAME = ("dateCreated", "dateModified")
STORE_FIELDS = {
    **{k: k for k in ("type", "description", "enabled", "disableOnConnFailure", *SAME)},
    "_default": "default",
}
RESOURCE_FIELDS = {
    k: k
    for k in ("nativeName", "title", "abstract", "description", "srs", "projectionPolicy",
              "enabled", "advertised", *SAME)
}  # fmt: skip
COVERAGE_FIELDS = {"nativeCoverageName": "nativeCoverageName", "nativeFormat": "nativeFormat",
                   "defaultInterpolationMethod": "defaultInterpolationMethod"}  # fmt: skip
COVERAGE_LISTS = (
    ("supportedFormats", "supportedFormats"),
    ("interpolationMethods", "interpolationMethods"),
    ("requestSRS", "requestSrs"),
    ("responseSRS", "responseSrs"),
)
LAYER_FIELDS = (
    "enabled",
    "advertised",
    "queryable",
    "opaque",
    "path",
    "dateCreated",
    "dateModified",
)
STYLE_TYPES = {
    "sld": ("application/vnd.ogc.sld+xml", "sld"),
    "css": ("application/vnd.geoserver.geocss+css", "css"),
    "ysld": ("application/vnd.geoserver.ysld+yaml", "yaml"),
    "mbstyle": ("application/vnd.geoserver.mbstyle+json", "json"),
}
SE_TYPE = ("application/vnd.ogc.se+xml", "sld")


def _copy(src: dict[str, Any], mapping: dict[str, str]) -> dict[str, Any]:
    return {dst: src[key] for key, dst in mapping.items() if src.get(key) is not None}


def _crs(value: Any) -> str | None:
    if isinstance(value, dict):
        value = value.get("$")
    return value if isinstance(value, str) else None


def _bbox(value: Any) -> dict[str, Any] | None:
    if not isinstance(value, dict) or not all(
        isinstance(value.get(k), int | float) for k in ("minx", "maxx", "miny", "maxy")
    ):
        return None
    out: dict[str, Any] = {k: value[k] for k in ("minx", "maxx", "miny", "maxy")}
    crs = _crs(value.get("crs"))
    if crs:
        out["crs"] = crs
    return out


def _strings(value: Any) -> list[str]:
    inner = value.get("string") if isinstance(value, dict) else value
    return [str(x) for x in as_list(inner)]


def read_catalog(ctx: Context) -> dict[str, Any] | None:
    r = ctx.reader
    listing = r.json("/rest/workspaces.json")
    if listing is None:
        return None
    catalog: dict[str, Any] = {"workspaces": [], "dataStores": [], "coverageStores": [],
                               "layerGroups": []}  # fmt: skip
    workspaces = names(listing, "workspaces", "workspace")
    for ws in workspaces:
        catalog["workspaces"].append(_workspace(ctx, ws))
        for store in names(
            r.json(f"/rest/workspaces/{seg(ws)}/datastores.json"), "dataStores", "dataStore"
        ):
            catalog["dataStores"].append(_data_store(ctx, ws, store))
        for store in names(
            r.json(f"/rest/workspaces/{seg(ws)}/coveragestores.json"),
            "coverageStores",
            "coverageStore",
        ):
            catalog["coverageStores"].append(_coverage_store(ctx, ws, store))
    default = unwrap(r.json("/rest/workspaces/default.json")).get("name")
    if isinstance(default, str) and default in workspaces:
        catalog["defaultWorkspace"] = default
    for owner in [None, *workspaces]:
        prefix = f"/rest/workspaces/{seg(owner)}" if owner else "/rest"
        for group in names(r.json(f"{prefix}/layergroups.json"), "layerGroups", "layerGroup"):
            data = _group(unwrap(r.json(f"{prefix}/layergroups/{seg(group)}.json")), owner)
            if data:
                catalog["layerGroups"].append(data)
    resources = sum(len(s["featureTypes"]) for s in catalog["dataStores"])
    resources += sum(len(s["coverages"]) for s in catalog["coverageStores"])
    r.notes.append(
        f"catalog: {len(workspaces)} workspaces, {len(catalog['dataStores'])} data stores, "
        f"{len(catalog['coverageStores'])} coverage stores, {resources} resources, "
        f"{len(catalog['layerGroups'])} layer groups"
    )
    return catalog


def _workspace(ctx: Context, ws: str) -> dict[str, Any]:
    data = unwrap(ctx.reader.json(f"/rest/workspaces/{seg(ws)}.json"))
    out: dict[str, Any] = {"name": ws, "isolated": data.get("isolated") is True}
    out.update(_copy(data, {"dateCreated": "dateCreated", "dateModified": "dateModified"}))
    uri = unwrap(ctx.reader.json(f"/rest/namespaces/{seg(ws)}.json")).get("uri")
    if isinstance(uri, str):
        out["uri"] = uri
    return out


def _store_base(data: dict[str, Any], ws: str, name: str) -> dict[str, Any]:
    out = {"workspace": ws, "name": name, **_copy(data, STORE_FIELDS)}
    metadata = entries(data.get("metadata"))
    if metadata:
        out["metadata"] = metadata
    return out


def _data_store(ctx: Context, ws: str, name: str) -> dict[str, Any]:
    base = f"/rest/workspaces/{seg(ws)}/datastores/{seg(name)}"
    data = unwrap(ctx.reader.json(f"{base}.json"))
    out = _store_base(data, ws, name)
    params = entries(data.get("connectionParameters"))
    out["connectionParameters"] = {
        k: ctx.secret(v) if is_secret_key(k) and v else v for k, v in params.items()
    }
    out["featureTypes"] = []
    for ft in names(ctx.reader.json(f"{base}/featuretypes.json"), "featureTypes", "featureType"):
        resource = unwrap(ctx.reader.json(f"{base}/featuretypes/{seg(ft)}.json"))
        if resource:
            entry = _resource(ctx, ws, resource)
            _extras(entry, resource, fields.FEATURE_TYPE)
            attributes = [
                _attribute(a)
                for a in listed(resource, "attributes", "attribute")
                if isinstance(a, dict)
            ]
            if attributes:
                entry["attributes"] = attributes
            for key in ("maxFeatures", "numDecimals"):
                if isinstance(resource.get(key), int):
                    entry[key] = resource[key]
            out["featureTypes"].append(entry)
    return out


def _attribute(a: dict[str, Any]) -> dict[str, Any]:
    keys = ("name", "binding", "nillable", "minOccurs", "maxOccurs", "length")
    return {k: a[k] for k in keys if a.get(k) is not None}


def _coverage_store(ctx: Context, ws: str, name: str) -> dict[str, Any]:
    base = f"/rest/workspaces/{seg(ws)}/coveragestores/{seg(name)}"
    data = unwrap(ctx.reader.json(f"{base}.json"))
    out = _store_base(data, ws, name)
    if isinstance(data.get("url"), str):
        out["url"] = data["url"]
    out["coverages"] = []
    for cov in names(ctx.reader.json(f"{base}/coverages.json"), "coverages", "coverage"):
        resource = unwrap(ctx.reader.json(f"{base}/coverages/{seg(cov)}.json"))
        if not resource:
            continue
        entry = {**_resource(ctx, ws, resource), **_copy(resource, COVERAGE_FIELDS)}
        _extras(entry, resource, fields.COVERAGE)
        for src, dst in COVERAGE_LISTS:
            if resource.get(src):
                entry[dst] = _strings(resource[src])
        dims = []
        for d in listed(resource, "dimensions", "coverageDimension"):
            if isinstance(d, dict) and isinstance(d.get("name"), str):
                rng: dict[str, Any] = d["range"] if isinstance(d.get("range"), dict) else {}
                dim = {
                    "name": d["name"],
                    "description": d.get("description"),
                    "min": rng.get("min"),
                    "max": rng.get("max"),
                    "unit": d.get("unit"),
                    "dimensionType": unwrap(d.get("dimensionType")).get("name"),
                }
                dim = {k: v for k, v in dim.items() if isinstance(v, str | int | float)}
                nulls = d.get("nullValues")
                nulls = as_list(nulls.get("double")) if isinstance(nulls, dict) else []
                if nulls:
                    dim["nullValues"] = [v for v in nulls if isinstance(v, str | int | float)]
                dims.append(dim)
        if dims:
            entry["dimensions"] = dims
        out["coverages"].append(entry)
    return out


def _extras(entry: dict[str, Any], res: dict[str, Any], table: tuple[fields.Field, ...]) -> None:
    """The generic fields of a resource (a coverage's grid, metadata and data links…) in
    the scenario's normal form; one the server writes unreadably is left out."""
    try:
        extras = {k: v for k, v in read_extras(res, table).items() if v is not None}
    except EmulatorError:
        return
    if extras:
        entry["fields"] = extras


def _resource(ctx: Context, ws: str, res: dict[str, Any]) -> dict[str, Any]:
    name = res.get("name", "")
    out: dict[str, Any] = {"name": name, **_copy(res, RESOURCE_FIELDS)}
    if res.get("keywords"):
        out["keywords"] = _strings(res["keywords"])
    native = _crs(res.get("nativeCRS"))
    if native and native != out.get("srs"):
        out["nativeCrs"] = native
    for key in ("nativeBoundingBox", "latLonBoundingBox"):
        box = _bbox(res.get(key))
        if box:
            out[key] = box
    metadata = entries(res.get("metadata"))
    if metadata:
        out["metadata"] = metadata
    out["layer"] = _layer(ctx, ws, name)
    return out


def _style_name(value: Any) -> str | None:
    if not isinstance(value, dict) or not isinstance(value.get("name"), str):
        return None
    ws = value.get("workspace")
    name: str = value["name"]
    if isinstance(ws, dict):
        ws = ws.get("name")
    return f"{ws}:{name}" if isinstance(ws, str) and ws and ":" not in name else name


def _layer(ctx: Context, ws: str, name: str) -> dict[str, Any] | bool:
    data = unwrap(ctx.reader.json(f"/rest/layers/{seg(ws)}:{seg(name)}.json"))
    if not data:
        return False
    out: dict[str, Any] = {k: data[k] for k in LAYER_FIELDS if data.get(k) is not None}
    default = _style_name(data.get("defaultStyle"))
    if default:
        out["defaultStyle"] = default
    styles = [s for s in (_style_name(x) for x in listed(data, "styles", "style")) if s]
    if styles:
        out["styles"] = styles
    _extras(out, data, fields.LAYER)
    return out


def _group(data: dict[str, Any], ws: str | None) -> dict[str, Any] | None:
    if not isinstance(data.get("name"), str):
        return None
    out: dict[str, Any] = {"name": data["name"]}
    if ws:
        out["workspace"] = ws
    for key in ("mode", "title", "enabled", "advertised", "dateCreated", "dateModified"):
        if data.get(key) is not None:
            out[key] = data[key]
    if isinstance(data.get("abstractTxt"), str):
        out["abstract"] = data["abstractTxt"]
    layers = []
    for item in listed(data, "publishables", "published"):
        if isinstance(item, dict) and isinstance(item.get("name"), str):
            layers.append(("group@" if item.get("@type") == "layerGroup" else "") + item["name"])
    out["layers"] = layers
    styles = listed(data, "styles", "style")
    out["styles"] = [(_style_name(s) if isinstance(s, dict) else (s or None)) for s in styles]
    box = _bbox(data.get("bounds"))
    if box:
        out["bounds"] = box
    return out


# -- styles ---------------------------------------------------------------------------------


def read_styles(ctx: Context) -> dict[str, Any] | None:
    """The ``styles`` section: every global and workspace style's record, its body saved in
    ``<scenario>.styles/`` (``name.sld``, ``ws/name.css``…) and named by ``file``; and the other
    files of the style folders (icons), read through the resource API. Built-in styles (those
    of ``empty``) are left as they are."""
    r = ctx.reader
    listing = r.json("/rest/styles.json")
    if listing is None:
        return None
    workspaces = names(r.json("/rest/workspaces.json"), "workspaces", "workspace")
    folder = ctx.out.with_name(ctx.out.stem + ".styles")
    builtin = _builtin_styles()
    styles, files = [], []
    for ws in [None, *workspaces]:
        prefix = f"/rest/workspaces/{seg(ws)}" if ws else "/rest"
        found = listing if ws is None else r.json(f"{prefix}/styles.json")
        taken: set[str] = set()
        for name in names(found, "styles", "style"):
            style = _style(ctx, prefix, ws, name, folder)
            taken |= {style.get("filename") or "", f"{name}.xml"}
            if (ws, name) not in builtin:
                styles.append(style)
        files += _style_files(ctx, f"workspaces/{ws}/styles" if ws else "styles", taken, folder)
    saved = sum(1 for s in styles if "file" in s)
    r.notes.append(
        f"styles: {len(styles)} styles ({saved} bodies) and {len(files)} other files"
        f" saved in {folder}"
    )
    return {"styles": styles, "files": files}


def _builtin_styles() -> set[tuple[str | None, str]]:
    from ..scenarios import loader

    section = loader.dump(loader.load("empty").state()).get("styles") or {}
    return {(s.get("workspace"), s["name"]) for s in section.get("styles", [])}


def _style_files(
    ctx: Context, folder_path: str, taken: set[str], folder: Path
) -> list[dict[str, str]]:
    """Files of a style folder that are not style bodies or records (icons, leftovers)."""
    listing = unwrap(ctx.reader.json(f"/rest/resource/{folder_path}?format=json"))
    out = []
    for child in listed(listing, "children", "child"):
        name = child.get("name") if isinstance(child, dict) else None
        if not isinstance(name, str) or name in taken or "." not in name:
            continue
        body = ctx.reader.get(f"/rest/resource/{folder_path}/{seg(name)}", "*/*")
        if body is None:
            continue
        path = folder / "files" / folder_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(body)
        out.append({"path": f"{folder_path}/{name}", "file": str(path.relative_to(ctx.out.parent))})
    return out


def _style(ctx: Context, prefix: str, ws: str | None, name: str, folder: Path) -> dict[str, Any]:
    record = unwrap(ctx.reader.json(f"{prefix}/styles/{seg(name)}.json"))
    fmt = str(record.get("format") or "sld").lower()
    language = record.get("languageVersion")
    version = language.get("version") if isinstance(language, dict) else None
    media, ext = (
        SE_TYPE if fmt == "sld" and version == "1.1.0" else STYLE_TYPES.get(fmt, STYLE_TYPES["sld"])
    )
    out: dict[str, Any] = {"name": name}
    if ws:
        out["workspace"] = ws
    if isinstance(record.get("filename"), str):
        out["filename"] = record["filename"]
    out["format"] = fmt
    if isinstance(version, str):
        out["languageVersion"] = version
    body = ctx.reader.get(f"{prefix}/styles/{seg(name)}", media)
    if body is not None and fmt in STYLE_TYPES:
        path = folder / (ws or "") / f"{name}.{ext}"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(body)
        out["file"] = str(path.relative_to(ctx.out.parent))
    return out
