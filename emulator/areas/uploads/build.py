"""Feature types built from what an upload holds (``CatalogBuilder.buildFeatureType``).

Name, native name and title are the type's; keywords ``features`` and the name; the SRS is
the code the native CRS names (``EPSG:404000`` without a CRS), the projection policy
``FORCE_DECLARED`` when there is one, else ``NONE``. The native bounds are the data's; the
lat/lon bounds those bounds, widened when empty as GeoServer widens them (1 unit, 0.0001
for a geographic CRS), in WGS84 where the emulator can transform (geographic CRSs, web
mercator, WGS 84 / UTM). Attributes carry their bindings and the text lengths.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ...crs.envelope import Envelope, to_lonlat
from ...features.model import FeatureStore
from ..catalog.entities import Attribute as CatalogAttribute
from ..catalog.entities import BBox, FeatureType, Resource, is_projected
from ..catalog.model import Catalog
from .readers import TypeRead

if TYPE_CHECKING:
    from ...core.state import State


def plan_names(
    cat: Catalog, ws: str, store: str, natives: list[str]
) -> list[tuple[str, str | None]]:
    """(native name, new name or None when the store already publishes it) per type; a
    taken name becomes the first free of ``name1``, ``name2``… as GeoServer tries them."""
    existing = {
        (r.native_name or r.name): r.name for r in cat.list_resources(ws, "featureType", store)
    }
    taken = {r.name for r in cat.list_resources(ws)}
    plan: list[tuple[str, str | None]] = []
    for native in natives:
        if native in existing:
            plan.append((native, None))
            continue
        name, x = native, 1
        while name in taken:  # the newest GeoServer tries name1, name2, … without a cap
            name, x = f"{native}{x}", x + 1
        taken.add(name)
        plan.append((native, name))
    return plan


def bounds_of(read: TypeRead) -> tuple[BBox | None, BBox | None]:
    """(native, lat/lon) bounds of a type's data."""
    table = read.table
    raw = table.bounds()
    if raw is None:
        return None, None
    srs = table.srs if table.srs.startswith("EPSG:") else None
    native = BBox(raw[0], raw[2], raw[1], raw[3], srs or table.srs)
    minx, miny, maxx, maxy = raw
    if maxx - minx == 0 or maxy - miny == 0:
        grow = 1.0 if is_projected(srs) else 0.0001
        minx, miny, maxx, maxy = minx - grow, miny - grow, maxx + grow, maxy + grow
    lonlat = to_lonlat(Envelope(minx, miny, maxx, maxy), srs) if srs else None
    latlon = None
    if lonlat is not None:
        latlon = BBox(lonlat.minx, lonlat.maxx, lonlat.miny, lonlat.maxy, "EPSG:4326")
    return native, latlon


def feature_type(ws: str, store: str, read: TypeRead, name: str) -> FeatureType:
    table = read.table
    srs = table.srs if table.srs.startswith("EPSG:") else None
    ft = FeatureType(name, ws, store, native_name=table.name, title=table.name)
    ft.keywords = ["features", table.name]
    ft.native_crs = read.native_crs or srs
    ft.srs = srs
    ft.projection_policy = "FORCE_DECLARED" if srs else "NONE"
    ft.native_bbox, ft.latlon_bbox = bounds_of(read)
    ft.enabled = True
    ft.attributes = [
        CatalogAttribute(a.name, 0, 1, a.nillable, a.binding, a.length) for a in table.attributes
    ]
    return ft


def configure_type(
    cat: Catalog, ws: str, store: str, read: TypeRead, name: str | None, when: str
) -> FeatureType:
    """Add the type (and its layer) as ``name``, or, when ``name`` is None, refresh the
    bounds of the feature type the store already has for it."""
    if name is not None:
        ft = feature_type(ws, store, read, name)
        cat.add_resource(ft, publish=True, when=when)
        return ft
    native = read.table.name
    current = next(
        r
        for r in cat.list_resources(ws, "featureType", store)
        if (r.native_name or r.name) == native
    )
    updated = copy.deepcopy(current)
    updated.native_bbox = bounds_of(read)[0]
    replaced = cat.replace_resource(ws, current.name, updated, when=when)
    assert isinstance(replaced, FeatureType)
    return replaced


def from_features(
    features: FeatureStore, ws: str, store: str, native: str, name: str
) -> FeatureType | None:
    """The feature type GeoServer would build for ``native`` of an upload store (for a
    feature type POSTed with only a name after ``configure=none``), None when the store
    keeps no such table."""
    table = features.get(ws, store, native)
    if table is None:
        return None
    return feature_type(ws, store, TypeRead(table, table.srs), name)


FILLED = (
    "title", "keywords", "native_crs", "srs", "projection_policy", "native_bbox", "latlon_bbox",
    "attributes", "description", "native_coverage_name", "native_format", "supported_formats",
    "interpolation_methods", "default_interpolation_method", "dimensions", "request_srs",
    "response_srs", "parameters", "metadata",
)  # fmt: skip


def fill_from_data(state: State, res: Resource, given: Mapping[str, Any]) -> None:
    """Fill what a client did not give in a POSTed feature type or coverage from the data an
    upload store keeps for its native name (``CatalogBuilder.initFeatureType`` and
    ``initCoverage``: the client's fields win)."""
    native = res.native_name or res.name
    built: Resource | None
    if isinstance(res, FeatureType):
        built = from_features(state.features, res.workspace, res.store, native, res.name)
    else:
        from .coverages import from_grid

        store = state.catalog.coverage_store(res.workspace, res.store)
        native = getattr(res, "native_coverage_name", None) or native
        built = from_grid(state, store, native, res.name) if store is not None else None
    if built is None:
        return
    for key in FILLED:
        if key not in given and hasattr(res, key) and hasattr(built, key):
            setattr(res, key, getattr(built, key))
