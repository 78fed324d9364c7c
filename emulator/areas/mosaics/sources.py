"""Where mosaic files live: the emulated data directory, or folders of this machine.

A ``FileRef`` names a file or folder in one of two trees:

- ``datadir``: a path of the emulated data directory (``state.datadir``), which clients
  reach through ``/rest/resource``. On the wire it is written relative
  (``data/ws/store/x.tif``, ``file:data/ws/store``) or under ``DATA_DIR_ROOT``
  (``/opt/geoserver_data/data/ws/store/x.tif``), the folder the emulated server reports as
  its data directory.
- ``host``: an absolute path outside the data directory (``/data/mosaic``). By default it
  resolves inside the emulated data directory too (``/data/mosaic`` is its folder
  ``data/mosaic``): nothing of the machine the emulator runs on is read. Only when reading
  the host is opted in (``serve --host-read``, ``Emulator(host_read=True)``, the scenario
  setting ``hostRead``) is it a path of this machine, read (headers and side files only,
  never written nor deleted) within a ``HostBudget`` of files and bytes per request.

``locate`` turns what a client sends (a ``file:`` URL, a plain path, or another URL) into a
``FileRef`` or a ``Remote`` URL.
"""

from __future__ import annotations

import io
import os
import posixpath
import re
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from typing import IO
from urllib.parse import unquote, urlsplit

from ...core.datadir import DataDir, normalise
from ...core.errors import Invalid
from ...core.record import record

DATA_DIR_ROOT = "/opt/geoserver_data"
DATADIR, HOST = "datadir", "host"
MAX_WALK = 100_000
SIDE_FILE_LIMIT = 1024 * 1024
HOST_FILES = 10_000
"""files one request may list on the host when reading it is opted in"""
HOST_BYTES = 256 * 1024 * 1024
"""bytes one request may read from the host when reading it is opted in"""


class HostBudget:
    """What one request may still read of the host (opted in): files listed, bytes read.
    Going over answers 400."""

    def __init__(self, files: int | None = None, size: int | None = None) -> None:
        self.max_files = HOST_FILES if files is None else files
        self.max_size = HOST_BYTES if size is None else size
        self.files, self.size = self.max_files, self.max_size

    def list(self, count: int) -> None:
        self.files -= count
        if self.files < 0:
            raise Invalid(f"Reading the host stopped: more than {self.max_files} files to list")

    def read(self, count: int) -> None:
        self.size -= count
        if self.size < 0:
            raise Invalid(f"Reading the host stopped: more than {self.max_size} bytes to read")


@record(frozen=True)
class FileRef:
    tree: str
    path: str

    @property
    def key(self) -> str:
        return f"{self.tree}:{self.path}"

    @property
    def name(self) -> str:
        return posixpath.basename(self.path)

    @property
    def parent(self) -> FileRef:
        return FileRef(self.tree, posixpath.dirname(self.path))

    def child(self, relative: str) -> FileRef:
        return FileRef(self.tree, posixpath.join(self.path, relative) if self.path else relative)

    @property
    def absolute(self) -> str:
        """The path as the server's file system knows it."""
        return self.path if self.tree == HOST else f"{DATA_DIR_ROOT}/{self.path}".rstrip("/")

    @property
    def url(self) -> str:
        """A store URL: ``file:data/…`` inside the data directory, ``file:///…`` outside."""
        if self.tree == DATADIR:
            return "file:" + self.path.replace(" ", "%20").replace("+", "%2B")
        return "file://" + self.path.replace(" ", "%20")

    def relative_to(self, folder: FileRef) -> str | None:
        """This path below ``folder``, or None when it is not below it."""
        if self.tree != folder.tree:
            return None
        prefix = folder.path.rstrip("/") + "/" if folder.path else ""
        return (
            self.path[len(prefix) :]
            if self.path.startswith(prefix) and self.path != folder.path
            else None
        )


@record(frozen=True)
class Remote:
    """A URL that is not a local file: it goes through the URL checks."""

    url: str


def parse_key(key: str) -> FileRef:
    tree, _, path = key.partition(":")
    return FileRef(tree, path)


def locate(text: str) -> FileRef | Remote:
    """A harvest or store location: a ``file:`` URL or plain path → ``FileRef``; any other
    URL → ``Remote``. ``Invalid`` for a path that leaves the data directory."""
    text = text.strip()
    if re.match(r"^[A-Za-z][A-Za-z0-9+.-]+:", text) and not re.match(r"^[A-Za-z]:[\\/]", text):
        parts = urlsplit(text)
        if parts.scheme.lower() != "file":
            return Remote(text)
        if parts.netloc not in ("", "localhost"):
            return Remote(text)
        path = unquote(parts.path)
        return _path_ref(path)
    return _path_ref(text)


def _path_ref(path: str) -> FileRef:
    path = path.replace("\\", "/")
    if not path.startswith("/"):
        return FileRef(DATADIR, normalise(path))
    clean = posixpath.normpath(path)
    if clean == DATA_DIR_ROOT or clean.startswith(DATA_DIR_ROOT + "/"):
        return FileRef(DATADIR, normalise(clean[len(DATA_DIR_ROOT) :]))
    return FileRef(HOST, clean)


INDEX_SUFFIXES = (".shp", ".properties")
"""a store URL naming one of these files (the index shapefile, ``mosaic.properties``) names
the mosaic in that file's folder, as ImageMosaic reads such a URL"""


def store_root(url: str | None) -> str | None:
    """The mosaic root a coverage store URL points at (its key), None when it is not local.
    The release sample's ``file:coverages/mosaic_sample/mosaic.shp`` is the folder
    ``coverages/mosaic_sample``."""
    if not url:
        return None
    try:
        ref = locate(url)
    except Invalid:
        return None
    if not isinstance(ref, FileRef):
        return None
    return (ref.parent if ref.name.lower().endswith(INDEX_SUFFIXES) else ref).key


class Files:
    """Read access to both trees (and write access to the data directory).

    ``host`` is the budget of a request allowed to read this machine; None (the default):
    host paths resolve inside the emulated data directory."""

    def __init__(self, datadir: DataDir, origin: datetime, host: HostBudget | None = None) -> None:
        self.datadir = datadir
        self.origin = origin
        self.host = host

    def _inside(self, ref: FileRef) -> str | None:
        """The data-directory path of a ref read from the data directory; None for a host
        file read from this machine."""
        if ref.tree == DATADIR:
            return ref.path
        if self.host is None:
            return normalise(ref.path.lstrip("/"))
        return None

    def exists(self, ref: FileRef) -> bool:
        path = self._inside(ref)
        if path is not None:
            return self.datadir.exists(path)
        return os.path.exists(ref.path)

    def is_dir(self, ref: FileRef) -> bool:
        path = self._inside(ref)
        if path is not None:
            return path not in self.datadir.files and self.datadir.is_dir(path)
        return os.path.isdir(ref.path)

    def read(self, ref: FileRef, limit: int = SIDE_FILE_LIMIT) -> bytes | None:
        """A whole (small) file, None when absent or larger than ``limit``."""
        path = self._inside(ref)
        if path is not None:
            data = self.datadir.read(path)
            return data if data is not None and len(data) <= limit else None
        assert self.host is not None
        try:
            if not os.path.isfile(ref.path) or os.path.getsize(ref.path) > limit:
                return None
            with open(ref.path, "rb") as handle:
                data = handle.read(limit)
        except OSError:
            return None
        self.host.read(len(data))
        return data

    @contextmanager
    def open(self, ref: FileRef) -> Iterator[IO[bytes]]:
        """A seekable stream over a file (granule headers are read from it lazily)."""
        path = self._inside(ref)
        if path is not None:
            yield io.BytesIO(self.datadir.read(path) or b"")
            return
        assert self.host is not None
        self.host.read(min(os.path.getsize(ref.path), SIDE_FILE_LIMIT))
        with open(ref.path, "rb") as handle:
            yield handle

    def modified(self, ref: FileRef) -> datetime | None:
        path = self._inside(ref)
        if path is not None:
            seconds = self.datadir.modified(path)
            return None if seconds is None else self.origin + timedelta(seconds=seconds)
        try:
            return datetime.fromtimestamp(os.path.getmtime(ref.path), UTC)
        except OSError:
            return None

    def walk(self, folder: FileRef, recursive: bool = True) -> list[FileRef]:
        """The files below a folder, sorted by path."""
        path = self._inside(folder)
        if path is not None:
            prefix = path.rstrip("/") + "/" if path else ""
            found = [
                p
                for p in self.datadir.files
                if p.startswith(prefix) and (recursive or "/" not in p[len(prefix) :])
            ]
            if folder.tree == DATADIR:
                return [FileRef(DATADIR, p) for p in sorted(found)]
            base = folder.path.rstrip("/")  # a host path resolved inside: keep its tree
            return [FileRef(HOST, f"{base}/{p[len(prefix) :]}") for p in sorted(found)]
        assert self.host is not None
        return [FileRef(HOST, p) for p in _host_walk(folder.path, recursive, self.host)]

    def write(self, ref: FileRef, data: bytes, modified: float) -> None:
        if ref.tree != DATADIR:
            raise Invalid(f"Cannot write outside the data directory: {ref.absolute}")
        self.datadir.write(ref.path, data, modified)

    def delete(self, ref: FileRef) -> bool:
        """Delete a data-directory file or folder; files of this machine are never deleted."""
        return ref.tree == DATADIR and self.datadir.delete(ref.path)


def _host_walk(top: str, recursive: bool, budget: HostBudget) -> list[str]:
    out: list[str] = []
    for current, dirs, names in os.walk(top, followlinks=False):
        dirs.sort()
        budget.list(len(names) + len(dirs))
        out.extend(posixpath.join(current.replace(os.sep, "/"), n) for n in sorted(names))
        if not recursive or len(out) > MAX_WALK:
            dirs.clear()
    return sorted(out)[:MAX_WALK]
