"""ZIP archives of mapping uploads: reading them safely, finding the main file, writing one.

Reading is the shared archive guard's (``wire/geoserver/archive.py``, policy
``appschema``): every entry is checked before anything is stored; a name that is absolute
or climbs out with ``..`` (zip-slip), a corrupt or encrypted archive, and archives that
expand past the limits (entry count, bytes per entry, bytes in total; counted while
inflating, not taken from the headers) are refused with ``Invalid`` (400).
"""

from __future__ import annotations

import io
from collections.abc import Mapping
from typing import Any

from ...core.lazy import LazyModule
from ...wire.geoserver import archive as guard

zipfile: Any = LazyModule("zipfile")  # imported on first use (start-up cost)

POLICY = guard.POLICIES["appschema"]
MAX_ENTRIES = guard.LIMITS.entries
MAX_ENTRY_BYTES = guard.LIMITS.entry_bytes
MAX_TOTAL_BYTES = guard.LIMITS.total_bytes
MAIN_EXTENSION = ".appschema"
_FIXED_TIME = (1980, 1, 1, 0, 0, 0)


def safe_name(name: str) -> str:
    """An entry name as a relative POSIX path, or ``Invalid`` when it would escape (or holds
    a character XML 1.0 cannot carry)."""
    return guard.safe_path(name, POLICY)


def read_zip(
    body: bytes,
    *,
    max_entries: int = MAX_ENTRIES,
    max_entry_bytes: int = MAX_ENTRY_BYTES,
    max_total_bytes: int = MAX_TOTAL_BYTES,
) -> dict[str, bytes]:
    """The files of a ZIP archive by safe relative path (directories left out)."""
    limits = guard.Limits(
        entries=max_entries, entry_bytes=max_entry_bytes, total_bytes=max_total_bytes
    )
    with guard.Archive(body, POLICY, limits) as archive:
        return archive.read_all()


def find_main(paths: list[str]) -> str | None:
    """The main mapping file: the first path ending ``.appschema`` (any case), shallowest
    first, then by name."""
    found = [p for p in paths if p.lower().endswith(MAIN_EXTENSION)]
    return min(found, key=lambda p: (p.count("/"), p)) if found else None


def write_zip(files: Mapping[str, bytes]) -> bytes:
    """A ZIP of ``files`` (name → bytes) in name order, with fixed timestamps."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for name in sorted(files):
            info = zipfile.ZipInfo(name, date_time=_FIXED_TIME)
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, files[name])
    return out.getvalue()
