"""How GeoServer classifies a CRS named by a code or given as WKT: geographic or projected
(``nativeCRS``'s ``class`` attribute, axis order decisions)."""

from __future__ import annotations

import re

GEOGRAPHIC_CODES = frozenset(
    {"EPSG:4326", "EPSG:4269", "EPSG:4267", "EPSG:4258", "EPSG:4283", "EPSG:4230", "CRS:84"}
)
"""SRS codes written without ``class="projected"`` (GeoServer marks projected CRSs)."""

WKT_PROJECTED = frozenset({"PROJCS", "PROJCRS", "PROJECTEDCRS"})
"""roots of a projected CRS's WKT (WKT 1 and WKT 2); any other WKT (``GEOGCS``, ``GEOGCRS``,
``GEODCRS``, ``GEOCCS``, ``COMPD_CS``, ...) is not projected"""
WKT_ROOT = re.compile(r"\s*([A-Za-z_]+)\s*[\[(]")


def is_projected(crs: str | None) -> bool:
    """Whether GeoServer marks ``crs`` (an SRS code or a WKT definition, as ``nativeCRS``
    holds either) ``class="projected"``: a WKT by its root keyword, a code unless it is one
    of the geographic ones."""
    if crs is None:
        return False
    root = WKT_ROOT.match(crs)
    if root is not None:
        return root.group(1).upper() in WKT_PROJECTED
    return crs.strip().upper() not in GEOGRAPHIC_CODES
