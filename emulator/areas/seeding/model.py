"""GeoWebCache's side of the state: tile layers, gridsets, seed tasks, the tile-cache model.

(The seeding issue fills in gridsets, tasks and the cache model; the catalog gives every
layer and layer group a tile layer through ``add_default_tile_layer``.)
"""

from __future__ import annotations

from dataclasses import dataclass, field

DEFAULT_GRIDSETS = ("EPSG:4326", "EPSG:900913")
DEFAULT_FORMATS = ("image/png", "image/jpeg")


@dataclass
class TileLayer:
    name: str
    """the prefixed layer or layer-group name, e.g. ``topp:states`` (a global group: ``tasmania``)"""
    enabled: bool = True
    gridsets: list[str] = field(default_factory=lambda: list(DEFAULT_GRIDSETS))
    formats: list[str] = field(default_factory=lambda: list(DEFAULT_FORMATS))
    metatiling: tuple[int, int] = (4, 4)
    gutter: int = 0
    parameter_filters: list[dict[str, object]] = field(
        default_factory=lambda: [{"key": "STYLES", "defaultValue": ""}]
    )


@dataclass
class SeedingStore:
    tile_layers: dict[str, TileLayer] = field(default_factory=dict)

    def add_default_tile_layer(self, name: str) -> TileLayer:
        """Give a new layer or layer group its tile layer, as GeoServer does by default."""
        layer = self.tile_layers.get(name)
        if layer is None:
            layer = self.tile_layers[name] = TileLayer(name)
        return layer

    def rename_tile_layer(self, old: str, new: str) -> None:
        layer = self.tile_layers.pop(old, None)
        if layer is not None:
            layer.name = new
            self.tile_layers[new] = layer

    def remove_tile_layer(self, name: str) -> None:
        self.tile_layers.pop(name, None)
