"""The stock sample data: the features and pixels behind the ``stock`` scenario's layers.

GeoServer's release data directory ships its sample layers' files (Natural Earth, the US
states, Spearfish, Tasmania, New York TIGER, the NURC coverages). These are rebuilt from
public-domain packages of the registries (``docs/stock-data.md`` lists, per layer, the
source, its licence and every difference from GeoServer's files) by
``docs/tools/stockdata.py``, one compact file per layer in this folder (``codec.py`` reads
them).

Nothing is read or decoded when this package is imported: ``load`` and ``load_grid``
decode one layer's file on its first call and keep the result for the process. What they
return is immutable and shared by every emulator in the process (``model.py``); a caller
that needs to change it copies it.

    table = load("topp", "states")        # StockTable: schema, fids, shapely geometries
    grid = load_grid("nurc", "Arc_Sample")  # StockGrid: the catalog's grid and its pixels
"""

from __future__ import annotations

import functools
from importlib import resources
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .model import StockGrid, StockTable

__all__ = ["grids", "layers", "load", "load_grid", "read_bytes"]

TABLE_SUFFIX = ".gst"
GRID_SUFFIX = ".gsg"


def _files(suffix: str) -> tuple[tuple[str, str], ...]:
    names = [p.name for p in resources.files(__name__).iterdir() if p.name.endswith(suffix)]
    return tuple(tuple(n[: -len(suffix)].split(".", 1)) for n in sorted(names))  # type: ignore[misc]


@functools.cache
def layers() -> tuple[tuple[str, str], ...]:
    """(workspace, feature type name) of every stock feature type held, sorted."""
    return _files(TABLE_SUFFIX)


@functools.cache
def grids() -> tuple[tuple[str, str], ...]:
    """(workspace, coverage name) of every stock coverage held, sorted."""
    return _files(GRID_SUFFIX)


def read_bytes(workspace: str, name: str, suffix: str) -> bytes | None:
    """The raw file of one layer (what the size budget counts), None when there is none."""
    path = resources.files(__name__).joinpath(f"{workspace}.{name}{suffix}")
    return path.read_bytes() if path.is_file() else None


@functools.cache
def load(workspace: str, layer: str) -> StockTable | None:
    """The stock feature type ``workspace:layer`` (its catalog name), decoded once per
    process; None when the stock data has no such feature type."""
    if (workspace, layer) not in layers():
        return None
    data = read_bytes(workspace, layer, TABLE_SUFFIX)
    if data is None:
        return None
    from .codec import decode_table

    return decode_table(data)


@functools.cache
def load_grid(workspace: str, coverage: str) -> StockGrid | None:
    """The stock coverage ``workspace:coverage`` (its native name), decoded once per
    process; None when the stock data has no such coverage."""
    if (workspace, coverage) not in grids():
        return None
    data = read_bytes(workspace, coverage, GRID_SUFFIX)
    if data is None:
        return None
    from .codec import decode_grid

    return decode_grid(data)
