"""The tile-cache model: which tiles are stored, per layer, gridset, format and parameters.

Each cache key holds, per zoom level, a set of disjoint rectangles of tiles. Seeding adds
the tiles of the metatiles it finished, truncating removes the tiles of its range; counts
are sums of areas, so a seed of zoom 0-30 of the whole world costs a handful of
rectangles, not 10^18 tiles.
"""

from __future__ import annotations

from collections.abc import Iterable

from ...core.record import field, record
from .tiles import Rect, area, subtract

CacheKey = tuple[str, str, str, tuple[tuple[str, str], ...]]
"""(layer, gridset, format, sorted parameters)"""


@record
class TileSet:
    """Disjoint rectangles of stored tiles, per zoom level."""

    levels: dict[int, list[Rect]] = field(default_factory=dict)

    def add(self, z: int, rect: Rect) -> None:
        pieces = [rect]
        for have in self.levels.get(z, []):
            pieces = [p for piece in pieces for p in subtract(piece, have)]
            if not pieces:
                return
        self.levels.setdefault(z, []).extend(pieces)

    def remove(self, z: int, rect: Rect) -> None:
        have = self.levels.get(z)
        if not have:
            return
        kept = [p for r in have for p in subtract(r, rect)]
        if kept:
            self.levels[z] = kept
        else:
            del self.levels[z]

    def count(self, zoom: int | None = None) -> int:
        if zoom is not None:
            return sum(area(r) for r in self.levels.get(zoom, []))
        return sum(area(r) for rects in self.levels.values() for r in rects)


@record
class TileCache:
    """Every cache key the emulator has stored tiles under."""

    entries: dict[CacheKey, TileSet] = field(default_factory=dict)

    def add(self, key: CacheKey, rects: Iterable[tuple[int, Rect]]) -> None:
        tiles = self.entries.setdefault(key, TileSet())
        for z, rect in rects:
            tiles.add(z, rect)
        if not tiles.levels:
            del self.entries[key]

    def remove(self, key: CacheKey, rects: Iterable[tuple[int, Rect]]) -> None:
        tiles = self.entries.get(key)
        if tiles is None:
            return
        for z, rect in rects:
            tiles.remove(z, rect)
        if not tiles.levels:
            del self.entries[key]

    def count(
        self,
        layer: str,
        gridset: str | None = None,
        fmt: str | None = None,
        parameters: tuple[tuple[str, str], ...] | None = None,
        zoom: int | None = None,
    ) -> int:
        total = 0
        for (name, gs, f, params), tiles in self.entries.items():
            if name != layer or (gridset is not None and gs != gridset):
                continue
            if (fmt is not None and f != fmt) or (parameters is not None and params != parameters):
                continue
            total += tiles.count(zoom)
        return total

    def drop_layer(self, layer: str) -> None:
        for key in [k for k in self.entries if k[0] == layer]:
            del self.entries[key]

    def rename_layer(self, old: str, new: str) -> None:
        for key in [k for k in self.entries if k[0] == old]:
            self.entries[(new, *key[1:])] = self.entries.pop(key)
