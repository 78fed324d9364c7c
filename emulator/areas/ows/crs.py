"""The coordinate reference systems the emulator can transform between: geographic
WGS84 (``EPSG:4326``, ``CRS:84``) and spherical Mercator (``EPSG:3857``, ``EPSG:900913``).
Data in any other CRS is drawn only in a request for that same CRS (no reprojection)."""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from typing import Any

Transform = Callable[[float, float], tuple[float, float]]

GEOGRAPHIC = frozenset({"EPSG:4326", "CRS:84", "EPSG:4269", "EPSG:4258"})
MERCATOR = frozenset({"EPSG:3857", "EPSG:900913", "EPSG:3785", "EPSG:102100"})
CODE = re.compile(r"(EPSG|CRS|AUTO):\d+", re.IGNORECASE)
R = 6378137.0
MAX_LAT = 85.0511287798066


def normalise(code: str) -> str:
    """``EPSG:4326`` from the URN and URL spellings a client may send."""
    text = code.strip()
    for prefix in ("urn:ogc:def:crs:EPSG::", "urn:x-ogc:def:crs:EPSG:", "urn:ogc:def:crs:EPSG:"):
        if text.lower().startswith(prefix.lower()):
            return "EPSG:" + text[len(prefix) :].split(":")[-1]
    if text.lower().startswith("http://www.opengis.net/gml/srs/epsg.xml#"):
        return "EPSG:" + text.rsplit("#", 1)[1]
    if text.upper() == "URN:OGC:DEF:CRS:OGC:1.3:CRS84":
        return "CRS:84"
    return text.upper()


def valid(code: str) -> bool:
    return CODE.fullmatch(code) is not None


def _family(code: str) -> str:
    if code in GEOGRAPHIC:
        return "geo"
    if code in MERCATOR:
        return "merc"
    return code


def _to_merc(x: float, y: float) -> tuple[float, float]:
    lat = max(-MAX_LAT, min(MAX_LAT, y))
    return (
        math.radians(x) * R,
        math.log(math.tan(math.pi / 4 + math.radians(lat) / 2)) * R,
    )


def _to_geo(x: float, y: float) -> tuple[float, float]:
    return (
        math.degrees(x / R),
        math.degrees(2 * math.atan(math.exp(y / R)) - math.pi / 2),
    )


def transform(source: str, target: str) -> Transform | None:
    """x/y in ``source`` to x/y in ``target``; None when the emulator cannot."""
    a, b = _family(normalise(source)), _family(normalise(target))
    if a == b:
        return lambda x, y: (x, y)
    if (a, b) == ("geo", "merc"):
        return _to_merc
    if (a, b) == ("merc", "geo"):
        return _to_geo
    return None


def is_geographic(code: str) -> bool:
    return normalise(code) in GEOGRAPHIC and normalise(code) != "CRS:84"


def transform_array(source: str, target: str) -> Callable[[Any], Any] | None:
    """Like ``transform``, on an (N, 2) numpy array of x/y (for ``shapely.transform``)."""
    import numpy as np

    a, b = _family(normalise(source)), _family(normalise(target))
    if a == b:
        return lambda xy: xy
    if (a, b) == ("geo", "merc"):

        def to_merc(xy: Any) -> Any:
            lat = np.clip(xy[:, 1], -MAX_LAT, MAX_LAT)
            return np.column_stack(
                (np.radians(xy[:, 0]) * R, np.log(np.tan(np.pi / 4 + np.radians(lat) / 2)) * R)
            )

        return to_merc
    if (a, b) == ("merc", "geo"):

        def to_geo(xy: Any) -> Any:
            return np.column_stack(
                (
                    np.degrees(xy[:, 0] / R),
                    np.degrees(2 * np.arctan(np.exp(xy[:, 1] / R)) - np.pi / 2),
                )
            )

        return to_geo
    return None


def decodable(code: str) -> bool:
    """Whether GeoServer's ``CRS.decode`` knows ``code`` (normalised): the CRSs this module
    transforms at once, ``AUTO`` codes as WMS reads them, anything else as PROJ's EPSG
    database knows it (``crs.registry``, asked only for codes outside the common ones)."""
    if code in GEOGRAPHIC or code in MERCATOR:
        return True
    if not valid(code):
        return False
    if code.startswith("AUTO:"):
        return True
    from ...core.errors import EmulatorError
    from ...crs import registry

    try:
        registry.lookup(code)
    except EmulatorError:
        return False
    return True
