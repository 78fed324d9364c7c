"""``CatalogTables``: the catalog's tables and every read of them (lookups, listings).

Lookups return None when nothing matches (each REST controller words its own 404).
``model.Catalog`` adds the changes on top; see its docstring for the rules.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, Protocol, TypeVar

from ...core.errors import NotFound
from ...core.trackeddict import TrackedDict
from ...core.tracking import tracked
from .entities import (
    COVERAGE,
    COVERAGE_STORE,
    DATA_STORE,
    FEATURE_TYPE,
    BBox,
    Coverage,
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
    Workspace,
    is_projected,
)

DEFAULT = "default"
T = TypeVar("T")
Key = tuple[str, str]
GroupKey = tuple[str | None, str]


class TileLayerSink(Protocol):
    """The seeding store's side: what the catalog tells it about published names."""

    def add_default_tile_layer(
        self,
        name: str,
        *,
        bounds: tuple[float, float, float, float] | None = None,
        group: bool = False,
    ) -> object: ...

    def rename_tile_layer(self, old: str, new: str) -> None: ...

    def remove_tile_layer(self, name: str) -> None: ...


def _by_name(items: Iterable[T], key: Callable[[Any], Any] | None = None) -> list[T]:
    return sorted(items, key=key or (lambda x: x.name))


def style_ref(ws: str | tuple[str | None, str] | None, name: str | None = None) -> StyleRef:
    """A ``StyleRef`` from ``(ws, name)`` or from one ``StyleRef`` (or pair)."""
    if isinstance(ws, tuple):
        return StyleRef(*ws)
    if name is None:
        raise TypeError("a style is (workspace or None, name)")
    return StyleRef(ws, name)


@tracked
class CatalogTables:
    """The tables, keyed by name: ``(workspace, name)`` for stores, resources and layers,
    ``(workspace or None, name)`` for layer groups."""

    def __init__(self) -> None:
        self.default_workspace: str | None = None
        self.workspaces: dict[str, Workspace] = TrackedDict()
        self.namespaces: dict[str, Namespace] = TrackedDict()
        self.stores: dict[Key, Store] = TrackedDict()
        self.resources: dict[Key, Resource] = TrackedDict()
        self.layers: dict[Key, Layer] = TrackedDict()
        self.layer_groups: dict[GroupKey, LayerGroup] = TrackedDict()
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

    def feature_type(
        self, ws: str | None, name: str, store: str | None = None
    ) -> FeatureType | None:
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

    def layer_names(self) -> list[str]:
        """Every layer's prefixed name, in ``list_layers()`` order."""
        return sorted([lyr.prefixed for lyr in self.layers.values()])

    def list_layer_groups(self, ws: str | None = None) -> list[LayerGroup]:
        """Global groups (``ws`` None) or those of one workspace."""
        name = None if ws is None else self._ws_name(ws)
        return _by_name(g for g in self.layer_groups.values() if g.workspace == name)

    def groups_containing(self, ref: PublishedRef) -> list[LayerGroup]:
        """Groups holding ``ref`` as a member or as their root layer."""
        return _by_name(
            g for g in self.layer_groups.values() if ref in g.publishables or g.root_layer == ref
        )

    # -- styles (references only; the styles area owns the styles) ---------------------

    def layers_using_style(
        self, ws: str | tuple[str | None, str] | None, name: str | None = None
    ) -> list[Layer]:
        """Layers with the style as default or among their styles, by prefixed name.

        The style is ``(ws, name)`` (``ws`` None: global) or one ``StyleRef``."""
        ref = style_ref(ws, name)
        return [lyr for lyr in self.list_layers() if lyr.default_style == ref or ref in lyr.styles]

    def groups_using_style(
        self, ws: str | tuple[str | None, str] | None, name: str | None = None
    ) -> list[LayerGroup]:
        ref = style_ref(ws, name)
        return sorted(
            (g for g in self.layer_groups.values() if ref in g.styles or g.root_layer_style == ref),
            key=lambda g: g.prefixed,
        )

    def style_in_use(
        self, ws: str | tuple[str | None, str] | None, name: str | None = None
    ) -> str | None:
        """GeoServer's refusal to delete a style still referenced, or None when free."""
        ref = style_ref(ws, name)
        for layer in self.layers_using_style(ref):
            return f"Unable to delete style referenced by '{layer.name}'"
        for group in self.groups_using_style(ref):
            return f"Unable to delete style referenced by layer group '{group.name}'"
        return None

    # -- helpers ----------------------------------------------------------------------

    @staticmethod
    def _require(found: T | None, message: str) -> T:
        if found is None:
            raise NotFound(message)
        return found

    def _tile_add(self, name: str, lonlat: BBox | None = None, group: bool = False) -> None:
        """Give ``name`` its tile layer, covering ``lonlat`` (a lon/lat box) when known."""
        if self.tiles is not None:
            bounds = None
            if lonlat is not None and not is_projected(lonlat.crs):
                bounds = (lonlat.minx, lonlat.miny, lonlat.maxx, lonlat.maxy)
            self.tiles.add_default_tile_layer(name, bounds=bounds, group=group)

    def _tile_remove(self, name: str) -> None:
        if self.tiles is not None:
            self.tiles.remove_tile_layer(name)

    def _tile_rename(self, old: str, new: str) -> None:
        if self.tiles is not None and old != new:
            self.tiles.rename_tile_layer(old, new)
