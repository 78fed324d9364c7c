"""Unpacking an uploaded ZIP in memory, refusing what could escape or explode: the shared
archive guard (``wire/geoserver/archive.py``, policy ``uploads``) with the caller's cap on
the inflated total.

Every entry name must be a plain relative path (no ``..``, no absolute path, no drive
letter); the archive may hold at most ``MAX_ENTRIES`` entries and ``max_total`` bytes once
inflated. Declared sizes and compression ratios are checked before anything is inflated (a
bomb is refused without inflating it, 413), and sizes are counted again while inflating.
Folder entries are dropped; the files keep their relative paths.
"""

from __future__ import annotations

from ...wire.geoserver import archive as guard

POLICY = guard.POLICIES["uploads"]
MAX_ENTRIES = guard.LIMITS.entries


def unzip(data: bytes, max_total: int) -> dict[str, bytes]:
    """The archive's files as ``{relative path: bytes}``, in archive order."""
    limits = guard.Limits(total_bytes=max_total)
    with guard.Archive(data, POLICY, limits) as archive:
        return archive.read_all()


def safe_name(raw: str) -> str | None:
    """A normalised relative path for an entry name, None for a folder or an empty name,
    ``Invalid`` for a name that points outside the target folder (or holds a character
    XML 1.0 cannot carry)."""
    return guard.safe_path(raw, POLICY) or None
