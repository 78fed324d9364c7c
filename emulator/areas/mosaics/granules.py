"""What a granule file says about itself: size, bands and where it lies, read from headers.

Pillow opens the image lazily: only the header (for TIFF, the first IFD with its tags) is
read, never the pixels. Georeferencing comes, as GeoTools reads it, from:

- GeoTIFF tags: ``ModelTiepoint`` with ``ModelPixelScale``, or ``ModelTransformation``; the
  CRS from the ``GeoKeyDirectory`` (``ProjectedCSTypeGeoKey`` or ``GeographicTypeGeoKey``);
  ``RasterPixelIsPoint`` shifts the grid by half a pixel;
- otherwise a world file beside the image (``.tfw``, ``.pgw``, ``.wld``…), with the CRS from
  a ``.prj`` side file when it names an EPSG authority.

Anything that cannot be read this way raises ``Unreadable`` with the reason.
"""

from __future__ import annotations

import importlib
import io
import re
import warnings
from collections.abc import Callable
from typing import IO, TYPE_CHECKING, Any

from ...core.record import record
from ...crs.envelope import Envelope

if TYPE_CHECKING:
    from PIL import Image

TIEPOINT, PIXEL_SCALE, TRANSFORMATION, GEOKEYS = 33922, 33550, 34264, 34735
MODEL_TYPE, RASTER_TYPE, GEOGRAPHIC_TYPE, PROJECTED_TYPE = 1024, 1025, 2048, 3072
PIXEL_IS_POINT = 2
DATE_TIME = 306
USER_DEFINED = 32767

PLUGINS: dict[str, tuple[str, str]] = {
    "tif": ("TiffImagePlugin", "TiffImageFile"),
    "tiff": ("TiffImagePlugin", "TiffImageFile"),
    "png": ("PngImagePlugin", "PngImageFile"),
    "jpg": ("JpegImagePlugin", "JpegImageFile"),
    "jpeg": ("JpegImagePlugin", "JpegImageFile"),
    "gif": ("GifImagePlugin", "GifImageFile"),
    "bmp": ("BmpImagePlugin", "BmpImageFile"),
}
"""granule file extensions, and the Pillow module and class that read each one's header
(Pillow is slow to import: a plugin is imported when a file of its kind is first read)"""


def _plugin(ext: str) -> Any | None:
    """The Pillow class reading files with extension ``ext``, or None."""
    found = PLUGINS.get(ext)
    if found is None:
        return None
    module, name = found
    return getattr(importlib.import_module(f"PIL.{module}"), name)


WORLD_FILES = {
    "tif": ("tfw", "tifw", "tiffw"),
    "tiff": ("tfw", "tiffw", "tifw"),
    "png": ("pgw", "pngw"),
    "jpg": ("jgw", "jpgw", "jpegw"),
    "jpeg": ("jgw", "jpegw", "jpgw"),
    "gif": ("gfw", "gifw"),
    "bmp": ("bpw", "bmpw"),
}

BAND_NAMES = {
    "1": ["GRAY_INDEX"],
    "L": ["GRAY_INDEX"],
    "P": ["PALETTE_INDEX"],
    "I": ["GRAY_INDEX"],
    "F": ["GRAY_INDEX"],
    "LA": ["GRAY_INDEX", "ALPHA_BAND"],
    "RGB": ["RED_BAND", "GREEN_BAND", "BLUE_BAND"],
    "RGBA": ["RED_BAND", "GREEN_BAND", "BLUE_BAND", "ALPHA_BAND"],
    "CMYK": ["CYAN_BAND", "MAGENTA_BAND", "YELLOW_BAND", "BLACK_BAND"],
}


class Unreadable(Exception):
    """A file the mosaic cannot take as a granule; the message says why."""


@record(frozen=True)
class RasterInfo:
    """A granule's header: grid size, footprint, CRS (``EPSG:n`` or None) and bands."""

    width: int
    height: int
    envelope: Envelope
    crs: str | None
    bands: tuple[str, ...]
    eight_bit: bool
    date_time: str | None = None
    """the TIFF ``DateTime`` tag (306), ``YYYY:MM:DD HH:MM:SS``"""


Sidecar = Callable[[str], bytes | None]
"""reads a side file by name (same folder as the granule), None when there is none"""


def is_candidate(name: str) -> bool:
    """Whether a file name is one the mosaic would try to read as a granule."""
    base = name.rsplit("/", 1)[-1].lower()
    if base.startswith("sample_image") or base.startswith("."):
        return False
    return extension(base) in PLUGINS


def extension(name: str) -> str:
    base = name.rsplit("/", 1)[-1]
    return base.rsplit(".", 1)[-1].lower() if "." in base else ""


def read(name: str, stream: IO[bytes], sidecar: Sidecar) -> RasterInfo:
    """Read a granule's header from ``stream``; ``name`` is its file name (for side files)."""
    ext = extension(name)
    plugin = _plugin(ext)
    if plugin is None:
        raise Unreadable("not a raster format the mosaic reads")
    image = _open(plugin, stream)
    width, height = image.size
    if width <= 0 or height <= 0:
        raise Unreadable("the image has no pixels")
    georef = _geotiff(image, width, height) if ext in ("tif", "tiff") else None
    if georef is None:
        georef = _world_file(name, ext, width, height, sidecar)
    envelope, crs = georef
    bands = tuple(BAND_NAMES.get(image.mode, ["GRAY_INDEX"]))
    stamp = getattr(image, "tag_v2", {}).get(DATE_TIME)
    eight_bit = image.mode in ("L", "P", "RGB", "RGBA", "LA")
    return RasterInfo(
        width, height, envelope, crs, bands, eight_bit, stamp if isinstance(stamp, str) else None
    )


def read_bytes(name: str, data: bytes, sidecar: Sidecar) -> RasterInfo:
    return read(name, io.BytesIO(data), sidecar)


def _open(plugin: Any, stream: IO[bytes]) -> Image.Image:
    """Open only the header. The plugin class is used directly: ``Image.open`` would also
    apply the decompression-bomb check, which is about decoding pixels, never done here."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            image: Image.Image = plugin(stream)
    except Exception as exc:  # Pillow raises many kinds for a broken header
        raise Unreadable(f"cannot read the image header ({type(exc).__name__}: {exc})") from None
    return image


def _geotiff(image: Image.Image, width: int, height: int) -> tuple[Envelope, str | None] | None:
    tags = getattr(image, "tag_v2", {})
    keys = _geokeys(tags.get(GEOKEYS))
    matrix = tags.get(TRANSFORMATION)
    tie, scale = tags.get(TIEPOINT), tags.get(PIXEL_SCALE)
    if matrix is not None and len(matrix) >= 8:
        a, b, _, d, e, f, _, h = (float(v) for v in matrix[:8])
        corners = [
            (a * i + b * j + d, e * i + f * j + h)
            for i, j in ((0, 0), (width, 0), (0, height), (width, height))
        ]
        xs, ys = [c[0] for c in corners], [c[1] for c in corners]
        env = Envelope(min(xs), min(ys), max(xs), max(ys))
    elif tie is not None and scale is not None and len(tie) >= 6 and len(scale) >= 2:
        i, j, _, x, y, _ = (float(v) for v in tie[:6])
        sx, sy = float(scale[0]), float(scale[1])
        if sx <= 0 or sy <= 0:
            raise Unreadable("the GeoTIFF pixel scale is not positive")
        if keys.get(RASTER_TYPE) == PIXEL_IS_POINT:
            i, j = i + 0.5, j + 0.5
        minx, maxy = x - i * sx, y + j * sy
        env = Envelope(minx, maxy - height * sy, minx + width * sx, maxy)
    else:
        return None
    return env, _crs(keys)


def _geokeys(directory: Any) -> dict[int, int]:
    """Key id → short value for the keys stored inline in the GeoKey directory."""
    if not directory or len(directory) < 4:
        return {}
    values = [int(v) for v in directory]
    count = values[3]
    out: dict[int, int] = {}
    for k in range(count):
        entry = values[4 + 4 * k : 8 + 4 * k]
        if len(entry) < 4:
            break
        key, location, _, value = entry
        if location == 0:
            out[key] = value
    return out


def _crs(keys: dict[int, int]) -> str | None:
    model = keys.get(MODEL_TYPE)
    code = keys.get(PROJECTED_TYPE) if model == 1 else keys.get(GEOGRAPHIC_TYPE)
    if code is None:
        code = keys.get(PROJECTED_TYPE) or keys.get(GEOGRAPHIC_TYPE)
    if not code or code == USER_DEFINED:
        return None
    return f"EPSG:{code}"


def _world_file(
    name: str, ext: str, width: int, height: int, sidecar: Sidecar
) -> tuple[Envelope, str | None]:
    stem = name.rsplit(".", 1)[0]
    text = None
    for candidate in (*WORLD_FILES.get(ext, ()), "wld"):
        data = sidecar(f"{stem}.{candidate}")
        if data is not None:
            text = data.decode("utf-8", "replace")
            break
    if text is None:
        raise Unreadable("it has no georeferencing (no GeoTIFF tags and no world file)")
    try:
        a, d, b, e, c, f = (float(v) for v in text.split()[:6])
    except ValueError:
        raise Unreadable("its world file does not hold six numbers") from None
    if b or d:
        raise Unreadable("its world file is rotated; the mosaic takes only scale and translate")
    if a <= 0 or e >= 0:
        raise Unreadable("its world file has a non-positive x or a non-negative y pixel size")
    minx, maxy = c - a / 2, f - e / 2
    env = Envelope(minx, maxy + height * e, minx + width * a, maxy)
    prj = sidecar(f"{stem}.prj")
    return env, _prj_code(prj)


def _prj_code(prj: bytes | None) -> str | None:
    """The EPSG code a WKT ``.prj`` names last (its top-level AUTHORITY), if any."""
    if prj is None:
        return None
    found = re.findall(
        r'AUTHORITY\s*\[\s*"EPSG"\s*,\s*"?(\d+)"?\s*\]', prj.decode("utf-8", "replace"), re.I
    )
    return f"EPSG:{found[-1]}" if found else None
