"""Catalog rules that need no state of their own: names, default styles, layer group
checks and bounds, and the integrity check the tests run."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...core.errors import Invalid, ServerError
from .entities import (
    COVERAGE,
    COVERAGE_STORE,
    DATA_STORE,
    FEATURE_TYPE,
    RASTER,
    VECTOR,
    WMS,
    WMS_LAYER,
    WMS_STORE,
    WMTS,
    WMTS_LAYER,
    WMTS_STORE,
    BBox,
    FeatureType,
    LayerGroup,
    PublishedRef,
    Resource,
    StyleRef,
)

if TYPE_CHECKING:
    from .model import Catalog

STORE_KIND = {
    FEATURE_TYPE: DATA_STORE,
    COVERAGE: COVERAGE_STORE,
    WMS_LAYER: WMS_STORE,
    WMTS_LAYER: WMTS_STORE,
}
"""the store kind each resource kind lives in"""

_GEOMETRY_STYLES = {
    "Point": "point",
    "MultiPoint": "point",
    "LineString": "line",
    "MultiLineString": "line",
    "LinearRing": "line",
    "Polygon": "polygon",
    "MultiPolygon": "polygon",
}


def check_name(name: str | None, message: str) -> None:
    """Refuse a missing or empty name (GeoServer fails with a NullPointerException)."""
    if name is None or not str(name).strip():
        raise Invalid(message)
    if "/" in name:
        raise Invalid(f"Invalid name '{name}': a name cannot contain '/'")


LAYER_TYPES = {COVERAGE: RASTER, WMS_LAYER: WMS, WMTS_LAYER: WMTS}
"""the published type of each resource kind but feature types (``VECTOR``)"""


def layer_type(resource: Resource) -> str:
    return LAYER_TYPES.get(resource.kind, VECTOR)


def default_style_for(resource: Resource) -> StyleRef:
    """The style GeoServer's ``CatalogBuilder`` gives a new layer: by geometry type for
    feature types (``generic`` when unknown), ``raster`` for coverages and cascaded layers."""
    if resource.kind in LAYER_TYPES:
        return StyleRef(None, "raster")
    binding = resource.geometry_binding if isinstance(resource, FeatureType) else None
    simple = binding.rsplit(".", 1)[-1] if binding else ""
    return StyleRef(None, _GEOMETRY_STYLES.get(simple, "generic"))


MODE_NAMES = {
    "SINGLE": "Single",
    "OPAQUE_CONTAINER": "Opaque Container",
    "NAMED": "Named Tree",
    "CONTAINER": "Container Tree",
    "EO": "Earth Observation Tree",
}
"""``LayerGroupInfo.Mode.getName()``, as the catalog's messages name a mode"""


def check_group_root(group: LayerGroup, catalog: Catalog) -> None:
    """Only an ``EO`` group has a root layer and a root layer style, and it must have both
    (GeoServer's ``validateModeMatchesStructure``); the root layer must exist."""
    mode = MODE_NAMES.get(group.mode, group.mode)
    if group.mode == "EO":
        if group.root_layer is None:
            raise ServerError(f"Layer group in mode {mode} must have a root layer")
        if group.root_layer_style is None:
            raise ServerError(f"Layer group in mode {mode} must have a root layer style")
    else:
        if group.root_layer is not None:
            raise ServerError(f"Layer group in mode {mode} must not have a root layer")
        if group.root_layer_style is not None:
            raise ServerError(f"Layer group in mode {mode} must not have a root layer style")
    if group.root_layer is not None and catalog.published(group.root_layer) is None:
        raise Invalid(f"No such layer: {group.root_layer.prefixed}")
    ws = group.workspace
    if ws is not None and group.root_layer is not None:
        if group.root_layer.workspace not in (None, ws):
            raise ServerError(
                f"Layer group within a workspace ({ws}) can not contain resources "
                f"from other workspace: {group.root_layer.workspace}"
            )
    style = group.root_layer_style
    if ws is not None and style is not None and style.workspace not in (None, ws):
        raise ServerError(
            f"Layer group within a workspace ({ws}) can not contain styles "
            f"from other workspace: {style.workspace}"
        )


def check_group_workspace(group: LayerGroup, catalog: Catalog) -> None:
    """A group in a workspace holds only that workspace's layers, groups and styles."""
    ws = group.workspace
    if ws is None:
        return
    for ref in group.publishables:
        if ref.workspace is not None and ref.workspace != ws:
            raise ServerError(
                f"Layer group within a workspace ({ws}) can not contain resources "
                f"from other workspace: {ref.workspace}"
            )
        if ref.kind == "layerGroup":
            nested = catalog.published(ref)
            if isinstance(nested, LayerGroup):
                check_group_workspace(
                    LayerGroup(
                        nested.name, ws, publishables=nested.publishables, styles=nested.styles
                    ),
                    catalog,
                )
    for style in group.styles:
        if style is not None and style.workspace is not None and style.workspace != ws:
            raise ServerError(
                f"Layer group within a workspace ({ws}) can not contain styles "
                f"from other workspace: {style.workspace}"
            )


def find_loop(group: LayerGroup, groups: dict[tuple[str | None, str], LayerGroup]) -> str | None:
    """``a -> b -> a`` when ``group`` would contain itself, else None."""
    root = (group.workspace, group.name)

    def walk(
        members: list[PublishedRef], path: list[str], seen: set[tuple[str | None, str]]
    ) -> str | None:
        for ref in members:
            if ref.kind != "layerGroup":
                continue
            key = (ref.workspace, ref.name)
            if key == root:
                return " -> ".join([*path, ref.prefixed])
            if key in seen or key not in groups:
                continue
            seen.add(key)
            found = walk(groups[key].publishables, [*path, ref.prefixed], seen)
            if found:
                return found
        return None

    return walk(group.publishables, [group.prefixed], set())


def group_bounds(group: LayerGroup, catalog: Catalog) -> BBox | None:
    """The union of the members' native bounds when they share one CRS, else of their
    lat/lon bounds (GeoServer's ``calculateLayerGroupBounds``, simplified)."""
    native: list[BBox | None] = []
    latlon: list[BBox | None] = []
    for ref in group.publishables:
        item = catalog.published(ref)
        if isinstance(item, LayerGroup):
            native.append(item.bounds)
            latlon.append(item.bounds if item.bounds and item.bounds.crs == "EPSG:4326" else None)
        elif item is not None:
            res = catalog.resources.get((item.workspace, item.name))
            native.append(res.native_bbox if res else None)
            latlon.append(res.latlon_bbox if res else None)
    crs = {b.crs for b in native if b is not None}
    boxes = native if len(crs) == 1 and None not in native else latlon
    present = [b for b in boxes if b is not None]
    if not present:
        return None
    out = present[0]
    for box in present[1:]:
        out = out.union(box)
    return out if boxes is native else BBox(out.minx, out.maxx, out.miny, out.maxy, "EPSG:4326")


def problems(catalog: Catalog) -> list[str]:
    """Every broken reference in the catalog (empty when consistent)."""
    out: list[str] = []
    if catalog.workspaces and catalog.default_workspace not in catalog.workspaces:
        out.append(f"default workspace {catalog.default_workspace} missing")
    if not catalog.workspaces and catalog.default_workspace is not None:
        out.append("default workspace set without workspaces")
    for prefix in catalog.namespaces:
        if prefix not in catalog.workspaces:
            out.append(f"namespace {prefix} without workspace")
    for (ws, name), store in catalog.stores.items():
        if (store.workspace, store.name) != (ws, name) or ws not in catalog.workspaces:
            out.append(f"store {ws}:{name} misplaced")
    for (ws, name), res in catalog.resources.items():
        holder = catalog.stores.get((ws, res.store))
        if (res.workspace, res.name) != (ws, name) or holder is None:
            out.append(f"resource {ws}:{name} without store {res.store}")
        elif holder.kind != STORE_KIND[res.kind]:
            out.append(f"resource {ws}:{name} in a {holder.kind}")
        if ws not in catalog.namespaces:
            out.append(f"resource {ws}:{name} without namespace")
    for (ws, name), layer in catalog.layers.items():
        if (layer.workspace, layer.name) != (ws, name) or (ws, name) not in catalog.resources:
            out.append(f"layer {ws}:{name} without resource")
    for (gws, gname), group in catalog.layer_groups.items():
        out.extend(_group_problems(catalog, gws, gname, group))
    return out


def _group_problems(catalog: Catalog, ws: str | None, name: str, group: LayerGroup) -> list[str]:
    out = []
    if (group.workspace, group.name) != (ws, name) or (
        ws is not None and ws not in catalog.workspaces
    ):
        out.append(f"layer group {name} misplaced")
    if not group.publishables:
        out.append(f"layer group {group.prefixed} empty")
    if len(group.styles) != len(group.publishables):
        out.append(f"layer group {group.prefixed} styles do not match its layers")
    if group.root_layer is not None and catalog.published(group.root_layer) is None:
        out.append(f"layer group {group.prefixed} has missing root {group.root_layer.prefixed}")
    for ref in group.publishables:
        if catalog.published(ref) is None:
            out.append(f"layer group {group.prefixed} holds missing {ref.prefixed}")
        if ws is not None and ref.workspace not in (None, ws):
            out.append(f"layer group {group.prefixed} holds {ref.prefixed} of another workspace")
    return out
