"""A seed request and how GWC turns it into a tile range (``TileBreeder.seed``).

Order of checks, as GWC makes them once the body parsed: the layer (500 unknown), the zoom
range, the format (an unknown one is accepted; its tasks fail), the gridset (from
``gridSetId``, else the one subset whose SRS matches ``srs``, 400 when several do, else
the layer's first), then the tasks (``threadCount``, at most ``MAX_THREAD_COUNT``).
"""

from __future__ import annotations

from ...core.errors import Invalid
from ...core.record import field, record
from .gridsets import Box, layer_extent, srs_equal
from .model import SeedingStore, SeedWork, TileLayer
from .tiles import RangeError, metatile_count, subset_coverages, tile_count, tile_range

TYPES = ("SEED", "RESEED", "TRUNCATE")
MAX_THREAD_COUNT = 128
"""the most tasks one request may ask for: GWC's seeding form offers 1 to 128 (its REST takes
any number and makes one task per thread, an array of 2,147,483,647 tasks included); 400
beyond, before any task is made"""

_IMAGE = {
    "png": "image/png", "jpeg": "image/jpeg", "gif": "image/gif", "tiff": "image/tiff",
    "png8": "image/png8", "png24": "image/png24", "vnd.jpeg-png": "image/vnd.jpeg-png",
    "vnd.jpeg-png8": "image/vnd.jpeg-png8",
}  # fmt: skip
_OTHER = {
    "application/vnd.google-earth.kml+xml", "application/vnd.google-earth.kmz",
    "application/vnd.ogc.se_xml", "application/vnd.ogc.gml", "application/vnd.ogc.gml/3.1.1",
}  # fmt: skip
_APPLICATION = {
    "application/bil16", "application/bil32", "application/json",
    "application/json;type=topojson", "application/json;type=geojson",
    "application/json;type=utfgrid", "application/vnd.mapbox-vector-tile",
}  # fmt: skip
_TEXT = ("text/html", "text/mapml", "text/xml", "text/css", "text/javascript")


def canonical_format(fmt: str) -> str | None:
    """``MimeType.createFromFormat(f).getFormat()``, or None for a format GWC does not know."""
    if fmt.startswith("image/"):
        if fmt in ("image/png; mode=24bit", "image/png;%20mode=24bit"):
            return "image/png;%20mode=24bit"
        return _IMAGE.get(fmt.split(";")[0][6:].lower())
    if fmt.lower() in _OTHER:
        return fmt.lower()
    if fmt.lower().startswith("text"):
        if fmt.lower() == "text/plain":
            return "text/plain"
        return next((t for t in _TEXT if fmt.startswith(t)), None)
    if fmt == "application/x-protobuf;type=mapbox-vector":
        return "application/vnd.mapbox-vector-tile"
    return fmt if fmt in _APPLICATION else None


@record
class SeedRequest:
    """The fields of a ``seedRequest`` body (absent ones are None, as XStream leaves them)."""

    name: str | None = None
    bounds: Box | None = None
    gridset_id: str | None = None
    srs: int | None = None
    zoom_start: int | None = None
    zoom_stop: int | None = None
    format: str | None = None
    type: str | None = None
    enum_type: str | None = None
    thread_count: int | None = None
    parameters: list[tuple[str, str]] | None = None
    filter_update: bool | None = None
    extras: dict[str, str] = field(default_factory=dict)
    """retry settings GWC reads but the REST path ignores"""

    def task_type(self) -> str:
        """``SeedRequest.getType``: case-insensitive, missing or unknown means SEED."""
        if self.enum_type is not None:
            return self.enum_type
        t = (self.type or "seed").upper()
        return t if t in TYPES else "SEED"


@record
class Resolved(SeedWork):
    """What the tasks of one request work on, and how many tasks share it."""

    threads: int


def _srs(store: SeedingStore, name: str) -> int:
    found = store.gridset(name)
    assert found is not None
    return found.srs


def _gridset_name(store: SeedingStore, layer: TileLayer, req: SeedRequest) -> str:
    if req.gridset_id is not None:
        return req.gridset_id
    names = store.gridset_names(layer)
    if req.srs is not None:
        matches = [n for n in names if srs_equal(_srs(store, n), req.srs)]
        if len(matches) > 1:
            raise Invalid(
                f"More than one GridSubet matches the requested SRS EPSG:{req.srs}."
                " gridSetId must be specified"
            )
        if matches:
            return matches[0]
    if not names:
        raise Invalid(f"Layer {layer.name} has no gridsets")
    return names[0]


def resolve(store: SeedingStore, layer_name: str, req: SeedRequest) -> Resolved:
    """``TileBreeder.seed`` up to the tasks: the range, its counts, and how tasks will fail."""
    layer = store.find_tile_layer(layer_name, 500)
    if req.zoom_start is None or req.zoom_stop is None:
        missing = "zoomStart" if req.zoom_start is None else "zoomStop"
        raise Invalid(f"The seed request has no {missing}")
    raw = req.format if req.format is not None else layer.first_format()
    fmt = canonical_format(raw) if raw is not None else None
    gs_name = _gridset_name(store, layer, req)
    gridset = store.require_gridset(layer, gs_name)
    options = layer.subset(gs_name)
    extent = options.extent if options.extent is not None else layer_extent(gridset, layer.bounds)
    coverage = subset_coverages(gridset, extent, options.zoom_start, options.zoom_stop)
    meta = (max(1, layer.metatiling[0]), max(1, layer.metatiling[1]))  # 0 (kept) tiles as 1
    tr = tile_range(gridset, coverage, req.bounds, req.zoom_start, req.zoom_stop, meta)
    if req.thread_count is None:
        raise Invalid("The seed request has no threadCount")
    if req.thread_count > MAX_THREAD_COUNT:
        raise Invalid(
            f"threadCount {req.thread_count} is too large: at most {MAX_THREAD_COUNT} tasks"
            " per request (the choices GeoWebCache's seeding form offers)"
        )
    if req.task_type() not in TYPES:
        raise Invalid(f"Unknown request type {req.task_type()}")
    crash: str | None = None
    try:
        total = tile_count(tr)
    except RangeError:
        total, crash = -1, "zoom"
    metatiles = 0
    if crash is None:
        try:
            metatiles = metatile_count(tr)
        except RangeError:
            crash = "order"
    if crash is None and fmt is None:
        crash = "format"
    params = tuple(sorted(dict(req.parameters or ()).items()))
    return Resolved(
        layer.name, req.task_type(), gs_name, fmt, params, tr, total, metatiles, crash,
        max(req.thread_count, 1),
    )  # fmt: skip
