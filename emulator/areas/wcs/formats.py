"""The output formats of GetCoverage, as GeoServer's coverage response delegates name them:
GeoTIFF, the world image formats (PNG, JPEG, GIF) and ArcGrid (plain and gzipped), each with
the names a request may use, its MIME type and its file extension."""

from __future__ import annotations

from typing import NamedTuple

from ..catalog.entities import Coverage
from ..ows.errors import INVALID, OwsError


class Format(NamedTuple):
    key: str
    """the encoder: ``geotiff``, ``png``, ``jpeg``, ``gif``, ``arcgrid``, ``arcgrid-gzip``"""
    declared: str
    """the name a coverage's ``supportedFormats`` lists it under"""
    mime: str
    extension: str
    names: tuple[str, ...]


FORMATS = (
    Format(
        "geotiff",
        "GEOTIFF",
        "image/tiff",
        "tif",
        ("tif", "tiff", "geotiff", "image/geotiff", "image/tiff", "image/tiff;application=geotiff"),
    ),
    Format("png", "PNG", "image/png", "png", ("png", "image/png")),
    Format("jpeg", "JPEG", "image/jpeg", "jpeg", ("jpeg", "jpg", "image/jpeg")),
    Format("gif", "GIF", "image/gif", "gif", ("gif", "image/gif")),
    Format(
        "arcgrid", "ARCGRID", "text/plain", "asc", ("arcgrid", "text/plain", "application/arcgrid")
    ),
    Format(
        "arcgrid-gzip",
        "ARCGRID",
        "application/x-gzip",
        "asc.gz",
        ("arcgrid-gzip", "application/x-gzip", 'application/arcgrid;gzipped="true"'),
    ),
)
_BY_NAME = {name: fmt for fmt in FORMATS for name in fmt.names}
TIFF_ALIASES = ("TIFF",)
"""a coverage's ``TIFF`` entry is the GeoTIFF encoder too"""


def find(name: str) -> Format | None:
    """The format a request names (any case, spaces around ignored)."""
    return _BY_NAME.get(name.strip().lower().replace("; ", ";"))


def declared_by(cov: Coverage, fmt: Format) -> bool:
    """Whether the coverage's supported formats list the format's encoder (GeoServer's
    ``getDeclaredFormat``); a coverage that lists none takes every format."""
    listed = {f.upper() for f in cov.supported_formats}
    if not listed:
        return True
    if fmt.key == "geotiff" and listed & {"TIFF", "GEOTIFF"}:
        return True
    return fmt.declared in listed


def for_request(cov: Coverage, name: str, check_declared: bool = True) -> Format:
    """The format ``name`` asks for, or GeoServer's exception (1.0.0/1.1.1 words)."""
    fmt = find(name)
    if fmt is None or (check_declared and not declared_by(cov, fmt)):
        raise OwsError(f"format {name} is not supported for this coverage", INVALID, "format")
    return fmt
