"""Tile layer changes through GWC's REST (``TileLayerController``) with GeoServer's rules
(``GWCGeoServerRESTConfigurationProvider``) for ``GeoServerLayer`` bodies.

Everything is checked before anything changes. Errors are GWC's ``RestException`` answers
in plain text: the exception's message (``RestExceptionHandler``), or, from the controllers
with a handler of their own (mass truncation, bounds, reload), its ``toString()``:
``org.geowebcache.rest.exception.RestException <status> <NAME>: <message>``.
"""

from __future__ import annotations

from ...core.errors import EmulatorError
from .model import GEOSERVER_LAYER, SeedingStore, TileLayer
from .request import canonical_format

STATUS_NAMES = {
    400: "BAD_REQUEST",
    404: "NOT_FOUND",
    405: "METHOD_NOT_ALLOWED",
    500: "INTERNAL_SERVER_ERROR",
}
REST_EXCEPTION = "org.geowebcache.rest.exception.RestException"


def rest_error(status: int, message: str, whole: bool = False) -> EmulatorError:
    """GWC's ``RestException`` as its handlers write it: the message
    (``RestExceptionHandler``), or with ``whole`` its ``toString()`` (the handlers of
    ``MassTruncateController``, ``BoundsController``, ``ReloadController``)."""
    if not whole:
        return EmulatorError(message, status=status)
    return EmulatorError(
        f"{REST_EXCEPTION} {status} {STATUS_NAMES.get(status, str(status))}: {message}",
        status=status,
    )


def find(store: SeedingStore, name: str) -> TileLayer:
    """``GWCController.findTileLayer``: the tile layer or a 404."""
    found = store.tile_layers.get(name)
    if found is None:
        raise rest_error(404, f"Unknown layer: {name}")
    return found


def _resolve_geoserver(store: SeedingStore, layer: TileLayer) -> None:
    """The REST converter: the catalog layer or group the body names, by id or name."""
    if not layer.name:
        raise rest_error(400, "Layer name not provided")
    given = layer.id or None
    if given is not None:
        actual = store.catalog_name_of(given)
        if actual is None:
            raise rest_error(400, f"No GeoServer Layer or LayerGroup exists with id '{given}'")
        if actual != layer.name:
            raise rest_error(
                400,
                f"Layer with id '{given}' found but name does not match: '{layer.name}'/'{actual}'",
            )
    elif not store.is_published(layer.name):
        raise rest_error(404, f"GeoServer Layer or LayerGroup '{layer.name}' not found")
    current = store.tile_layers.get(layer.name)
    layer.id = store.published.get(layer.name) or (current.id if current else None)
    if layer.bounds is None:
        layer.bounds = store.published_bounds.get(layer.name) or (
            current.bounds if current else None
        )


def _check_subsets(store: SeedingStore, layer: TileLayer) -> None:
    """A subset of an unknown gridset is kept and ignored, as ``GeoServerTileLayer`` does
    (it logs ``No GWC GridSet named '<name>' exists.``); it takes effect if the gridset is
    defined later."""
    for name in layer.gridsets:
        gridset = store.gridset(name)
        opts = layer.subsets.get(name)
        if gridset is None or opts is None:
            continue
        if opts.extent is not None:
            minx, miny, maxx, maxy = opts.extent
            if not (minx < maxx and miny < maxy):
                raise rest_error(400, f"Invalid extent for grid subset {name}: {opts.extent}")
        start, stop = opts.zoom_start, opts.zoom_stop
        if start is not None and not 0 <= start < gridset.levels:
            raise rest_error(400, f"zoomStart {start} is out of range for grid subset {name}")
        if stop is not None and stop < 0:
            raise rest_error(400, f"zoomStop {stop} is out of range for grid subset {name}")
        if start is not None and stop is not None and start > stop:
            raise rest_error(
                400, f"zoomStart ({start}) can't be greater than zoomStop ({stop}) in {name}"
            )


def validate(store: SeedingStore, path_name: str, layer: TileLayer) -> None:
    """Every check of a PUT or POST body, in GWC's order."""
    if layer.kind == GEOSERVER_LAYER:
        _resolve_geoserver(store, layer)
    if layer.name != path_name:
        raise rest_error(
            400,
            "There is a mismatch between the name of the  layer in the submission and"
            " the URL you specified.",
        )
    current = store.tile_layers.get(layer.name)
    if current is not None and current.kind != layer.kind:
        raise rest_error(
            400, f"Layer {layer.name} is a {current.kind}; it can't be replaced by a {layer.kind}"
        )
    if layer.kind != GEOSERVER_LAYER and store.is_published(layer.name):
        raise rest_error(
            400, f"Layer {layer.name} is a GeoServer layer; it can't be replaced by a {layer.kind}"
        )
    mx, my = layer.metatiling
    if mx < 0 or my < 0:  # 0 is kept, as GeoServer keeps it (seeding then uses 1, see tiles)
        raise rest_error(400, f"metaWidthHeight must not be negative: {mx}, {my}")
    if layer.blob_store_id is not None and layer.blob_store_id not in store.blob_stores:
        raise rest_error(400, f"No BlobStore with id '{layer.blob_store_id}' found")
    _check_subsets(store, layer)


def save(store: SeedingStore, layer: TileLayer) -> bool:
    """Add or replace the tile layer (validated); True when it was new.

    A replaced layer loses the cached tiles of the gridsets and formats it no longer has,
    as GeoServer's ``GWC.save`` truncates them."""
    current = store.tile_layers.get(layer.name)
    store.tile_layers[layer.name] = layer
    if current is None:
        return True
    formats = {canonical_format(f) for f in layer.formats}
    for key in list(store.cache.entries):
        name, gridset, fmt, _ = key
        if name != layer.name:
            continue
        if gridset not in layer.gridsets or (fmt and fmt not in formats):
            del store.cache.entries[key]
    return False


def modify(store: SeedingStore, layer: TileLayer) -> None:
    """POST: only an existing tile layer can be modified."""
    if layer.name not in store.tile_layers:
        raise rest_error(
            400,
            f"Layer {layer.name} is not known by the configuration.Maybe it was loaded from"
            " another source, or you're trying to add a new layer and need to do an HTTP PUT ?",
        )
    save(store, layer)


def delete(store: SeedingStore, name: str) -> None:
    """DELETE: the tile layer and its cached tiles (the catalog layer stays)."""
    find(store, name)
    del store.tile_layers[name]
    store.cache.drop_layer(name)
