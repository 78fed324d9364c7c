"""A grid of pixels and the grid a request asks for.

A ``Grid`` holds its pixels as a numpy array of shape (bands, rows, columns), row 0 at the
top (the envelope's ``maxy``); the envelope is the outer edges of the pixels (GeoServer's
``PixelInCell.CELL_CORNER`` extent). A ``Target`` is the grid of an answer: its size and
envelope in the output CRS.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NamedTuple

from ..core.record import record
from ..crs.envelope import Envelope

if TYPE_CHECKING:
    import numpy

INTEGER_RANGES = {
    "uint8": (0, 255),
    "int8": (-128, 127),
    "uint16": (0, 65535),
    "int16": (-32768, 32767),
    "uint32": (0, 4294967295),
    "int32": (-2147483648, 2147483647),
}


@record(frozen=True)
class Band:
    """One band: its name (GeoServer's sample dimension name) and no-data value."""

    name: str
    nodata: float | None = None


class Grid(NamedTuple):
    """Pixels (bands, rows, columns) over ``envelope`` (outer edges) in ``srs``."""

    pixels: numpy.ndarray[Any, Any]
    envelope: Envelope
    srs: str | None
    bands: tuple[Band, ...]

    @property
    def width(self) -> int:
        return int(self.pixels.shape[2])

    @property
    def height(self) -> int:
        return int(self.pixels.shape[1])

    @property
    def resolution(self) -> tuple[float, float]:
        """(pixel width, pixel height), both positive."""
        env = self.envelope
        return (env.maxx - env.minx) / self.width, (env.maxy - env.miny) / self.height

    @property
    def nodata(self) -> float | None:
        """The no-data value of the first band that declares one."""
        return next((b.nodata for b in self.bands if b.nodata is not None), None)


class Target(NamedTuple):
    """The grid of an answer: ``width`` × ``height`` pixels over ``envelope`` in ``srs``."""

    width: int
    height: int
    envelope: Envelope
    srs: str | None

    @property
    def resolution(self) -> tuple[float, float]:
        env = self.envelope
        return (env.maxx - env.minx) / self.width, (env.maxy - env.miny) / self.height


def bytes_per_sample(dtype: str) -> int:
    """The size of one sample of a numpy type name (``uint8`` → 1, ``float64`` → 8)."""
    import numpy

    return int(numpy.dtype(dtype).itemsize)


def fill_value(dtype: str, nodata: float | None) -> float:
    """The value of pixels no source covers: the no-data value when it fits the type,
    else 0 (GeoServer's background)."""
    if nodata is None:
        return 0.0
    low_high = INTEGER_RANGES.get(dtype)
    if low_high is not None and not (low_high[0] <= nodata <= low_high[1]):
        return 0.0
    return nodata
