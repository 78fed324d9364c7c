"""The one place the OGC services read the service settings and what other areas hold.

They come from other areas' stores (``INTERFACES.md``): ``state.settings`` (the WMS, WFS,
WCS and WMTS configuration, the contact, the update sequence), the uploaded coverages'
grids and the mosaics' indexes. A state without them (an older build, or a store not
registered) reads as a fresh GeoServer: the defaults below. Feature data is read through
``features.source_for``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ...core.state import State


WMS, WFS, WCS, WMTS = "wms", "wfs", "wcs", "wmts"

_COMMON: dict[str, Any] = {
    "enabled": True,
    "keywords": [],
    "onlineResource": "http://geoserver.org",
    "fees": "NONE",
    "accessConstraints": "NONE",
    "citeCompliant": False,
    "schemaBaseURL": "http://schemas.opengis.net",
    "verbose": False,
    "internationalTitle": {},
    "internationalAbstract": {},
}

DEFAULTS: dict[str, dict[str, Any]] = {
    WMS: {
        **_COMMON,
        "name": "Maps",
        "title": "Maps",
        "abstrct": "Georeferenced map images generated from vector data, raster data, and imagery.",
        "keywords": [{"value": "MAP"}, {"value": "WMS"}, {"value": "GEOSERVER"}],
        "versions": ["1.1.1", "1.3.0"],
        "srs": [],
        "bboxForEachCRS": False,
        "maxRequestMemory": 0,
        "maxRenderingTime": 0,
        "maxRenderingErrors": 0,
        "maxRequestedDimensionValues": 100,
        "rootLayerTitle": None,
        "rootLayerAbstract": None,
        "getFeatureInfoMimeTypes": [],
        "getMapMimeTypes": [],
        "interpolation": "Nearest",
    },
    WFS: {
        **_COMMON,
        "name": "WFS",
        "title": "GeoServer Web Feature Service",
        "abstrct": "This is the reference implementation of WFS 1.0.0 and WFS 1.1.0, "
        "supports all WFS operations including Transaction.",
        "keywords": [{"value": "WFS"}, {"value": "WMS"}, {"value": "GEOSERVER"}],
        "versions": ["1.0.0", "1.1.0", "2.0.0"],
        "maxFeatures": 1000000,
        "serviceLevel": "COMPLETE",
        "featureBounding": False,
        "hitsIgnoreMaxFeatures": False,
    },
    WCS: {
        **_COMMON,
        "name": "WCS",
        "title": "Web Coverage Service",
        "abstrct": "This server implements the WCS specification 1.0 and 1.1.1, it's "
        "reference implementation of WCS 1.1.1. All layers published by this service are "
        "available on WMS also.",
        "keywords": [{"value": "WCS"}, {"value": "WMS"}, {"value": "GEOSERVER"}],
        "versions": ["1.0.0", "1.1.1", "2.0.1"],
    },
    WMTS: {
        **_COMMON,
        "name": "Tiles",
        "title": "Tile Services",
        "abstrct": "Pre-rendered georeferenced map tile sets generated from vctor data, "
        "raster data, and imagery.",
        "keywords": [{"value": "TILESET"}, {"value": "WMTS"}, {"value": "GEOSERVER"}],
        "versions": ["1.0.0"],
    },
}
"""A fresh GeoServer's service configuration, per kind (GeoServer's XML element names), for
a state without a settings store; the settings area's stock values take their place."""

CONTACT_DEFAULTS: dict[str, Any] = {
    "contactPerson": "Claudius Ptolomaeus",
    "contactOrganization": "The Ancient Geographers",
    "contactPosition": "Chief Geographer",
    "addressType": "Work",
    "address": None,
    "addressCity": "Alexandria",
    "addressState": None,
    "addressPostalCode": None,
    "addressCountry": "Egypt",
    "contactVoice": None,
    "contactFacsimile": None,
    "contactEmail": "claudius.ptolomaeus@gmail.com",
    "onlineResource": "http://geoserver.org",
}


def _store(state: State, name: str) -> Any:
    try:
        return getattr(state, name)
    except AttributeError:
        return None


def service(state: State, kind: str, workspace: str | None = None) -> dict[str, Any]:
    """The effective configuration of service ``kind``: the settings' values over the
    defaults (a key the settings leave out keeps GeoServer's default)."""
    out = dict(DEFAULTS[kind])
    settings = _store(state, "settings")
    if settings is not None:
        found: Mapping[str, Any] | None = settings.service(kind, workspace)
        if found:
            out.update({k: v for k, v in found.items() if v is not None})
    return out


def contact(state: State, workspace: str | None = None) -> dict[str, Any]:
    """The effective contact information (GeoServer's element names)."""
    out = dict(CONTACT_DEFAULTS)
    settings = _store(state, "settings")
    if settings is not None:
        found = settings.settings(workspace).get("contact")
        if isinstance(found, Mapping):
            out = {k: found.get(k) for k in out} | {k: v for k, v in found.items() if k not in out}
    return out


def global_settings(state: State, workspace: str | None = None) -> Mapping[str, Any]:
    settings = _store(state, "settings")
    if settings is None:
        return {}
    found: Mapping[str, Any] = settings.settings(workspace)
    return found


def update_sequence(state: State) -> int:
    settings = _store(state, "settings")
    if settings is None:
        return 0
    return int(settings.update_sequence)


def coverage_grid(
    state: State, workspace: str, store: str, native_name: str
) -> tuple[int, int, tuple[float, float, float, float]] | None:
    """(width, height, (minx, miny, maxx, maxy)) of an uploaded coverage's grid, as the
    uploads area read it from the file's header; None when no grid is known."""
    features = _store(state, "features")
    grids = getattr(features, "grids", None) if features is not None else None
    raster = grids.get((workspace, store, native_name)) if grids else None
    if raster is None:
        return None
    env = raster.envelope
    return int(raster.width), int(raster.height), (env.minx, env.miny, env.maxx, env.maxy)


def mosaic_domain(
    state: State, workspace: str, store: str, coverage: str, param: str
) -> list[Any] | None:
    """The sorted distinct values of an image mosaic's ``TimeAttribute`` or
    ``ElevationAttribute`` for one of its coverages, as the index holds them; None when the
    store is not a mosaic the emulator holds or its index has no such attribute."""
    mosaics = _store(state, "mosaics")
    catalog = _store(state, "catalog")
    if mosaics is None or catalog is None:
        return None
    found = catalog.coverage_store(workspace, store)
    if found is None:
        return None
    from ..mosaics.database import live
    from ..mosaics.sources import store_root

    mosaic = mosaics.get(store_root(found.url))
    if mosaic is None or not mosaic.indexer.domain(param):
        return None
    mosaic = live(state, mosaic)  # a database index: its table's values
    values: list[Any] = mosaic.domain(coverage, param)
    return values
