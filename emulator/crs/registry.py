"""CRS identifiers and lookups: what ``CRS.decode(identifier, true)`` accepts in GeoServer,
answered from PROJ's database.

Spellings (``names.read``): ``EPSG:4326`` (any case), ``urn:ogc:def:crs:EPSG::4326`` (and the
``urn:x-ogc`` and versioned forms), ``http://www.opengis.net/def/crs/EPSG/0/4326``,
``http://www.opengis.net/gml/srs/epsg.xml#4326``, ``CRS:84`` (also ``CRS:83``, ``CRS:27``, and
the ``OGC`` URN and URL of each), ``AUTO:42001,lon,lat`` (``auto.py``) and a WKT definition.
Axis order is longitude first, as ``/rest/crs`` asks GeoTools for (``forceXY``).

Besides the EPSG database, GeoServer's EPSG authority holds GeoTools' extension codes
(``EXTENSION``): ``EPSG:900913`` (Google Mercator) and ``EPSG:404000`` (the wildcard plane a
feature type without a CRS gets).
"""

from __future__ import annotations

import functools
import math
from typing import Any

from ..core.errors import Invalid, NotFound
from ..core.record import record
from . import names

AUTHORITIES = ("CRS", "EPSG")
"""the authorities ``/rest/crs/authorities`` lists, sorted (GeoServer's, without the URN and
URL forms and the WMS-only ``AUTO``/``AUTO2``)"""
WEB_CODES = {"27": "OGC:CRS27", "83": "OGC:CRS83", "84": "OGC:CRS84"}
"""the ``CRS`` authority's codes and the PROJ names of their systems"""
WILDCARD = "404000"
EXTENSION = ("404000", "900913")
"""GeoTools' EPSG extension codes GeoServer lists with the EPSG database's"""
_WILDCARD_WKT = (
    'ENGCRS["Wildcard 2D cartesian plane in metric unit",EDATUM["Unknown engineering datum"],'
    'CS[Cartesian,2],AXIS["x",east,ORDER[1],LENGTHUNIT["metre",1]],'
    'AXIS["y",north,ORDER[2],LENGTHUNIT["metre",1]],ID["EPSG",404000]]'
)


@record(frozen=True)
class Code:
    authority: str
    """upper case: ``EPSG``, ``CRS``"""
    code: str

    @property
    def id(self) -> str:
        return f"{self.authority}:{self.code}"


@record(frozen=True)
class BBox:
    min_x: float
    min_y: float
    max_x: float
    max_y: float


@record(frozen=True)
class Definition:
    """One CRS as ``/rest/crs/<id>.json`` describes it."""

    code: Code
    name: str
    bbox: BBox | None
    bbox_wgs84: BBox | None
    wkt: str


def parse(identifier: str) -> Code:
    """The authority and code an identifier names; ``Invalid`` (GeoServer's words) when it
    is blank or has no authority."""
    ref = names.read(identifier)
    if ref.authority == "WKT":
        raise Invalid("Invalid CRS identifier, expected AUTHORITY:CODE")
    return Code(ref.authority, ref.code)


def _pyproj() -> Any:
    """pyproj, with PROJ's network access off: a transformation never depends on grids
    fetched at run time (the same request gives the same numbers on every machine with the
    same PROJ data)."""
    import pyproj

    network: Any = pyproj.network
    if network.is_network_enabled():
        network.set_network_enabled(False)
    return pyproj


def lookup(identifier: str) -> Any:
    """The ``pyproj.CRS`` an identifier names; ``NotFound`` (``CRS not found: <id>``)."""
    return resolve(names.read(identifier), identifier)


def resolve(ref: names.Ref, shown: str | None = None) -> Any:
    """The ``pyproj.CRS`` of ``ref``; ``NotFound`` (``CRS not found: <shown>``)."""
    return _crs(ref.authority, ref.code, shown if shown is not None else ref.id)


COMMON = frozenset({"EPSG:4326", "EPSG:3857", "EPSG:900913", "EPSG:404000", "CRS:84"})
"""codes every database has: known without opening PROJ's"""


def known(ref: names.Ref) -> bool:
    """Whether ``ref`` names a CRS the database has."""
    if ref.id in COMMON:
        return True
    try:
        resolve(ref)
    except NotFound:
        return False
    return True


@functools.lru_cache(maxsize=512)
def _crs(authority: str, code: str, shown: str) -> Any:
    pyproj = _pyproj()
    try:
        if authority == "WKT":
            return pyproj.CRS.from_wkt(code)
        if authority in ("AUTO", "AUTO2"):
            from .auto import definition

            return pyproj.CRS.from_proj4(definition(authority, code))
        if authority == "EPSG" and code in EXTENSION:
            return _extension(code)
        name = WEB_CODES.get(code) if authority == "CRS" else None
        if authority not in AUTHORITIES or (authority == "CRS" and name is None):
            raise NotFound(f"CRS not found: {shown}")
        return pyproj.CRS.from_user_input(name or f"{authority}:{code}")
    except (pyproj.exceptions.CRSError, ValueError):
        raise NotFound(f"CRS not found: {shown}") from None


def _extension(code: str) -> Any:
    pyproj = _pyproj()
    if code == WILDCARD:
        return pyproj.CRS.from_wkt(_WILDCARD_WKT)
    text = pyproj.CRS.from_epsg(3857).to_wkt()
    text = text.replace('"WGS 84 / Pseudo-Mercator"', '"Google Mercator"', 1)
    return pyproj.CRS.from_wkt(text.replace('ID["EPSG",3857]', 'ID["EPSG",900913]'))


@functools.cache
def codes(authority: str) -> tuple[str, ...]:
    """An authority's CRS codes, numbers in numeric order (``CRS.getSupportedCodes``)."""
    if authority == "CRS":
        return tuple(sorted(WEB_CODES, key=int))
    from pyproj.database import get_codes

    found = set(get_codes(authority, "CRS"))
    if authority == "EPSG":
        found.update(EXTENSION)
    return tuple(sorted(found, key=lambda c: (0, int(c), "") if c.isdigit() else (1, 0, c)))


def authorities(requested: str | None = None) -> list[str]:
    """The authorities, or the one ``requested`` names ignoring case (none when unknown)."""
    if not requested or not requested.strip():
        return list(AUTHORITIES)
    return [a for a in AUTHORITIES if a.lower() == requested.strip().lower()]


def identifiers(authority: str | None, query: str | None) -> list[str]:
    """Every ``AUTHORITY:CODE`` listed, filtered by authority and by a substring of the id."""
    out = [f"{a}:{c}" for a in authorities(authority) for c in codes(a)]
    if query and query.strip():
        out = [i for i in out if query in i]
    return out


def definition(identifier: str) -> Definition:
    """Name, extents and WKT of one CRS (``/rest/crs/<id>.json``)."""
    from .wkt import geotools_wkt

    code = parse(identifier)
    crs = lookup(identifier)
    area = crs.area_of_use if code.id != f"EPSG:{WILDCARD}" else None
    wgs84 = None if area is None else BBox(*area.bounds)
    return Definition(code, crs.name, _native_bbox(crs, wgs84), wgs84, geotools_wkt(crs))


def _native_bbox(crs: Any, wgs84: BBox | None) -> BBox | None:
    """The area of use in the CRS's own units (longitude first)."""
    if wgs84 is None:
        return None
    if crs.is_geographic:
        return wgs84
    pyproj = _pyproj()
    try:
        t = pyproj.Transformer.from_crs("OGC:CRS84", crs, always_xy=True)
        box = t.transform_bounds(wgs84.min_x, wgs84.min_y, wgs84.max_x, wgs84.max_y)
    except (pyproj.exceptions.ProjError, pyproj.exceptions.CRSError):
        return None
    if not all(math.isfinite(v) for v in box):
        return None
    return BBox(*box)


WKT_LIMIT = 65536
"""the longest WKT looked up (a ``.prj`` is a few hundred characters)"""


@functools.lru_cache(maxsize=256)
def epsg_of_wkt(wkt: str) -> str | None:
    """``EPSG:<code>`` of the database's CRS a WKT definition equals (PROJ's identification
    at 70 % confidence or more, as GeoServer's ``CRS.lookupEpsgCode(crs, true)`` compares
    ignoring names); None when none does or the text is no CRS."""
    if len(wkt) > WKT_LIMIT:
        return None
    pyproj = _pyproj()
    try:
        code = pyproj.CRS.from_wkt(wkt).to_epsg(min_confidence=70)
    except (pyproj.exceptions.CRSError, ValueError):
        return None
    return None if code is None else f"EPSG:{code}"
