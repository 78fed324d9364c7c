"""GWC's mass truncation (``MassTruncateRequest`` and its kinds) over the tile-cache model.

``truncateLayer``, ``truncateParameters``, ``truncateOrphans`` and ``truncateAll`` delete
at once (the storage broker's deletes); ``truncateExtent`` submits one truncate task per
cached format and parameter set of each gridset, as ``TruncateBboxRequest`` does, so its
effect shows when those tasks end.
"""

from __future__ import annotations

from ...core.budget import Budget
from ...core.errors import Invalid, ServerError
from ...core.record import field, record
from .filters import orphaned
from .gridsets import Box
from .model import SeedingStore
from .request import SeedRequest

REQUEST_TYPES = (
    "truncateLayer",
    "truncateParameters",
    "truncateOrphans",
    "truncateExtent",
    "truncateAll",
)


@record
class MassTruncate:
    kind: str
    layer: str | None = None
    parameters: list[tuple[str, str]] = field(default_factory=list)
    gridset: str | None = None
    bounds: Box | None = None


DISPATCHER_THREAD = "http-nio-8080-exec-1"
"""the request thread GWC's layer dispatcher names in its message (fixed: determinism)"""


def _layer(store: SeedingStore, name: str | None) -> str:
    if not name or name not in store.tile_layers:
        raise Invalid(f"Could not find layer {'null' if name is None else name}")
    return name


def _delete(store: SeedingStore, pick: object) -> int:
    """Drop the cache keys ``pick(key)`` selects (all chosen before any goes, so that a
    ``pick`` that raises changes nothing); how many tiles went."""
    chosen = [key for key in store.cache.entries if pick(key)]  # type: ignore[operator]
    return sum(store.cache.entries.pop(key).count() for key in chosen)


def run(
    store: SeedingStore,
    req: MassTruncate,
    submit: object,
) -> list[str]:
    """Carry out ``req``; the layers truncated. ``submit(layer, SeedRequest)`` hands a
    truncate request to the scheduler (``truncateExtent``)."""
    if req.kind == "truncateAll":
        names = sorted(store.tile_layers)
        for name in names:
            layer = store.tile_layers[name]
            _delete(store, lambda k, n=name, g=layer.gridsets: k[0] == n and k[1] in g)
        return names
    if req.kind == "truncateExtent" and (not req.layer or req.layer not in store.tile_layers):
        raise ServerError(
            f"Thread {DISPATCHER_THREAD} Unknown layer {req.layer}. Check the logfiles, it may"
            " not have loaded properly."
        )
    name = _layer(store, req.layer)
    layer = store.tile_layers[name]
    if req.kind == "truncateLayer":
        _delete(store, lambda k: k[0] == name and k[1] in layer.gridsets)
    elif req.kind == "truncateParameters":
        wanted = tuple(sorted(req.parameters))
        _delete(store, lambda k: k[0] == name and k[3] == wanted)
    elif req.kind == "truncateOrphans":
        filters = layer.parameter_filters
        budget = Budget("regexParameterFilter patterns")
        _delete(store, lambda k: k[0] == name and orphaned(filters, k[3], budget))
    elif req.kind == "truncateExtent":
        _truncate_extent(store, name, req, submit)
    else:
        raise Invalid(f"Unknown mass truncate request: {req.kind}")
    return [name]


def _truncate_extent(store: SeedingStore, name: str, req: MassTruncate, submit: object) -> None:
    layer = store.tile_layers[name]
    if req.bounds is None:
        raise Invalid("truncateExtent needs bounds")
    minx, miny, maxx, maxy = req.bounds
    if not (minx <= maxx and miny <= maxy):
        raise Invalid(f"Invalid bounds: {req.bounds}")
    gridsets = [req.gridset] if req.gridset else list(layer.gridsets)
    for gs in gridsets:
        if gs not in layer.gridsets or store.gridset(gs) is None:
            raise Invalid(f"Unknown grid set {gs}")
    for gs in gridsets:
        gridset = store.gridset(gs)
        assert gridset is not None
        opts = layer.subset(gs)
        start = opts.zoom_start or 0
        stop = (
            gridset.levels - 1
            if opts.zoom_stop is None
            else min(opts.zoom_stop, gridset.levels - 1)
        )
        param_sets = {k[3] for k in store.cache.entries if k[0] == name and k[1] == gs}
        param_sets.add(())
        for fmt in layer.formats:
            for params in sorted(param_sets):
                seed = SeedRequest(
                    bounds=req.bounds, gridset_id=gs, zoom_start=start, zoom_stop=stop,
                    format=fmt, type="truncate", thread_count=1,
                    parameters=list(params) or None,
                )  # fmt: skip
                submit(name, seed)  # type: ignore[operator]
