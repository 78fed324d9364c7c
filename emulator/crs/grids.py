"""Grids (rasters) from one CRS into another: what a WCS ``GetCoverage`` in an output CRS, or
a raster drawn on a map in another CRS, needs from the CRS layer.

``output_grid(envelope, source, target)`` is the grid a coverage becomes in ``target``: its
envelope transformed (the outline densified, as GeoTools transforms envelopes) and, unless
the caller fixes the size, as many columns and rows as the source (GeoTools'
``Resampler2D`` keeps the grid range when no target grid is given). ``source_points(grid,
source)`` gives, for each pixel centre of a target grid, its position in the source CRS:
what a resampler (nearest neighbour, bilinear) reads the source pixels at. Both are pure
arithmetic on numpy arrays; no pixels are touched here.
"""

from __future__ import annotations

import math
from typing import Any, NamedTuple

from ..core.errors import Invalid
from .transform import Box, between


class Grid(NamedTuple):
    """A north-up grid: its envelope (east/north, in ``crs``) and size in pixels."""

    envelope: Box
    width: int
    height: int
    crs: str

    @property
    def resolution(self) -> tuple[float, float]:
        minx, miny, maxx, maxy = self.envelope
        return (maxx - minx) / self.width, (maxy - miny) / self.height


def output_grid(
    envelope: Box,
    source: str,
    target: str,
    size: tuple[int, int],
    fixed: tuple[int, int] | None = None,
) -> Grid:
    """The grid of ``size`` (width, height) over ``envelope`` in ``source``, as a grid in
    ``target``: the envelope transformed and ``fixed`` or the same size. ``NotFound`` for an
    unknown CRS; ``Invalid`` when nothing of the envelope has an image in ``target``."""
    t = between(source, target)
    box = t.bounds(envelope)
    if (
        box is None
        or not all(math.isfinite(v) for v in box)
        or box[0] >= box[2]
        or box[1] >= box[3]
    ):
        raise Invalid(f"The envelope has no image in {target}")
    width, height = fixed or size
    if width <= 0 or height <= 0:
        raise Invalid(f"Invalid grid size {width}x{height}")
    return Grid(box, width, height, target)


def source_points(grid: Grid, source: str) -> tuple[Any, Any]:
    """Two (height, width) arrays: the x and y in ``source`` of each of ``grid``'s pixel
    centres, row 0 at the top (non-finite where a pixel has no image in ``source``)."""
    import numpy as np

    minx, miny, maxx, maxy = grid.envelope
    rx, ry = grid.resolution
    xs = minx + (np.arange(grid.width) + 0.5) * rx
    ys = maxy - (np.arange(grid.height) + 0.5) * ry
    gx, gy = np.meshgrid(xs, ys)
    t = between(grid.crs, source)
    ox, oy = t.arrays(gx.ravel(), gy.ravel())
    return np.asarray(ox).reshape(gx.shape), np.asarray(oy).reshape(gy.shape)
