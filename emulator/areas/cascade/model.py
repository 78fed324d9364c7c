"""``Remotes`` (the remote servers' capabilities documents) and GeoServer's rules for
cascaded stores and layers, applied to the catalog.

The emulator never goes to the network. A store's remote server answers with the document
registered for its capabilities URL (by a scenario's ``cascade.remotes`` or the control
plane's ``PUT /__emulator/remote``); a URL with no document behaves as a server that cannot
be reached does in GeoServer. ``remote_key`` decides when two URLs name one server.

Rules (from GeoServer's controllers and ``CatalogBuilder``): a new store is enabled; a PUT
may neither rename a store nor move it to another workspace (403); deleting a store that
still holds layers needs ``recurse`` (else 401, GeoServer's status); a new layer copies what
it does not say from the remote layer of its native name, and is published at once with
the ``raster`` style; deleting a layer that is published needs ``recurse`` (else 403); a
layer PUT may rename it (its published layer follows).
"""

from __future__ import annotations

import copy
from typing import Any
from urllib.parse import parse_qsl, urlsplit

from ...core.errors import Forbidden, Invalid, ServerError, Unauthorized
from ...core.tracking import tracked
from ..catalog.entities import BBox, Layer
from ..catalog.generic import merge
from ..catalog.model import Catalog
from .entities import WMS_LAYER, Capabilities, HTTPStore, RemoteLayer, WMSLayer, WMTSLayer

_SERVICE_PARAMS = frozenset({"request", "service", "version"})


def remote_key(url: str) -> str:
    """What identifies a remote server in a capabilities URL: scheme and host (lower case),
    path, and the query without ``REQUEST``/``SERVICE``/``VERSION`` (any case), sorted.
    ``http://h/wms?REQUEST=GetCapabilities&VERSION=1.3.0`` and ``http://H/wms?`` are one."""
    parts = urlsplit(url.strip())
    query = sorted(
        (k, v)
        for k, v in parse_qsl(parts.query, keep_blank_values=True)
        if k.lower() not in _SERVICE_PARAMS
    )
    rest = "&".join(f"{k}={v}" for k, v in query)
    path = parts.path or "/"
    return f"{parts.scheme.lower()}://{parts.netloc.lower()}{path}" + (f"?{rest}" if rest else "")


@tracked
class Remotes:
    """Capabilities documents by remote server (``remote_key``), with the URL each was
    registered under (for the scenario dump)."""

    def __init__(self) -> None:
        self.documents: dict[str, tuple[str, str]] = {}

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Remotes):
            return NotImplemented
        return self.documents == other.documents

    __hash__ = None  # type: ignore[assignment]  # mutable and comparable

    def register(self, url: str, document: str) -> None:
        self.documents[remote_key(url)] = (url, document)

    def forget(self, url: str) -> bool:
        return self.documents.pop(remote_key(url), None) is not None

    def document(self, url: str | None) -> str | None:
        if not url:
            return None
        found = self.documents.get(remote_key(url))
        return found[1] if found else None

    def listed(self) -> list[tuple[str, str]]:
        """(url, document) pairs, by URL."""
        return sorted(self.documents.values())


# -- stores ---------------------------------------------------------------------------------


def add_store(cat: Catalog, store: HTTPStore, when: str | None) -> HTTPStore:
    store.enabled = True
    cat.add_store(store, when=when)
    return store


def update_store(
    cat: Catalog, current: HTTPStore, fields: dict[str, Any], when: str | None
) -> HTTPStore:
    """Merge ``fields`` into a copy of ``current`` and put it in place (all or nothing)."""
    name = fields.pop("name", None)
    workspace = fields.pop("workspace", None)
    if workspace is not None and workspace != current.workspace:
        raise Forbidden(
            f"Attempting to move {current.name} from {current.workspace} to {workspace} via PUT"
        )
    if name is not None and name != current.name:
        raise Forbidden(f"Attempting to rename {current.name} to {name} via PUT")
    updated = copy.deepcopy(current)
    assign(updated, fields)
    cat.replace_store(current.workspace, current.name, updated, when=when)
    return updated


def delete_store(cat: Catalog, store: HTTPStore, recurse: bool) -> None:
    if not recurse and cat.list_resources(store.workspace, store=store.name):
        raise Unauthorized(f"{store.kind.lower()} not empty")
    cat.delete_store(store.workspace, store.name, recurse=True)


def assign(target: Any, fields: dict[str, Any]) -> None:
    """Set parsed fields on a store or layer; a field its kind lacks is refused."""
    for key, value in fields.items():
        if key == "extras":  # generic fields: merged, None unsets
            target.extras = merge(target.extras, value)
            continue
        if not hasattr(target, key):
            raise Invalid(f"A {target.kind} has no field {_FIELD_NAMES.get(key, key)}")
        setattr(target, key, value)


_FIELD_NAMES = {"header_name": "headerName", "header_value": "headerValue"}


# -- layers ---------------------------------------------------------------------------------


def build_layer(
    store: HTTPStore, remote: Capabilities, fields: dict[str, Any]
) -> WMSLayer | WMTSLayer:
    """A new layer of ``store``: what ``fields`` say, the rest from the remote layer named
    by its native name (GeoServer's ``initWMSLayer``/``initWMTSLayer``)."""
    name, native = fields.get("name"), fields.get("native_name")
    if not name and not native:
        raise Invalid("Trying to create a new cascaded layer, but no name was specified")
    native = native or name
    found = remote.layer(native)
    if found is None:
        raise ServerError(f"Could not find layer {native} in the server capabilitiles document")
    cls: type[WMSLayer | WMTSLayer] = WMSLayer if store.kind == "wmsStore" else WMTSLayer
    full = _from_remote(cls, store, found, remote)
    layer = cls(name or full.name, store.workspace, store.name)
    assign(layer, {k: v for k, v in fields.items() if k != "name"})
    layer.native_name = native
    layer.enabled = True
    layer.srs = layer.srs or full.srs
    layer.native_crs = layer.native_crs or full.native_crs
    layer.projection_policy = layer.projection_policy or full.projection_policy
    if layer.latlon_bbox is None and layer.native_bbox is None:
        layer.latlon_bbox, layer.native_bbox = full.latlon_bbox, full.native_bbox
    elif layer.latlon_bbox is None and layer.native_bbox is not None:
        if layer.native_bbox.crs in (None, "EPSG:4326"):
            layer.latlon_bbox = BBox(*_coords(layer.native_bbox), "EPSG:4326")
    for attr in ("title", "description", "abstract"):
        if getattr(layer, attr) is None:
            setattr(layer, attr, getattr(full, attr))
    if not layer.keywords:
        layer.keywords = list(full.keywords)
    if isinstance(layer, WMSLayer) and isinstance(full, WMSLayer):
        if "remote_styles" not in fields:
            layer.remote_styles = list(full.remote_styles)
        layer.preferred_format = layer.preferred_format or full.preferred_format
    return layer


def _coords(box: BBox) -> tuple[float, float, float, float]:
    return box.minx, box.maxx, box.miny, box.maxy


def _from_remote(
    cls: type[WMSLayer | WMTSLayer], store: HTTPStore, found: RemoteLayer, remote: Capabilities
) -> WMSLayer | WMTSLayer:
    """GeoServer's ``buildWMSLayer``/``buildWMTSLayer``: SRS from the layer's bounding boxes
    (the first one; ``CRS:84`` or none → ``EPSG:4326``), the native box in that SRS, the
    WGS84 box, title, abstract (also the description), keywords; the name without the
    remote server's workspace prefix."""
    layer = cls(found.name.rpartition(":")[2], store.workspace, store.name)
    layer.native_name = found.name
    box = found.bboxes[0] if found.bboxes else None
    srs = box.crs if box is not None and box.crs not in (None, "CRS:84") else "EPSG:4326"
    srs = {"CRS:83": "EPSG:4269", "CRS:27": "EPSG:4267"}.get(srs or "", srs)
    layer.srs = layer.native_crs = srs
    layer.projection_policy = "FORCE_DECLARED"
    native = next((b for b in found.bboxes if b.crs == srs), None)
    if native is None and srs == "EPSG:4326" and found.latlon is not None:
        native = found.latlon
    if native is not None:
        layer.native_bbox = BBox(*_coords(native), srs)
    if found.latlon is not None:
        layer.latlon_bbox = BBox(*_coords(found.latlon), "EPSG:4326")
    elif native is not None and srs == "EPSG:4326":
        layer.latlon_bbox = layer.native_bbox
    layer.title = found.title
    layer.abstract = layer.description = found.abstract
    layer.keywords = list(found.keywords)
    if isinstance(layer, WMSLayer):
        layer.remote_styles = list(found.styles)
        layer.preferred_format = "image/png"
    return layer


def add_layer(cat: Catalog, layer: WMSLayer | WMTSLayer, when: str | None) -> None:
    """Add the layer and publish it (type ``WMS`` or ``WMTS``, default style ``raster``)."""
    cat.add_resource(layer, publish=False, when=when)
    cat.add_layer(Layer(layer.name, layer.workspace), when=when)


def update_layer(
    cat: Catalog, current: WMSLayer | WMTSLayer, fields: dict[str, Any], when: str | None
) -> None:
    fields.pop("store", None)
    namespace = fields.pop("namespace", None)
    if namespace is not None and namespace != current.workspace:
        raise Forbidden(f"Expected workspace {current.workspace} but client specified {namespace}")
    updated = copy.deepcopy(current)
    assign(updated, fields)
    cat.replace_resource(current.workspace, current.name, updated, when=when)


def delete_layer(cat: Catalog, layer: WMSLayer | WMTSLayer, recurse: bool) -> None:
    published = cat.layer(layer.workspace, layer.name)
    if published is not None:
        if not recurse:
            what = "wms" if layer.kind == WMS_LAYER else "wmts"
            raise Forbidden(f"{what} layer referenced by layer(s)")
        cat.delete_layer(layer.workspace, layer.name)
    cat.resources.pop((layer.workspace, layer.name), None)


def available(cat: Catalog, store: HTTPStore, remote: Capabilities) -> list[str]:
    """The remote layers no layer of ``store`` cascades yet (by native name)."""
    configured = {
        r.native_name or r.name for r in cat.list_resources(store.workspace, store=store.name)
    }
    return [lyr.name for lyr in remote.layers if lyr.name and lyr.name not in configured]
