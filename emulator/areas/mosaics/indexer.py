"""A mosaic's configuration (what ``indexer.properties`` or ``indexer.xml``, the regex
property files and ``datastore.properties`` say; ``configfiles`` reads them) and the index
schema it gives.

``indexer.properties`` keys used here (case-insensitive, as GeoTools looks them up): ``Name``,
``Schema``, ``PropertyCollectors``, ``TimeAttribute``, ``ElevationAttribute``,
``AdditionalDomainAttributes``, ``CanBeEmpty``, ``AbsolutePath``, ``Recursive``,
``Wildcard``, ``LocationAttribute``. Others are kept and ignored.

A collector is written ``SPI[configFile](attribute)``: the ``configFile.properties`` beside
the indexer holds ``regex=…`` (optionally followed by ``,format=<SimpleDateFormat>`` and
``,fullPath=true``). ``indexer.xml`` carries the same as ``<parameters>``, ``<collectors>``,
``<schemas>``, ``<domains>`` and ``<coverages>`` elements.
"""

from __future__ import annotations

from typing import Any

from ...core.record import field, record
from .bindings import DATABASE, SHAPEFILE, IndexAttribute, SchemaError, parse_spec, stored

INDEXER_PROPERTIES = "indexer.properties"
INDEXER_XML = "indexer.xml"
DATASTORE_PROPERTIES = "datastore.properties"
CONFIG_FILES = frozenset({INDEXER_PROPERTIES, INDEXER_XML, DATASTORE_PROPERTIES})


@record(frozen=True)
class Collector:
    """A property collector: which SPI fills which attribute, with what regex."""

    spi: str
    mapped: str
    regex: str | None = None
    format: str | None = None
    full_path: bool = False


@record
class Indexer:
    """The parsed configuration of one mosaic."""

    params: dict[str, str] = field(default_factory=dict)
    collectors: list[Collector] = field(default_factory=list)
    schemas: dict[str, str] = field(default_factory=dict)
    """named schema specs (``indexer.xml``); the ``Schema`` parameter is the properties form"""
    coverages: list[tuple[str, str | None]] = field(default_factory=list)
    """(coverage name, schema spec or None) declared by ``indexer.xml``"""
    datastore: dict[str, str] | None = None
    source: str | None = None
    """the file it came from, None when the mosaic has no indexer"""

    def param(self, name: str, default: str | None = None) -> str | None:
        lowered = name.lower()
        for key, value in self.params.items():
            if key.lower() == lowered:
                return value.strip()
        return default

    def flag(self, name: str, default: bool = False) -> bool:
        value = self.param(name)
        return default if value is None else value.lower() == "true"

    @property
    def store_kind(self) -> str:
        return DATABASE if self.datastore is not None else SHAPEFILE

    @property
    def location_attribute(self) -> str:
        return self.param("LocationAttribute") or "location"

    def domain(self, name: str) -> list[str]:
        """The attributes of the time or elevation domain (``a`` or ``start;end``)."""
        value = self.param(name)
        return [v.strip() for v in value.split(";") if v.strip()] if value else []


# -- the index schema -----------------------------------------------------------------------


def schema(indexer: Indexer, coverage: str | None = None) -> list[IndexAttribute]:
    """The index attributes of a coverage, in the order the index store keeps them. A spec
    GeoTools cannot read gives the default schema, as GeoTools falls back to it.

    Worked out once per distinct configuration (a mosaic asks for each granule it indexes)."""
    key = (
        tuple(indexer.params.items()),
        tuple(indexer.schemas.items()),
        tuple(indexer.coverages),
        None if indexer.datastore is None else tuple(indexer.datastore.items()),
        coverage,
    )
    return list(_schema(key, indexer))


_SCHEMAS: dict[tuple[Any, ...], tuple[IndexAttribute, ...]] = {}


def _schema(key: tuple[Any, ...], indexer: Indexer) -> tuple[IndexAttribute, ...]:
    found = _SCHEMAS.get(key)
    if found is None:
        if len(_SCHEMAS) >= 256:
            _SCHEMAS.clear()
        found = _SCHEMAS[key] = tuple(_work_out_schema(indexer, key[-1]))
    return found


def _work_out_schema(indexer: Indexer, coverage: str | None) -> list[IndexAttribute]:
    spec = _spec_for(indexer, coverage)
    declared: list[tuple[str, str]] | None = None
    if spec:
        try:
            declared = parse_spec(spec)
        except SchemaError:
            declared = None
    if declared is None:
        declared = _default(indexer)
    kind = indexer.store_kind
    attrs = [stored(name, binding, kind) for name, binding in declared]
    if kind == SHAPEFILE:
        attrs.sort(key=lambda a: not a.is_geometry)
    return attrs


def _spec_for(indexer: Indexer, coverage: str | None) -> str | None:
    for name, spec in indexer.coverages:
        if coverage is not None and name.lower() == coverage.lower() and spec:
            return spec
    if indexer.schemas:
        return next(iter(indexer.schemas.values()))
    return indexer.param("Schema")


def _default(indexer: Indexer) -> list[tuple[str, str]]:
    out = [
        (indexer.location_attribute, "java.lang.String"),
        ("the_geom", "org.locationtech.jts.geom.Polygon"),
    ]
    out += [(t, "java.util.Date") for t in indexer.domain("TimeAttribute")]
    return out
