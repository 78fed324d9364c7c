"""Envelopes and the few coordinate reference systems the emulator transforms without PROJ.

A granule footprint is an ``Envelope`` in the mosaic's CRS. GeoServer also gives every
coverage a WGS84 (lon/lat) envelope; the emulator computes it for geographic CRSs
(identity), spherical Mercator and the WGS84 UTM zones, and leaves it out for any other CRS
(it has no projection library).
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable
from typing import NamedTuple

from .codes import is_projected

__all__ = ["Envelope", "epsg_code", "is_projected", "to_lonlat", "union"]

MERCATOR = frozenset({"EPSG:3857", "EPSG:900913", "EPSG:3785", "EPSG:102100", "EPSG:102113"})
EARTH_RADIUS = 6378137.0
WGS84_A = 6378137.0
WGS84_F = 1 / 298.257223563
UTM_K0 = 0.9996


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
    """The WGS84 envelope of ``env``, or None when the CRS is not one the emulator knows."""
    if srs is None:
        return None
    upper = srs.upper()
    if not is_projected(upper):
        return env
    if upper in MERCATOR:
        return _transformed(env, _mercator_inverse)
    code = epsg_code(upper)
    if code is not None and (32601 <= code <= 32660 or 32701 <= code <= 32760):
        zone, south = code % 100, code >= 32701
        return _transformed(env, lambda x, y: _utm_inverse(x, y, zone, south))
    return None


Transform = Callable[[float, float], tuple[float, float]]


def _transformed(env: Envelope, fn: Transform) -> Envelope:
    """Transform the outline, densified (corners and edge points), and take its extent."""
    points = []
    steps = 8
    for i in range(steps + 1):
        t = i / steps
        x = env.minx + (env.maxx - env.minx) * t
        y = env.miny + (env.maxy - env.miny) * t
        points += [(x, env.miny), (x, env.maxy), (env.minx, y), (env.maxx, y)]
    out = [fn(x, y) for x, y in points]
    return Envelope(
        min(p[0] for p in out),
        min(p[1] for p in out),
        max(p[0] for p in out),
        max(p[1] for p in out),
    )


def _mercator_inverse(x: float, y: float) -> tuple[float, float]:
    lon = math.degrees(x / EARTH_RADIUS)
    lat = math.degrees(2 * math.atan(math.exp(y / EARTH_RADIUS)) - math.pi / 2)
    return lon, lat


def _utm_inverse(x: float, y: float, zone: int, south: bool) -> tuple[float, float]:
    """Transverse Mercator inverse on WGS84 (Snyder's series, ample for envelopes)."""
    e2 = WGS84_F * (2 - WGS84_F)
    ep2 = e2 / (1 - e2)
    x -= 500000.0
    if south:
        y -= 10000000.0
    m = y / UTM_K0
    mu = m / (WGS84_A * (1 - e2 / 4 - 3 * e2**2 / 64 - 5 * e2**3 / 256))
    e1 = (1 - math.sqrt(1 - e2)) / (1 + math.sqrt(1 - e2))
    phi1 = (
        mu
        + (3 * e1 / 2 - 27 * e1**3 / 32) * math.sin(2 * mu)
        + (21 * e1**2 / 16 - 55 * e1**4 / 32) * math.sin(4 * mu)
        + (151 * e1**3 / 96) * math.sin(6 * mu)
    )
    sin1, cos1, tan1 = math.sin(phi1), math.cos(phi1), math.tan(phi1)
    n1 = WGS84_A / math.sqrt(1 - e2 * sin1**2)
    t1 = tan1**2
    c1 = ep2 * cos1**2
    r1 = WGS84_A * (1 - e2) / (1 - e2 * sin1**2) ** 1.5
    d = x / (n1 * UTM_K0)
    lat = phi1 - (n1 * tan1 / r1) * (
        d**2 / 2
        - (5 + 3 * t1 + 10 * c1 - 4 * c1**2 - 9 * ep2) * d**4 / 24
        + (61 + 90 * t1 + 298 * c1 + 45 * t1**2 - 252 * ep2 - 3 * c1**2) * d**6 / 720
    )
    lon = (
        d
        - (1 + 2 * t1 + c1) * d**3 / 6
        + (5 - 2 * c1 + 28 * t1 - 3 * c1**2 + 8 * ep2 + 24 * t1**2) * d**5 / 120
    ) / cos1
    central = math.radians((zone - 1) * 6 - 180 + 3)
    return math.degrees(central + lon), math.degrees(lat)
