"""Where import data lies and how it gets there.

Uploads (a multipart form, a file ``PUT`` to ``/tasks/<filename>``) go into a new folder
``uploads/tmp<n>`` of the data directory (the importer's upload root), or into the
context's own folder when its data is one: a ZIP is unpacked there and the archive itself
removed (``Directory.accept``), within the uploaded-archive limits (``wire/geoserver/
archive.py``: entry names, inflated size and compression ratio checked before anything is
written). Data named by a path or ``file:`` URL (``{"type": "file", "file": …}``, a
directory's ``location``, the form field ``url``) is read where it is: in the data directory,
or, with host reading on, on this machine (``mosaics/sources.py``), never written.
"""

from __future__ import annotations

import posixpath
from datetime import UTC, datetime

from ...core.errors import Invalid
from ..mosaics import archive
from ..mosaics.sources import DATADIR, FileRef, Files, Remote, locate
from ..uploads.context import Context
from . import formats
from .model import Data, FileEntry

ORIGIN = datetime(1970, 1, 1, tzinfo=UTC)
ARCHIVES = (".zip",)
"""file names the importer unpacks on arrival (``VFSWorker.canHandle``)"""


def _files(rt: Context) -> Files:
    return Files(rt.state.datadir, ORIGIN, rt.host)


def accept(rt: Context, folder: str, name: str, body: bytes) -> list[str]:
    """Put one uploaded file into ``folder`` (a data-directory path), a ZIP unpacked; the
    paths written, relative to the folder. Checked before anything is written."""
    try:
        safe = archive.safe_name(name.replace("\\", "/").rsplit("/", 1)[-1])
    except Invalid:
        safe = None
    if safe is None or "/" in safe:
        raise Invalid(f"Invalid file name: {name}")
    if safe.lower().endswith(ARCHIVES):
        entries = archive.unzip(body, rt.max_total)
        writes = {rel: data for rel, data in entries.items() if not rel.endswith("/")}
    else:
        writes = {safe: body}
    for rel, data in writes.items():
        rt.state.datadir.write(f"{folder}/{rel}", data, rt.seconds)
    return list(writes)


def folder_files(rt: Context, place: FileRef) -> dict[str, bytes]:
    """Every file below ``place``, by path relative to it (read within the host budget and
    the archive limit)."""
    files = _files(rt)
    out: dict[str, bytes] = {}
    total = 0
    for ref in files.walk(place):
        rel = ref.relative_to(place)
        if rel is None or formats.hidden(rel):
            continue
        data = files.read(ref, rt.max_total)
        if data is None:
            raise Invalid(f"The file {ref.absolute} cannot be read")
        total += len(data)
        if total > rt.max_total:
            raise Invalid(f"The import data is larger than {rt.max_total} bytes")
        out[rel] = data
    return out


def locate_local(text: str) -> FileRef:
    """The file or folder a path or ``file:`` URL names (another URL: ``Invalid``)."""
    ref = locate(text)
    if isinstance(ref, Remote):
        raise Invalid("Invalid url in request")
    return ref


def directory(rt: Context, place: FileRef) -> Data:
    """Directory data: the folder, the entries of its files, their format when they share
    one (``Directory.getFormat``)."""
    data = Data("directory", place)
    refresh(rt, data)
    return data


def _entries(rt: Context, place: FileRef) -> list[FileEntry]:
    files = _files(rt)
    if not files.is_dir(place):
        return []
    paths = [ref.relative_to(place) or "" for ref in files.walk(place)]
    return formats.scan([p for p in paths if p])


def refresh(rt: Context, data: Data) -> None:
    """Look at a directory's folder again (after an upload into it)."""
    if data.type == "directory" and data.place is not None:
        data.files = _entries(rt, data.place)
        found = {e.format for e in data.files}
        data.format = next(iter(found)) if len(found) == 1 else None


def single_file(rt: Context, ref: FileRef) -> Data:
    """File data: the file with its side files (its folder looked at), its format; a file
    that does not exist is kept with no format (it gives no task)."""
    parent = ref.parent
    name = posixpath.basename(ref.path)
    entry = next((e for e in _entries(rt, parent) if e.name == name), None)
    if entry is None:
        entry = FileEntry(name)
    return Data("file", parent, file=entry, format=entry.format)


def describe(rt: Context, ref: FileRef) -> Data:
    """Data for a path: a folder is directory data, anything else file data."""
    if _files(rt).is_dir(ref):
        return directory(rt, ref)
    return single_file(rt, ref)


def is_datadir(data: Data) -> bool:
    return data.place is not None and data.place.tree == DATADIR
