"""ZIP archives of mapping uploads: reading them safely, finding the main file, writing one.

Reading checks every entry before anything is stored: a name that is absolute or climbs
out with ``..`` (zip-slip), a corrupt or encrypted archive, and archives that expand past
the limits (entry count, bytes per entry, bytes in total; counted while inflating, not
taken from the headers) are refused with ``Invalid`` (400).
"""

from __future__ import annotations

import io
import zlib
from collections.abc import Mapping
from typing import Any

from ...core.errors import Invalid
from ...core.lazy import LazyModule
from ...wire import text as wtext

zipfile: Any = LazyModule("zipfile")  # imported on first use (start-up cost)

MAX_ENTRIES = 10_000
MAX_ENTRY_BYTES = 64 * 1024 * 1024
MAX_TOTAL_BYTES = 256 * 1024 * 1024
MAIN_EXTENSION = ".appschema"
_CHUNK = 64 * 1024
_FIXED_TIME = (1980, 1, 1, 0, 0, 0)


def safe_name(name: str) -> str:
    """An entry name as a relative POSIX path, or ``Invalid`` when it would escape (or holds
    a character XML 1.0 cannot carry)."""
    wtext.check_text(name, "an archive entry name")
    clean = name.replace("\\", "/")
    parts = [p for p in clean.split("/") if p not in ("", ".")]
    absolute = clean.startswith("/") or (len(clean) > 1 and clean[1] == ":")
    if absolute or ".." in parts:
        raise Invalid(f"Archive entry {name} escapes the store directory")
    return "/".join(parts)


def read_zip(
    body: bytes,
    *,
    max_entries: int = MAX_ENTRIES,
    max_entry_bytes: int = MAX_ENTRY_BYTES,
    max_total_bytes: int = MAX_TOTAL_BYTES,
) -> dict[str, bytes]:
    """The files of a ZIP archive by safe relative path (directories left out)."""
    try:
        archive = zipfile.ZipFile(io.BytesIO(body))
    except (zipfile.BadZipFile, zipfile.LargeZipFile, ValueError, EOFError, OSError) as exc:
        raise Invalid(f"Error occured unzipping file: {_detail(exc)}") from None
    with archive:
        infos = archive.infolist()
        if len(infos) > max_entries:
            raise Invalid(f"Archive has more than {max_entries} entries")
        paths = [(info, safe_name(info.filename)) for info in infos]
        files: dict[str, bytes] = {}
        total = 0
        for info, path in paths:
            if info.is_dir() or not path:
                continue
            data = _inflate(archive, info, max_entry_bytes, max_total_bytes - total)
            total += len(data)
            files[path] = data
    return files


def _inflate(archive: zipfile.ZipFile, info: zipfile.ZipInfo, per_entry: int, budget: int) -> bytes:
    limit = min(per_entry, budget)
    chunks: list[bytes] = []
    size = 0
    try:
        with archive.open(info) as stream:
            while chunk := stream.read(_CHUNK):
                size += len(chunk)
                if size > limit:
                    which = "entry" if limit == per_entry else "archive"
                    raise Invalid(f"Archive {which} {info.filename} expands past {limit} bytes")
                chunks.append(chunk)
    except Invalid:
        raise
    except (
        zipfile.BadZipFile,
        zlib.error,
        NotImplementedError,
        RuntimeError,
        EOFError,
        ValueError,
        OSError,
    ) as exc:
        raise Invalid(f"Error occured unzipping file: {info.filename}: {_detail(exc)}") from None
    return b"".join(chunks)


def _detail(exc: BaseException) -> str:
    return str(exc) or type(exc).__name__


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
