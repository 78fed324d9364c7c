"""The pixels behind a coverage: what the OGC services read of the rasters other areas hold.

The pixel half of ``sources.py``. A coverage's ``Raster`` is its native grid (CRS, envelope,
size, bands, sample type) and its ``Piece`` s, each one file's pixels over its envelope,
decoded only when read:

- a single file uploaded to a GeoTIFF, WorldImage or ArcGrid store (its header as the
  uploads area read it, ``state.features.grids``; the file from the data directory, at the
  store's URL);
- an image mosaic's granules that have a file (``state.mosaics``), with their index
  attributes, for the time and elevation selection;
- otherwise the stock sample data's grid (``stockdata.load_grid``).

A coverage with none of these has no pixels (None). Files outside the data directory are
read where it maps them (as ``mosaics.sources.Files`` does without host reading).
"""

from __future__ import annotations

import datetime
import functools
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, NamedTuple

from ...crs.envelope import Envelope
from ...raster import decode
from ...raster.model import Band
from ..catalog.entities import Coverage

if TYPE_CHECKING:
    from ...core.state import State

Array = Any

DTYPES = {
    "UNSIGNED_1BIT": "uint8", "UNSIGNED_2BITS": "uint8", "UNSIGNED_4BITS": "uint8",
    "UNSIGNED_8BITS": "uint8", "SIGNED_8BITS": "int8", "UNSIGNED_16BITS": "uint16",
    "SIGNED_16BITS": "int16", "UNSIGNED_32BITS": "uint32", "SIGNED_32BITS": "int32",
    "REAL_32BITS": "float32", "REAL_64BITS": "float64",
}  # fmt: skip
"""numpy's type for GeoTools' sample dimension types"""
MAX_FILE = 1 << 40
"""no size limit on reading a file the uploads area accepted (its budget was checked)"""


class Piece(NamedTuple):
    """One file's pixels: its footprint, how to decode it, its index attributes."""

    envelope: Envelope
    read: Callable[[], Array]
    values: dict[str, Any]


class Raster(NamedTuple):
    """A coverage's native grid and the pieces holding its pixels."""

    srs: str | None
    envelope: Envelope
    width: int
    height: int
    bands: tuple[Band, ...]
    dtype: str
    pieces: list[Piece]
    mosaic: bool = False
    time_attribute: str | None = None
    elevation_attribute: str | None = None

    @property
    def resolution(self) -> tuple[float, float]:
        env = self.envelope
        return (env.maxx - env.minx) / self.width, (env.maxy - env.miny) / self.height


def raster(state: State, cov: Coverage) -> Raster | None:
    """The pixels of ``cov``, None when the emulator holds none."""
    native = cov.native_coverage_name or cov.native_name or cov.name
    return (
        _uploaded(state, cov, native)
        or _mosaic(state, cov, native)
        or _stock(cov.workspace, native, cov)
    )


def _store_url(state: State, cov: Coverage) -> tuple[str | None, str | None]:
    store = state.catalog.coverage_store(cov.workspace, cov.store)
    if store is None:
        return None, None
    return store.url, store.type


def _reader(state: State, url: str) -> Callable[[], bytes]:
    from ..mosaics.sources import FileRef, Files, locate

    ref = locate(url)

    def read() -> bytes:
        if not isinstance(ref, FileRef):
            raise decode.Undecodable(f"{url} is not a file the emulator holds")
        files = Files(state.datadir, datetime.datetime(1970, 1, 1, tzinfo=datetime.UTC))
        data = files.read(ref, MAX_FILE)
        if data is None:
            raise decode.Undecodable(f"{ref.absolute} is not in the data directory")
        return data

    return read


def _uploaded(state: State, cov: Coverage, native: str) -> Raster | None:
    features = getattr(state, "features", None)
    grids = getattr(features, "grids", None) or {}
    found = grids.get((cov.workspace, cov.store, native))
    url, kind = _store_url(state, cov)
    if found is None or not url:
        return None
    read = _reader(state, url)
    width, height = int(found.width), int(found.height)
    kind = (kind or "").lower()

    def pixels() -> Array:
        data = read()
        if kind == "arcgrid":
            return decode.arcgrid(data, width, height)
        if kind == "geotiff" or data[:4] in (b"II*\x00", b"MM\x00*"):
            return decode.geotiff(data)
        return decode.image(data)

    bands = tuple(Band(b.name, b.nodata) for b in found.bands)
    dtype = DTYPES.get(found.bands[0].data_type, "float32") if found.bands else "uint8"
    env = found.envelope
    return Raster(found.srs or cov.srs, env, width, height, bands, dtype, [Piece(env, pixels, {})])


def _mosaic(state: State, cov: Coverage, native: str) -> Raster | None:
    mosaics = getattr(state, "mosaics", None)
    url, _ = _store_url(state, cov)
    if mosaics is None or not url:
        return None
    from ..mosaics.sources import parse_key, store_root

    mosaic = mosaics.get(store_root(url))
    if mosaic is None:
        return None
    granules = [g for g in mosaic.granules_of(native) if g.file is not None]
    if not granules:
        return None
    pieces = []
    for granule in granules:
        ref = parse_key(granule.file or "")
        read = _reader(state, ref.url)
        ext = ref.name.rsplit(".", 1)[-1].lower()
        decoder = decode.geotiff if ext in ("tif", "tiff") else decode.image
        pieces.append(Piece(granule.envelope, _lazy(read, decoder), dict(granule.values)))
    env = mosaic.envelope(native) or granules[0].envelope
    first = pieces[0].read()  # the native resolution and type are the first granule's
    sx = (granules[0].envelope.maxx - granules[0].envelope.minx) / first.shape[2]
    sy = (granules[0].envelope.maxy - granules[0].envelope.miny) / first.shape[1]
    width = max(1, round((env.maxx - env.minx) / sx))
    height = max(1, round((env.maxy - env.miny) / sy))
    time_attrs = mosaic.indexer.domain("TimeAttribute")
    elev_attrs = mosaic.indexer.domain("ElevationAttribute")
    names = [d.name for d in cov.dimensions] or list(mosaic.bands)
    nodata = [d.null_values[0] if d.null_values else None for d in cov.dimensions]
    bands = tuple(Band(n, nodata[i] if i < len(nodata) else None) for i, n in enumerate(names))[
        : first.shape[0]
    ]
    return Raster(
        mosaic.crs or cov.srs,
        env,
        width,
        height,
        bands,
        first.dtype.name,
        pieces,
        True,
        time_attrs[0] if time_attrs else None,
        elev_attrs[0] if elev_attrs else None,
    )


def _lazy(read: Callable[[], bytes], decoder: Callable[[bytes], Array]) -> Callable[[], Array]:
    """The decoded pixels, decoded once (a request reads a granule at most once more)."""
    return functools.cache(lambda: decoder(read()))


def _stock(workspace: str, native: str, cov: Coverage) -> Raster | None:
    from ... import stockdata

    grid = stockdata.load_grid(workspace, native)
    if grid is None:
        return None
    env = Envelope(*grid.envelope)
    bands = tuple(Band(b.name, b.nodata) for b in grid.bands)
    import numpy as np

    dtype = np.dtype(grid.dtype).name
    return Raster(
        grid.srs, env, grid.width, grid.height, bands, dtype, [Piece(env, lambda: grid.pixels, {})]
    )
