"""Grids to files: GeoTIFF (tifffile, with GeoServer's georeferencing tags), PNG, JPEG and
GIF images (Pillow), ArcGrid ASCII text.

A GeoTIFF carries what GeoTools' ``GeoTiffWriter`` writes: ``ModelPixelScale`` and
``ModelTiepoint`` (the upper-left corner, pixels as areas), a GeoKey directory naming the
CRS by its EPSG code (``GeographicTypeGeoKey`` or ``ProjectedCSTypeGeoKey``), and the
no-data value as GDAL's ``GDAL_NODATA`` ASCII tag. Samples are pixel-interleaved,
uncompressed, in strips; three 8-bit bands are RGB.
"""

from __future__ import annotations

import io
from typing import Any

from ..crs.codes import is_projected
from ..crs.envelope import epsg_code
from .model import Grid

PIXEL_SCALE, TIEPOINT, GEOKEYS, GDAL_NODATA = 33550, 33922, 34735, 42113
MODEL_TYPE, RASTER_TYPE, GEOGRAPHIC_TYPE, ANGULAR_UNITS, PROJECTED_TYPE = (
    1024, 1025, 2048, 2054, 3072,
)  # fmt: skip
DEGREE = 9102


class Unencodable(Exception):
    """Pixels the format cannot hold; the message says why."""


def java_double(value: float) -> str:
    """A number as Java's ``Double.toString`` writes the usual ones (``-9999.0``, ``0.5``)."""
    if value == int(value) and abs(value) < 1e7:
        return f"{value:.1f}"
    return repr(float(value))


def geokeys(srs: str | None) -> list[int]:
    """The GeoKey directory for ``srs`` (``EPSG:<code>``): model type, pixels as areas, the
    CRS code (a CRS without one is written without it)."""
    keys: list[tuple[int, int]] = [(RASTER_TYPE, 1)]
    code = epsg_code(srs)
    projected = is_projected(srs)
    keys.append((MODEL_TYPE, 1 if projected else 2))
    if code is not None and projected:
        keys.append((PROJECTED_TYPE, code))
    elif code is not None:
        keys += [(GEOGRAPHIC_TYPE, code), (ANGULAR_UNITS, DEGREE)]
    keys.sort()
    out = [1, 1, 0, len(keys)]
    for key, value in keys:
        out += [key, 0, 1, value]
    return out


def geotiff(grid: Grid) -> bytes:
    import numpy as np
    import tifffile

    env = grid.envelope
    sx, sy = grid.resolution
    keys = geokeys(grid.srs)
    tags: list[tuple[int, str, int, Any, bool]] = [
        (PIXEL_SCALE, "d", 3, (sx, sy, 0.0), True),
        (TIEPOINT, "d", 6, (0.0, 0.0, 0.0, env.minx, env.maxy, 0.0), True),
        (GEOKEYS, "H", len(keys), tuple(keys), True),
    ]
    nodata = grid.nodata
    if nodata is not None:
        tags.append((GDAL_NODATA, "s", 0, java_double(nodata), True))
    bands = grid.pixels.shape[0]
    data = np.moveaxis(grid.pixels, 0, -1) if bands > 1 else grid.pixels[0]
    rgb = bands in (3, 4) and grid.pixels.dtype == np.uint8
    out = io.BytesIO()
    tifffile.imwrite(
        out,
        np.ascontiguousarray(data),
        photometric="rgb" if rgb else "minisblack",
        planarconfig="contig" if bands > 1 else None,
        extrasamples=("unassalpha",) if rgb and bands == 4 else None,
        extratags=tags,
        metadata=None,
        software=False,
        resolution=None,
    )
    return out.getvalue()


_MODES = {1: "L", 2: "LA", 3: "RGB", 4: "RGBA"}
PIL_FORMATS = {"png": "PNG", "jpeg": "JPEG", "gif": "GIF"}


def image(grid: Grid, kind: str) -> bytes:
    """``kind`` (``png``, ``jpeg``, ``gif``) of 8-bit pixels (one to four bands; PNG also
    takes one 16-bit band), as GeoServer's world image writer takes them."""
    import numpy as np
    from PIL import Image

    pixels = grid.pixels
    bands = pixels.shape[0]
    if pixels.dtype == np.uint16 and bands == 1 and kind == "png":
        img = Image.fromarray(pixels[0].astype("<u2"), mode="I;16")
    elif pixels.dtype == np.uint8 and bands in _MODES:
        mode = _MODES[bands]
        if kind == "jpeg" and mode in ("LA", "RGBA"):
            raise Unencodable(f"JPEG cannot hold {bands} bands")
        data = pixels[0] if bands == 1 else np.moveaxis(pixels, 0, -1)
        img = Image.fromarray(np.ascontiguousarray(data), mode=mode)
    else:
        raise Unencodable(
            f"{PIL_FORMATS[kind]} cannot hold {bands} band(s) of {pixels.dtype.name} samples"
        )
    out = io.BytesIO()
    img.save(out, format=PIL_FORMATS[kind])
    return out.getvalue()


def arcgrid(grid: Grid) -> bytes:
    """ArcGrid ASCII: the header (``CELLSIZE``, or ``DX``/``DY`` for pixels that are not
    square), then the rows from the top, first band only."""
    import numpy as np

    env = grid.envelope
    sx, sy = grid.resolution
    head = [f"NCOLS {grid.width}", f"NROWS {grid.height}"]
    head += [f"XLLCORNER {java_double(env.minx)}", f"YLLCORNER {java_double(env.miny)}"]
    if abs(sx - sy) <= 1e-10 * max(abs(sx), abs(sy)):
        head.append(f"CELLSIZE {java_double(sx)}")
    else:
        head += [f"DX {java_double(sx)}", f"DY {java_double(sy)}"]
    nodata = grid.bands[0].nodata if grid.bands else None
    if nodata is not None:
        head.append(f"NODATA_VALUE {java_double(nodata)}")
    cells = grid.pixels[0]
    integral = cells.dtype.kind in "iu"
    fmt = "%d" if integral else "%.9g"
    buf = io.StringIO()
    np.savetxt(buf, cells, fmt=fmt, delimiter=" ")
    return ("\n".join(head) + "\n" + buf.getvalue()).encode("ascii")
