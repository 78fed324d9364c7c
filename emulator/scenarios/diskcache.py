"""The built-in scenarios' parsed baselines, kept on disk between processes.

Parsing ``stock`` imports every area's models and scenario readers and builds the whole
state: about 30 ms, in every new process (each xdist worker, each ``serve``). A process that
finds the baseline here reads one small file instead, and imports an area's models only when
one of its stores is first used (``state.py`` unpickles each part on first use).

As with bytecode, an entry records what made it: the Python version and the size and
modification time of every file of the ``emulator`` package (its modules and the scenario
data). Any difference is a miss; a miss parses the scenario and rewrites the entry. Entries
are written to a temporary file and renamed into place, so processes starting together
never see half an entry; any failure to read or write one (a read-only home, a damaged
file) only means parsing as if there were no cache.

Where: ``$GEOSERVER_EMULATOR_CACHE``, else ``$XDG_CACHE_HOME/geoserver-emulator``, else
``~/.cache/geoserver-emulator``. ``GEOSERVER_EMULATOR_CACHE=off`` turns the cache off. The
files are pickles, trusted as ``__pycache__`` is: keep the folder private to its user.
"""

from __future__ import annotations

import hashlib
import os
import pickle
import sys
import tempfile
from pathlib import Path
from typing import Any

from ..core.cachedir import ENV as ENV
from ..core.cachedir import folder as folder

PACKAGE = Path(__file__).resolve().parent.parent
"""the ``emulator`` package: everything a baseline is made from"""


def fingerprint(package: Path = PACKAGE) -> bytes:
    """What a baseline depends on: the Python version and every package file's size and
    modification time (``__pycache__`` folders left out)."""
    digest = hashlib.blake2b(digest_size=16)
    digest.update(f"{sys.version}\0{pickle.HIGHEST_PROTOCOL}\0{package}".encode())
    for entry in sorted(_files(str(package))):
        digest.update(entry)
    return digest.digest()


def _files(top: str) -> list[bytes]:
    out: list[bytes] = []
    with os.scandir(top) as entries:
        for entry in entries:
            if entry.is_dir(follow_symlinks=False):
                if entry.name != "__pycache__":
                    out.extend(_files(entry.path))
            else:
                st = entry.stat()
                out.append(f"{entry.path}\0{st.st_size}\0{st.st_mtime_ns}\n".encode())
    return out


def _entry(name: str) -> Path | None:
    where = folder()
    if where is None:
        return None
    tag = hashlib.blake2b(str(PACKAGE).encode(), digest_size=6).hexdigest()
    return where / f"{name}-{tag}.pickle"


def read(name: str, key: bytes) -> Any | None:
    """The value stored for built-in scenario ``name`` under ``key``, or None."""
    path = _entry(name)
    if path is None:
        return None
    try:
        stored_key, value = pickle.loads(path.read_bytes())
    except Exception:  # missing, damaged or from another version: a miss
        return None
    return value if stored_key == key else None


def write(name: str, key: bytes, value: Any) -> None:
    """Store ``value`` for ``name`` under ``key``; silently nothing when that fails."""
    path = _entry(name)
    if path is None:
        return
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=path.name, suffix=".tmp", dir=path.parent)
        try:
            with os.fdopen(fd, "wb") as out:
                out.write(pickle.dumps((key, value), pickle.HIGHEST_PROTOCOL))
            os.replace(tmp, path)
        except BaseException:
            os.unlink(tmp)
            raise
    except OSError:
        return
