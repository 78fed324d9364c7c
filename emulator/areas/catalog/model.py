"""``Catalog``: the store of workspaces, namespaces, stores, resources, layers, layer groups.

Rules are GeoServer's catalog rules (``CatalogImpl`` validation, ``CascadeDeleteVisitor``,
the namespace/workspace consistency listener), with its messages. Lookups return None when
nothing matches (each REST controller words its own 404); mutations raise domain errors.

Every layer and layer group has a tile layer: when ``tiles`` is set (``State`` wires it to
the seeding store) the catalog adds, renames and removes them along with the published
objects, whichever way they come or go (REST, scenario, cascades).
"""

from __future__ import annotations

import copy
from typing import TypeVar

from ...core.errors import Forbidden, Invalid, ServerError
from . import rules
from .containers import Containers
from .entities import (
    FEATURE_TYPE,
    GROUP_MODES,
    Attribute,
    BBox,
    Coverage,
    CoverageDimension,
    CoverageStore,
    DataStore,
    FeatureType,
    Layer,
    LayerGroup,
    Namespace,
    PublishedRef,
    Resource,
    Store,
    StyleRef,
    WMSStore,
    WMTSStore,
    Workspace,
)
from .tables import TileLayerSink, style_ref

__all__ = [
    "Attribute",
    "BBox",
    "Catalog",
    "Coverage",
    "CoverageDimension",
    "CoverageStore",
    "DataStore",
    "FeatureType",
    "Layer",
    "LayerGroup",
    "Namespace",
    "PublishedRef",
    "Resource",
    "Store",
    "StyleRef",
    "TileLayerSink",
    "WMSStore",
    "WMTSStore",
    "Workspace",
]

T = TypeVar("T")


class Catalog(Containers):
    """The catalog store (see the module docstring)."""

    # -- resources --------------------------------------------------------------------

    def add_resource(
        self,
        resource: Resource,
        *,
        publish: bool = True,
        default_style: StyleRef | None = None,
        when: str | None = None,
    ) -> Resource:
        """Add a feature type or coverage and (``publish``) the layer that publishes it."""
        rules.check_name(resource.name, "Resource name must not be null")
        store = self.stores.get((resource.workspace, resource.store))
        if store is None:
            raise ServerError("Resource must be part of a store")
        if store.kind != rules.STORE_KIND[resource.kind]:
            raise Invalid(f"A {resource.kind} cannot live in a {store.kind}")
        if resource.workspace not in self.namespaces:
            raise ServerError("Resource must be part of a namespace")
        existing = self.resources.get((resource.workspace, resource.name))
        if existing is not None:
            if existing.store == resource.store:
                raise ServerError(
                    f"Resource named '{resource.name}' already exists in store: '{store.name}'"
                )
            raise ServerError(
                f"Resource named '{resource.name}' already exists "
                f"in namespace: '{resource.workspace}'"
            )
        resource.native_name = resource.native_name or resource.name
        if when and resource.date_created is None:
            resource.date_created = when
        self.resources[(resource.workspace, resource.name)] = resource
        if publish:
            style = default_style or rules.default_style_for(resource)
            self.add_layer(
                Layer(resource.name, resource.workspace, rules.layer_type(resource), style),
                when=when,
            )
        return resource

    def replace_resource(
        self, ws: str, name: str, updated: Resource, *, when: str | None = None
    ) -> Resource:
        """Put ``updated`` in place of ``ws:name``; a new name renames its layer too."""
        current = self._require(self.resource(ws, name), f"No such resource: {ws},{name}")
        key = (current.workspace, current.name)
        if (updated.workspace, updated.store, updated.kind) != (
            current.workspace,
            current.store,
            current.kind,
        ):
            raise Forbidden("The store and workspace of a resource cannot be changed")
        if updated.name != current.name:
            rules.check_name(updated.name, "Resource name must not be null")
            if (updated.workspace, updated.name) in self.resources:
                raise ServerError(
                    f"Resource named '{updated.name}' already exists "
                    f"in namespace: '{updated.workspace}'"
                )
        updated.date_modified = when or updated.date_modified
        del self.resources[key]
        self.resources[(updated.workspace, updated.name)] = updated
        if key in self.layers and updated.name != current.name:
            self._move_layer(key, (updated.workspace, updated.name))
        return updated

    def delete_resource(self, ws: str, name: str, *, recurse: bool = False) -> None:
        """Delete a resource; its layer goes too with ``recurse`` (else 403)."""
        res = self._require(self.resource(ws, name), f"No such resource: {ws},{name}")
        key = (res.workspace, res.name)
        if key in self.layers:
            if not recurse:
                what = "feature type" if res.kind == FEATURE_TYPE else "coverage"
                raise Forbidden(f"{what} referenced by layer(s)")
            self.delete_layer(res.workspace, res.name)
        del self.resources[key]

    # -- layers -------------------------------------------------------------------------

    def add_layer(self, layer: Layer, *, when: str | None = None) -> Layer:
        """Publish an existing resource (its layer carries its name)."""
        key = (layer.workspace, layer.name)
        res = self.resources.get(key)
        if res is None:
            raise ServerError(
                f"Found no resource named {layer.prefixed} , Layer with that name can't be added"
            )
        if key in self.layers:
            raise ServerError(
                f"Layer named '{layer.name}' in workspace '{layer.workspace}' already exists."
            )
        layer.type = rules.layer_type(res)
        if layer.default_style is None:
            layer.default_style = rules.default_style_for(res)
        if when and layer.date_created is None:
            layer.date_created = when
        self.layers[key] = layer
        self._tile_add(layer.prefixed, res.latlon_bbox)
        return layer

    def replace_layer(
        self, ws: str, name: str, updated: Layer, *, when: str | None = None
    ) -> Layer:
        """Put ``updated`` (same name and workspace) in place of the layer ``ws:name``."""
        current = self._require(self.layer(ws, name), f"No such layer: {ws}:{name}")
        if (updated.workspace, updated.name) != (current.workspace, current.name):
            raise Forbidden("Can't change the name or workspace of a layer")
        updated.type = current.type
        updated.date_modified = when or updated.date_modified
        self.layers[(current.workspace, current.name)] = updated
        return updated

    def delete_layer(self, ws: str, name: str, *, recurse: bool = False) -> None:
        """Without ``recurse`` only the layer goes (not if a group holds it); with it, the
        layer leaves its groups (an emptied group goes too) and its resource is deleted."""
        layer = self._require(self.layer(ws, name), name)
        if recurse:
            self._cascade_layer(layer)
            self.resources.pop((layer.workspace, layer.name), None)
            return
        for group in self.groups_containing(layer.ref):
            raise ServerError(f"Unable to delete layer referenced by layer group '{group.name}'")
        self._drop_layer(layer)

    # -- layer groups -------------------------------------------------------------------

    def add_layer_group(self, group: LayerGroup, *, when: str | None = None) -> LayerGroup:
        rules.check_name(group.name, "Layer group name must not be null")
        if group.workspace is not None and group.workspace not in self.workspaces:
            raise ServerError(f"No such workspace: '{group.workspace}'")
        if (group.workspace, group.name) in self.layer_groups:
            where = f" in workspace {group.workspace}" if group.workspace else ""
            raise ServerError(f"Layer group named '{group.name}' already exists{where}")
        self._check_group(group)
        if when and group.date_created is None:
            group.date_created = when
        self.layer_groups[(group.workspace, group.name)] = group
        self._tile_add(group.prefixed, group.bounds, group=True)
        return group

    def replace_layer_group(
        self, ws: str | None, name: str, updated: LayerGroup, *, when: str | None = None
    ) -> LayerGroup:
        current = self._require(self.layer_group(ws, name), f"No such layer group {name}")
        if updated.name != current.name:
            raise Forbidden("Can't change name of a layer group")
        if updated.workspace != current.workspace:
            raise Forbidden(
                "Can't change the workspace of a layer group, instead "
                "DELETE from existing workspace and POST to new workspace"
            )
        self._check_group(updated)
        updated.date_modified = when or updated.date_modified
        self.layer_groups[(current.workspace, current.name)] = updated
        return updated

    def delete_layer_group(self, ws: str | None, name: str, *, recurse: bool = False) -> None:
        group = self._require(self.layer_group(ws, name), f"No such layer group {name}")
        if recurse:
            self._cascade_group(group)
            return
        for holder in self.groups_containing(group.ref):
            raise ServerError(
                f"Unable to delete layer group referenced by layer group '{holder.name}'"
            )
        del self.layer_groups[(group.workspace, group.name)]
        self._tile_remove(group.prefixed)

    def _check_group(self, group: LayerGroup) -> None:
        if group.mode not in GROUP_MODES:
            raise Invalid(f"Unknown layer group mode {group.mode}")
        rules.check_group_root(group, self)
        if not group.publishables:
            raise ServerError("Layer group must not be empty")
        if not group.styles:
            group.styles = [None] * len(group.publishables)
        if len(group.styles) != len(group.publishables):
            raise ServerError("Layer group has different number of styles than layers")
        for ref in group.publishables:
            if self.published(ref) is None:
                raise Invalid(
                    f"No such {'layer' if ref.kind == 'layer' else 'layer group'}: {ref.prefixed}"
                )
        rules.check_group_workspace(group, self)
        loop = rules.find_loop(group, self.layer_groups)
        if loop:
            raise ServerError(f"Layer group is in a loop: {loop}")
        if group.bounds is None:
            group.bounds = rules.group_bounds(group, self)

    def set_default_style(self, ws: str, name: str, ref: StyleRef | None) -> Layer:
        """Point the layer ``ws:name`` at the style ``ref``; None resets it to the default
        for its resource (``point``/``line``/``polygon``/``generic``/``raster``)."""
        layer = self._require(self.layer(ws, name), f"No such layer: {ws}:{name}")
        if ref is None:
            ref = rules.default_style_for(self.resources[(layer.workspace, layer.name)])
        layer.default_style = ref
        return layer

    def remove_style_references(
        self, ws: str | tuple[str | None, str] | None, name: str | None = None
    ) -> list[Layer]:
        """Forget a deleted style, as GeoServer's recursive style delete does: it leaves the
        layers' styles; a layer whose default it was takes its first other style, else the
        default style for its resource; groups fall back to their members' default.
        Returns the layers changed."""
        ref = style_ref(ws, name)
        changed = []
        for layer in self.layers_using_style(ref):
            layer.styles = [s for s in layer.styles if s != ref]
            if layer.default_style == ref:
                if layer.styles:
                    layer.default_style = layer.styles.pop(0)
                else:
                    fallback = rules.default_style_for(
                        self.resources[(layer.workspace, layer.name)]
                    )
                    layer.default_style = fallback if fallback != ref else StyleRef(None, "point")
            changed.append(layer)
        for group in self.groups_using_style(ref):
            group.styles = [None if s == ref else s for s in group.styles]
        return changed

    def rename_style_references(self, old: StyleRef, new: StyleRef) -> None:
        for layer in self.layers.values():
            if layer.default_style == old:
                layer.default_style = new
            layer.styles = [new if s == old else s for s in layer.styles]
        for group in self.layer_groups.values():
            group.styles = [new if s == old else s for s in group.styles]
            if group.root_layer_style == old:
                group.root_layer_style = new

    # -- integrity ------------------------------------------------------------------------

    def problems(self) -> list[str]:
        """Every broken reference, for tests: an empty list means the catalog is consistent."""
        return rules.problems(self)


def copy_of(item: T) -> T:
    """A deep copy to edit before a ``replace_*`` call (the stored object stays untouched)."""
    return copy.deepcopy(item)
