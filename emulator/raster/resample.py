"""Sampling a grid onto a target grid: nearest neighbour, bilinear and bicubic, as JAI's
interpolations (GeoServer's ``nearest neighbor``, ``bilinear``, ``bicubic``) compute them.

Every target pixel takes the value at its centre. Its position in the source is found in
the source's CRS (directly, or through ``to_source`` when the target is in another CRS), in
fractional pixel coordinates where an integer is a pixel centre. Then:

- nearest: the pixel ``floor(p + 0.5)`` (a centre exactly on an edge takes the pixel to
  the right or below);
- bilinear: the 2 × 2 pixels around the position, weighted by distance;
- bicubic: the 4 × 4 pixels around it with the cubic convolution kernel (a = -0.5, JAI's
  ``InterpolationBicubic``);

pixels past the source's border repeat the border (JAI's ``BORDER_COPY``). A target pixel
whose centre lies outside the source is not covered. Integer types are rounded
(``floor(v + 0.5)``) and clamped to their range. No-data: a covered pixel whose nearest
source pixel is no-data is not covered; where an interpolating method would mix a no-data
pixel into the value, the nearest pixel's value is taken instead.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from .model import INTEGER_RANGES, Grid, Target

if TYPE_CHECKING:
    import numpy

Array = Any
"""a numpy array (numpy's types are imported on first use)"""
ToSource = Callable[[Array, Array], tuple[Array, Array]]
"""x, y arrays in the target CRS → x, y arrays in the source CRS"""

NEAREST, BILINEAR, BICUBIC = "nearest", "bilinear", "bicubic"
_TAPS = {NEAREST: 1, BILINEAR: 2, BICUBIC: 4}


def centres(target: Target) -> tuple[Array, Array]:
    """The x of each column's centre (width,) and y of each row's centre (height,)."""
    import numpy as np

    env = target.envelope
    sx, sy = target.resolution
    xs = env.minx + (np.arange(target.width, dtype=np.float64) + 0.5) * sx
    ys = env.maxy - (np.arange(target.height, dtype=np.float64) + 0.5) * sy
    return xs, ys


def sample(
    grid: Grid, target: Target, method: str = NEAREST, to_source: ToSource | None = None
) -> tuple[numpy.ndarray[Any, Any], numpy.ndarray[Any, Any]]:
    """The target's pixels from ``grid`` (bands, height, width, in the grid's type) and
    which of them the grid covers (height, width)."""
    import numpy as np

    xs, ys = centres(target)
    if to_source is None:
        gx, gy = xs[None, :], ys[:, None]
    else:
        mx, my = np.meshgrid(xs, ys)
        gx, gy = to_source(mx, my)
    sx, sy = grid.resolution
    env = grid.envelope
    col = (gx - env.minx) / sx - 0.5
    row = (env.maxy - gy) / sy - 0.5
    inside = (col >= -0.5) & (col < grid.width - 0.5) & (row >= -0.5) & (row < grid.height - 0.5)
    inside = np.broadcast_to(inside, (target.height, target.width))
    nearest = _nearest(grid.pixels, col, row)
    bad = _nodata_mask(grid, nearest)
    covered = inside & ~bad.any(axis=0) if bad is not None else inside.copy()
    if method == NEAREST or _TAPS.get(method) is None:
        values = nearest
    else:
        values = _interpolate(grid, col, row, method, nearest)
    values = np.broadcast_to(values, (len(grid.bands), target.height, target.width))
    return np.ascontiguousarray(values), covered


def _index(pos: Array, size: int) -> Array:
    import numpy as np

    return np.clip(np.floor(pos + 0.5), 0, size - 1).astype(np.intp)


def _nearest(pixels: Array, col: Array, row: Array) -> Array:
    ci = _index(col, pixels.shape[2])
    ri = _index(row, pixels.shape[1])
    return pixels[:, ri, ci]


def _nodata_mask(grid: Grid, values: Array) -> Array | None:
    """Where ``values`` (taken from the grid) are no-data, per band; None without any."""
    import numpy as np

    nodata = grid.nodata
    floating = values.dtype.kind == "f"
    if nodata is None and not floating:
        return None
    mask = np.zeros(values.shape, dtype=bool)
    if nodata is not None:
        mask |= values == nodata
    if floating:
        mask |= np.isnan(values)
    return mask


def _weights(frac: Array, method: str) -> list[Array]:
    """The weights of the taps at offsets 0, 1 (bilinear) or -1, 0, 1, 2 (bicubic)."""
    if method == BILINEAR:
        return [1.0 - frac, frac]
    a = -0.5
    out = []
    for offset in (-1, 0, 1, 2):
        d = abs(frac - offset)
        near = ((a + 2) * d - (a + 3)) * d * d + 1
        far = ((a * d - 5 * a) * d + 8 * a) * d - 4 * a
        out.append(near * (d <= 1) + far * ((d > 1) & (d < 2)))
    return out


def _interpolate(grid: Grid, col: Array, row: Array, method: str, nearest: Array) -> Array:
    import numpy as np

    pixels = grid.pixels
    c0, r0 = np.floor(col), np.floor(row)
    wx, wy = _weights(col - c0, method), _weights(row - r0, method)
    first = -1 if method == BICUBIC else 0
    cols = [np.clip(c0 + first + k, 0, grid.width - 1).astype(np.intp) for k in range(len(wx))]
    rows = [np.clip(r0 + first + k, 0, grid.height - 1).astype(np.intp) for k in range(len(wy))]
    total = np.zeros(nearest.shape, dtype=np.float64)
    touched = None
    for r, w_r in zip(rows, wy, strict=True):
        for c, w_c in zip(cols, wx, strict=True):
            taps = pixels[:, r, c]
            weight = w_r * w_c
            bad = _nodata_mask(grid, taps)
            if bad is not None:
                hit = bad & (weight != 0)
                touched = hit if touched is None else touched | hit
                taps = np.where(bad, 0, taps)
            total += taps * weight
    return _cast(total, pixels.dtype, nearest, touched)


def _cast(total: Array, dtype: Any, nearest: Array, touched: Array | None) -> Array:
    import numpy as np

    limits = INTEGER_RANGES.get(np.dtype(dtype).name)
    if limits is not None:
        total = np.clip(np.floor(total + 0.5), limits[0], limits[1])
    out = total.astype(dtype)
    if touched is not None:
        out = np.where(touched, nearest, out)
    return out
