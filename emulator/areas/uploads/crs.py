"""Coordinate reference systems as the uploads meet them: ``.prj`` WKT and EPSG codes.

GeoServer looks a native CRS up in its EPSG database (``CatalogBuilder.lookupSRS``). The
emulator takes the code a WKT names in its top-level ``AUTHORITY``, else recognises the CRS
names ESRI ``.prj`` files commonly carry (WGS 84, NAD83, ETRS89, web mercator, WGS 84 / UTM
zones) without opening a database, else asks PROJ's EPSG database which CRS the definition
is (``crs.registry.epsg_of_wkt``). A definition no EPSG CRS equals keeps its WKT.
"""

from __future__ import annotations

import re

NO_CRS = "EPSG:404000"
"""what GeoServer declares for data without a CRS (``CatalogBuilder.DEFAULT_SRS``)"""

_NAMES = {
    "gcs_wgs_1984": 4326,
    "wgs 84": 4326,
    "wgs84": 4326,
    "gcs_north_american_1983": 4269,
    "nad83": 4269,
    "gcs_etrs_1989": 4258,
    "etrs89": 4258,
    "wgs_1984_web_mercator_auxiliary_sphere": 3857,
    "wgs 84 / pseudo-mercator": 3857,
    "wgs_84_pseudo_mercator": 3857,
}
_UTM = re.compile(r"wgs[ _]?(?:19)?84[ _/]+utm[ _]zone[ _](\d{1,2})([ns])", re.I)
_AUTHORITY = re.compile(r'AUTHORITY\s*\[\s*"EPSG"\s*,\s*"?(\d+)"?\s*\]\s*\]\s*$', re.I)
_ANY_AUTHORITY = re.compile(r'AUTHORITY\s*\[\s*"EPSG"\s*,\s*"?(\d+)"?\s*\]', re.I)
_NAME = re.compile(r'^\s*(?:PROJCS|GEOGCS|PROJCRS|GEOGCRS|GEODCRS)\s*\[\s*"([^"]*)"', re.I)


def srs_of_wkt(wkt: str) -> str | None:
    """``EPSG:<code>`` for a WKT CRS, or None when the emulator cannot tell the code."""
    text = wkt.strip()
    if not text:
        return None
    found = _AUTHORITY.search(text)
    if found:
        return f"EPSG:{found.group(1)}"
    match = _NAME.match(text)
    name = match.group(1).strip().lower() if match else ""
    utm = _UTM.search(name)
    if utm:
        zone = int(utm.group(1))
        if 1 <= zone <= 60:
            return f"EPSG:{(32600 if utm.group(2).lower() == 'n' else 32700) + zone}"
    if name in _NAMES:
        return f"EPSG:{_NAMES[name]}"
    if not match:
        return None
    anywhere = _ANY_AUTHORITY.findall(text)
    if anywhere and text.upper().startswith("GEOGCS"):
        return f"EPSG:{anywhere[-1]}"
    from ...crs.registry import epsg_of_wkt

    return epsg_of_wkt(text)


def srs_of_prj(data: bytes | None) -> tuple[str | None, str | None]:
    """(srs, wkt) of a ``.prj`` file: srs None when no code is known; both None without one."""
    if data is None:
        return None, None
    wkt = data.decode("utf-8", "replace").strip().lstrip("\ufeff")
    if not wkt:
        return None, None
    return srs_of_wkt(wkt), wkt


def declared(srs: str | None, wkt: str | None) -> str:
    """What a feature table declares: the code, else the WKT, else ``NO_CRS``."""
    return srs or wkt or NO_CRS
