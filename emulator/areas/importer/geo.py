"""Coordinate reference systems as the importer needs them: checking an SRS a client sets,
the WGS84 bounds of a layer, a CRS's WKT, and reprojecting features (``ReprojectTransform``),
all through PROJ's EPSG database (``emulator/crs``, pyproj; axis order longitude first, as
GeoServer forces it)."""

from __future__ import annotations

import math
from typing import Any

from ...core.errors import EmulatorError
from ...crs import registry
from ...crs.envelope import Envelope, to_lonlat
from ...features.model import GEOMETRY_PACKAGES
from ..catalog.entities import BBox, is_projected


def is_geometry(binding: str | None) -> bool:
    return bool(binding) and str(binding).startswith(GEOMETRY_PACKAGES)


def crs_of(srs: str) -> Any | None:
    """The ``pyproj.CRS`` of an identifier, None when PROJ does not know it."""
    try:
        return registry.lookup(srs)
    except EmulatorError:
        return None


def known(srs: str) -> bool:
    return crs_of(srs) is not None


def wkt(srs: str | None) -> str | None:
    """The WKT GeoTools writes for an SRS (None when unknown)."""
    if not srs:
        return None
    crs = crs_of(srs)
    if crs is None:
        return None
    from ...crs.wkt import geotools_wkt

    return geotools_wkt(crs)


def lonlat(bbox: BBox | None, srs: str | None) -> BBox | None:
    """The WGS84 bounds of native bounds (an empty box widened as GeoServer widens it),
    None when there are none or the CRS is unknown."""
    if bbox is None or srs is None:
        return None
    minx, maxx, miny, maxy = bbox.minx, bbox.maxx, bbox.miny, bbox.maxy
    if maxx - minx == 0 or maxy - miny == 0:
        grow = 1.0 if is_projected(srs) else 0.0001
        minx, miny, maxx, maxy = minx - grow, miny - grow, maxx + grow, maxy + grow
    env = to_lonlat(Envelope(minx, miny, maxx, maxy), srs)
    if env is None:
        env = _projected(Envelope(minx, miny, maxx, maxy), srs, "EPSG:4326")
    if env is None:
        return None
    return BBox(env.minx, env.maxx, env.miny, env.maxy, "EPSG:4326")


def _projected(env: Envelope, source: str, target: str) -> Envelope | None:
    transformer = transformer_for(source, target)
    if transformer is None:
        return None
    try:
        bounds = transformer.transform_bounds(env.minx, env.miny, env.maxx, env.maxy)
    except Exception:  # PROJ cannot transform this box
        return None
    if not all(math.isfinite(b) for b in bounds):
        return None
    return Envelope(*bounds)


def transformer_for(source: str, target: str) -> Any | None:
    """A PROJ transformer from one SRS to another (x/y longitude first), None when either
    is unknown."""
    a, b = crs_of(source), crs_of(target)
    if a is None or b is None:
        return None
    from pyproj import Transformer

    return Transformer.from_crs(a, b, always_xy=True)


def reprojected(geometry: Any, transformer: Any) -> Any:
    """A shapely geometry in the target CRS."""
    if geometry is None:
        return None
    import shapely

    return shapely.transform(geometry, lambda xy: _apply(transformer, xy))


def _apply(transformer: Any, xy: Any) -> Any:
    import numpy

    x, y = transformer.transform(xy[:, 0], xy[:, 1])
    return numpy.column_stack([x, y])
