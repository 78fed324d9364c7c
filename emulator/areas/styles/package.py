"""Style packages: a ZIP holding one SLD and the icons it uses.

As GeoServer does, only the archive's top level counts: the first file whose name ends in
``sld`` is the style, and image files (svg, png, jpg, jpeg, gif, bmp) are its icons; other
entries are ignored. Refused: anything that is not a ZIP, encrypted entries, entry names
that are absolute or climb out (``../``) — even in folders that would be ignored — and
archives that unpack past the size limit (413) or hold too many entries: the shared archive
guard's (``wire/geoserver/archive.py``, policy ``styles``).
"""

from __future__ import annotations

from typing import Any

from ...core.errors import Forbidden
from ...core.record import field, record
from ...wire.geoserver import archive as guard
from . import files

POLICY = guard.POLICIES["styles"]
MAX_ENTRIES = guard.LIMITS.entries


@record
class Package:
    sld_name: str
    sld: bytes
    icons: dict[str, bytes] = field(default_factory=dict)


def read(body: bytes, limit: int) -> Package:
    """Unpack a style package; ``limit`` caps the total unpacked size."""
    with guard.Archive(body, POLICY, guard.Limits(total_bytes=limit)) as archive:
        top: list[Any] = [
            info
            for info in archive.infos
            if not info.is_dir() and "/" not in info.filename.rstrip("/")
        ]
        sld = next((i for i in top if i.filename.endswith("sld")), None)
        if sld is None:
            raise Forbidden("No sld file provided:")
        package = Package(sld.filename, archive.read(sld))
        for info in top:
            if info is not sld and files.is_image(info.filename):
                package.icons[info.filename] = archive.read(info)
        return package
