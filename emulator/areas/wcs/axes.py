"""The axis labels of a CRS as WCS 2.0 names them in ``subset``: ``Long``/``Lat`` for a
geographic CRS, ``E``/``N`` for a projected one (GeoServer's ``EnvelopeAxesLabelsMapper``
labels), and PROJ's axis abbreviations (``X``/``Y``…) as synonyms. Index 0 is the x
(easting, longitude) axis."""

from __future__ import annotations

import functools


@functools.lru_cache(maxsize=128)
def geographic(crs: str | None) -> bool:
    if crs is None:
        return True
    from ...crs.registry import lookup

    try:
        return bool(lookup(crs).is_geographic)
    except Exception:  # an unknown code
        return False


def labels(crs: str | None) -> tuple[str, str]:
    return ("Long", "Lat") if geographic(crs) else ("E", "N")


@functools.lru_cache(maxsize=128)
def _abbreviations(crs: str | None) -> tuple[str, str]:
    from ...crs.registry import lookup

    try:
        info = lookup(crs or "EPSG:4326").axis_info
    except Exception:  # an unknown code
        return ("", "")
    x = next((a.abbrev for a in info if a.direction in ("east", "west")), "")
    y = next((a.abbrev for a in info if a.direction in ("north", "south")), "")
    return x, y


def index(names: tuple[str, str], name: str, crs: str | None) -> int | None:
    """0 (x) or 1 (y) for an axis label, None for a label the CRS does not have."""
    if name in names:
        return names.index(name)
    found = _abbreviations(crs)
    if name and name in found:
        return found.index(name)
    return None
