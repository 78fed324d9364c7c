"""Cascaded stores and layers, and what a remote server's capabilities document says.

The stores and layers are catalog objects: they live in the catalog's tables
(``state.catalog.stores`` and ``.resources``, keyed by workspace and name like every store
and resource), and each layer is published as a catalog layer of type ``WMS`` or ``WMTS``.
Their classes live here so that the catalog area needs to know only their kind names.

A capabilities document is kept as text (``model.Remotes``); ``capabilities.py`` reads it into
``Capabilities`` when a request needs it.
"""

from __future__ import annotations

from ...core.record import field, record
from ..catalog.entities import (
    WMS_LAYER,
    WMS_STORE,
    WMTS_LAYER,
    WMTS_STORE,
    BBox,
    Resource,
    Store,
)

__all__ = [
    "WMS_LAYER",
    "WMS_STORE",
    "WMTS_LAYER",
    "WMTS_STORE",
    "Capabilities",
    "HTTPStore",
    "RemoteLayer",
    "RemoteStyle",
    "WMSLayer",
    "WMSStore",
    "WMTSLayer",
    "WMTSStore",
]


@record
class HTTPStore(Store):
    """What GeoServer's ``HTTPStoreInfo`` adds to a store: the remote server and how to reach
    it. ``user`` is the XML/JSON name of GeoServer's ``username``."""

    capabilities_url: str | None = None
    user: str | None = None
    password: str | None = None
    max_connections: int = 6
    read_timeout: int = 60
    connect_timeout: int = 30


@record
class WMSStore(HTTPStore):
    kind: str = WMS_STORE


@record
class WMTSStore(HTTPStore):
    kind: str = WMTS_STORE
    header_name: str | None = None
    header_value: str | None = None


@record(frozen=True)
class RemoteStyle:
    """A style the remote server offers for a layer, and its legend (the layer's
    ``allAvailableRemoteStyles``)."""

    name: str
    legend_url: str | None = None
    legend_format: str | None = None
    legend_width: int | None = None
    legend_height: int | None = None


@record
class WMSLayer(Resource):
    kind: str = WMS_LAYER
    forced_remote_style: str | None = None
    preferred_format: str | None = None
    selected_remote_formats: list[str] = field(default_factory=list)
    selected_remote_styles: list[str] = field(default_factory=list)
    remote_styles: list[RemoteStyle] = field(default_factory=list)
    min_scale: float | None = None
    max_scale: float | None = None
    metadata_bbox_respected: bool = False


@record
class WMTSLayer(Resource):
    kind: str = WMTS_LAYER


@record(frozen=True)
class RemoteLayer:
    """A named layer of a capabilities document, with what it inherits already applied.

    ``bboxes`` are the layer's bounding boxes in their CRS (east/north order, CRS codes as
    ``EPSG:n``), in document order; ``latlon`` its WGS84 box."""

    name: str
    title: str | None = None
    abstract: str | None = None
    keywords: tuple[str, ...] = ()
    bboxes: tuple[BBox, ...] = ()
    latlon: BBox | None = None
    styles: tuple[RemoteStyle, ...] = ()


@record(frozen=True)
class Capabilities:
    """A remote server as its capabilities document describes it."""

    service: str
    """``WMS`` or ``WMTS``"""
    version: str
    layers: tuple[RemoteLayer, ...] = ()
    formats: tuple[str, ...] = ()
    """the GetMap (WMS) or tile (WMTS) image formats"""

    def layer(self, name: str | None) -> RemoteLayer | None:
        return next((lyr for lyr in self.layers if lyr.name == name), None)
