"""A CRS as a client names it, and the axis order its spelling implies.

GeoServer decodes a client's CRS with GeoTools' ``CRS.decode`` under ``forceXY`` (set at
start-up), so the spelling decides the axis order:

============================================================  ==================
spelling                                                      axis order
============================================================  ==================
``EPSG:4326``                                                 x/y (lon/lat)
``http://www.opengis.net/gml/srs/epsg.xml#4326``              x/y
``urn:ogc:def:crs:EPSG::4326``, ``urn:x-ogc:def:crs:EPSG:4326``  the EPSG database's
``http://www.opengis.net/def/crs/EPSG/0/4326``                the EPSG database's
``CRS:84``, ``AUTO:42001,…``                                  x/y
============================================================  ==================

WMS 1.3.0 rewrites ``EPSG:n`` as its URN first (``WMS.toInternalSRS``), so there ``EPSG:4326``
is latitude first: ``read(text, epsg_xy=False)``. ``Ref.xy`` records a forced x/y order;
``axes.north_first`` answers the rest from the database.

Pure parsing: nothing here looks a code up (``registry`` does).
"""

from __future__ import annotations

import re
from typing import NamedTuple

from ..core.errors import Invalid

_URN = re.compile(r"urn:(?:x-)?ogc:def:crs:([A-Za-z0-9_]+):(?:[^:]*:)?(.+)", re.I)
_DEF = re.compile(r"https?://www\.opengis\.net/def/crs/([A-Za-z0-9_]+)/[^/]*/(.+)", re.I)
_GML = re.compile(r"https?://www\.opengis\.net/gml/srs/([a-z0-9_]+)\.xml#(.+)", re.I)
_PLAIN = re.compile(r"([A-Za-z0-9_]+):(.+)")
_WKT = re.compile(r"\s*[A-Za-z_]+\s*[\[(]")
OGC_WEB = {"CRS84": "84", "CRS83": "83", "CRS27": "27", "84": "84", "83": "83", "27": "27"}
"""``OGC`` codes (``urn:ogc:def:crs:OGC:1.3:CRS84``, ``…/def/crs/OGC/1.3/CRS84``) and the
``CRS`` authority's code they name"""


class Ref(NamedTuple):
    """A CRS by authority and code, and whether its spelling forces x/y (east/north)."""

    authority: str
    """upper case: ``EPSG``, ``CRS``, ``AUTO``, ``AUTO2``; ``WKT`` for a definition"""
    code: str
    """``4326``; ``42001,9001,-100,45`` for an AUTO code; the text of a WKT"""
    xy: bool = True

    @property
    def id(self) -> str:
        """``EPSG:4326``: the code without its spelling (a WKT: the WKT itself)."""
        return self.code if self.authority == "WKT" else f"{self.authority}:{self.code}"

    @property
    def number(self) -> int | None:
        """The EPSG code as a number (None for other authorities)."""
        return int(self.code) if self.authority == "EPSG" and self.code.isdigit() else None


def is_wkt(text: str) -> bool:
    return _WKT.match(text) is not None


def read(text: str, epsg_xy: bool = True) -> Ref:
    """The CRS ``text`` names; ``Invalid`` when it is blank or names no authority.
    ``epsg_xy``: whether ``EPSG:n`` is x/y (False in WMS 1.3.0)."""
    text = (text or "").strip()
    if not text:
        raise Invalid("CRS identifier is required")
    if is_wkt(text):
        return Ref("WKT", text, True)
    for pattern, xy in ((_URN, False), (_DEF, False), (_GML, True)):
        m = pattern.fullmatch(text)
        if m:
            return _ref(m.group(1), m.group(2).strip(), xy)
    m = _PLAIN.fullmatch(text)
    if not m:
        raise Invalid("Invalid CRS identifier, expected AUTHORITY:CODE")
    authority = m.group(1).upper()
    return _ref(authority, m.group(2).strip(), epsg_xy if authority == "EPSG" else True)


def _ref(authority: str, code: str, xy: bool) -> Ref:
    authority = authority.upper()
    if authority == "OGC" and code.upper() in OGC_WEB:
        return Ref("CRS", OGC_WEB[code.upper()], True)
    if authority == "CRS":
        return Ref("CRS", code.upper().removeprefix("CRS"), True)
    if authority in ("AUTO", "AUTO2"):
        return Ref(authority, code.replace(" ", ""), True)
    return Ref(authority, code, xy)
