"""Raster layers on a map: a coverage's pixels (``features.grids``) sampled at each map
pixel's centre (nearest neighbour, in the grid's CRS) and coloured by the style's
``RasterSymbolizer``.

Colour maps as GeoTools applies them: ``ramp`` interpolates colour and opacity between
entries (values below the first entry take the first colour, above the last the last);
``intervals`` gives each value the first entry whose quantity is above it (values at or
above the last quantity are not drawn); ``values`` colours exact matches only. No-data
pixels (the band's no-data value, NaN) are transparent; the symbolizer's ``Opacity``
multiplies every pixel's. Without a colour map, a three- or four-band grid draws as RGB(A)
and a one-band grid as greys stretched over its data's range.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...features.grids import Grid
from ..ows import crs
from . import paint
from .symbolizers import Symbolizer

if TYPE_CHECKING:
    import numpy


def image(
    grid: Grid, bbox: tuple[float, float, float, float], srs: str, size: tuple[int, int],
    sym: Symbolizer | None,
) -> Any:  # fmt: skip
    """The coloured layer as a Pillow RGBA image of ``size``; None when nothing shows."""
    import numpy as np
    from PIL import Image

    values = sample(grid, bbox, srs, size)
    if values is None:
        return None
    data, inside = values
    valid = inside & _valid(grid, data[0])
    if sym is not None and sym.colormap:
        rgba = colour_map(data[0], sym)
    else:
        rgba = _plain(data, valid)
    rgba[..., 3] = np.where(valid, rgba[..., 3], 0)
    opacity = paint.number(sym.opacity if sym is not None else None, 1.0)
    if opacity < 1:
        rgba[..., 3] = (rgba[..., 3] * max(0.0, opacity)).round()
    return Image.fromarray(rgba.astype(np.uint8), "RGBA")


def sample(
    grid: Grid, bbox: tuple[float, float, float, float], srs: str, size: tuple[int, int]
) -> tuple[numpy.ndarray[Any, Any], numpy.ndarray[Any, Any]] | None:
    """The grid's values (bands, height, width) at the centres of the map's pixels, and
    where those centres fall inside the grid; None when the CRSs do not transform."""
    import numpy as np

    to_grid = crs.transform_array(srs, grid.srs)
    if to_grid is None:
        return None
    width, height = size
    minx, miny, maxx, maxy = bbox
    xs = minx + (np.arange(width) + 0.5) * (maxx - minx) / width
    ys = maxy - (np.arange(height) + 0.5) * (maxy - miny) / height
    gx, gy = np.meshgrid(xs, ys)
    points = to_grid(np.column_stack([gx.ravel(), gy.ravel()]))
    gminx, gminy, gmaxx, gmaxy = grid.envelope
    col = np.floor((points[:, 0] - gminx) / (gmaxx - gminx) * grid.width)
    row = np.floor((gmaxy - points[:, 1]) / (gmaxy - gminy) * grid.height)
    inside = (col >= 0) & (col < grid.width) & (row >= 0) & (row < grid.height)
    col = np.clip(np.nan_to_num(col), 0, grid.width - 1).astype(np.int64)
    row = np.clip(np.nan_to_num(row), 0, grid.height - 1).astype(np.int64)
    data = grid.pixels[:, row, col].reshape(len(grid.bands), height, width)
    return data, inside.reshape(height, width)


def _valid(grid: Grid, band: numpy.ndarray[Any, Any]) -> numpy.ndarray[Any, Any]:
    import numpy as np

    valid = np.ones(band.shape, dtype=bool)
    if band.dtype.kind == "f":
        valid &= ~np.isnan(band)
    nodata = grid.bands[0].nodata if grid.bands else None
    if nodata is not None:
        valid &= band != np.asarray(nodata, dtype=band.dtype)
    return valid


def colour_map(band: numpy.ndarray[Any, Any], sym: Symbolizer) -> numpy.ndarray[Any, Any]:
    """RGBA (height, width, 4, float) of one band through the symbolizer's colour map."""
    import numpy as np

    entries = sorted(
        ((paint.number(q, 0.0), paint.colour(c, o if o is not None else 1.0))
         for q, c, o, _ in sym.colormap),
        key=lambda e: e[0],
    )  # fmt: skip
    quantities = np.array([q for q, _ in entries])
    colours = np.array([c for _, c in entries], dtype=float)
    values = band.astype(float)
    out = np.zeros((*band.shape, 4))
    kind = (sym.colormap_type or "ramp").lower()
    if kind == "values":
        for q, c in zip(quantities, colours, strict=True):
            out[values == q] = c
    elif kind == "intervals":
        index = np.searchsorted(quantities, values, side="right")
        chosen = index < len(quantities)
        out[chosen] = colours[index[chosen]]
    else:
        for channel in range(4):
            out[..., channel] = np.interp(values, quantities, colours[:, channel])
    return out


def _plain(data: numpy.ndarray[Any, Any], valid: numpy.ndarray[Any, Any]) -> Any:
    """RGBA of a grid drawn without a colour map."""
    import numpy as np

    bands = data.shape[0]
    out = np.zeros((*data.shape[1:], 4))
    out[..., 3] = 255
    if bands >= 3:
        for channel in range(min(bands, 4)):
            out[..., channel] = np.clip(data[channel], 0, 255)
        return out
    band = data[0].astype(float)
    shown = band[valid]
    low, high = (float(shown.min()), float(shown.max())) if shown.size else (0.0, 1.0)
    grey = (band - low) / (high - low) * 255 if high > low else np.zeros(band.shape)
    for channel in range(3):
        out[..., channel] = np.clip(np.nan_to_num(grey), 0, 255)
    return out
