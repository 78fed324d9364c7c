"""Unpacking an uploaded ZIP in memory, refusing what could escape or explode.

Every entry name must be a plain relative path (no ``..``, no absolute path, no drive
letter); the archive may hold at most ``MAX_ENTRIES`` files and ``max_total`` bytes once
inflated. Declared sizes and compression ratios are checked before anything is inflated (a
bomb is refused without inflating it), and sizes are counted again while inflating (the
sizes an archive declares are not trusted). Folder
entries are dropped; the files keep their relative paths.
"""

from __future__ import annotations

import io
import zlib
from typing import Any

from ...core.errors import Invalid, PayloadTooLarge
from ...core.lazy import LazyModule
from ...wire import text as wtext

zipfile: Any = LazyModule("zipfile")  # imported on first use (start-up cost)

MAX_ENTRIES = 10_000
CHUNK = 64 * 1024

MAX_RATIO = 200
"""the largest compression ratio an entry may declare once past ``RATIO_FLOOR`` bytes"""
RATIO_FLOOR = 1024 * 1024


def _check_declared(infos: list[Any], max_total: int) -> None:
    """Refuse, before inflating anything, an archive whose declared sizes exceed what the
    server accepts or whose entries claim compression ratios only a bomb has. The sizes are
    checked again while inflating: they are not trusted."""
    for info in infos:
        ratio = info.file_size / max(info.compress_size, 1)
        if info.file_size > RATIO_FLOOR and ratio > MAX_RATIO:
            raise PayloadTooLarge(
                f"The archive entry {info.filename} declares a compression ratio of "
                f"{ratio:.0f}:1; uploads are refused past {MAX_RATIO}:1"
            )
    declared = sum(i.file_size for i in infos)
    if declared > max_total:
        raise PayloadTooLarge(
            f"The archive declares {declared} bytes once inflated, more than the {max_total} "
            "the server accepts"
        )


def unzip(data: bytes, max_total: int) -> dict[str, bytes]:
    """The archive's files as ``{relative path: bytes}``, in archive order."""
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except (zipfile.BadZipFile, ValueError, OSError):
        raise Invalid("Error occured unzipping file: the body is not a ZIP archive") from None
    out: dict[str, bytes] = {}
    total = 0
    with archive:
        infos = archive.infolist()
        if len(infos) > MAX_ENTRIES:
            raise PayloadTooLarge(f"The archive holds more than {MAX_ENTRIES} entries")
        _check_declared(infos, max_total)
        for info in infos:
            name = safe_name(info.filename)
            if info.is_dir() or name is None:
                continue
            body = _inflate(archive, info, max_total - total)
            total += len(body)
            out[name] = body
    return out


def safe_name(raw: str) -> str | None:
    """A normalised relative path for an entry name, None for a folder or an empty name,
    ``Invalid`` for a name that points outside the target folder (or holds a character
    XML 1.0 cannot carry)."""
    wtext.check_text(raw, "an archive entry name")
    name = raw.replace("\\", "/")
    if name.startswith("/") or (len(name) > 1 and name[1] == ":"):
        raise Invalid(f"Illegal entry in the archive (absolute path): {raw}")
    parts = [p for p in name.split("/") if p not in ("", ".")]
    if any(p == ".." for p in parts):
        raise Invalid(f"Illegal entry in the archive (outside of the target directory): {raw}")
    if not parts or name.endswith("/"):
        return None
    return "/".join(parts)


def _inflate(archive: zipfile.ZipFile, info: zipfile.ZipInfo, budget: int) -> bytes:
    chunks: list[bytes] = []
    size = 0
    try:
        with archive.open(info) as stream:
            while True:
                chunk = stream.read(CHUNK)
                if not chunk:
                    break
                size += len(chunk)
                if size > budget:
                    raise PayloadTooLarge("The archive inflates beyond the size the server accepts")
                chunks.append(chunk)
    except (
        zipfile.BadZipFile,
        zipfile.LargeZipFile,
        zlib.error,
        NotImplementedError,
        RuntimeError,
        OSError,
        EOFError,
    ) as exc:
        raise Invalid(f"Error occured unzipping file: {info.filename}: {exc}") from None
    return b"".join(chunks)
