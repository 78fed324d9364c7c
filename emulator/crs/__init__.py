"""Coordinate reference systems, from PROJ's EPSG database (pyproj), as GeoServer names and
writes them: ``registry.py`` (identifiers in GeoServer's spellings, the authorities and codes
``/rest/crs`` lists, one CRS's name and extents), ``wkt.py`` (WKT 1 as GeoTools writes it).

Pure domain code (no HTTP). pyproj is imported on first use, never at import time. The OGC
services' reprojection builds on ``registry.lookup``.
"""
