"""Scenario section ``mosaics``: image mosaics with their configuration and granule index.

    "mosaics": {
      "stores": [{
        "workspace": "wcs", "store": "watertemp",
        "parameters": {"TimeAttribute": "ingestion", "ElevationAttribute": "elevation",
                       "Schema": "*the_geom:Polygon,location:String,"
                                 "ingestion:java.util.Date,elevation:Integer"},
        "collectors": [{"spi": "TimestampFileNameExtractorSPI", "attribute": "ingestion",
                        "regex": "[0-9]{8}T[0-9]{7}"}],
        "crs": "EPSG:4326",
        "granules": [{"location": "NCOM_wattemp_000_20081031T0000000_12.tiff",
                      "bbox": [0.24, 40.56, 14.59, 44.56],
                      "values": {"ingestion": "2008-10-31T00:00:00Z", "elevation": 0}}],
        "configure": ["watertemp"]
      }]
    }

``folder`` (default ``data/<workspace>/<store>``) is a data-directory path, or an absolute
path of this machine; the store is created (type ImageMosaic) unless the catalog section
declared it. ``parameters`` are the indexer's (written to the folder as
``indexer.properties`` with the collectors' regex files; a mosaic declared without
``parameters``, ``collectors`` and ``coverages`` has no indexer file and the default schema),
``datastore`` the index database's (``datastore.properties``; without it the index is a
shapefile). A store URL naming the index (``file:…/mosaic.shp``) names its folder. Granule
``values`` are converted to the index schema (dates as ISO 8601). ``configure`` names
coverages to build from the index (those the catalog section has already are left alone).
A granule's ``id`` and the store's ``nextId`` default to counting up.
"""

from __future__ import annotations

from typing import Any

from ...core.errors import EmulatorError, ScenarioError
from ...core.state import State
from ...crs.envelope import Envelope
from ...scenarios.context import ScenarioContext
from ...scenarios.fields import Section
from . import configure, harvest, properties
from .bindings import format_value
from .indexer import DATASTORE_PROPERTIES, INDEXER_PROPERTIES, Collector, Indexer
from .model import Granule, Mosaic
from .sources import DATADIR, FileRef, locate, parse_key, store_root

KEYS = {
    "workspace", "store", "folder", "name", "parameters", "collectors", "coverages", "datastore",
    "crs", "bands", "eightBit", "granules", "nextId", "configure",
}  # fmt: skip
INDEXER_KEYS = ("parameters", "collectors", "coverages")
"""what makes a declared mosaic have an indexer file (without them it has none, as the
release sample ``nurc:mosaic``, configured by a ``mosaic.properties`` of 2006)"""


def apply(state: State, sec: Section, ctx: ScenarioContext) -> None:
    sec.only({"stores"})
    for item in sec.items("stores"):
        try:
            _apply_one(state, item)
        except EmulatorError as exc:
            raise ScenarioError(f"{item.where}: {exc.message}") from None


def _apply_one(state: State, sec: Section) -> None:
    sec.only(KEYS)
    ws, name = sec.str("workspace", required=True), sec.str("store", required=True)
    root = _folder(sec.str("folder") or f"data/{ws}/{name}", sec.where)
    indexer = Indexer(
        params={k: str(v) for k, v in sec.dict("parameters").items()},
        collectors=[_collector(c) for c in sec.items("collectors")],
        coverages=[(c.str("name", required=True), c.str("schema")) for c in sec.items("coverages")],
        datastore={k: str(v) for k, v in sec.dict("datastore").items()}
        if sec.has("datastore")
        else None,
        source=INDEXER_PROPERTIES if any(sec.has(k) for k in INDEXER_KEYS) else None,
    )
    mosaic = Mosaic(
        root.key, sec.str("name") or indexer.param("Name") or root.name, indexer, sec.str("crs")
    )
    mosaic.bands = tuple(sec.strings("bands")) or mosaic.bands
    mosaic.eight_bit = sec.bool("eightBit", False)
    harvest.check(mosaic)
    declared = [_granule(mosaic, root, g) for g in sec.items("granules")]
    mosaic.add([g for g, _ in declared], [given for _, given in declared])
    mosaic.next_id = max(sec.int("nextId", mosaic.next_id), mosaic.next_id)
    _write_config(state, root, mosaic)
    cat = state.catalog
    store = cat.coverage_store(ws, name) or configure.ensure_store(cat, ws, name, root.url, "")
    if store_root(store.url) != root.key:
        raise ScenarioError(
            f"{sec.where}: store {ws}:{name} points at {store.url}, not at {root.url}"
        )
    state.mosaics.put(mosaic)
    for coverage in sec.strings("configure"):
        if cat.resource(store.workspace, coverage, "coverage", store.name) is None:
            cat.add_resource(configure.build_coverage(mosaic, store, None, coverage))


def _folder(text: str, where: str) -> FileRef:
    ref = locate(text)
    if not isinstance(ref, FileRef):
        raise ScenarioError(f"{where}.folder: expected a data-directory path or an absolute path")
    return ref


def _collector(sec: Section) -> Collector:
    sec.only({"spi", "attribute", "regex", "format", "fullPath"})
    return Collector(
        sec.str("spi", required=True),
        sec.str("attribute", required=True),
        sec.str("regex"),
        sec.str("format"),
        sec.bool("fullPath", False),
    )


def _granule(mosaic: Mosaic, root: FileRef, sec: Section) -> tuple[Granule, int | None]:
    """A declared granule and the id the scenario gives it (None: the next one)."""
    sec.only({"id", "location", "bbox", "values", "file"})
    location = sec.str("location", required=True)
    box = sec.list("bbox", required=True)
    if len(box) != 4 or not all(
        isinstance(v, int | float) and not isinstance(v, bool) for v in box
    ):
        raise ScenarioError(f"{sec.where}.bbox: expected [minx, miny, maxx, maxy]")
    if box[0] > box[2] or box[1] > box[3]:
        raise ScenarioError(f"{sec.where}.bbox: min is greater than max")
    granule = harvest.declared_granule(
        mosaic, location, Envelope(*map(float, box)), sec.dict("values")
    )
    file = sec.str("file")
    target = (
        locate(file)
        if file
        else (locate(location) if location.startswith("/") else root.child(location))
    )
    granule.file = target.key if isinstance(target, FileRef) else None
    return granule, (sec.int("id") if sec.has("id") else None)


def _write_config(state: State, root: FileRef, mosaic: Mosaic) -> None:
    """The folder's configuration files, so that the resource API shows them."""
    if root.tree != DATADIR:
        return
    indexer = mosaic.indexer
    if indexer.datastore is not None:
        state.datadir.write(
            f"{root.path}/{DATASTORE_PROPERTIES}", properties.dump(indexer.datastore).encode()
        )
    if indexer.source is None:
        return
    params = dict(indexer.params)
    specs = []
    for i, c in enumerate(indexer.collectors):
        if c.regex is None:
            specs.append(f"{c.spi}({c.mapped})")
            continue
        config = f"collector{i + 1}regex"
        regex = (
            c.regex
            + (f",format={c.format}" if c.format else "")
            + (",fullPath=true" if c.full_path else "")
        )
        state.datadir.write(
            f"{root.path}/{config}.properties", properties.dump({"regex": regex}).encode()
        )
        specs.append(f"{c.spi}[{config}]({c.mapped})")
    if specs:
        params["PropertyCollectors"] = ",".join(specs)
    state.datadir.write(f"{root.path}/{INDEXER_PROPERTIES}", properties.dump(params).encode())


def dump(state: State, ctx: ScenarioContext) -> dict[str, Any]:
    stores = []
    for store in _stores(state):
        mosaic = state.mosaics.get(store_root(store.url))
        if mosaic is not None:
            stores.append(_dump_one(store.workspace, store.name, mosaic))
    return {"stores": stores}


def _stores(state: State) -> list[Any]:
    cat = state.catalog
    return [s for w in cat.list_workspaces() for s in cat.list_stores(w.name, "coverageStore")]


def _dump_one(ws: str, name: str, mosaic: Mosaic) -> dict[str, Any]:
    root = parse_key(mosaic.root)
    out: dict[str, Any] = {"workspace": ws, "store": name}
    if root.key != FileRef(DATADIR, f"data/{ws}/{name}").key:
        out["folder"] = root.path
    out["name"] = mosaic.name
    indexer = mosaic.indexer
    params = {k: v for k, v in indexer.params.items() if k.lower() != "propertycollectors"}
    if indexer.source is not None or params or indexer.collectors:
        out["parameters"] = params
        out["collectors"] = [_dump_collector(c) for c in indexer.collectors]
    if indexer.coverages:
        out["coverages"] = [
            {"name": n, **({"schema": s} if s else {})} for n, s in indexer.coverages
        ]
    if indexer.datastore is not None:
        out["datastore"] = dict(indexer.datastore)
    if mosaic.crs:
        out["crs"] = mosaic.crs
    out["bands"] = list(mosaic.bands)
    out["eightBit"] = mosaic.eight_bit
    out["granules"] = [_dump_granule(mosaic, root, g) for g in mosaic.granules]
    out["nextId"] = mosaic.next_id
    return out


def _dump_collector(c: Collector) -> dict[str, Any]:
    out: dict[str, Any] = {"spi": c.spi, "attribute": c.mapped}
    if c.regex is not None:
        out["regex"] = c.regex
    if c.format:
        out["format"] = c.format
    if c.full_path:
        out["fullPath"] = True
    return out


def _dump_granule(mosaic: Mosaic, root: FileRef, g: Any) -> dict[str, Any]:
    env = g.envelope
    values = {
        k: (format_value(v) if not isinstance(v, int | float | bool) else v)
        for k, v in g.values.items()
    }
    out: dict[str, Any] = {
        "id": g.id,
        "location": g.location,
        "bbox": [env.minx, env.miny, env.maxx, env.maxy],
    }
    out["values"] = values
    default = locate(g.location) if g.location.startswith("/") else root.child(g.location)
    if g.file is not None and (not isinstance(default, FileRef) or g.file != default.key):
        out["file"] = parse_key(g.file).absolute
    return out
