"""GeoServer's date texts: the catalog's timestamps and the ISO instants of GML and GeoJSON."""

from __future__ import annotations

from datetime import UTC, datetime


def catalog_timestamp(dt: datetime) -> str:
    """``yyyy-MM-dd HH:mm:ss.SSS z`` in UTC: ``dateCreated``/``dateModified`` of catalog
    objects and styles (``2024-01-31 10:00:00.042 UTC``)."""
    return dt.strftime("%Y-%m-%d %H:%M:%S.") + f"{dt.microsecond // 1000:03d} UTC"


def resource_timestamp(dt: datetime) -> str:
    """``yyyy-MM-dd HH:mm:ss.S z`` in UTC, the resource API's ``lastModified``:
    ``SimpleDateFormat``'s ``S`` writes the milliseconds unpadded (``…:00.42 UTC``)."""
    return dt.strftime("%Y-%m-%d %H:%M:%S.") + f"{dt.microsecond // 1000} UTC"


def iso_instant(dt: datetime) -> str:
    """``2008-10-31T00:00:00Z`` (milliseconds shown only when there are some), as GML."""
    dt = dt.astimezone(UTC)
    millis = dt.microsecond // 1000
    base = dt.strftime("%Y-%m-%dT%H:%M:%S")
    return f"{base}.{millis:03d}Z" if millis else f"{base}Z"


def geojson_instant(dt: datetime) -> str:
    """``2008-11-01T00:00:00.000+0000``, as GeoServer's GeoJSON writes dates."""
    dt = dt.astimezone(UTC)
    return dt.strftime("%Y-%m-%dT%H:%M:%S.") + f"{dt.microsecond // 1000:03d}+0000"
