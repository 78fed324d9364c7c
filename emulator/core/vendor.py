"""The one place that maps vendor-prefixed Java class names.

Internally a class is named by its suffix after the vendor part (``security.config.X``).
On the wire it is written with the configured prefix (default ``org.geoserver``). On input
``org.geoserver.``, ``org.service.`` and the configured prefix are all stripped; a name with
some other prefix is accepted where its tail is a known suffix; anything else is a foreign
class kept exactly as given.
"""

from __future__ import annotations

from collections.abc import Iterable

KNOWN_PREFIXES = ("org.geoserver", "org.service")


class VendorNames:
    def __init__(self, prefix: str = "org.geoserver", known_suffixes: Iterable[str] = ()) -> None:
        self.prefix = prefix.rstrip(".")
        self._known = set(known_suffixes)

    def register(self, *suffixes: str) -> None:
        self._known.update(suffixes)

    def canonical(self, name: str) -> str:
        """The internal name for a class name as a client sent it."""
        name = name.strip()
        for prefix in (self.prefix, *KNOWN_PREFIXES):
            if name.startswith(prefix + "."):
                return name[len(prefix) + 1 :]
        parts = name.split(".")
        for i in range(1, len(parts)):
            tail = ".".join(parts[i:])
            if tail in self._known:
                return tail
        return "=" + name

    def emit(self, canonical: str) -> str:
        """The wire name for an internal name."""
        if canonical.startswith("="):
            return canonical[1:]
        return f"{self.prefix}.{canonical}"

    def same(self, a: str, b: str) -> bool:
        return self.canonical(a) == self.canonical(b)
