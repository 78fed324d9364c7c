"""What the vector readers share: their result and their error."""

from __future__ import annotations

from ...core.record import field, record
from ...features.model import FeatureTable


class Unreadable(Exception):
    """A file that cannot be read as the format says; the message names the problem."""


@record
class TypeRead:
    """One feature type read from a file: its table and its native CRS as the file has it."""

    table: FeatureTable
    native_crs: str | None = None
    """the file's WKT (a ``.prj``, a GeoPackage definition), else the code, else None"""
    files: list[str] = field(default_factory=list)
    """the files (relative to the store folder) this type was read from"""


MAX_FEATURES = 1_000_000
"""no upload may hold more features than this (a bound on the work a body can cause)"""
