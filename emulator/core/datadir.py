"""The emulated data directory: files that areas write (styles, mappings, granules, security).

Paths are POSIX, relative, normalised; nothing can escape the root. Directories exist
implicitly as prefixes of files, plus explicitly created empty ones.
"""

from __future__ import annotations

import posixpath

from .errors import Invalid
from .record import record
from .trackeddict import TrackedDict
from .tracking import tracked


def normalise(path: str) -> str:
    """A safe relative path, or ``Invalid`` when it would leave the root."""
    path = path.replace("\\", "/").strip("/")
    if not path:
        return ""
    parts: list[str] = []
    for part in path.split("/"):
        if part in ("", "."):
            continue
        if part == "..":
            raise Invalid(f"Path escapes the data directory: {path}")
        parts.append(part)
    return "/".join(parts)


@record
class FileEntry:
    data: bytes
    modified: float


@tracked
class DataDir:
    def __init__(self) -> None:
        self.files: dict[str, FileEntry] = TrackedDict()
        self.dirs: set[str] = set()

    def write(self, path: str, data: bytes, modified: float = 0.0) -> str:
        path = normalise(path)
        if not path:
            raise Invalid("Empty file path")
        self.files[path] = FileEntry(bytes(data), modified)
        return path

    def read(self, path: str) -> bytes | None:
        entry = self.files.get(normalise(path))
        return None if entry is None else entry.data

    def exists(self, path: str) -> bool:
        path = normalise(path)
        return path in self.files or self.is_dir(path)

    def is_dir(self, path: str) -> bool:
        path = normalise(path)
        if path == "" or path in self.dirs:
            return True
        prefix = path + "/"
        return any(p.startswith(prefix) for p in self.files) or any(
            d.startswith(prefix) for d in self.dirs
        )

    def mkdir(self, path: str) -> None:
        path = normalise(path)
        if path:
            self.dirs.add(path)

    def delete(self, path: str) -> bool:
        """Remove a file, or a directory and everything below it. True when anything went."""
        path = normalise(path)
        removed = self.files.pop(path, None) is not None
        prefix = path + "/"
        for p in [p for p in self.files if p.startswith(prefix)]:
            del self.files[p]
            removed = True
        for d in [d for d in self.dirs if d == path or d.startswith(prefix)]:
            self.dirs.discard(d)
            removed = True
        return removed

    def move(self, src: str, dst: str) -> None:
        """Move a file, or a directory and everything below it, to ``dst``."""
        src, dst = normalise(src), normalise(dst)
        if src == dst:
            return
        entry = self.files.pop(src, None)
        if entry is not None:
            self.files[dst] = entry
        prefix = src + "/"
        for p in [p for p in self.files if p.startswith(prefix)]:
            self.files[dst + "/" + p[len(prefix) :]] = self.files.pop(p)
        for d in [d for d in self.dirs if d == src or d.startswith(prefix)]:
            self.dirs.discard(d)
            self.dirs.add(dst + d[len(src) :])

    def listdir(self, path: str) -> list[tuple[str, bool]]:
        """Direct children of a directory as (name, is_dir), sorted by name."""
        path = normalise(path)
        prefix = path + "/" if path else ""
        children: dict[str, bool] = {}
        for p in list(self.files) + sorted(self.dirs):
            if p.startswith(prefix) and p != path:
                rest = p[len(prefix) :]
                head, _, tail = rest.partition("/")
                is_dir = bool(tail) or p in self.dirs
                children[head] = children.get(head, False) or is_dir
        return sorted(children.items())

    def modified(self, path: str) -> float | None:
        entry = self.files.get(normalise(path))
        return None if entry is None else entry.modified

    def basename(self, path: str) -> str:
        return posixpath.basename(normalise(path))
