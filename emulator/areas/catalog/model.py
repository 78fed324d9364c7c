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
from collections.abc import Callable, Iterable
from typing import Any, Protocol, TypeVar

from ...core.errors import Conflict, Forbidden, Invalid, NotFound, ServerError, Unauthorized
from . import rules
from .entities import (
    COVERAGE,
    COVERAGE_STORE,
    DATA_STORE,
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

DEFAULT = "default"
T = TypeVar("T")
Key = tuple[str, str]
GroupKey = tuple[str | None, str]


class TileLayerSink(Protocol):
    """The seeding store's side: what the catalog tells it about published names."""

    def add_default_tile_layer(self, name: str) -> object: ...

    def rename_tile_layer(self, old: str, new: str) -> None: ...

    def remove_tile_layer(self, name: str) -> None: ...


def _by_name(items: Iterable[T], key: Callable[[Any], Any] | None = None) -> list[T]:
    return sorted(items, key=key or (lambda x: x.name))


class Catalog:
    def __init__(self) -> None:
        self.default_workspace: str | None = None
        self.workspaces: dict[str, Workspace] = {}
        self.namespaces: dict[str, Namespace] = {}
        self.stores: dict[Key, Store] = {}
        self.resources: dict[Key, Resource] = {}
        self.layers: dict[Key, Layer] = {}
        self.layer_groups: dict[GroupKey, LayerGroup] = {}
        self.tiles: TileLayerSink | None = None

    # -- lookups -------------------------------------------------------------------------

    def workspace(self, name: str | None) -> Workspace | None:
        """A workspace by name; ``default`` (or None) names the default workspace."""
        if name is None or name == DEFAULT:
            name = self.default_workspace
        return self.workspaces.get(name) if name is not None else None

    def namespace(self, prefix: str | None) -> Namespace | None:
        """A namespace by prefix; ``default`` names the default workspace's namespace."""
        if prefix is None or prefix == DEFAULT:
            return self.default_namespace
        return self.namespaces.get(prefix)

    @property
    def default_namespace(self) -> Namespace | None:
        if self.default_workspace in self.namespaces:
            return self.namespaces[self.default_workspace]
        return next(iter(self.list_namespaces()), None)

    def namespace_by_uri(self, uri: str) -> Namespace | None:
        return next((ns for ns in self.namespaces.values() if ns.uri == uri), None)

    def _ws_name(self, ws: str | None) -> str | None:
        found = self.workspace(ws)
        return found.name if found else None

    def store(self, ws: str | None, name: str, kind: str | None = None) -> Store | None:
        store = self.stores.get((self._ws_name(ws) or "", name))
        return store if store is not None and kind in (None, store.kind) else None

    def data_store(self, ws: str | None, name: str) -> DataStore | None:
        store = self.store(ws, name, DATA_STORE)
        return store if isinstance(store, DataStore) else None

    def coverage_store(self, ws: str | None, name: str) -> CoverageStore | None:
        store = self.store(ws, name, COVERAGE_STORE)
        return store if isinstance(store, CoverageStore) else None

    def resource(
        self, ws: str | None, name: str, kind: str | None = None, store: str | None = None
    ) -> Resource | None:
        res = self.resources.get((self._ws_name(ws) or "", name))
        if res is None or kind not in (None, res.kind) or store not in (None, res.store):
            return None
        return res

    def feature_type(self, ws: str | None, name: str, store: str | None = None) -> FeatureType | None:
        res = self.resource(ws, name, FEATURE_TYPE, store)
        return res if isinstance(res, FeatureType) else None

    def coverage(self, ws: str | None, name: str, store: str | None = None) -> Coverage | None:
        res = self.resource(ws, name, COVERAGE, store)
        return res if isinstance(res, Coverage) else None

    def layer(self, ws: str | None, name: str) -> Layer | None:
        return self.layers.get((self._ws_name(ws) or "", name))

    def find_layer(self, name: str) -> Layer | None:
        """GeoServer's ``getLayerByName``: ``ws:name``, else the default workspace, else any."""
        if ":" in name:
            ws, _, local = name.partition(":")
            return self.layer(ws, local)
        found = self.layer(None, name)
        if found is None:
            found = next((lyr for lyr in self.list_layers() if lyr.name == name), None)
        return found

    def layer_group(self, ws: str | None, name: str) -> LayerGroup | None:
        if ws is not None:
            ws = self._ws_name(ws)
            if ws is None:
                return None
        return self.layer_groups.get((ws, name))

    def find_layer_group(self, name: str) -> LayerGroup | None:
        """A global group by name, else ``ws:name``, else one in the default workspace."""
        found = self.layer_groups.get((None, name))
        if found is None:
            ws, sep, local = name.rpartition(":")
            found = self.layer_group(ws if sep else DEFAULT, local)
        return found

    def published(self, ref: PublishedRef) -> Layer | LayerGroup | None:
        if ref.kind == "layer":
            return self.layers.get((ref.workspace or "", ref.name))
        return self.layer_groups.get((ref.workspace, ref.name))

    # -- listings (sorted by name, as GeoServer's catalog facade answers) -------------

    def list_workspaces(self) -> list[Workspace]:
        return _by_name(self.workspaces.values())

    def list_namespaces(self) -> list[Namespace]:
        return sorted(self.namespaces.values(), key=lambda ns: ns.prefix)

    def list_stores(self, ws: str, kind: str | None = None) -> list[Store]:
        name = self._ws_name(ws)
        found = (s for s in self.stores.values() if s.workspace == name and kind in (None, s.kind))
        return _by_name(found)

    def list_resources(
        self, ws: str, kind: str | None = None, store: str | None = None
    ) -> list[Resource]:
        name = self._ws_name(ws)
        found = (
            r
            for r in self.resources.values()
            if r.workspace == name and kind in (None, r.kind) and store in (None, r.store)
        )
        return _by_name(found)

    def list_layers(self, ws: str | None = None) -> list[Layer]:
        """All layers by prefixed name, or those of one workspace."""
        if ws is None:
            return sorted(self.layers.values(), key=lambda lyr: lyr.prefixed)
        name = self._ws_name(ws)
        return _by_name(lyr for lyr in self.layers.values() if lyr.workspace == name)

    def list_layer_groups(self, ws: str | None = None) -> list[LayerGroup]:
        """Global groups (``ws`` None) or those of one workspace."""
        name = None if ws is None else self._ws_name(ws)
        return _by_name(g for g in self.layer_groups.values() if g.workspace == name)

    def groups_containing(self, ref: PublishedRef) -> list[LayerGroup]:
        return _by_name(g for g in self.layer_groups.values() if ref in g.publishables)

    # -- workspaces and namespaces ----------------------------------------------------

    def add_workspace(
        self,
        name: str,
        *,
        isolated: bool = False,
        make_default: bool = False,
        uri: str | None = None,
        when: str | None = None,
    ) -> Workspace:
        """Add a workspace and, if its prefix has none, its namespace (``http://<name>``)."""
        rules.check_name(name, "workspace name must not be null")
        if name == DEFAULT:
            raise ServerError("default is a reserved keyword, can't be used as the workspace name")
        if name in self.workspaces:
            raise Conflict(f"Workspace '{name}' already exists")
        ns = None
        if name not in self.namespaces:
            ns = Namespace(name, uri or f"http://{name}", isolated)
            self._check_namespace(ns)
        ws = self.workspaces[name] = Workspace(name, isolated, when)
        if ns is not None:
            self.namespaces[name] = ns
        if make_default or self.default_workspace is None:
            self.default_workspace = name
        return ws

    def update_workspace(
        self,
        name: str,
        *,
        new_name: str | None = None,
        isolated: bool | None = None,
        when: str | None = None,
    ) -> Workspace:
        ws = self._require(self.workspace(name), f"Can't change a non existant workspace ({name})")
        if new_name is not None and new_name != ws.name:
            rules.check_name(new_name, "workspace name must not be null")
            if new_name == DEFAULT:
                raise ServerError("default is a reserved keyword, can't be used as the workspace name")
            if new_name in self.workspaces or (new_name in self.namespaces and ws.name in self.namespaces):
                raise ServerError(f"Workspace named '{new_name}' already exists.")
            self._rename_workspace(ws.name, new_name)
        if isolated is not None:
            ws.isolated = isolated
            if ws.name in self.namespaces:
                self.namespaces[ws.name].isolated = isolated
        ws.date_modified = when or ws.date_modified
        return ws

    def set_default_workspace(self, name: str) -> Workspace:
        ws = self.workspaces.get(name)
        if ws is None:
            raise ServerError(f"No such workspace: '{name}'")
        self.default_workspace = ws.name
        return ws

    def delete_workspace(self, name: str, *, recurse: bool = False) -> None:
        ws = self._require(self.workspace(name), f"Workspace '{name}' not found")
        if not recurse:
            if self.list_stores(ws.name):
                raise Forbidden("Workspace not empty")
            if self.list_resources(ws.name):
                raise Forbidden("Namespace for workspace not empty.")
            if self.list_layer_groups(ws.name):
                raise Forbidden("Workspace not empty")
        for group in self.list_layer_groups(ws.name):
            if (group.workspace, group.name) in self.layer_groups:
                self._cascade_group(group)
        for store in self.list_stores(ws.name):
            self._delete_store_contents(store)
            del self.stores[(store.workspace, store.name)]
        self.namespaces.pop(ws.name, None)
        del self.workspaces[ws.name]
        if self.default_workspace == ws.name:
            self.default_workspace = next((w.name for w in self.list_workspaces()), None)

    def _rename_workspace(self, old: str, new: str) -> None:
        self.workspaces[new] = self.workspaces.pop(old)
        self.workspaces[new].name = new
        if old in self.namespaces:
            self.namespaces[new] = self.namespaces.pop(old)
            self.namespaces[new].prefix = new
        if self.default_workspace == old:
            self.default_workspace = new
        for table in (self.stores, self.resources):
            for key in [k for k in table if k[0] == old]:
                item = table.pop(key)
                item.workspace = new
                table[(new, key[1])] = item
        for key in [k for k in self.layers if k[0] == old]:
            self._move_layer(key, (new, key[1]))
        for gkey in [k for k in self.layer_groups if k[0] == old]:
            group = self.layer_groups.pop(gkey)
            old_ref, group.workspace = group.ref, new
            self.layer_groups[(new, group.name)] = group
            self._replace_member(old_ref, group.ref)
            self._tile_rename(f"{old}:{group.name}", group.prefixed)
        self._rename_style_workspace(old, new)

    def add_namespace(
        self, prefix: str, uri: str, *, isolated: bool = False, when: str | None = None
    ) -> Namespace:
        """Add a namespace and, if there is none of that name, its workspace."""
        rules.check_name(prefix, "Namespace prefix must not be null")
        ns = Namespace(prefix, uri, isolated)
        self._check_namespace(ns)
        self.namespaces[prefix] = ns
        if prefix not in self.workspaces:
            self.workspaces[prefix] = Workspace(prefix, isolated, when)
            if self.default_workspace is None:
                self.default_workspace = prefix
        return ns

    def _check_namespace(self, ns: Namespace, current: str | None = None) -> None:
        if ns.prefix == DEFAULT:
            raise ServerError("default is a reserved keyword, can't be used as the namespace prefix")
        if ns.prefix in self.namespaces and ns.prefix != current:
            raise ServerError(f"Namespace with prefix '{ns.prefix}' already exists.")
        if not ns.uri:
            raise Invalid("Namespace uri must not be null")
        other = self.namespace_by_uri(ns.uri)
        if not ns.isolated and other is not None and other.prefix != current:
            raise ServerError(f"Namespace with URI '{ns.uri}' already exists.")

    def update_namespace(
        self, prefix: str, *, uri: str | None = None, isolated: bool | None = None
    ) -> Namespace:
        ns = self._require(self.namespace(prefix), f"Can't change a non existant namespace ({prefix})")
        changed = Namespace(ns.prefix, uri if uri is not None else ns.uri, ns.isolated if isolated is None else isolated)
        self._check_namespace(changed, current=ns.prefix)
        if changed.uri != ns.uri:
            for store in self.list_stores(ns.prefix, DATA_STORE):
                params = getattr(store, "connection_parameters", {})
                if params.get("namespace") == ns.uri:
                    params["namespace"] = changed.uri
        ns.uri, ns.isolated = changed.uri, changed.isolated
        return ns

    def delete_namespace(self, prefix: str) -> None:
        ns = self._require(self.namespace(prefix), f"Namespace '{prefix}' not found")
        if self.list_resources(ns.prefix):
            raise Unauthorized("Namespace not empty")
        del self.namespaces[ns.prefix]

    # -- stores ---------------------------------------------------------------------

    def add_store(self, store: Store, *, when: str | None = None) -> Store:
        rules.check_name(store.name, "Store name must not be null")
        if store.workspace not in self.workspaces:
            raise ServerError("Store must be part of a workspace")
        if (store.workspace, store.name) in self.stores:
            raise ServerError(f"Store '{store.name}' already exists in workspace '{store.workspace}'")
        if when and store.date_created is None:
            store.date_created = when
        self.stores[(store.workspace, store.name)] = store
        return store

    def replace_store(self, ws: str, name: str, updated: Store, *, when: str | None = None) -> Store:
        """Put ``updated`` in place of the store ``ws:name`` (a rename or a move included)."""
        current = self._require(self.store(ws, name), f"No such store: {ws},{name}")
        old_key, new_key = (current.workspace, current.name), (updated.workspace, updated.name)
        if updated.kind != current.kind:
            raise Invalid(f"Cannot change the kind of store {name}")
        contents = self.list_resources(current.workspace, store=current.name)
        if new_key != old_key:
            rules.check_name(updated.name, "Store name must not be null")
            if updated.workspace not in self.workspaces:
                raise ServerError(f"No such workspace: '{updated.workspace}'")
            if new_key in self.stores:
                raise ServerError(f"Store '{updated.name}' already exists in workspace '{updated.workspace}'")
            if updated.workspace != current.workspace and contents:
                raise Forbidden("Cannot move a store that has resources to another workspace")
        del self.stores[old_key]
        updated.date_modified = when or updated.date_modified
        self.stores[new_key] = updated
        for res in contents:
            res.store = updated.name
        return updated

    def delete_store(self, ws: str, name: str, *, recurse: bool = False) -> None:
        store = self._require(self.store(ws, name), f"No such store: {ws},{name}")
        if not recurse and self.list_resources(store.workspace, store=store.name):
            raise Forbidden("Unable to delete non-empty store.")
        self._delete_store_contents(store)
        del self.stores[(store.workspace, store.name)]

    def _delete_store_contents(self, store: Store) -> None:
        for res in self.list_resources(store.workspace, store=store.name):
            if (res.workspace, res.name) in self.layers:
                self._cascade_layer(self.layers[(res.workspace, res.name)])
            self.resources.pop((res.workspace, res.name), None)

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
                raise ServerError(f"Resource named '{resource.name}' already exists in store: '{store.name}'")
            raise ServerError(
                f"Resource named '{resource.name}' already exists in namespace: '{resource.workspace}'"
            )
        resource.native_name = resource.native_name or resource.name
        if when and resource.date_created is None:
            resource.date_created = when
        self.resources[(resource.workspace, resource.name)] = resource
        if publish:
            style = default_style or rules.default_style_for(resource)
            self.add_layer(
                Layer(resource.name, resource.workspace, rules.layer_type(resource), style), when=when
            )
        return resource

    def replace_resource(
        self, ws: str, name: str, updated: Resource, *, when: str | None = None
    ) -> Resource:
        """Put ``updated`` in place of ``ws:name``; a new name renames its layer too."""
        current = self._require(self.resource(ws, name), f"No such resource: {ws},{name}")
        key = (current.workspace, current.name)
        if (updated.workspace, updated.store, updated.kind) != (current.workspace, current.store, current.kind):
            raise Forbidden("The store and workspace of a resource cannot be changed")
        if updated.name != current.name:
            rules.check_name(updated.name, "Resource name must not be null")
            if (updated.workspace, updated.name) in self.resources:
                raise ServerError(
                    f"Resource named '{updated.name}' already exists in namespace: '{updated.workspace}'"
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
            raise ServerError(f"Layer named '{layer.name}' in workspace '{layer.workspace}' already exists.")
        layer.type = rules.layer_type(res)
        if layer.default_style is None:
            layer.default_style = rules.default_style_for(res)
        if when and layer.date_created is None:
            layer.date_created = when
        self.layers[key] = layer
        self._tile_add(layer.prefixed)
        return layer

    def replace_layer(self, ws: str, name: str, updated: Layer, *, when: str | None = None) -> Layer:
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

    def _drop_layer(self, layer: Layer) -> None:
        del self.layers[(layer.workspace, layer.name)]
        self._tile_remove(layer.prefixed)

    def _cascade_layer(self, layer: Layer) -> None:
        self._remove_member(layer.ref)
        self._drop_layer(layer)

    def _move_layer(self, old: Key, new: Key) -> None:
        layer = self.layers.pop(old)
        old_ref, old_name = layer.ref, layer.prefixed
        layer.workspace, layer.name = new
        self.layers[new] = layer
        self._replace_member(old_ref, layer.ref)
        self._tile_rename(old_name, layer.prefixed)

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
        self._tile_add(group.prefixed)
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
            raise ServerError(f"Unable to delete layer group referenced by layer group '{holder.name}'")
        del self.layer_groups[(group.workspace, group.name)]
        self._tile_remove(group.prefixed)

    def _cascade_group(self, group: LayerGroup) -> None:
        self._remove_member(group.ref)
        self.layer_groups.pop((group.workspace, group.name), None)
        self._tile_remove(group.prefixed)

    def _check_group(self, group: LayerGroup) -> None:
        if group.mode not in GROUP_MODES:
            raise Invalid(f"Unknown layer group mode {group.mode}")
        if group.mode == "EO":
            raise ServerError("Layer group in mode Earth Observation must have a root layer")
        if not group.publishables:
            raise ServerError("Layer group must not be empty")
        if not group.styles:
            group.styles = [None] * len(group.publishables)
        if len(group.styles) != len(group.publishables):
            raise ServerError("Layer group has different number of styles than layers")
        for ref in group.publishables:
            if self.published(ref) is None:
                raise Invalid(f"No such {'layer' if ref.kind == 'layer' else 'layer group'}: {ref.prefixed}")
        rules.check_group_workspace(group, self)
        loop = rules.find_loop(group, self.layer_groups)
        if loop:
            raise ServerError(f"Layer group is in a loop: {loop}")
        if group.bounds is None:
            group.bounds = rules.group_bounds(group, self)

    def _remove_member(self, ref: PublishedRef) -> None:
        """Take ``ref`` out of every group; a group left empty is removed (cascading)."""
        for group in self.groups_containing(ref):
            keep = [(m, s) for m, s in zip(group.publishables, group.styles, strict=False) if m != ref]
            group.publishables = [m for m, _ in keep]
            group.styles = [s for _, s in keep]
            if not group.publishables:
                self._cascade_group(group)

    def _replace_member(self, old: PublishedRef, new: PublishedRef) -> None:
        for group in self.layer_groups.values():
            group.publishables = [new if m == old else m for m in group.publishables]

    # -- styles (references only; the styles area owns the styles) ---------------------

    def layers_using_style(self, ref: StyleRef) -> list[Layer]:
        """Layers with ``ref`` as default style or among their styles, by prefixed name."""
        return [lyr for lyr in self.list_layers() if lyr.default_style == ref or ref in lyr.styles]

    def groups_using_style(self, ref: StyleRef) -> list[LayerGroup]:
        return sorted(
            (g for g in self.layer_groups.values() if ref in g.styles), key=lambda g: g.prefixed
        )

    def style_in_use(self, ref: StyleRef) -> str | None:
        """GeoServer's refusal to delete a style still referenced, or None when free."""
        for layer in self.layers_using_style(ref):
            return f"Unable to delete style referenced by '{layer.name}'"
        for group in self.groups_using_style(ref):
            return f"Unable to delete style referenced by layer group '{group.name}'"
        return None

    def set_default_style(self, ws: str, name: str, ref: StyleRef | None) -> Layer:
        """Point a layer's default style at ``ref`` (None: the default for its resource)."""
        layer = self._require(self.layer(ws, name), f"No such layer: {ws}:{name}")
        if ref is None:
            ref = rules.default_style_for(self.resources[(layer.workspace, layer.name)])
        layer.default_style = ref
        return layer

    def remove_style_references(self, ref: StyleRef) -> list[Layer]:
        """Forget a deleted style, as GeoServer's recursive style delete does: it leaves the
        layers' styles; a layer whose default it was takes its first other style, else the
        default style for its resource; groups fall back to their members' default."""
        changed = []
        for layer in self.layers_using_style(ref):
            layer.styles = [s for s in layer.styles if s != ref]
            if layer.default_style == ref:
                if layer.styles:
                    layer.default_style = layer.styles.pop(0)
                else:
                    fallback = rules.default_style_for(self.resources[(layer.workspace, layer.name)])
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

    def _rename_style_workspace(self, old: str, new: str) -> None:
        def moved(ref: StyleRef | None) -> StyleRef | None:
            return StyleRef(new, ref.name) if ref is not None and ref.workspace == old else ref

        for layer in self.layers.values():
            layer.default_style = moved(layer.default_style)
            layer.styles = [s for s in map(moved, layer.styles) if s is not None]
        for group in self.layer_groups.values():
            group.styles = [moved(s) for s in group.styles]

    # -- integrity ------------------------------------------------------------------------

    def problems(self) -> list[str]:
        """Every broken reference, for tests: an empty list means the catalog is consistent."""
        return rules.problems(self)

    # -- helpers ----------------------------------------------------------------------

    @staticmethod
    def _require(found: T | None, message: str) -> T:
        if found is None:
            raise NotFound(message)
        return found

    def _tile_add(self, name: str) -> None:
        if self.tiles is not None:
            self.tiles.add_default_tile_layer(name)

    def _tile_remove(self, name: str) -> None:
        if self.tiles is not None:
            self.tiles.remove_tile_layer(name)

    def _tile_rename(self, old: str, new: str) -> None:
        if self.tiles is not None and old != new:
            self.tiles.rename_tile_layer(old, new)


def copy_of(item: T) -> T:
    """A deep copy to edit before a ``replace_*`` call (the stored object stays untouched)."""
    return copy.deepcopy(item)
