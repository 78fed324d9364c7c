"""Envelopes, and the WGS84 (lon/lat) envelope of one in any CRS.

A granule footprint is an ``Envelope`` in the mosaic's CRS. GeoServer also gives every
resource a WGS84 envelope computed from its native one (``to_lonlat``: any CRS PROJ's
database knows, through ``transform.py``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import NamedTuple

from .codes import is_projected

__all__ = ["Envelope", "epsg_code", "is_projected", "to_lonlat", "union"]


class Envelope(NamedTuple):
    """An axis-aligned rectangle: min x, min y, max x, max y."""

    minx: float
    miny: float
    maxx: float
    maxy: float

    def intersects(self, other: Envelope) -> bool:
        return not (
            other.minx > self.maxx
            or other.maxx < self.minx
            or other.miny > self.maxy
            or other.maxy < self.miny
        )

    def ring(self) -> list[tuple[float, float]]:
        """The closed outline, clockwise from the lower left corner (as JTS draws it)."""
        return [
            (self.minx, self.miny),
            (self.minx, self.maxy),
            (self.maxx, self.maxy),
            (self.maxx, self.miny),
            (self.minx, self.miny),
        ]


def union(envelopes: Iterable[Envelope]) -> Envelope | None:
    items = list(envelopes)
    if not items:
        return None
    return Envelope(
        min(e.minx for e in items),
        min(e.miny for e in items),
        max(e.maxx for e in items),
        max(e.maxy for e in items),
    )


def epsg_code(srs: str | None) -> int | None:
    """``EPSG:32633`` → 32633; anything else → None."""
    match = re.fullmatch(r"EPSG:(\d+)", (srs or "").strip().upper())
    return int(match.group(1)) if match else None


def to_lonlat(env: Envelope, srs: str | None) -> Envelope | None:
    """The WGS84 envelope of ``env`` (its outline densified and transformed, as GeoTools'
    ``ReferencedEnvelope.transform``), or None when the CRS is unknown or nothing of the
    envelope has an image. Geographic CRSs keep their numbers (datum shifts of a few metres
    are left out, as before the emulator had PROJ)."""
    if srs is None:
        return None
    if not is_projected(srs):
        return env
    from ..core.errors import EmulatorError
    from .transform import between

    try:
        box = between(srs.strip(), "EPSG:4326").bounds((env.minx, env.miny, env.maxx, env.maxy))
    except EmulatorError:
        return None
    return None if box is None else Envelope(*box)
