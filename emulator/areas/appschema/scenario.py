"""Scenario section ``appSchema``: document databases and app-schema stores.

    "appSchema": {
      "documentDatabases": [
        {"url": "mongodb://mongo.example:27017/stations",
         "collections": [{"name": "stations", "geometry": "geometry",
                          "documents": [{"_id": "58e5889ce4b02461ad5af080", "name": "s1"}]},
                         {"name": "more", "documentsFile": "side/more.json"}]}],
      "stores": [
        {"workspace": "st", "name": "stations",
         "files": {"stations.appschema": "<as:AppSchemaDataAccess …>",
                   "stations.xsd": {"path": "side/stations.xsd"},
                   "logo.png": {"base64": "iVBORw0…"}},
         "main": "stations.appschema", "zip": false, "configure": "all",
         "schemas": {"data_source": [
             {"name": "stations", "geometry": "geometry",
              "attributes": [["geometry", "org.locationtech.jts.geom.Geometry"],
                             ["name", "java.lang.String"]],
              "sampled": ["58e5889ce4b02461ad5af080"]}]}}]
    }

A store is loaded as an upload of its ``files`` would be (same checks), into
``data/<ws>/<name>/``. ``main`` defaults to the only file, else the first ``.appschema``;
``zip`` (the store view lists its feature types) defaults to more than one file;
``configure`` defaults to ``all`` for a new store and ``none`` for one the ``catalog``
section already made. ``schemas`` replaces the persisted schemas of the internal stores
named (otherwise they are inferred from the first document, as on first use).
"""

from __future__ import annotations

import base64
import binascii
import json
from typing import Any

from ...core.errors import EmulatorError, ScenarioError
from ...core.profile import SPEC
from ...core.state import State
from ...scenarios.context import ScenarioContext
from ...scenarios.fields import Section
from . import archive
from .documents import DocumentSchema
from .model import AppSchemaRecord
from .upload import apply_upload, folder_of, is_app_schema, stage_files

STORE_KEYS = {"workspace", "name", "files", "main", "zip", "configure", "schemas"}


def apply(state: State, sec: Section, ctx: ScenarioContext) -> None:
    sec.only({"documentDatabases", "stores"})
    for db in sec.items("documentDatabases"):
        db.only({"url", "collections"})
        url = db.str("url", required=True)
        for c in db.items("collections"):
            c.only({"name", "geometry", "documents", "documentsFile"})
            docs = _documents(c, ctx)
            state.appschema.add_documents(
                url, c.str("name", required=True), docs, c.str("geometry")
            )
    for s in sec.items("stores"):
        _store(state, s, ctx)


def _documents(c: Section, ctx: ScenarioContext) -> list[dict[str, Any]]:
    docs: Any = c.list("documents")
    if c.has("documentsFile"):
        path = _side_file(c, "documentsFile", c.str("documentsFile"), ctx)
        try:
            docs = docs + json.loads(path.decode("utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise ScenarioError(f"{c.where}.documentsFile: not valid JSON: {exc}") from None
    if not isinstance(docs, list) or not all(isinstance(d, dict) for d in docs):
        raise ScenarioError(f"{c.where}.documents: expected a list of objects")
    return docs


def _side_file(sec: Section, key: str, rel: str, ctx: ScenarioContext) -> bytes:
    if ctx.base_dir is None:
        raise ScenarioError(f"{sec.where}.{key}: side files need a scenario file")
    try:
        return (ctx.base_dir / rel).read_bytes()
    except OSError as exc:
        raise ScenarioError(f"{sec.where}.{key}: cannot read {rel}: {exc.strerror}") from None


def _files(s: Section, ctx: ScenarioContext) -> dict[str, bytes]:
    out: dict[str, bytes] = {}
    for name, value in s.dict("files", required=True).items():
        try:
            path = archive.safe_name(name)
        except EmulatorError as exc:
            raise ScenarioError(f"{s.where}.files.{name}: {exc.message}") from None
        if isinstance(value, str):
            out[path] = value.encode("utf-8")
            continue
        item = Section(value, f"{s.where}.files.{name}").only({"path", "base64"})
        if item.has("base64"):
            try:
                out[path] = base64.b64decode(item.str("base64"), validate=True)
            except (binascii.Error, ValueError):
                raise ScenarioError(f"{item.where}.base64: not valid base64") from None
        else:
            out[path] = _side_file(item, "path", item.str("path", required=True), ctx)
    if not out:
        raise ScenarioError(f"{s.where}.files: no files")
    return out


def _store(state: State, s: Section, ctx: ScenarioContext) -> None:
    s.only(STORE_KEYS)
    ws, name = s.str("workspace", required=True), s.str("name", required=True)
    files = _files(s, ctx)
    main = s.str("main") or (
        next(iter(files)) if len(files) == 1 else archive.find_main(list(files))
    )
    if main is None:
        raise ScenarioError(f"{s.where}.main: no .appschema file among the files")
    exists = state.catalog.data_store(ws, name) is not None
    configure = s.str("configure", "none" if exists else "all")
    try:
        staged = stage_files(files, main, from_zip=s.bool("zip", len(files) > 1))
        apply_upload(state, ws, name, staged, configure=configure, decisions=SPEC)
    except EmulatorError as exc:
        raise ScenarioError(f"{s.where}: {exc.message}") from None
    record = state.appschema.record(ws, name)
    assert record is not None
    for sid, items in s.dict("schemas").items():
        if sid not in record.internal:
            raise ScenarioError(
                f"{s.where}.schemas.{sid}: not a document-database source of the mapping"
            )
        record.internal[sid].schemas = {
            sc.name: sc
            for sc in (
                _schema(Section(x, f"{s.where}.schemas.{sid}")) for x in _as_list(items, s, sid)
            )
        }


def _as_list(items: Any, s: Section, sid: str) -> list[Any]:
    if not isinstance(items, list):
        raise ScenarioError(f"{s.where}.schemas.{sid}: expected a list")
    return items


def _schema(x: Section) -> DocumentSchema:
    x.only({"name", "geometry", "attributes", "sampled"})
    attrs = []
    for i, pair in enumerate(x.list("attributes")):
        if not (
            isinstance(pair, list) and len(pair) == 2 and all(isinstance(p, str) for p in pair)
        ):
            raise ScenarioError(f"{x.where}.attributes[{i}]: expected [path, Java class]")
        attrs.append((pair[0], pair[1]))
    return DocumentSchema(
        x.str("name", required=True), x.str("geometry"), tuple(attrs), tuple(x.strings("sampled"))
    )


def dump(state: State, ctx: ScenarioContext) -> dict[str, Any]:
    store = state.appschema
    dbs = [
        {
            "url": url,
            "collections": [
                {
                    k: v
                    for k, v in (
                        ("name", name),
                        ("geometry", c.geometry),
                        ("documents", c.documents),
                    )
                    if v is not None
                }
                for name, c in colls.items()
            ],
        }
        for url, colls in store.databases.items()
    ]
    stores = [_dump_record(state, r) for r in store.records.values() if _current(state, r)]
    return {"documentDatabases": dbs, "stores": stores}


def _current(state: State, record: AppSchemaRecord) -> bool:
    info = state.catalog.data_store(record.workspace, record.store)
    if info is None or not is_app_schema(info):
        return False
    return info.connection_parameters.get("url") == f"file:{record.main_path}"


def _dump_record(state: State, record: AppSchemaRecord) -> dict[str, Any]:
    prefix = folder_of(record.workspace, record.store) + "/"
    files: dict[str, Any] = {}
    for path, entry in sorted(state.datadir.files.items()):
        if path.startswith(prefix):
            try:
                files[path[len(prefix) :]] = entry.data.decode("utf-8")
            except UnicodeDecodeError:
                files[path[len(prefix) :]] = {
                    "base64": base64.b64encode(entry.data).decode("ascii")
                }
    schemas = {
        sid: [
            {
                "name": sc.name,
                "geometry": sc.geometry,
                "attributes": [list(a) for a in sc.attributes],
                "sampled": list(sc.sampled),
            }
            for sc in internal.schemas.values()
        ]
        for sid, internal in record.internal.items()
    }
    return {
        "workspace": record.workspace,
        "name": record.store,
        "files": files,
        "main": record.main.path,
        "zip": record.from_zip,
        "configure": "none",
        "schemas": schemas,
    }
