"""How GeoServer spells a CRS in GML and capabilities (GeoTools' ``SrsSyntax``, GeoServer's
WFS ``srsNameStyle`` setting per GML version), and which spelling and axis order a GML
document's ``srsName`` takes (``GML2EncodingUtils.toURI``).

Styles: ``NORMAL`` ``EPSG:4326``, ``XML`` ``http://www.opengis.net/gml/srs/epsg.xml#4326``,
``URN`` ``urn:x-ogc:def:crs:EPSG:4326``, ``URN2`` ``urn:ogc:def:crs:EPSG::4326``, ``URL``
``http://www.opengis.net/def/crs/EPSG/0/4326``. The stock WFS settings give WFS 1.0.0
``XML``, 1.1.0 ``URN`` and 2.0.0 ``URN2``.

A CRS whose spelling forced x/y (``EPSG:n``, ``…epsg.xml#n``) is written in the ``XML``
style with its coordinates east/north whatever the setting says (the newer styles mean the
EPSG axis order); any other is written in the setting's style, its coordinates in the
database's axis order (``axes.north_first``).
"""

from __future__ import annotations

from . import axes, names

PREFIXES = {
    "NORMAL": "EPSG:",
    "XML": "http://www.opengis.net/gml/srs/epsg.xml#",
    "URN": "urn:x-ogc:def:crs:EPSG:",
    "URN2": "urn:ogc:def:crs:EPSG::",
    "URL": "http://www.opengis.net/def/crs/EPSG/0/",
}
VERSION_STYLES = {"1.0.0": "XML", "1.1.0": "URN", "2.0.0": "URN2"}
"""the stock style of each WFS version (``gml`` settings ``V_10``, ``V_11``, ``V_20``)"""
SETTING_KEYS = {"1.0.0": "V_10", "1.1.0": "V_11", "2.0.0": "V_20"}


def spell(identifier: str, style: str) -> str:
    """``EPSG:4326`` (or a bare ``4326``) in ``style``; other authorities as they are."""
    authority, _, code = identifier.rpartition(":")
    if authority.upper() not in ("", "EPSG") or not code.strip():
        return identifier
    return PREFIXES.get(style, PREFIXES["URN2"]) + code.strip()


def srs_name(ref: names.Ref, style: str) -> tuple[str | None, bool]:
    """(the ``srsName`` GML writes for ``ref``, whether its coordinates go northing
    first)."""
    if ref.authority == "WKT":
        return None, False
    if ref.authority != "EPSG":
        return ref.id, False
    if ref.xy:
        return PREFIXES["XML"] + ref.code, False
    return PREFIXES.get(style, PREFIXES["URN2"]) + ref.code, axes.north_first(ref)


def style_of(gml_settings: object, version: str) -> str:
    """The ``srsNameStyle`` of WFS ``version`` in the service's ``gml`` settings."""
    default = VERSION_STYLES.get(version, "URN2")
    if not isinstance(gml_settings, dict):
        return default
    entry = gml_settings.get(SETTING_KEYS.get(version, ""))
    style = entry.get("srsNameStyle") if isinstance(entry, dict) else None
    return style if isinstance(style, str) and style in PREFIXES else default
