"""``grid_for``: the pixels behind a coverage, from the first provider that has them.

A provider is a function ``(state, coverage) -> Grid | None``; ``GRID_PROVIDERS`` lists
them in the order they are asked (the stock coverages today; uploaded rasters are one more
provider). Whatever reads pixels (GetMap's raster layers, WCS GetCoverage) asks here.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

from . import stock

if TYPE_CHECKING:
    import numpy

    from ..core.state import State


class CoverageRef(Protocol):
    """The coverage a grid is picked for (``catalog.entities.Coverage``)."""

    @property
    def workspace(self) -> str: ...
    @property
    def store(self) -> str: ...
    @property
    def name(self) -> str: ...


class BandRef(Protocol):
    @property
    def name(self) -> str: ...
    @property
    def nodata(self) -> float | None: ...


class Grid(Protocol):
    """A coverage's pixels: ``pixels`` is a read-only array (bands, height, width), row 0 at
    the envelope's maxy; ``envelope`` is (minx, miny, maxx, maxy) of the outer edges in
    ``srs``; ``has_data`` is False when every pixel is no-data (nothing to draw)."""

    @property
    def width(self) -> int: ...
    @property
    def height(self) -> int: ...
    @property
    def envelope(self) -> tuple[float, float, float, float]: ...
    @property
    def srs(self) -> str: ...
    @property
    def bands(self) -> tuple[Any, ...]: ...
    @property
    def pixels(self) -> numpy.ndarray[Any, Any]: ...
    @property
    def has_data(self) -> bool: ...


GridProvider = Callable[["State", CoverageRef], Grid | None]

GRID_PROVIDERS: tuple[GridProvider, ...] = (
    stock.provide_grid,  # the release data directory's coverages (shared, read-only)
)


def grid_for(state: State, coverage: CoverageRef) -> Grid | None:
    """The pixels of ``coverage``; None when no provider has any."""
    for provider in GRID_PROVIDERS:
        found = provider(state, coverage)
        if found is not None:
            return found
    return None
