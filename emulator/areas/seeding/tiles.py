"""Tile-range arithmetic exactly as GeoWebCache does it; pure, O(zoom levels).

Rectangles are ``(minx, miny, maxx, maxy)`` in tile indices, inclusive, y counted from the
bottom (GWC's internal convention, also for top-left gridsets). The steps, as in
``TileBreeder.createTileRange``:

1. the layer's coverage per level (``GridSubsetFactory``): the rectangle of its extent, or
   the whole grid without one;
2. the request bounds, if given, as a rectangle clamped into the coverage
   (``GridCoverage.getIntersection``; bounds outside still give a one-tile edge);
3. each rectangle expanded to whole metatiles (``GridSubset.expandToMetaFactors``), where
   the maximum is capped at the number of tiles W, not W-1 (GWC's off-by-one);
4. ``tilesTotal`` = the sum of the expanded areas (``SeedTask.tileCount``), and the
   metatiles are handed out level by level, row by row from the bottom, left to right
   (``TileRangeIterator``).

The tiles a metatile stores are its tiles clipped on the high side to the layer's
coverage (``MetaTile.calculateMetaTileGridBounds``), which the cache model uses.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping

from ...core.record import record
from .gridsets import Box, GridSet
from .java import LONG_MAX, LONG_MIN, rem, to_long

Rect = tuple[int, int, int, int]


def area(r: Rect) -> int:
    return (r[2] - r[0] + 1) * (r[3] - r[1] + 1)


def subtract(a: Rect, b: Rect) -> list[Rect]:
    """``a`` minus ``b`` as at most four disjoint rectangles."""
    if not (a[0] <= b[2] and b[0] <= a[2] and a[1] <= b[3] and b[1] <= a[3]):
        return [a]
    out: list[Rect] = []
    x0, y0, x1, y1 = a
    if b[1] > y0:
        out.append((x0, y0, x1, b[1] - 1))
    if b[3] < y1:
        out.append((x0, b[3] + 1, x1, y1))
    my0, my1 = max(y0, b[1]), min(y1, b[3])
    if b[0] > x0:
        out.append((x0, my0, b[0] - 1, my1))
    if b[2] < x1:
        out.append((b[2] + 1, my0, x1, my1))
    return out


class RangeError(Exception):
    """A tile range GWC accepts but cannot iterate (the task fails once it runs)."""


def _long(v: float) -> int:
    if math.isnan(v):
        return 0
    if math.isinf(v):
        return LONG_MAX if v > 0 else LONG_MIN
    return max(LONG_MIN, min(LONG_MAX, int(v)))


def closest_rectangle(gridset: GridSet, z: int, box: Box) -> Rect:
    """``GridSet.closestRectangle(level, bounds)``."""
    res = gridset.resolutions[z]
    width, height = res * gridset.tile_width, res * gridset.tile_height
    ox, oy = gridset.origin()
    min_x = _cell(box[0], ox, width, math.floor)
    min_y = _cell(box[1], oy, height, math.floor)
    max_x = _cell(box[2], ox, width, math.ceil)
    max_y = _cell(box[3], oy, height, math.ceil)
    if gridset.align_top_left:
        min_y += gridset.tiles_high[z]
        max_y += gridset.tiles_high[z]
    return (min_x, min_y, max_x - 1, max_y - 1)


def _cell(value: float, origin: float, size: float, rounding: Callable[[float], int]) -> int:
    """``(long) Math.floor/ceil((value - origin) / size)``: a quotient past the double range
    (a huge bound over a small tile) saturates as Java's cast does."""
    ratio = (value - origin) / size
    return _long(rounding(ratio)) if math.isfinite(ratio) else _long(ratio)


def subset_coverages(
    gridset: GridSet,
    extent: Box | None,
    zoom_start: int | None = None,
    zoom_stop: int | None = None,
) -> dict[int, Rect]:
    """``GridSubsetFactory.createGridSubSet``: the coverage rectangle of each cached level."""
    start = 0 if zoom_start is None else zoom_start
    top = gridset.levels - 1
    stop = top if zoom_stop is None else min(zoom_stop, top)
    out: dict[int, Rect] = {}
    for z in range(max(start, 0), stop + 1):
        if extent is None:
            out[z] = (0, 0, gridset.tiles_wide[z] - 1, gridset.tiles_high[z] - 1)
        else:
            out[z] = closest_rectangle(gridset, z, extent)
    return out


def clamp(coverage: Rect, rect: Rect) -> Rect:
    """``GridCoverage.getIntersection``: each coordinate clamped into the coverage."""
    c0, c1, c2, c3 = coverage
    return (
        min(max(c0, rect[0]), c2),
        min(max(c1, rect[1]), c3),
        min(max(c0, rect[2]), c2),
        min(max(c1, rect[3]), c3),
    )


def expand(gridset: GridSet, z: int, rect: Rect, meta: tuple[int, int]) -> Rect:
    """``GridSubset.expandToMetaFactors`` for one level, off-by-one cap included."""
    mx, my = meta
    minx = rect[0] - rem(rect[0], mx)
    miny = rect[1] - rem(rect[1], my)
    maxx = min(rect[2] - rem(rect[2], mx) + (mx - 1), gridset.tiles_wide[z])
    maxy = min(rect[3] - rem(rect[3], my) + (my - 1), gridset.tiles_high[z])
    return (minx, miny, maxx, maxy)


@record(frozen=True)
class TileRange:
    """What a seed or truncate task works on: expanded rectangles per level of the subset."""

    zoom_start: int
    zoom_stop: int
    bounds: Mapping[int, Rect]
    """expanded rectangle per subset level (GWC keeps them all, not only the requested)"""
    coverage: Mapping[int, Rect]
    """the layer's coverage per level, which clips the tiles a metatile stores"""
    meta: tuple[int, int]

    def level(self, z: int) -> Rect:
        """``TileRange.rangeBounds``."""
        found = self.bounds.get(z)
        if found is None:
            raise RangeError(f"Found no range bounds for z level {z}")
        return found


def tile_range(
    gridset: GridSet,
    coverage: Mapping[int, Rect],
    bounds: Box | None,
    zoom_start: int,
    zoom_stop: int,
    meta: tuple[int, int],
) -> TileRange:
    """``TileBreeder.createTileRange`` from a layer coverage and the request."""
    expanded: dict[int, Rect] = {}
    for z, cov in coverage.items():
        rect = cov if bounds is None else clamp(cov, closest_rectangle(gridset, z, bounds))
        expanded[z] = expand(gridset, z, rect, meta)
    return TileRange(zoom_start, zoom_stop, expanded, dict(coverage), meta)


def tile_count(tr: TileRange) -> int:
    """``SeedTask.tileCount``: tiles of the expanded rectangles, -1 when too many."""
    count = 0
    for z in range(tr.zoom_start, tr.zoom_stop + 1):
        minx, miny, maxx, maxy = tr.level(z)
        this = to_long((1 + maxx - minx) * (1 + maxy - miny))
        if this > LONG_MAX // 4 and z != tr.zoom_stop:
            return -1
        count = to_long(count + this)
    return count


def level_grid(tr: TileRange, z: int) -> tuple[int, int]:
    """(metatiles per row, rows) the iterator hands out at level ``z``."""
    minx, miny, maxx, maxy = tr.level(z)
    mx, my = tr.meta
    per_row = (maxx - minx) // mx + 1 if maxx >= minx else 0
    rows = (maxy - miny) // my + 1 if maxy >= miny else 0
    return per_row, rows


def metatile_count(tr: TileRange) -> int:
    """How many metatiles the shared iterator hands out (raises if it cannot start)."""
    if tr.zoom_start > tr.zoom_stop:
        raise RangeError(f"{tr.zoom_start} > zoomStop ({tr.zoom_stop})")
    total = 0
    for z in range(tr.zoom_start, tr.zoom_stop + 1):
        per_row, rows = level_grid(tr, z)
        total += per_row * rows
    return total


def _stored(tr: TileRange, z: int, columns: int, first_row: int, rows: int) -> Rect | None:
    """Tiles stored by ``columns`` metatiles on each of ``rows`` rows from ``first_row``."""
    if columns <= 0 or rows <= 0:
        return None
    minx, miny, _, _ = tr.level(z)
    mx, my = tr.meta
    cov = tr.coverage[z]
    y0 = miny + first_row * my
    rect = (minx, y0, min(minx + columns * mx - 1, cov[2]), min(y0 + rows * my - 1, cov[3]))
    if rect[2] < rect[0] or rect[3] < rect[1]:
        return None
    return rect


def requested_levels(tr: TileRange) -> list[tuple[int, Rect]]:
    """The rectangles a truncate deletes: the expanded range of each requested level."""
    return [(z, tr.level(z)) for z in range(tr.zoom_start, tr.zoom_stop + 1)]


def _level_slice(tr: TileRange, z: int, per_row: int, rows: int, upto: int) -> list[Rect]:
    full_rows = min(upto // per_row, rows)
    partial = upto - full_rows * per_row if full_rows < rows else 0
    rects = (_stored(tr, z, per_row, 0, full_rows), _stored(tr, z, partial, full_rows, 1))
    return [r for r in rects if r is not None]


def stored_between(tr: TileRange, start: int, stop: int) -> list[tuple[int, Rect]]:
    """The tiles stored by metatiles ``start`` (inclusive) to ``stop`` (exclusive) of the
    iteration order, as disjoint rectangles; O(levels)."""
    out: list[tuple[int, Rect]] = []
    offset = 0
    for z in range(tr.zoom_start, tr.zoom_stop + 1):
        if offset >= stop:
            break
        per_row, rows = level_grid(tr, z)
        size = per_row * rows
        lo, hi = max(start - offset, 0), min(stop - offset, size)
        if size and hi > lo:
            inner = _level_slice(tr, z, per_row, rows, lo) if lo else []
            for rect in _level_slice(tr, z, per_row, rows, hi):
                pieces = [rect]
                for cut in inner:
                    pieces = [p for piece in pieces for p in subtract(piece, cut)]
                out.extend((z, p) for p in pieces)
        offset += size
    return out
