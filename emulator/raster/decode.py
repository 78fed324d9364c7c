"""Raster files to pixels: GeoTIFF (tifffile, else Pillow), world images (Pillow) and
ArcGrid ASCII (numpy), each as an array of shape (bands, rows, columns).

The sizes were checked when the file was uploaded (``uploads/rasters.py``: the samples a
header declares within the input budget, the data present for them), so decoding allocates
no more than that budget. A file that no longer decodes raises ``Undecodable``.
"""

from __future__ import annotations

import io
import re
import warnings
from typing import Any

Array = Any


class Undecodable(Exception):
    """A raster whose pixels cannot be read; the message says why."""


def geotiff(data: bytes) -> Array:
    """The first image of a TIFF. tifffile reads every sample type, strips and tiles,
    uncompressed, Deflate and PackBits; what it cannot (LZW and JPEG need a codec library
    it does not ship) Pillow reads when its modes hold the samples."""
    import tifffile

    try:
        with tifffile.TiffFile(io.BytesIO(data)) as tif:
            page = tif.pages.first
            array = page.asarray()
            axes = page.axes
    except Exception as exc:  # tifffile raises many kinds (codec missing, corrupt data)
        try:
            return image(data)
        except Undecodable:
            raise Undecodable(f"cannot decode the TIFF ({exc})") from None
    return _planes(array, axes)


def _planes(array: Array, axes: str) -> Array:
    """(bands, rows, columns) from tifffile's array and axes (``YX``, ``YXS``, ``SYX``)."""
    import numpy as np

    if array.ndim == 2:
        return array[None, :, :]
    if axes.endswith("S"):
        array = np.moveaxis(array, -1, 0)
    return array.reshape((-1, array.shape[-2], array.shape[-1]))


def image(data: bytes) -> Array:
    """A PNG, JPEG, GIF, BMP or TIFF image through Pillow: one band per channel (a palette
    image gives its indexes)."""
    import numpy as np
    from PIL import Image

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            with Image.open(io.BytesIO(data)) as opened:
                opened.load()
                img: Image.Image = opened.convert("L") if opened.mode == "1" else opened
                array = np.asarray(img)
    except Exception as exc:  # Pillow raises many kinds for a broken file
        raise Undecodable(f"cannot decode the image ({type(exc).__name__}: {exc})") from None
    if array.ndim == 2:
        return array[None, :, :]
    return np.moveaxis(array, -1, 0)


_HEADER = re.compile(rb"^\s*([A-Za-z_]+)\s+[-+0-9.eE]+\s*$")


def arcgrid(data: bytes, width: int, height: int) -> Array:
    """An ArcGrid ASCII file's cells as 32-bit floats (its header already read: ``width``
    × ``height`` cells)."""
    import numpy as np

    lines = data.split(b"\n", 12)
    skip = 0
    for line in lines[:10]:
        if not _HEADER.match(line.rstrip(b"\r")):
            break
        skip += len(line) + 1
    body = data[skip:].decode("ascii", "replace")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # numpy warns when text is left over: counted below
        cells = np.fromstring(body, dtype=np.float32, sep=" ")[: width * height]
    if cells.size != width * height:
        raise Undecodable(f"the grid holds {cells.size} cells, {width * height} expected")
    return cells.reshape((1, height, width))
