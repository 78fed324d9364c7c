"""Style packages: a ZIP holding one SLD and the icons it uses.

As GeoServer does, only the archive's top level counts: the first file whose name ends in
``sld`` is the style, and image files (svg, png, jpg, jpeg, gif, bmp) are its icons; other
entries are ignored. Refused: anything that is not a ZIP, encrypted entries, entry names
that are absolute or climb out (``../``) — even in folders that would be ignored — and
archives that unpack past the size limit (413) or hold too many entries.
"""

from __future__ import annotations

import io
import zlib
from typing import Any

from ...core.errors import Forbidden, Invalid, PayloadTooLarge
from ...core.lazy import LazyModule
from ...core.record import field, record
from ...wire import text as wtext
from . import files

zipfile: Any = LazyModule("zipfile")  # imported on first use (start-up cost)

MAX_ENTRIES = 10_000


@record
class Package:
    sld_name: str
    sld: bytes
    icons: dict[str, bytes] = field(default_factory=dict)


def read(body: bytes, limit: int) -> Package:
    """Unpack a style package; ``limit`` caps the total unpacked size."""
    try:
        archive = zipfile.ZipFile(io.BytesIO(body))
    except (zipfile.BadZipFile, ValueError, OSError) as exc:
        raise Invalid(f"Invalid style package: not a ZIP archive ({exc})") from None
    with archive:
        entries = archive.infolist()
        if len(entries) > MAX_ENTRIES:
            raise PayloadTooLarge(f"Style package has more than {MAX_ENTRIES} entries")
        top: list[zipfile.ZipInfo] = []
        for info in entries:
            _check_name(info.filename)
            if not info.is_dir() and "/" not in info.filename.rstrip("/"):
                top.append(info)
        sld = next((i for i in top if i.filename.endswith("sld")), None)
        if sld is None:
            raise Forbidden("No sld file provided:")
        budget = [limit]
        package = Package(sld.filename, _extract(archive, sld, budget))
        for info in top:
            if info is not sld and files.is_image(info.filename):
                package.icons[info.filename] = _extract(archive, info, budget)
        return package


def _check_name(name: str) -> None:
    wtext.check_text(name, "an archive entry name")
    parts = name.replace("\\", "/").split("/")
    if name.startswith(("/", "\\")) or (len(parts[0]) >= 2 and parts[0][1] == ":") or ".." in parts:
        raise Invalid(f"Invalid style package: entry {name!r} is outside of the target directory")


def _extract(archive: zipfile.ZipFile, info: zipfile.ZipInfo, budget: list[int]) -> bytes:
    """An entry's bytes, read no further than the remaining budget (declared sizes can lie)."""
    if info.flag_bits & 0x1:
        raise Invalid(f"Invalid style package: entry {info.filename!r} is encrypted")
    try:
        with archive.open(info) as stream:
            data = stream.read(budget[0] + 1)
    except (
        zipfile.BadZipFile,
        zlib.error,
        NotImplementedError,
        OSError,
        EOFError,
        RuntimeError,
    ) as exc:
        raise Invalid(f"Invalid style package: cannot read {info.filename!r} ({exc})") from None
    if len(data) > budget[0]:
        raise PayloadTooLarge("Style package unpacks to more than the size limit")
    budget[0] -= len(data)
    return data
