"""GeoWebCache's side of the state: tile layers, gridsets, seed tasks, the tile-cache model.

The catalog gives every layer and layer group a tile layer through
``add_default_tile_layer``; the seeding scenario section adds gridsets, more tile layers
and the simulation settings. Tasks live here too (not in the scheduler object) so that a
reset or a snapshot covers them.
"""

from __future__ import annotations

from collections import deque

from ...core.errors import EmulatorError, ServerError
from ...core.record import field, record
from ...core.trackeddict import TrackedDict
from .cache import TileCache
from .config import BlobStore, DiskQuotaConfig, GlobalConfig
from .gridsets import DEFAULT_GRIDSETS, Box, GridSet, builtin_gridset, builtin_names
from .java import hash_order
from .tiles import TileRange

DEFAULT_GRIDSET_NAMES = ("EPSG:4326", "EPSG:900913")
DEFAULT_FORMATS = ("image/png", "image/jpeg")
THREAD_NAME = "http-nio-8080-exec-1"
"""the servlet thread GWC names in its unknown-layer message (any name; this one is fixed)"""

DEFAULT_RATE = 10.0
"""metatiles per second per task, unless a scenario says otherwise"""
MAX_METATILING = 20
"""the most tiles a metatile may be wide or high: the choices GeoServer's caching options
offer (1 to 20; GWC's REST sets no bound)"""
DEFAULT_POOL_SIZE = 16
"""GeoServer's seeder core pool size: tasks running at once"""
DEFAULT_TRUNCATE_SECONDS = 1.0


@record
class GridSubsetOptions:
    """A tile layer's settings for one gridset (GWC's ``XMLGridSubset``)."""

    extent: Box | None = None
    """in the gridset's CRS; None = the layer bounds (or the whole gridset without them)"""
    zoom_start: int | None = None
    zoom_stop: int | None = None


GEOSERVER_LAYER = "GeoServerLayer"
WMS_LAYER = "wmsLayer"
LAYER_ID_PREFIX = "-570ae188:124761b8d78:"
"""the UID part GeoServer ids share (one JVM's ``java.rmi.server.UID``); a counter follows"""


@record
class TileLayer:
    name: str
    """the prefixed layer or group name, e.g. ``topp:states`` (a global group: ``tasmania``)"""
    enabled: bool = True
    kind: str = GEOSERVER_LAYER
    """``GeoServerLayer`` (backed by a catalog layer or group) or ``wmsLayer`` (GWC's own)"""
    in_memory_cached: bool | None = None
    """``inMemoryCached`` as given (None: not written, GeoServer reads it as true)"""
    blob_store_id: str | None = None
    cache_warning_skips: list[str] = field(default_factory=list)
    extras: list[tuple[str, object]] = field(default_factory=list)
    """a ``wmsLayer``'s own fields (``wmsUrl``, ``wmsLayers``…), in the order given"""
    gridsets: list[str] = field(default_factory=lambda: list(DEFAULT_GRIDSET_NAMES))
    formats: list[str] = field(default_factory=lambda: list(DEFAULT_FORMATS))
    metatiling: tuple[int, int] = (4, 4)
    gutter: int = 0
    parameter_filters: list[dict[str, object]] = field(
        default_factory=lambda: [{"key": "STYLES", "defaultValue": ""}]
    )
    id: str | None = None
    """the catalog id of the layer or group (``LayerInfoImpl-…``), shown by the layers REST"""
    bounds: Box | None = None
    """lon/lat bounds of the layer; None = it covers every gridset entirely"""
    subsets: dict[str, GridSubsetOptions] = field(default_factory=dict)
    expire_cache: int = 0
    expire_clients: int = 0

    def subset(self, gridset: str) -> GridSubsetOptions:
        return self.subsets.get(gridset) or GridSubsetOptions()

    def first_format(self) -> str | None:
        """``getMimeTypes().get(0)``: the formats are a Java ``HashSet``."""
        ordered = hash_order(self.formats)
        return ordered[0] if ordered else None


@record
class FailureRule:
    """Failure injection for one layer's tasks."""

    after_tiles: int | None = None
    """seed/reseed tasks fail once they have done this many tiles; None: they do not"""
    status: str = "aborted"
    """``aborted`` (listed -1, as GWC's abort limit) or ``crashed`` (listed 1, as an
    uncaught error with GeoServer's default retry settings)"""
    truncate: bool = False
    """truncate tasks of the layer fail (listed -1, nothing deleted)"""


@record
class SimulationSettings:
    pool_size: int = DEFAULT_POOL_SIZE
    default_rate: float = DEFAULT_RATE
    rates: dict[str, float] = field(default_factory=dict)
    """per layer, metatiles per second per task"""
    truncate_seconds: float = DEFAULT_TRUNCATE_SECONDS
    failures: dict[str, FailureRule] = field(default_factory=dict)

    def rate(self, layer: str) -> float:
        return self.rates.get(layer, self.default_rate)


@record
class SeedWork:
    """What the tasks of one request work on, as the request resolves it."""

    layer: str
    type: str
    """SEED, RESEED or TRUNCATE"""
    gridset: str
    format: str | None
    """GWC's canonical format, or None for one it does not know (the tasks fail)"""
    parameters: tuple[tuple[str, str], ...]
    range: TileRange
    tiles_total: int
    """``tilesTotal`` as each task reports it (-1: too many or not computable)"""
    metatiles: int
    """how many metatiles the shared iterator hands out"""
    crash: str | None
    """why every task fails at once when it starts: ``zoom``, ``order``, ``format``"""


@record
class SeedGroup(SeedWork):
    """The tasks of one request: they share one tile range and one metatile iterator."""

    id: int
    rate: tuple[int, int]
    """metatiles per second as a fraction (numerator, denominator)"""
    fail_after: int | None
    """metatiles a task completes before its next one fails"""
    fail_state: str
    members: list[int] = field(default_factory=list)
    consumed: int = 0
    """metatiles taken from the iterator by members that have finished"""
    completed: int = 0
    """metatiles stored by members that have finished"""
    cached: int = 0
    """metatiles already written to the cache model"""

    @property
    def meta_tiles(self) -> int:
        return self.range.meta[0] * self.range.meta[1]

    def cache_key(self) -> tuple[str, str, str, tuple[tuple[str, str], ...]]:
        return (self.layer, self.gridset, self.format or "", self.parameters)


@record
class SeedTask:
    """One GWC task (a thread of a request)."""

    id: int
    layer: str
    type: str
    group: int
    state: str
    """GWC's ``GWCTask.STATE``: UNSET, READY, RUNNING, DONE, DEAD"""
    listed: bool = True
    """still in TileBreeder's pool (status lists show it; kill can reach it)"""
    terminate: bool = False
    finished: bool = False
    """its thread has returned (a crashed task stays RUNNING but is finished)"""
    start: int | None = None
    """simulated milliseconds"""
    end: int | None = None
    """when it finishes (scheduled while running); None = not in sight"""
    end_state: str = "DONE"
    cap: int | None = None
    """the most metatiles it will take from the iterator (after a kill or a failure)"""
    cap_kind: str | None = None
    """``kill`` or ``fail``"""
    real: int | None = None
    """metatiles it takes from the iterator in all (known once the group's end is in sight)"""
    consumed: int = 0
    completed: int = 0
    tiles_total: int = -1


@record
class SeedingStore:
    tile_layers: dict[str, TileLayer] = field(default_factory=TrackedDict)
    gridsets: dict[str, GridSet] = field(default_factory=lambda: dict(DEFAULT_GRIDSETS))
    settings: SimulationSettings = field(default_factory=SimulationSettings)
    tasks: dict[int, SeedTask] = field(default_factory=dict)
    groups: dict[int, SeedGroup] = field(default_factory=dict)
    queue: deque[int] = field(default_factory=deque)
    """task ids waiting for a pool thread, first come first served"""
    running: dict[int, None] = field(default_factory=dict)
    """task ids holding a pool thread"""
    events: list[tuple[int, int]] = field(default_factory=list)
    """heap of (end ms, task id) of running tasks; entries made stale by a reschedule are
    skipped when they surface"""
    cache: TileCache = field(default_factory=TileCache)
    now: int = 0
    """simulated milliseconds up to which the scheduler has done the work"""
    next_event: int | None = None
    dispatches_without_drain: int = 0
    group_ids: int = 0
    published: dict[str, str] = field(default_factory=TrackedDict)
    """catalog layers and groups by prefixed name: their catalog id (a tile layer may be
    absent: the GWC REST can delete it and create it again)"""
    published_bounds: dict[str, Box] = field(default_factory=TrackedDict)
    """lon/lat bounds of the published layers that have them (for a tile layer made again)"""
    published_ids: int = 0
    blob_stores: dict[str, BlobStore] = field(default_factory=dict)
    disk_quota: DiskQuotaConfig = field(default_factory=DiskQuotaConfig)
    global_config: GlobalConfig = field(default_factory=GlobalConfig)

    # -- tile layers -------------------------------------------------------------------

    def new_catalog_id(self, group: bool = False) -> str:
        """A catalog id as GeoServer makes them: ``LayerInfoImpl-`` plus a JVM UID."""
        self.published_ids += 1
        kind = "LayerGroupInfoImpl" if group else "LayerInfoImpl"
        return f"{kind}-{LAYER_ID_PREFIX}-{0x8000 - self.published_ids:x}"

    def add_default_tile_layer(
        self,
        name: str,
        *,
        bounds: Box | None = None,
        id: str | None = None,
        group: bool = False,
    ) -> TileLayer:
        """Give a new layer or layer group its tile layer, as GeoServer does by default.

        ``bounds``: the layer's lon/lat bounding box (its tiles' coverage; without it the
        layer covers every gridset entirely); ``id``: the catalog id the layers REST shows
        (made up when not given); ``group``: a layer group (its id says so).
        """
        layer = self.tile_layers.get(name)
        if layer is None:  # TileLayerInfoUtil.create: in-memory caching on
            layer = self.tile_layers[name] = TileLayer(name, in_memory_cached=True)
        if bounds is not None:
            layer.bounds = bounds
            self.published_bounds[name] = bounds
        if id is None:
            id = layer.id or self.published.get(name) or self.new_catalog_id(group)
        layer.id = id
        self.published[name] = id
        return layer

    def rename_tile_layer(self, old: str, new: str) -> None:
        layer = self.tile_layers.pop(old, None)
        if layer is not None:
            layer.name = new
            self.tile_layers[new] = layer
            self.cache.rename_layer(old, new)
        for table in (self.published, self.published_bounds):
            if old in table:
                table[new] = table.pop(old)  # type: ignore[assignment]

    def remove_tile_layer(self, name: str) -> None:
        """The catalog layer or group went: its tile layer and cached tiles go too."""
        self.tile_layers.pop(name, None)
        self.published.pop(name, None)
        self.published_bounds.pop(name, None)
        self.cache.drop_layer(name)

    def catalog_name_of(self, id: str) -> str | None:
        """The published layer or group with catalog id ``id``."""
        for name, known in self.published.items():
            if known == id:
                return name
        for layer in self.tile_layers.values():
            if layer.id == id and layer.kind == GEOSERVER_LAYER:
                return layer.name
        return None

    def is_published(self, name: str) -> bool:
        found = self.tile_layers.get(name)
        return name in self.published or (found is not None and found.kind == GEOSERVER_LAYER)

    # -- gridsets ----------------------------------------------------------------------

    def gridset(self, name: str) -> GridSet | None:
        """A gridset by name: one defined here, else one of GWC's built-ins."""
        found = self.gridsets.get(name)
        return found if found is not None else builtin_gridset(name)

    def all_gridset_names(self) -> list[str]:
        """Every gridset name (built-ins and user ones), in ``HashSet`` order as GWC lists."""
        names = dict.fromkeys([*builtin_names(), *self.gridsets])
        return hash_order(list(names))

    def is_builtin_gridset(self, name: str) -> bool:
        return name in DEFAULT_GRIDSETS or builtin_gridset(name) is not None

    def find_tile_layer(self, name: str, status: int) -> TileLayer:
        """``TileLayerDispatcher.getTileLayer``: the layer, or GWC's unknown-layer error."""
        layer = self.tile_layers.get(name)
        if layer is None:
            raise EmulatorError(
                f"Thread {THREAD_NAME} Unknown layer {name}. Check the logfiles,"
                " it may not have loaded properly.",
                status=status,
            )
        return layer

    def layer_names(self) -> list[str]:
        """``TileLayerDispatcher.getLayerNames``: a Java ``HashSet`` of the names."""
        return hash_order(self.tile_layers)

    def gridset_names(self, layer: TileLayer) -> list[str]:
        """``getGridSubsets()``: the layer's known gridsets, in ``HashSet`` order."""
        return hash_order([g for g in layer.gridsets if self.gridset(g) is not None])

    def require_gridset(self, layer: TileLayer, name: str) -> GridSet:
        found = self.gridset(name) if name in layer.gridsets else None
        if found is None:
            raise ServerError(f"Unknown grid set {name}")
        return found
