"""WMS automatic projections (``AUTO:`` in WMS 1.1.1, ``AUTO2:`` in 1.3.0), centred where the
client says: ``AUTO:42001,9001,-100,45`` (code, unit, longitude, latitude) or
``AUTO2:42001,1,-100,45`` (code, unit factor, longitude, latitude); the unit may be left
out (``AUTO:42001,-100,45``, metres).

The codes are GeoTools' ``AutoCRSFactory``'s: 42001 UTM zone of the centre, 42002
transverse Mercator, 42003 orthographic, 42004 equirectangular, 97001 gnomonic, 97002
stereographic, 97003 azimuthal equidistant, 97004 geostationary satellite (the latitude is
the satellite's height; 0 for the geostationary orbit). ``definition`` gives the PROJ
definition of one, on WGS 84.
"""

from __future__ import annotations

import math

from ..core.errors import NotFound

CODES = ("42001", "42002", "42003", "42004", "97001", "97002", "97003", "97004")
"""in numeric order, as the capabilities list them"""
UNITS = {9001: 1.0, 9002: 0.3048, 9003: 1200 / 3937}
"""AUTO (WMS 1.1.1) unit codes: metre, foot, US survey foot"""
GEOSTATIONARY_HEIGHT = 35785831.0


def _numbers(authority: str, code: str) -> tuple[str, float, float, float]:
    """(code, metres per unit, lon0, lat0)."""
    shown = f"{authority}:{code}"
    parts = code.split(",")
    if parts[0] not in CODES or len(parts) not in (3, 4):
        raise NotFound(f"CRS not found: {shown}")
    try:
        values = [float(p) for p in parts[1:]]
    except ValueError:
        raise NotFound(f"CRS not found: {shown}") from None
    if not all(math.isfinite(v) for v in values):
        raise NotFound(f"CRS not found: {shown}")
    factor = 1.0
    if len(values) == 3:
        unit, *values = values
        if authority == "AUTO2":
            factor = unit
        elif int(unit) in UNITS and unit == int(unit):
            factor = UNITS[int(unit)]
        else:
            raise NotFound(f"CRS not found: {shown}")
    lon, lat = values
    if factor <= 0 or not (-180 <= lon <= 180):
        raise NotFound(f"CRS not found: {shown}")
    if parts[0] != "97004" and not (-90 <= lat <= 90):
        raise NotFound(f"CRS not found: {shown}")
    return parts[0], factor, lon, lat


def definition(authority: str, code: str) -> str:
    """The PROJ definition of ``AUTHORITY:code`` (``NotFound`` when malformed)."""
    number, factor, lon, lat = _numbers(authority, code)
    tail = f" +datum=WGS84 +to_meter={factor!r} +no_defs +type=crs"
    if number == "42001":
        zone = min(60, int((lon + 180) / 6) + 1)
        lon = -183 + 6 * zone
        north = 10000000.0 if lat < 0 else 0.0
        return f"+proj=tmerc +lat_0=0 +lon_0={lon!r} +k=0.9996 +x_0=500000 +y_0={north!r}{tail}"
    if number == "42002":
        north = 10000000.0 if lat < 0 else 0.0
        return f"+proj=tmerc +lat_0=0 +lon_0={lon!r} +k=0.9996 +x_0=500000 +y_0={north!r}{tail}"
    if number == "97004":
        height = lat or GEOSTATIONARY_HEIGHT
        return f"+proj=geos +lon_0={lon!r} +h={height!r}{tail}"
    kind = {
        "42003": "ortho",
        "42004": "eqc",
        "97001": "gnom",
        "97002": "stere",
        "97003": "aeqd",
    }[number]
    if kind == "eqc":
        return f"+proj=eqc +lat_ts={lat!r} +lat_0=0 +lon_0={lon!r}{tail}"
    return f"+proj={kind} +lat_0={lat!r} +lon_0={lon!r}{tail}"
