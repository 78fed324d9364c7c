"""Raster pixels: what WCS GetCoverage reads, resamples and writes.

Pure domain code (no HTTP, no catalog): ``model.py`` (a ``Grid`` of pixels with its
envelope, CRS and bands; the ``Target`` grid a request asks for), ``decode.py`` (GeoTIFF,
world images and ArcGrid files to pixels), ``resample.py`` (nearest, bilinear and bicubic
sampling of a grid onto a target grid, in its CRS or through a coordinate transform),
``reproject.py`` (pyproj transforms between two CRSs), ``encode.py`` (GeoTIFF with its
georeferencing, PNG/JPEG/GIF images, ArcGrid text).

numpy, tifffile, Pillow and pyproj are imported on first use, never when this package is.
"""
