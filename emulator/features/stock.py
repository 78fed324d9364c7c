"""The stock source: the release data directory's sample features (``stockdata``), shared
read-only by every emulator of the process and copied into a state on its first write.

A feature type serves stock features when its store points where GeoServer's release data
directory keeps that data (``RELEASE_FILES``: the store's ``url`` or ``database``
connection parameter) and its native name is one of that file's tables. The features are
decoded once per process (``stockdata.load``) into one ``FeatureTable`` per layer, which no
caller ever changes: reads share it; a transaction works on a copy of its list (``Feature``
objects are replaced, never changed, by the memory transaction) and its commit puts the copy
into ``state.features`` (the memory provider answers for the type from then on). A refused
transaction leaves both the state and the shared table as they were; ``reset()`` restores a
state without the copy and never decodes anything again.

The state's scenario dump writes ``state.features`` only: the stock features are part of the
built-in scenario and are written only once a write copied them.
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING

from .. import stockdata
from .memory import MemorySource, MemoryTransaction, feature_store, key_of, schema_of
from .model import Attribute, Feature, FeatureStore, FeatureTable, Key
from .query import Schema, TypeRef

if TYPE_CHECKING:
    from ..core.state import State
    from ..stockdata.model import StockGrid
    from .grids import CoverageRef

RELEASE_FILES: dict[str, tuple[str, dict[str, str]]] = {
    "file:data/ne/natural_earth.gpkg": (
        "ne",
        {
            "boundary_lines_land": "boundary_lines",
            "coastlines": "coastlines",
            "countries": "countries",
            "disputed_areas": "disputed_areas",
            "populated_places": "populated_places",
        },
    ),
    "file:data/sf": (
        "sf",
        {n: n for n in ("archsites", "bugsites", "restricted", "roads", "streams")},
    ),
    "file:data/nyc": (
        "tiger",
        {n: n for n in ("giant_polygon", "poi", "poly_landmarks", "tiger_roads")},
    ),
    "file:data/shapefiles/states.shp": ("topp", {"states": "states"}),
    "file:data/taz_shapes": (
        "topp",
        {
            n: n
            for n in (
                "tasmania_cities",
                "tasmania_roads",
                "tasmania_state_boundaries",
                "tasmania_water_bodies",
            )
        },
    ),
}
"""where the release data directory keeps each stock feature type: a store location, the
stock data's workspace, and the stock layer of each native name found there"""


RELEASE_COVERAGES: dict[str, tuple[str, str]] = {
    "file:coverages/arc_sample/precip30min.asc": ("nurc", "Arc_Sample"),
    "file:coverages/img_sample/usa.jpeg": ("nurc", "Img_Sample"),
    "file:coverages/img_sample/Pk50095.tif": ("nurc", "Pk50095"),
    "file:coverages/mosaic_sample/mosaic.shp": ("nurc", "mosaic"),
    "file:data/sf/sfdem.tif": ("sf", "sfdem"),
}
"""where the release data directory keeps each stock coverage's file"""


def stock_layer(location: str | None, native: str) -> tuple[str, str] | None:
    """The stock (workspace, layer) a store at ``location`` reads as ``native``; None when
    the release data directory has no such table there."""
    found = RELEASE_FILES.get(location or "")
    if found is None or native not in found[1]:
        return None
    return found[0], found[1][native]


def store_location(state: State, workspace: str, store: str) -> str | None:
    """The file a store reads (its ``url``, else its ``database`` connection parameter, else
    a coverage store's ``url``); None for a missing store."""
    catalog = state.catalog
    found = catalog.store(workspace, store)
    if found is None:
        return None
    params = found.connection_parameters
    location = params.get("url") or params.get("database")
    return location or getattr(found, "url", None)


@functools.cache
def shared_table(workspace: str, layer: str) -> FeatureTable | None:
    """The stock layer as one ``FeatureTable`` for the process (never changed: see the
    module docstring); None when the stock data has no such layer."""
    stock = stockdata.load(workspace, layer)
    if stock is None:
        return None
    attributes = [Attribute(a.name, a.binding, a.nillable, a.length) for a in stock.attributes]
    features = [Feature(f.fid, f.properties) for f in stock.features]
    table = FeatureTable(stock.name, attributes, stock.geometry, stock.srs, features)
    table.index()  # built once here, so that readers never write to the shared table
    return table


def provide(state: State, ft: TypeRef) -> StockSource | None:
    """The provider of the stock features (``resolver.PROVIDERS``, after the memory one: a
    copy a write made wins)."""
    store = feature_store(state)
    if store is None:
        return None
    found = stock_layer(store_location(state, ft.workspace, ft.store), key_of(ft)[2])
    table = shared_table(*found) if found is not None else None
    if table is None:
        return None
    return StockSource(store, key_of(ft), table, schema_of(ft, table))


def provide_grid(state: State, coverage: CoverageRef) -> StockGrid | None:
    """The provider of the stock coverages' pixels (``grids.GRID_PROVIDERS``): a coverage
    whose store reads the release file of a stock coverage."""
    found = RELEASE_COVERAGES.get(store_location(state, coverage.workspace, coverage.store) or "")
    return stockdata.load_grid(*found) if found is not None else None


class StockSource(MemorySource):
    """A ``MemorySource`` over a shared stock table whose transactions write to a copy."""

    def __init__(self, store: FeatureStore, key: Key, table: FeatureTable, schema: Schema) -> None:
        super().__init__(store, key, table, schema, stored=False)

    def transaction(self) -> MemoryTransaction:
        shared = self.table
        copy = FeatureTable(
            shared.name,
            list(shared.attributes),
            shared.geometry,
            shared.srs,
            list(shared.features),
        )
        return MemorySource(self.store, self.key, copy, self.schema, stored=False).transaction()
