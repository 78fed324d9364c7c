"""Reading an uploaded ZIP archive safely: one set of limits, and each caller's refusals
(status and words) in one table, ``POLICIES``.

Every entry name is checked before anything is read: absolute names, drive letters and
``..`` (zip-slip) are refused, as are names XML 1.0 cannot carry. The archive may hold at
most ``Limits.entries`` entries. Where a policy trusts nothing it is told, the sizes the
archive declares are checked before inflating (a bomb is refused without being inflated):
the total, and the compression ratio of each large entry. Sizes are counted again while
inflating, whatever was declared. A corrupt or encrypted archive is refused with 400.
"""

from __future__ import annotations

import io
import zlib
from collections.abc import Callable, Iterator
from typing import Any

from ...core.errors import EmulatorError, Invalid, PayloadTooLarge
from ...core.lazy import LazyModule
from ...core.record import record
from .. import text as wtext

zipfile: Any = LazyModule("zipfile")  # imported on first use (start-up cost)

_CHUNK = 64 * 1024
_READ_ERRORS: tuple[type[BaseException], ...] = (
    zlib.error, NotImplementedError, RuntimeError, EOFError, ValueError, OSError,
)  # fmt: skip


@record(frozen=True)
class Limits:
    """How much one uploaded archive may hold."""

    entries: int = 10_000
    """entries (files and folders) in the archive"""
    entry_bytes: int = 64 * 1024 * 1024
    """bytes one entry may inflate to"""
    total_bytes: int = 256 * 1024 * 1024
    """bytes all entries may inflate to (a caller with a body cap passes its own)"""
    ratio: int = 200
    """the largest compression ratio an entry may declare once past ``ratio_floor`` bytes"""
    ratio_floor: int = 1024 * 1024


LIMITS = Limits()


@record(frozen=True)
class Policy:
    """How one upload path answers a refused archive."""

    corrupt: str
    """the start of the message for a corrupt archive or entry (GeoServer's
    ``Error occured unzipping file`` where its controllers unzip)"""
    outside: Callable[[str], str]
    """the message for an entry name that escapes the target folder"""
    too_big: type[EmulatorError] = PayloadTooLarge
    """the refusal past a limit (413; app-schema uploads have always answered 400)"""
    declared: bool = True
    """whether the declared sizes are checked before inflating"""


POLICIES = {
    "appschema": Policy(
        corrupt="Error occured unzipping file",
        outside=lambda name: f"Archive entry {name} escapes the store directory",
        too_big=Invalid,
        declared=False,
    ),
    "uploads": Policy(  # data, coverage and mosaic uploads
        corrupt="Error occured unzipping file",
        outside=lambda name: (
            f"Illegal entry in the archive (outside of the target directory): {name}"
        ),
    ),
    "styles": Policy(
        corrupt="Invalid style package",
        outside=lambda name: (
            f"Invalid style package: entry {name!r} is outside of the target directory"
        ),
        declared=False,
    ),
}


class Archive:
    """An opened, checked archive: its entries with their safe paths, read within limits."""

    def __init__(self, body: bytes, policy: Policy, limits: Limits = LIMITS) -> None:
        self.policy = policy
        self.limits = limits
        self.budget = limits.total_bytes
        try:
            self.zip = zipfile.ZipFile(io.BytesIO(body))
        except (zipfile.BadZipFile, zipfile.LargeZipFile, *_READ_ERRORS) as exc:
            raise Invalid(f"{policy.corrupt}: not a ZIP archive ({_detail(exc)})") from None
        self.infos: list[Any] = self.zip.infolist()
        if len(self.infos) > limits.entries:
            raise policy.too_big(f"The archive holds more than {limits.entries} entries")
        self.paths = {id(info): safe_path(info.filename, policy) for info in self.infos}
        if policy.declared:
            self._check_declared()

    def __enter__(self) -> Archive:
        return self

    def __exit__(self, *exc: object) -> None:
        self.zip.close()

    def files(self) -> Iterator[tuple[Any, str]]:
        """Each file entry (folders and empty names left out) with its safe relative path."""
        for info in self.infos:
            path = self.paths[id(info)]
            if path and not info.is_dir():
                yield info, path

    def path(self, info: Any) -> str:
        return self.paths[id(info)]

    def read(self, info: Any) -> bytes:
        """An entry's bytes, inflated no further than the limits allow."""
        if info.flag_bits & 0x1:
            raise Invalid(f"{self.policy.corrupt}: entry {info.filename!r} is encrypted")
        limit = min(self.limits.entry_bytes, self.budget)
        chunks: list[bytes] = []
        size = 0
        try:
            with self.zip.open(info) as stream:
                while chunk := stream.read(_CHUNK):
                    size += len(chunk)
                    if size > limit:
                        which = "entry" if limit == self.limits.entry_bytes else "archive"
                        raise self.policy.too_big(
                            f"Archive {which} {info.filename} expands past {limit} bytes"
                        )
                    chunks.append(chunk)
        except (zipfile.BadZipFile, zipfile.LargeZipFile, *_READ_ERRORS) as exc:
            message = f"{self.policy.corrupt}: {info.filename}: {_detail(exc)}"
            raise Invalid(message) from None
        self.budget -= size
        return b"".join(chunks)

    def read_all(self) -> dict[str, bytes]:
        """Every file by its safe relative path, in archive order."""
        return {path: self.read(info) for info, path in self.files()}

    def _check_declared(self) -> None:
        limits, too_big = self.limits, self.policy.too_big
        for info in self.infos:
            ratio = info.file_size / max(info.compress_size, 1)
            if info.file_size > limits.ratio_floor and ratio > limits.ratio:
                raise too_big(
                    f"The archive entry {info.filename} declares a compression ratio of "
                    f"{ratio:.0f}:1; uploads are refused past {limits.ratio}:1"
                )
        declared = sum(i.file_size for i in self.infos)
        if declared > limits.total_bytes:
            raise too_big(
                f"The archive declares {declared} bytes once inflated, more than the "
                f"{limits.total_bytes} the server accepts"
            )


def safe_path(raw: str, policy: Policy) -> str:
    """An entry name as a relative POSIX path ("" for a folder or an empty name), refused
    when it would escape the target folder or holds a character XML 1.0 cannot carry."""
    wtext.check_text(raw, "an archive entry name")
    name = raw.replace("\\", "/")
    parts = [p for p in name.split("/") if p not in ("", ".")]
    absolute = name.startswith("/") or (len(name) > 1 and name[1] == ":")
    if absolute or ".." in parts:
        raise Invalid(policy.outside(raw))
    return "" if name.endswith("/") else "/".join(parts)


def _detail(exc: BaseException) -> str:
    return str(exc) or type(exc).__name__
