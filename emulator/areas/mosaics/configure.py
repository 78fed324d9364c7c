"""The catalog side of a mosaic: its coverage store, and coverages built from the index.

A coverage is built as GeoServer's ``CatalogBuilder.buildCoverage`` builds one from the
mosaic reader: native and lat/lon bounds from the granule footprints, the SRS from the
granules' CRS (``EPSG:4326`` when unknown), bands from the first granule, the ImageMosaic
formats, interpolations and read parameters, and ``dirName`` metadata. As in GeoServer,
time and elevation dimensions are not switched on by configuring a coverage: the index
holds their domains (``Mosaic.domain``) and a client enables them by updating the coverage.
"""

from __future__ import annotations

import copy

from ...core.errors import Invalid, NotFound, ServerError
from ...crs.envelope import to_lonlat
from ..catalog.entities import BBox, Coverage, CoverageDimension, CoverageStore
from ..catalog.model import Catalog
from .model import Mosaic

FORMAT = "ImageMosaic"
SUPPORTED_FORMATS = ["GTOPO30", "GEOTIFF", "IMAGEMOSAIC", "ARCGRID", "GIF", "PNG", "JPEG", "TIFF"]
INTERPOLATIONS = ["nearest neighbor", "bilinear", "bicubic"]
READ_PARAMETERS = {
    "Accurate resolution computation": "false",
    "AllowMultithreading": "false",
    "BackgroundValues": "",
    "Filter": "",
    "FootprintBehavior": "None",
    "InputTransparentColor": "",
    "MaxAllowedTiles": "-1",
    "MergeBehavior": "FLAT",
    "OutputTransparentColor": "",
    "SORTING": "",
    "SUGGESTED_TILE_SIZE": "512,512",
    "USE_JAI_IMAGEREAD": "true",
}


def ensure_store(cat: Catalog, ws: str, name: str, url: str, when: str) -> CoverageStore:
    """The ImageMosaic coverage store ``ws:name`` pointing at ``url``: created, or updated."""
    if cat.workspace(ws) is None:
        raise NotFound(f"No such workspace : {ws}")
    current = cat.coverage_store(ws, name)
    if current is None:
        store = CoverageStore(name, cat.workspace(ws).name, type=FORMAT, url=url, enabled=True)  # type: ignore[union-attr]
        cat.add_store(store, when=when)
        return store
    updated = copy.deepcopy(current)
    updated.type, updated.url = FORMAT, url
    replaced = cat.replace_store(current.workspace, current.name, updated, when=when)
    assert isinstance(replaced, CoverageStore)
    return replaced


def configure_all(
    cat: Catalog, mosaic: Mosaic, store: CoverageStore, coverage_name: str | None, when: str
) -> list[Coverage]:
    """Configure every coverage the mosaic has (PUT without ``configure=none``)."""
    names = mosaic.coverage_names()
    if len(names) > 1 and coverage_name is not None:
        raise Invalid(
            "The reader found more than one coverage, coverageName cannot be used in this case "
            "(it would generate the same name for all coverages found"
        )
    out = []
    for native in names:
        name = coverage_name if len(names) == 1 and coverage_name else native
        if not mosaic.granules_of(native):
            raise ServerError("Error auto-configuring coverage")
        out.append(_add_or_update(cat, mosaic, store, native, name, when))
    return out


def _add_or_update(
    cat: Catalog, mosaic: Mosaic, store: CoverageStore, native: str, name: str, when: str
) -> Coverage:
    built = build_coverage(mosaic, store, native, name)
    existing = [
        r
        for r in cat.list_resources(store.workspace, "coverage", store.name)
        if name in (r.name, r.native_name)
    ]
    if not existing:
        cat.add_resource(built, when=when)
        return built
    current = existing[0]
    assert isinstance(current, Coverage)
    updated = copy.deepcopy(current)
    for attr in (
        "native_crs",
        "srs",
        "native_bbox",
        "latlon_bbox",
        "dimensions",
        "native_coverage_name",
    ):
        setattr(updated, attr, getattr(built, attr))
    replaced = cat.replace_resource(current.workspace, current.name, updated, when=when)
    assert isinstance(replaced, Coverage)
    return replaced


def build_coverage(
    mosaic: Mosaic, store: CoverageStore, native: str | None, name: str | None
) -> Coverage:
    """A coverage for one of the mosaic's coverages, as the reader describes it."""
    names = mosaic.coverage_names()
    native = native or (names[0] if len(names) == 1 or name not in names else name)
    if native not in names:
        raise ServerError(
            f"Error getting coverages from coverage reader: no coverage named {native}"
        )
    envelope = mosaic.envelope(native)
    if envelope is None:
        raise ServerError(
            f"Error configuring coverage {name or native}: the mosaic has no granules yet"
        )
    srs = mosaic.crs or "EPSG:4326"
    name = name or native
    cov = Coverage(
        name, store.workspace, store.name, native_name=native, native_coverage_name=native
    )
    cov.title = name
    cov.keywords = [name, "WCS", FORMAT]
    cov.description = f"Generated from {FORMAT}"
    cov.native_crs = cov.srs = srs
    cov.native_bbox = BBox(envelope.minx, envelope.maxx, envelope.miny, envelope.maxy, srs)
    lonlat = to_lonlat(envelope, srs)
    if lonlat is not None:
        cov.latlon_bbox = BBox(lonlat.minx, lonlat.maxx, lonlat.miny, lonlat.maxy, "EPSG:4326")
    cov.projection_policy = "REPROJECT_TO_DECLARED" if mosaic.crs else "FORCE_DECLARED"
    cov.enabled = True
    cov.native_format = FORMAT
    cov.supported_formats = list(SUPPORTED_FORMATS)
    cov.interpolation_methods = list(INTERPOLATIONS)
    cov.default_interpolation_method = INTERPOLATIONS[0]
    cov.dimensions = _dimensions(mosaic)
    cov.request_srs = [srs]
    cov.response_srs = [srs]
    cov.metadata = {"dirName": f"{store.name}_{native}"}
    cov.parameters = dict(READ_PARAMETERS)
    return cov


def _dimensions(mosaic: Mosaic) -> list[CoverageDimension]:
    if mosaic.eight_bit:
        return [
            CoverageDimension(b, "GridSampleDimension[0.0,255.0]", 0.0, 255.0) for b in mosaic.bands
        ]
    return [CoverageDimension(b, "GridSampleDimension[-Infinity,Infinity]") for b in mosaic.bands]


def update_bounds(cat: Catalog, mosaic: Mosaic, store: CoverageStore, when: str) -> None:
    """``updateBBox=true``: recompute the bounds of the store's coverages from the index."""
    for res in cat.list_resources(store.workspace, "coverage", store.name):
        if not isinstance(res, Coverage):
            continue
        native = res.native_coverage_name or res.native_name or res.name
        envelope = mosaic.envelope(native) if native in mosaic.coverage_names() else None
        if envelope is None:
            continue
        updated = copy.deepcopy(res)
        srs = res.srs or mosaic.crs or "EPSG:4326"
        updated.native_bbox = BBox(envelope.minx, envelope.maxx, envelope.miny, envelope.maxy, srs)
        lonlat = to_lonlat(envelope, srs)
        if lonlat is not None:
            updated.latlon_bbox = BBox(
                lonlat.minx, lonlat.maxx, lonlat.miny, lonlat.maxy, "EPSG:4326"
            )
        cat.replace_resource(res.workspace, res.name, updated, when=when)
