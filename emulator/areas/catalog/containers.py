"""``Containers``: the catalog's changes to workspaces, namespaces and stores.

Workspaces and namespaces are kept in step as GeoServer keeps them: a workspace gets the
namespace of the same prefix, a namespace its workspace; renaming a workspace renames its
namespace and re-keys everything inside it.
"""

from __future__ import annotations

from ...core.errors import Conflict, Forbidden, Invalid, ServerError, Unauthorized
from . import rules
from .entities import (
    DATA_STORE,
    Layer,
    LayerGroup,
    Namespace,
    PublishedRef,
    Store,
    StyleRef,
    Workspace,
)
from .tables import DEFAULT, CatalogTables, Key


class Containers(CatalogTables):
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
                raise ServerError(
                    "default is a reserved keyword, can't be used as the workspace name"
                )
            if new_name in self.workspaces or (
                new_name in self.namespaces and ws.name in self.namespaces
            ):
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
        for key in [k for k in self.stores if k[0] == old]:
            store = self.stores.pop(key)
            store.workspace = new
            self.stores[(new, key[1])] = store
        for key in [k for k in self.resources if k[0] == old]:
            res = self.resources.pop(key)
            res.workspace = new
            self.resources[(new, key[1])] = res
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
            raise ServerError(
                "default is a reserved keyword, can't be used as the namespace prefix"
            )
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
        ns = self._require(
            self.namespace(prefix), f"Can't change a non existant namespace ({prefix})"
        )
        changed = Namespace(
            ns.prefix,
            uri if uri is not None else ns.uri,
            ns.isolated if isolated is None else isolated,
        )
        self._check_namespace(changed, current=ns.prefix)
        if changed.uri != ns.uri:
            for store in self.list_stores(ns.prefix, DATA_STORE):
                params = getattr(store, "connection_parameters", {})
                if params.get("namespace") == ns.uri:
                    params["namespace"] = changed.uri
        ns.uri, ns.isolated = changed.uri, changed.isolated
        return ns

    def delete_namespace(self, prefix: str) -> str | None:
        """Delete a namespace and, as GeoServer's namespace/workspace consistency listener
        does, its workspace; returns the name of the workspace removed (None: there was
        none). A workspace that still holds stores or layer groups stops the delete."""
        ns = self._require(self.namespace(prefix), f"Namespace '{prefix}' not found")
        if self.list_resources(ns.prefix):
            raise Unauthorized("Namespace not empty")
        ws = self.workspaces.get(ns.prefix)
        if ws is not None and (self.list_stores(ws.name) or self.list_layer_groups(ws.name)):
            raise ServerError("Cannot delete non-empty workspace.")
        del self.namespaces[ns.prefix]
        if ws is None:
            return None
        self.delete_workspace(ws.name)
        return ws.name

    # -- stores ---------------------------------------------------------------------

    def add_store(self, store: Store, *, when: str | None = None) -> Store:
        rules.check_name(store.name, "Store name must not be null")
        if store.workspace not in self.workspaces:
            raise ServerError("Store must be part of a workspace")
        if (store.workspace, store.name) in self.stores:
            raise ServerError(
                f"Store '{store.name}' already exists in workspace '{store.workspace}'"
            )
        if when and store.date_created is None:
            store.date_created = when
        self.stores[(store.workspace, store.name)] = store
        return store

    def replace_store(
        self, ws: str, name: str, updated: Store, *, when: str | None = None
    ) -> Store:
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
                raise ServerError(
                    f"Store '{updated.name}' already exists in workspace '{updated.workspace}'"
                )
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

    # -- cascades shared by every kind of change -------------------------------------

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

    def _cascade_group(self, group: LayerGroup) -> None:
        self._remove_member(group.ref)
        self.layer_groups.pop((group.workspace, group.name), None)
        self._tile_remove(group.prefixed)

    def _remove_member(self, ref: PublishedRef) -> None:
        """Take ``ref`` out of every group; a group left empty, or whose root layer it was,
        is removed (cascading)."""
        for group in self.groups_containing(ref):
            if group.root_layer == ref:
                self._cascade_group(group)
                continue
            keep = [
                (m, s) for m, s in zip(group.publishables, group.styles, strict=False) if m != ref
            ]
            group.publishables = [m for m, _ in keep]
            group.styles = [s for _, s in keep]
            if not group.publishables:
                self._cascade_group(group)

    def _replace_member(self, old: PublishedRef, new: PublishedRef) -> None:
        for group in self.layer_groups.values():
            group.publishables = [new if m == old else m for m in group.publishables]
            if group.root_layer == old:
                group.root_layer = new

    def _rename_style_workspace(self, old: str, new: str) -> None:
        def moved(ref: StyleRef | None) -> StyleRef | None:
            return StyleRef(new, ref.name) if ref is not None and ref.workspace == old else ref

        for layer in self.layers.values():
            layer.default_style = moved(layer.default_style)
            layer.styles = [s for s in map(moved, layer.styles) if s is not None]
        for group in self.layer_groups.values():
            group.styles = [moved(s) for s in group.styles]
            group.root_layer_style = moved(group.root_layer_style)
