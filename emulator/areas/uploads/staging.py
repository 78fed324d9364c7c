"""Where an upload's files come from and where they go, decided before anything is written.

As ``AbstractStoreUploadController.handleFileUpload``:

- ``file``: the body is saved as ``data/<ws>/<store>/<filename>`` (``filename`` defaults
  to ``<store>.<format>``); when that file is already there the folder's old contents go
  first. A ZIP body (``Content-Type`` application/zip) is unpacked in that folder instead.
- ``url``: the body names a URL; its content (a data-directory file, or content a scenario
  or the control plane registered for that URL) is saved as ``data/<store>.<format>``.
  Other URLs go through the URL checks and then fail: the emulator has no network.
- ``external``: the body is a path (or ``file:`` URL) of a file already in the data
  directory, used where it is; a ZIP is copied into the store folder and unpacked there.
  With host reading on (``Emulator.host_read``: in-process and on a loopback-bound server
  by default) a path outside the data directory is a file (or folder) of this machine, read
  where it is as GeoServer reads it: the file and its side files (same name, other
  extensions; a folder's files), within a ``HostBudget``, never written into the data
  directory (a host ZIP is unpacked into the store folder, as GeoServer does).

Paths are checked (nothing outside the data directory, no ``..``), archives are unpacked
with the bounds of ``mosaics.archive`` (entry names, inflated size counted while inflating).
The result is a ``Placed``: the writes and deletes to make, and the primary path.
"""

from __future__ import annotations

import os
import posixpath
from collections.abc import Callable

from ...core.datadir import DataDir
from ...core.errors import Invalid
from ...core.record import field, record
from ..mosaics import archive
from ..mosaics.sources import DATA_DIR_ROOT, DATADIR, HOST, HostBudget, Remote, locate

METHODS = ("file", "url", "external")


@record
class Placed:
    """What an upload puts in the data directory, and where its data is to be read."""

    folder: str
    """the data-directory folder the data lies in"""
    writes: dict[str, bytes] = field(default_factory=dict)
    """data-directory path → bytes"""
    deletes: list[str] = field(default_factory=list)
    """data-directory paths removed before writing"""
    primary: str = ""
    """the primary file's data-directory path ("" before it is chosen)"""
    unpacked: list[str] = field(default_factory=list)
    """the paths a ZIP unpacked (relative to ``folder``); empty when no ZIP"""
    host: bool = False
    """the data is this machine's (``writes`` holds what was read of it, never applied;
    paths are the host paths without their leading ``/``)"""

    def files(self, datadir: DataDir, folder: str | None = None) -> dict[str, bytes]:
        """The files below ``folder`` (default: ``self.folder``) as they will be, by
        relative path."""
        base = (folder if folder is not None else self.folder).strip("/")
        prefix = base + "/" if base else ""
        gone = self.deletes
        out: dict[str, bytes] = {}
        for path, entry in () if self.host else datadir.files.items():
            if path.startswith(prefix) and not any(
                path == d or path.startswith(d + "/") for d in gone
            ):
                out[path[len(prefix) :]] = entry.data
        for path, data in self.writes.items():
            if path.startswith(prefix):
                out[path[len(prefix) :]] = data
        return out

    def location(self, path: str) -> str:
        """A path of this upload as the server's file system knows it."""
        return "/" + path if self.host else absolute(path)

    def apply(self, datadir: DataDir, seconds: float) -> None:
        if self.host:
            return
        for path in self.deletes:
            datadir.delete(path)
        for path, data in self.writes.items():
            datadir.write(path, data, seconds)


def absolute(path: str) -> str:
    """A data-directory path as the server's file system knows it."""
    return f"{DATA_DIR_ROOT}/{path}".rstrip("/")


def store_folder(ws: str, store: str) -> str:
    return f"data/{ws}/{store}"


def place(
    datadir: DataDir,
    method: str,
    body: bytes,
    *,
    ws: str,
    store: str,
    fmt: str,
    is_zip: bool,
    filename: str | None,
    max_total: int,
    remote: Callable[[str], bytes | None],
    url_allowed: Callable[[str], bool],
    host: HostBudget | None = None,
) -> Placed:
    """Decide what the upload writes (see the module docstring); ``host``: the budget of
    reading this machine, None when host reading is off."""
    if method == "file":
        return _inline(datadir, body, store_folder(ws, store), store, fmt, is_zip, filename,
                       max_total)  # fmt: skip
    text = _text(body)
    if method == "url":
        data = _fetch(datadir, text, remote, url_allowed)
        return _inline(datadir, data, "data", store, fmt, is_zip, None, max_total)
    if method == "external":
        on_host = _on_host(text, host)
        if on_host is not None:
            assert host is not None
            if is_zip:
                data = _host_file(on_host, text, host)
                return _unpacked(datadir, store_folder(ws, store), data, max_total, clean=False)
            return _host_placed(on_host, text, host)
        path = _local(datadir, text)
        if is_zip:
            data = datadir.read(path) or b""
            return _unpacked(datadir, store_folder(ws, store), data, max_total, clean=False)
        return Placed(posixpath.dirname(path), primary=path)
    raise Invalid(f"Unrecognized file upload method: {method}")


def read_source(
    datadir: DataDir,
    method: str,
    body: bytes,
    remote: Callable[[str], bytes | None],
    url_allowed: Callable[[str], bool],
    host: HostBudget | None = None,
) -> bytes:
    """The bytes an upload carries: the body (``file``), or what it names (``url``,
    ``external``; a host file when ``host`` allows reading this machine)."""
    if method == "file":
        return body
    if method == "url":
        return _fetch(datadir, _text(body), remote, url_allowed)
    if method == "external":
        text = _text(body)
        on_host = _on_host(text, host)
        if on_host is not None:
            assert host is not None
            return _host_file(on_host, text, host)
        return datadir.read(_local(datadir, text)) or b""
    raise Invalid(f"Unrecognized file upload method: {method}")


def _on_host(text: str, host: HostBudget | None) -> str | None:
    """The host path an ``external`` body names when host reading is on, else None."""
    if host is None:
        return None
    try:
        target = locate(text)
    except Invalid:
        return None
    if isinstance(target, Remote) or target.tree != HOST:
        return None
    return target.path


def _host_file(path: str, text: str, host: HostBudget) -> bytes:
    """A whole file of this machine, its size checked against the budget before reading."""
    if not os.path.isfile(path):
        what = "is a folder, not a file" if os.path.isdir(path) else "does not exist"
        raise Invalid(f"The file {text} {what}")
    try:
        host.read(os.path.getsize(path))
        with open(path, "rb") as handle:
            return handle.read()
    except OSError as exc:
        raise Invalid(f"The file {text} cannot be read: {exc.strerror}") from None


def _host_placed(path: str, text: str, host: HostBudget) -> Placed:
    """A host file with its side files (same stem), or a host folder's files, read where
    they are (``Placed.host``)."""
    if os.path.isdir(path):
        folder, stem = path, None
    elif os.path.isfile(path):
        folder, stem = os.path.dirname(path), os.path.splitext(os.path.basename(path))[0]
    else:
        raise Invalid(f"The file {text} does not exist")
    try:
        names = sorted(os.listdir(folder))
    except OSError as exc:
        raise Invalid(f"The folder of {text} cannot be read: {exc.strerror}") from None
    host.list(len(names))
    writes: dict[str, bytes] = {}
    for name in names:
        full = os.path.join(folder, name)
        if stem is not None and os.path.splitext(name)[0] != stem and full != path:
            continue
        if os.path.isfile(full):
            writes[full.lstrip("/")] = _host_file(full, full, host)
    rel_folder = folder.lstrip("/")
    if stem is None:
        unpacked = sorted(n.split("/")[-1] for n in writes)
        return Placed(rel_folder, writes, [], rel_folder, unpacked, True)
    return Placed(rel_folder, writes, [], path.lstrip("/"), [], True)


def _inline(
    datadir: DataDir,
    data: bytes,
    folder: str,
    store: str,
    fmt: str,
    is_zip: bool,
    filename: str | None,
    max_total: int,
) -> Placed:
    name = filename or f"{store}.{fmt}"
    safe = archive.safe_name(name)
    if safe is None or "/" in safe:
        raise Invalid(f"Invalid file name: {name}")
    target = f"{folder}/{safe}"
    clean = target in datadir.files and folder != "data"
    if is_zip:
        return _unpacked(datadir, folder, data, max_total, clean=clean)
    placed = Placed(folder, {target: data}, [folder] if clean else [], target)
    return placed


def _unpacked(datadir: DataDir, folder: str, data: bytes, max_total: int, clean: bool) -> Placed:
    entries = archive.unzip(data, max_total)
    writes = {f"{folder}/{rel}": body for rel, body in entries.items()}
    return Placed(folder, writes, [folder] if clean else [], "", list(entries))


def _text(body: bytes) -> str:
    try:
        text = body.decode("utf-8").strip()
    except UnicodeDecodeError:
        raise Invalid("The body must be a UTF-8 text naming a URL or a file") from None
    if not text:
        raise Invalid("The body must name a URL or a file, it is empty")
    return text


def _local(datadir: DataDir, text: str) -> str:
    """The data-directory path an ``external`` body names: it must exist there."""
    target = locate(text)
    if isinstance(target, Remote):
        raise Invalid(f"Only local files can be used with the external method: {text}")
    if target.tree != DATADIR:
        raise Invalid(f"The file {text} is outside the data directory")
    if target.path not in datadir.files:
        what = "is a folder, not a file" if datadir.is_dir(target.path) else "does not exist"
        raise Invalid(f"The file {text} {what}")
    return target.path


def _fetch(
    datadir: DataDir,
    text: str,
    remote: Callable[[str], bytes | None],
    url_allowed: Callable[[str], bool],
) -> bytes:
    registered = remote(text)
    if registered is not None:
        return registered
    try:
        target = locate(text)
    except Invalid:
        raise Invalid(f"The URL {text} names a path outside the data directory") from None
    if isinstance(target, Remote):
        if not url_allowed(target.url):
            raise Invalid(
                f"Evaluation Failure: '{target.url}' was not accepted by external URL checks"
            )
        raise Invalid(f"Error while downloading {text}: the emulated server has no network")
    if target.tree != DATADIR:
        raise Invalid(f"The URL {text} names a file outside the data directory")
    data = datadir.read(target.path)
    if data is None:
        raise Invalid(f"The URL {text} names no file")
    return data
