"""Request bodies of the importer, read as GeoServer's ``ImportJSONReader`` reads them.

An import (``{"import": {"targetWorkspace": …, "targetStore": …, "data": …,
"transforms": […]}}``; a body without ``import`` is an empty import), a task update
(``{"task": {"updateMode", "data"/"source": {"charset"}, "target", "layer",
"transformChain"}}``, or the same keys unwrapped), a layer (``{"layer": {"name",
"nativeName", "srs", "title", "abstract", "description", "style"}}``) and a store
(``{"dataStore": {…}}`` or ``{"coverageStore": {…}}``, as the catalog writes one).

json-lib reads a value as text whatever its JSON type (``getString``); a missing required key
is ``JSONObject["<key>"] not found.``.
"""

from __future__ import annotations

import json
from typing import Any

from ...core.errors import Invalid
from ...core.record import field, record
from ...wire import json as wjson
from ..catalog.entities import COVERAGE_STORE, DATA_STORE
from . import transforms
from .model import UPDATE_MODES, Transform


def bad_request(message: str) -> Invalid:
    """``ImportJSONWriter.badRequest``: 400 whose body is ``{"errors": [message]}``."""
    return Invalid(json.dumps({"errors": [message]}, separators=(",", ":")))


@record
class StoreBody:
    kind: str | None = None
    name: str | None = None
    workspace: str | None = None
    enabled: bool | None = None
    description: str | None = None
    params: dict[str, str] | None = None


@record
class LayerBody:
    name: str | None = None
    native_name: str | None = None
    srs: str | None = None
    title: str | None = None
    abstract: str | None = None
    description: str | None = None
    style: tuple[str | None, str] | None = None


@record
class TaskBody:
    update_mode: str | None = None
    charset: str | None = None
    target: StoreBody | None = None
    layer: LayerBody | None = None
    chain: tuple[str, list[Transform]] | None = None


@record
class ContextBody:
    workspace: str | None = None
    store: StoreBody | None = None
    data: dict[str, Any] | None = None
    transforms: list[Transform] = field(default_factory=list)


def parse(body: bytes) -> Any:
    if not body.strip():
        return {}
    return wjson.loads(body)


def text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, dict | list):
        return json.dumps(value, separators=(",", ":"))
    return "null" if value is None else str(value)


def _object(d: dict[str, Any], key: str) -> dict[str, Any]:
    value = d[key]
    if not isinstance(value, dict):
        raise Invalid(f'JSONObject["{key}"] is not a JSONObject.')
    return value


def context(body: bytes) -> ContextBody | None:
    doc = parse(body)
    if not isinstance(doc, dict):
        raise Invalid("A JSON object was expected")
    if "import" not in doc:
        return None
    d = _object(doc, "import")
    out = ContextBody()
    if "targetWorkspace" in d:
        ws = _object(d, "targetWorkspace")
        inner = ws.get("workspace", ws)
        name = inner.get("name") if isinstance(inner, dict) else None
        if name is None:
            raise Invalid("The target workspace must have a name")
        out.workspace = text(name)
    if "targetStore" in d:
        out.store = store(_object(d, "targetStore"))
    if "data" in d:
        out.data = _object(d, "data")
    if "transforms" in d:
        raw = d["transforms"]
        if not isinstance(raw, list):
            raise Invalid('JSONObject["transforms"] is not a JSONArray.')
        out.transforms = [transforms.read(t) for t in raw]
    return out


def store(d: dict[str, Any]) -> StoreBody:
    """A store body: ``{"dataStore": {…}}``, ``{"coverageStore": {…}}`` (or the bare
    object, a data store)."""
    kind, inner = None, d
    for tag, k in (("dataStore", DATA_STORE), ("coverageStore", COVERAGE_STORE)):
        if tag in d:
            kind, inner = k, d[tag]
    if not isinstance(inner, dict):
        raise Invalid("Unable to read the store: a JSON object was expected")
    out = StoreBody(kind)
    if "name" in inner:
        out.name = text(inner["name"])
    ws = inner.get("workspace")
    if ws is not None:
        out.workspace = text(ws.get("name") if isinstance(ws, dict) else ws)
    if "enabled" in inner:
        out.enabled = text(inner["enabled"]).lower() == "true"
    if "description" in inner:
        out.description = text(inner["description"])
    params = inner.get("connectionParameters")
    if isinstance(params, dict):
        out.params = _entries(params)
    return out


def _entries(params: dict[str, Any]) -> dict[str, str]:
    raw = params.get("entry", params)
    items = raw if isinstance(raw, list) else [raw]
    out: dict[str, str] = {}
    for item in items:
        if isinstance(item, dict) and "@key" in item:
            out[text(item["@key"])] = text(item.get("$", ""))
        elif isinstance(item, dict):
            out.update({k: text(v) for k, v in item.items() if k != "entry"})
    return out


def layer(d: dict[str, Any]) -> LayerBody:
    inner = d.get("layer", d)
    if not isinstance(inner, dict):
        raise bad_request('JSONObject["layer"] is not a JSONObject.')
    out = LayerBody()
    for key, attr in (("name", "name"), ("nativeName", "native_name"), ("srs", "srs"),
                      ("title", "title"), ("abstract", "abstract"),
                      ("description", "description")):  # fmt: skip
        if key in inner:
            setattr(out, attr, text(inner[key]))
    if "style" in inner:
        out.style = _style(inner["style"])
    return out


def _style(value: Any) -> tuple[str | None, str]:
    if isinstance(value, str):
        name, ws = value, None
    elif isinstance(value, dict) and isinstance(value.get("name"), str):
        name = value["name"]
        raw_ws = value.get("workspace")
        ws = raw_ws.get("name") if isinstance(raw_ws, dict) else raw_ws
    else:
        raise bad_request("The layer's style must name a style")
    if ws is None and ":" in name:
        ws, _, name = name.partition(":")
    return (None if ws is None else text(ws)), name


def task(body: bytes) -> TaskBody:
    try:
        doc = parse(body)
    except Invalid as exc:
        raise bad_request(exc.message) from None
    if not isinstance(doc, dict):
        raise bad_request("A JSON object was expected")
    d = doc.get("task", doc)
    if not isinstance(d, dict):
        raise bad_request('JSONObject["task"] is not a JSONObject.')
    out = TaskBody()
    if "updateMode" in d:
        mode = text(d["updateMode"]).upper()
        if mode not in UPDATE_MODES:
            raise bad_request(f"No enum constant org.geoserver.importer.UpdateMode.{mode}")
        out.update_mode = mode
    data = d.get("data", d.get("source"))
    if isinstance(data, dict) and "charset" in data:
        out.charset = text(data["charset"])
    if "target" in d:
        if not isinstance(d["target"], dict):
            raise bad_request('JSONObject["target"] is not a JSONObject.')
        out.target = store(d["target"])
    if "layer" in d:
        out.layer = layer({"layer": d["layer"]})
    if "transformChain" in d:
        out.chain = chain(d["transformChain"])
    return out


def chain(value: Any) -> tuple[str, list[Transform]]:
    if not isinstance(value, dict):
        raise bad_request('JSONObject["transformChain"] is not a JSONObject.')
    kind = text(value.get("type"))
    if kind.lower() in ("vector", "vectortransformchain"):
        name = "vector"
    elif kind.lower() in ("raster", "rastertransformchain"):
        name = "raster"
    else:
        raise bad_request(f"Unable to parse transformChain of type {kind}")
    raw = value.get("transforms")
    if not isinstance(raw, list):
        raise bad_request('JSONObject["transforms"] is not a JSONArray.')
    try:
        return name, [transforms.read(t) for t in raw]
    except Invalid as exc:
        raise bad_request(exc.message) from None
