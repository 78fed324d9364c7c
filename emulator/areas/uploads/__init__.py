"""Uploads of data and coverage store files: shapefiles, GeoPackages, property files,
GeoTIFFs, world images, ArcGrid."""
