"""Deterministic counters for ids and GeoServer-looking identifiers."""

from __future__ import annotations

from .tracking import tracked


@tracked
class Ids:
    """Counters per kind, starting at 1; restored to zero by ``reset``."""

    def __init__(self) -> None:
        self._counters: dict[str, int] = {}

    def next(self, kind: str) -> int:
        value = self._counters.get(kind, 0) + 1
        self._counters[kind] = value
        return value

    def peek(self, kind: str) -> int:
        return self._counters.get(kind, 0)

    def object_id(self, kind: str) -> str:
        """An id shaped like GeoServer's security object ids (``52857278:13c7ffd66a8:-7fff``)."""
        n = self.next(kind)
        return f"{0x2EDB9A1E:x}:{0x18F2A4C91D0 + n:x}:-{0x8000 - (n % 0x7FFF):x}"

    def catalog_id(self, kind: str) -> str:
        """A catalog id in GeoServer's ``KindInfoImpl-<hex>`` shape."""
        n = self.next(kind)
        return f"{kind}-{n:016x}"

    def snapshot(self) -> dict[str, int]:
        return dict(self._counters)

    def restore(self, counters: dict[str, int]) -> None:
        self._counters = dict(counters)
