"""What the vector readers share: their result and their error."""

from __future__ import annotations

from ...core.record import field, record
from ...features.model import FeatureTable


class Unreadable(Exception):
    """A file that cannot be read as the format says; the message names the problem."""


class OverBudget(Unreadable):
    """A file past one of the emulator's budgets (features, samples), which GeoServer would
    read: refused with 400 in both profiles, never with GeoServer's 500 for a corrupt file."""


@record
class TypeRead:
    """One feature type read from a file: its table and its native CRS as the file has it."""

    table: FeatureTable
    native_crs: str | None = None
    """the file's WKT (a ``.prj``, a GeoPackage definition), else the code, else None"""
    files: list[str] = field(default_factory=list)
    """the files (relative to the store folder) this type was read from"""


MAX_FEATURES = 100_000
"""no upload may hold more features than this (checked on the file's header, or as it is
read, before the features are kept): reading that many takes a few seconds off the event
loop and about a hundred MiB (1,000,000 points took more than 700 MiB and never finished)"""
DEFAULT_INPUT_MEMORY = 1024 * 1024 * 1024
"""the most bytes of samples one raster upload may declare when WCS ``maxInputMemory`` is 0
(GeoServer's default: no limit): 1 GiB, 16,384 × 16,384 pixels of four 32-bit bands"""
