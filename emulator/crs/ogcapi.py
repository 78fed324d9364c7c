"""CRSs as OGC API - Features names and lists them (GeoServer's ``FeatureService``): the
functions the OGC API area calls for ``crs``, ``bbox-crs`` and the collections' ``crs``
lists.

- ``service_crs(settings_srs)``: ``http://www.opengis.net/def/crs/OGC/1.3/CRS84`` first,
  then the WFS settings' ``srs`` list as URIs, or, when it is empty, the whole EPSG database
  (``http://www.opengis.net/def/crs/EPSG/0/n``, the list WCS 2.0.1 writes);
- ``collection_crs(overriding, response_srs, service)``: a feature type's own list when it
  overrides the service's (``overridingServiceSRS``), CRS84 first;
- ``uri(identifier)``: the URI of a CRS (WGS 84 longitude first is CRS84);
- ``read(text)``: a ``crs``/``bbox-crs`` value as a ``names.Ref`` (an
  ``opengis.net/def`` URI keeps the database's axis order: EPSG:4326 is latitude first,
  CRS84 longitude first; ``axes.north_first`` tells which). Transform with
  ``transform.between`` / ``geometries.reproject`` (east/north on both sides).
"""

from __future__ import annotations

import functools

from . import lists, names

DEFAULT = "http://www.opengis.net/def/crs/OGC/1.3/CRS84"


def uri(identifier: str) -> str:
    """``EPSG:3857`` → ``http://www.opengis.net/def/crs/EPSG/0/3857``; WGS 84 lon/lat (``CRS:84``,
    ``EPSG:4326`` as x/y) → CRS84."""
    authority, _, code = identifier.rpartition(":")
    if (authority or "EPSG").upper() == "CRS" and code == "84":
        return DEFAULT
    return f"http://www.opengis.net/def/crs/{authority or 'EPSG'}/0/{code}"


@functools.cache
def _database() -> tuple[str, ...]:
    return (DEFAULT, *lists.codes(lists.WCS_20))


def service_crs(settings_srs: list[str] | None) -> list[str]:
    """The service's CRS list (``FeatureService.getServiceCRSList``)."""
    if not settings_srs:
        return list(_database())
    return [DEFAULT, *(uri(c) for c in settings_srs)]


def collection_crs(
    overriding: bool, response_srs: list[str] | None, service: list[str]
) -> list[str]:
    """A collection's CRS list: the type's own when it overrides the service's."""
    if not overriding:
        return service
    own = [uri(c) for c in response_srs or []]
    return [DEFAULT, *(c for c in own if c != DEFAULT)]


def read(text: str) -> names.Ref:
    """A ``crs`` or ``bbox-crs`` value; ``Invalid`` when it names no authority (look it up
    with ``registry.known``/``registry.resolve``)."""
    return names.read(text)
