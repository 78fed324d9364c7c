"""Scenario section ``features``: the data behind file-backed stores, and their files.

    "features": {
      "stores": [{"workspace": "sf", "store": "roads", "format": "shp",
                  "file": "data/roads.zip", "configure": "all", "charset": "UTF-8"}],
      "tables": [{"workspace": "sf", "store": "roads", "name": "roads",
                  "srs": "EPSG:4326", "geometry": "the_geom",
                  "attributes": [{"name": "the_geom",
                                  "binding": "org.locationtech.jts.geom.Point"},
                                 {"name": "NAME", "binding": "java.lang.String",
                                  "length": 20}],
                  "features": [{"fid": "roads.1",
                                "properties": {"the_geom": "POINT (1 2)", "NAME": "Main"}}]}],
      "files": [{"path": "data/sf/roads/roads.shp", "base64": "AAAnCg…"}],
      "remote": [{"url": "http://example.com/roads.zip", "file": "data/roads.zip"}]
    }

``stores`` declares a file-backed store from a file shipped beside the scenario: it is
loaded exactly as ``PUT …/{datastores|coveragestores}/{store}/file.{format}`` of that file
would be (a ``.zip`` file as a ZIP), ``configure`` defaulting to ``first``. ``tables`` are
feature tables as they are kept (geometries in WKT, or
``{"wkb": hex}`` where WKT would round them; dates in ISO 8601); ``files`` the data
directory files of upload stores (a dump writes them, with ``tables``, instead of
``stores``); ``remote`` registers the content ``url.`` uploads of that URL read (from a
side ``file``, or ``base64``). A dump then load gives an equal state.
"""

from __future__ import annotations

import base64
import binascii
from datetime import date, datetime
from typing import Any

from ...core.errors import EmulatorError, ScenarioError
from ...core.profile import SPEC
from ...core.state import State
from ...crs.envelope import Envelope
from ...features.model import Attribute, Feature, FeatureTable
from ...scenarios.context import ScenarioContext
from ...scenarios.fields import Section
from . import coverages, datastores, download, rasters
from .context import Context, Request

JTS = "org.locationtech.jts.geom."
DATES = ("java.util.Date", "java.sql.Date")
TIMES = ("java.sql.Timestamp",)
STORE_KEYS = {"workspace", "store", "format", "file", "configure", "charset", "coverageName"}
TABLE_KEYS = {"workspace", "store", "name", "srs", "geometry", "attributes", "features"}


def apply(state: State, sec: Section, ctx: ScenarioContext) -> None:
    sec.only({"stores", "tables", "grids", "files", "remote"})
    for item in sec.items("remote"):
        item.only({"url", "file", "base64"})
        state.features.remote[item.str("url", required=True)] = _content(item, ctx)
    for item in sec.items("files"):
        item.only({"path", "base64", "text"})
        data = _content(item, ctx) if item.has("base64") else item.str("text", "").encode()
        try:
            state.datadir.write(item.str("path", required=True), data)
        except EmulatorError as exc:
            raise ScenarioError(f"{item.where}.path: {exc.message}") from None
    for item in sec.items("tables"):
        _table(state, item)
    for item in sec.items("grids"):
        _grid(state, item)
    for item in sec.items("stores"):
        _store(state, item, ctx)


def _content(item: Section, ctx: ScenarioContext) -> bytes:
    if item.has("base64"):
        try:
            return base64.b64decode(item.str("base64", required=True), validate=True)
        except (binascii.Error, ValueError):
            raise ScenarioError(f"{item.where}.base64: not valid base64") from None
    rel = item.str("file", required=True)
    if ctx.base_dir is None:
        raise ScenarioError(f"{item.where}.file: side files need a scenario file")
    try:
        return (ctx.base_dir / rel).read_bytes()
    except OSError as exc:
        raise ScenarioError(f"{item.where}.file: cannot read {rel}: {exc.strerror}") from None


def _store(state: State, item: Section, ctx: ScenarioContext) -> None:
    item.only(STORE_KEYS)
    fmt = item.str("format", required=True)
    rel = item.str("file", required=True)
    body = _content(item, ctx)
    context = Context(state, None, 0.0, lambda _url: False, 1 << 30, SPEC)
    req = Request(
        item.str("workspace", required=True),
        item.str("store", required=True),
        "file",
        fmt,
        body,
        rel.lower().endswith(".zip"),
        item.str("configure"),
        charset=item.str("charset"),
        filename=None if rel.lower().endswith(".zip") else rel.replace("\\", "/").split("/")[-1],
        coverage_name=item.str("coverageName"),
    )
    try:
        if fmt.lower() in coverages.FORMATS:
            coverages.upload(context, req)
        else:
            datastores.upload(context, req)
    except EmulatorError as exc:
        raise ScenarioError(f"{item.where}: {exc.message}") from None


def _table(state: State, item: Section) -> None:
    item.only(TABLE_KEYS)
    attributes = []
    for a in item.items("attributes"):
        a.only({"name", "binding", "nillable", "length"})
        attributes.append(
            Attribute(
                a.str("name", required=True),
                a.str("binding", required=True),
                a.bool("nillable", True),
                a.int("length") if a.has("length") else None,
            )
        )
    features = []
    for f in item.items("features"):
        f.only({"fid", "properties"})
        props = f.dict("properties")
        values = {}
        for attr in attributes:
            try:
                values[attr.name] = parse_value(props.get(attr.name), attr.binding)
            except (ValueError, TypeError) as exc:
                raise ScenarioError(f"{f.where}.properties.{attr.name}: {exc}") from None
        features.append(Feature(f.str("fid", required=True), values))
    table = FeatureTable(
        item.str("name", required=True),
        attributes,
        item.str("geometry"),
        item.str("srs", "EPSG:404000"),
        features,
    )
    state.features.put(
        item.str("workspace", required=True), item.str("store", required=True), table
    )


GRID_KEYS = {"workspace", "store", "name", "width", "height", "envelope", "srs", "wkt", "bands"}


def _grid(state: State, item: Section) -> None:
    item.only(GRID_KEYS)
    env = item.list("envelope", required=True)
    if len(env) != 4 or not all(isinstance(v, int | float) for v in env):
        raise ScenarioError(f"{item.where}.envelope: expected [minx, miny, maxx, maxy]")
    bands = []
    for b in item.items("bands"):
        b.only({"name", "dataType", "nodata"})
        nodata = b.number("nodata") if b.has("nodata") else None
        bands.append(rasters.Band(b.str("name", required=True), b.str("dataType", "UNSIGNED_8BITS"),
                                  nodata))  # fmt: skip
    raster = rasters.Raster(
        item.int("width", required=True),
        item.int("height", required=True),
        Envelope(*(float(v) for v in env)),
        item.str("srs"),
        item.str("wkt"),
        bands,
    )
    key = (item.str("workspace", required=True), item.str("store", required=True),
           item.str("name", required=True))  # fmt: skip
    state.features.grids[key] = raster


def parse_value(value: Any, binding: str) -> Any:
    if value is None:
        return None
    if binding.startswith(JTS):
        from shapely import wkb, wkt

        try:
            if isinstance(value, dict) and set(value) == {"wkb"}:
                return wkb.loads(bytes.fromhex(str(value["wkb"])))
            return wkt.loads(str(value))
        except Exception as exc:  # shapely's own error kinds
            raise ValueError(f"not WKT: {exc}") from None
    if binding in DATES and isinstance(value, str):
        return datetime.fromisoformat(value) if "T" in value else date.fromisoformat(value)
    if binding in TIMES and isinstance(value, str):
        return datetime.fromisoformat(value)
    return value


def dump_value(value: Any) -> Any:
    if value is None or isinstance(value, bool | int | float | str):
        return value
    if isinstance(value, datetime | date):
        return value.isoformat()
    if isinstance(value, bytes):
        return base64.b64encode(value).decode("ascii")
    if hasattr(value, "geom_type"):
        import shapely

        text = shapely.to_wkt(value, rounding_precision=-1)
        if shapely.from_wkt(text) == value:
            return text
        return {"wkb": shapely.to_wkb(value, hex=True)}  # WKT would round the coordinates
    return str(value)


def dump(state: State, ctx: ScenarioContext) -> dict[str, Any]:
    tables = []
    for (ws, store, _), table in sorted(state.features.tables.items()):
        tables.append(
            {
                "workspace": ws,
                "store": store,
                "name": table.name,
                "srs": table.srs,
                "geometry": table.geometry,
                "attributes": [_attribute(a) for a in table.attributes],
                "features": [
                    {
                        "fid": f.fid,
                        "properties": {k: dump_value(v) for k, v in f.properties.items()},
                    }
                    for f in table.features
                ],
            }
        )
    grids = [
        {
            "workspace": ws,
            "store": store,
            "name": name,
            "width": g.width,
            "height": g.height,
            "envelope": list(g.envelope),
            "srs": g.srs,
            "wkt": g.wkt,
            "bands": [
                {"name": b.name, "dataType": b.data_type, "nodata": b.nodata} for b in g.bands
            ],
        }
        for (ws, store, name), g in sorted(state.features.grids.items())
    ]
    files = [
        {"path": path, "base64": base64.b64encode(state.datadir.files[path].data).decode("ascii")}
        for path in sorted(_upload_files(state))
    ]
    remote = [
        {"url": url, "base64": base64.b64encode(data).decode("ascii")}
        for url, data in sorted(state.features.remote.items())
    ]
    return {"tables": tables, "grids": grids, "files": files, "remote": remote}


def _properties(props: dict[str, Any]) -> dict[str, Any]:
    return {k: dump_value(v) for k, v in props.items()}


def _attribute(a: Attribute) -> dict[str, Any]:
    out: dict[str, Any] = {"name": a.name, "binding": a.binding}
    if not a.nillable:
        out["nillable"] = False
    if a.length is not None:
        out["length"] = a.length
    return out


def _upload_files(state: State) -> set[str]:
    """The data-directory files behind upload stores (other areas dump their own)."""
    folders: set[str] = set()
    for (ws, name), _ in {(k[0], k[1]): None for k in state.features.tables}.items():
        if state.catalog.data_store(ws, name) is not None:
            folder = download.store_folder(state, ws, name)
            if folder:
                folders.add(folder)
    folders.update(coverages.upload_folders(state))
    out = set()
    for folder in folders:
        prefix = folder + "/"
        out.update(p for p in state.datadir.files if p.startswith(prefix))
    return out
