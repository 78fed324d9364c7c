"""Where styles live in the data directory, and the record file GeoServer keeps beside them.

A global style's body is ``styles/<filename>``, a workspace style's is
``workspaces/<ws>/styles/<filename>``; icons sit next to them. GeoServer also persists each
record as ``<name>.xml`` in the same folder (``<name>.xml.xml`` when the body itself is
called ``<name>.xml``). A removed style's body is kept as ``<filename>.bak`` (then
``.bak.1``, ``.bak.2``…), as GeoServer's resource persister does.
"""

from __future__ import annotations

import posixpath
from typing import TYPE_CHECKING

from ...core.datadir import DataDir, normalise
from ...wire.geoserver.xmltext import escape

if TYPE_CHECKING:
    from .model import Style

IMAGE_EXTENSIONS = frozenset({"svg", "png", "jpg", "jpeg", "gif", "bmp"})
"""icon files a style package may carry"""


def style_dir(workspace: str | None) -> str:
    return "styles" if workspace is None else f"workspaces/{workspace}/styles"


def body_path(style: Style) -> str | None:
    """The body's path, None when the record names no file."""
    if not style.filename:
        return None
    return normalise(f"{style_dir(style.workspace)}/{style.filename}")


def record_path(style: Style) -> str:
    name = style.name
    if style.filename and style.filename.endswith(".xml") and style.filename.startswith(name + "."):
        return f"{style_dir(style.workspace)}/{name}.xml.xml"
    return f"{style_dir(style.workspace)}/{name}.xml"


def record_xml(style: Style) -> bytes:
    """The record as GeoServer's persister writes it (XStream, two-space indent)."""
    lines = ["<style>"]
    if style.id:
        lines.append(f"  <id>{escape(style.id)}</id>")
    lines.append(f"  <name>{escape(style.name)}</name>")
    if style.workspace is not None:
        lines += ["  <workspace>", f"    <name>{escape(style.workspace)}</name>", "  </workspace>"]
    lines.append(f"  <format>{escape(style.format)}</format>")
    if style.version:
        lines += [
            "  <languageVersion>",
            f"    <version>{escape(style.version)}</version>",
            "  </languageVersion>",
        ]
    if style.filename:
        lines.append(f"  <filename>{escape(style.filename)}</filename>")
    if style.legend is not None:
        lines.append("  <legend>")
        for tag, item in style.legend.fields():
            lines.append(f"    <{tag}>{escape(str(item))}</{tag}>")
        lines.append("  </legend>")
    for tag, date in (("dateCreated", style.date_created), ("dateModified", style.date_modified)):
        if date:
            lines.append(f"  <{tag}>{escape(date)}</{tag}>")
    if style.metadata:
        lines.append("  <metadata>")
        for key, value in style.metadata.items():
            lines.append(f'    <entry key="{escape(key, quote=True)}">{escape(value)}</entry>')
        lines.append("  </metadata>")
    lines.append("</style>")
    return ("\n".join(lines) + "\n").encode("utf-8")


def backup(datadir: DataDir, path: str, now: float) -> str:
    """Rename ``path`` to the first free ``path.bak``, ``path.bak.1``…; the new path."""
    target = path + ".bak"
    i = 1
    while datadir.exists(target):
        target = f"{path}.bak.{i}"
        i += 1
    move(datadir, path, target, now)
    return target


def move(datadir: DataDir, source: str, target: str, now: float) -> None:
    data = datadir.read(source)
    if data is None or source == target:
        return
    datadir.delete(source)
    datadir.write(target, data, now)


def unique_name(datadir: DataDir, folder: str, base: str, extension: str, keep: str | None) -> str:
    """``base.ext``, else ``base1.ext``, ``base2.ext``… — the first not taken (``keep`` is the
    file being renamed, which does not count as taken)."""
    candidate = f"{base}.{extension}"
    i = 0
    while datadir.exists(f"{folder}/{candidate}") and f"{folder}/{candidate}" != keep:
        i += 1
        candidate = f"{base}{i}.{extension}"
    return candidate


def sibling(path: str, name: str) -> str:
    """A file called ``name`` in the folder of ``path``."""
    return normalise(posixpath.join(posixpath.dirname(path), name))


def is_image(name: str) -> bool:
    return name.rsplit(".", 1)[-1].lower() in IMAGE_EXTENSIONS if "." in name else False
