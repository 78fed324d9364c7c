"""What the stock sample data decodes to: read-only tables of features and grids of pixels.

The shapes follow the uploads area's (``FeatureTable``, ``Feature``, ``Attribute``,
``Raster``, ``Band``) field for field, so that a caller can build those from these, but
every object here is immutable: one decoded copy is shared by every emulator of a process.
Sequences are tuples, a row's values a tuple beside the table's shared tuple of names, and
``StockFeature.properties`` hands out a new ``dict`` each time it is read.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..core.record import record

if TYPE_CHECKING:
    import numpy

GEOMETRY_PACKAGE = "org.locationtech.jts.geom."


@record(frozen=True)
class StockAttribute:
    """A schema attribute as GeoServer's feature type declares it."""

    name: str
    binding: str
    """the Java class name GeoServer reports (``java.lang.String``,
    ``org.locationtech.jts.geom.MultiPolygon``…)"""
    nillable: bool = True
    length: int | None = None
    """the declared length of a text attribute, when the source file declares one"""

    @property
    def is_geometry(self) -> bool:
        return self.binding.startswith(GEOMETRY_PACKAGE)


@record(frozen=True)
class StockFeature:
    """One feature: its fid as GeoServer writes it and its values in schema order."""

    fid: str
    names: tuple[str, ...]
    """the table's attribute names (one tuple shared by every row of a table)"""
    values: tuple[Any, ...]
    """shapely geometries (or None), str, int, float or None, in the order of ``names``"""

    @property
    def properties(self) -> dict[str, Any]:
        """A new dict of the values by attribute name (changing it changes nothing shared)."""
        return dict(zip(self.names, self.values, strict=True))

    def get(self, name: str) -> Any:
        return self.values[self.names.index(name)]


@record(frozen=True)
class Source:
    """Where a layer's data comes from (``docs/stock-data.md`` tells the whole story)."""

    package: str
    """the registry package and version the conversion read (``npm:us-atlas@3.0.1``…)"""
    licence: str
    dataset: str
    """the dataset inside the package, and what it is"""


@record(frozen=True)
class StockTable:
    """One stock feature type's schema and features."""

    workspace: str
    name: str
    """the native type name (the GeoPackage table, the shapefile's name)"""
    published: str
    """the feature type's name in the catalog (differs for ``ne:boundary_lines``)"""
    srs: str
    """``EPSG:<code>``"""
    geometry: str | None
    """the default geometry attribute's name"""
    attributes: tuple[StockAttribute, ...]
    features: tuple[StockFeature, ...]
    sources: tuple[Source, ...] = ()
    """empty for a layer no honest source exists for (it serves no features)"""

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(a.name for a in self.attributes)

    def bounds(self) -> tuple[float, float, float, float] | None:
        """(minx, miny, maxx, maxy) of the geometries, None when there are none."""
        if self.geometry is None:
            return None
        at = self.names.index(self.geometry)
        boxes = [f.values[at].bounds for f in self.features if f.values[at] is not None]
        if not boxes:
            return None
        return (
            min(b[0] for b in boxes),
            min(b[1] for b in boxes),
            max(b[2] for b in boxes),
            max(b[3] for b in boxes),
        )


@record(frozen=True)
class StockBand:
    name: str
    data_type: str
    """GeoTools' sample dimension type: ``UNSIGNED_8BITS``, ``REAL_32BITS``…"""
    nodata: float | None = None


@record(frozen=True)
class StockGrid:
    """One stock coverage: the catalog's grid, its bands and its pixels.

    ``data`` holds the pixels band after band, each band row after row from the top
    (``envelope``'s maxy), as ``dtype`` (a numpy type string: ``<f4``, ``|u1``…);
    ``pixels`` reads them as a read-only numpy array of shape (bands, height, width). A
    coverage no honest source exists for has ``sources`` empty and every pixel at its band's
    no-data value (0 for a band that declares none).
    """

    workspace: str
    name: str
    """the native coverage name"""
    width: int
    height: int
    envelope: tuple[float, float, float, float]
    """(minx, miny, maxx, maxy) of the grid's outer edges"""
    srs: str
    bands: tuple[StockBand, ...]
    dtype: str
    data: bytes
    sources: tuple[Source, ...] = ()

    @property
    def pixels(self) -> numpy.ndarray[Any, Any]:
        import numpy

        shape = (len(self.bands), self.height, self.width)
        return numpy.frombuffer(self.data, dtype=self.dtype).reshape(shape)

    @property
    def has_data(self) -> bool:
        return bool(self.sources)

    @property
    def transform(self) -> tuple[float, float, float, float]:
        """(scaleX, scaleY, translateX, translateY), pixel centres (GeoServer's grid)."""
        minx, miny, maxx, maxy = self.envelope
        sx = (maxx - minx) / self.width
        sy = -(maxy - miny) / self.height
        return sx, sy, minx + sx / 2, maxy + sy / 2
