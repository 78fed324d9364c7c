"""The catalog's objects: workspaces, namespaces, stores, resources, layers, layer groups.

Objects refer to each other by name, never by Python reference, so that a snapshot is a
plain tree and a rename is a re-key in one place (``model.Catalog``). A store lives in a
workspace; a resource (feature type or coverage) lives in a store and in the namespace of
the same name as the store's workspace; a layer publishes exactly one resource and carries
its name; a layer group lists layers and other groups.

Styles belong to the styles area: here a style is only a reference ``StyleRef(workspace,
name)`` (``workspace`` None for a global style).

The classes are records (``core/record.py``): declared and behaving as dataclasses, without
the methods ``@dataclass`` would compile for each of them when ``emulator`` is imported.
"""

from __future__ import annotations

import math
from typing import Any, NamedTuple

from ...core.record import field, record
from ...crs.codes import GEOGRAPHIC_CODES as GEOGRAPHIC_CODES
from ...crs.codes import is_projected as is_projected

VECTOR, RASTER, WMS, WMTS, GROUP = "VECTOR", "RASTER", "WMS", "WMTS", "GROUP"

DATA_STORE, COVERAGE_STORE, WMS_STORE, WMTS_STORE = (
    "dataStore",
    "coverageStore",
    "wmsStore",
    "wmtsStore",
)
FEATURE_TYPE, COVERAGE = "featureType", "coverage"
WMS_LAYER, WMTS_LAYER = "wmsLayer", "wmtsLayer"
"""resource kinds of cascaded layers (their classes live in ``areas/cascade``)"""

MetadataValue = str | dict[str, Any]
"""A metadata entry's value: text, or a structured value such as ``{"dimensionInfo": {...}}``
or ``{"virtualTable": {...}}`` kept in the JSON shape of ``tree.xml_to_dict``."""

GROUP_MODES = ("SINGLE", "OPAQUE_CONTAINER", "NAMED", "CONTAINER", "EO")
PROJECTION_POLICIES = ("FORCE_DECLARED", "REPROJECT_TO_DECLARED", "NONE")


class StyleRef(NamedTuple):
    """A style by workspace (None: global) and name."""

    workspace: str | None
    name: str

    @property
    def prefixed(self) -> str:
        return self.name if self.workspace is None else f"{self.workspace}:{self.name}"


class PublishedRef(NamedTuple):
    """A layer group member: ``layer`` or ``layerGroup``, its workspace and name."""

    kind: str
    workspace: str | None
    name: str

    @property
    def prefixed(self) -> str:
        return self.name if self.workspace is None else f"{self.workspace}:{self.name}"


@record(frozen=True)
class BBox:
    """An envelope as GeoServer writes it: min/max x, min/max y, and its CRS code."""

    minx: float
    maxx: float
    miny: float
    maxy: float
    crs: str | None = None

    def union(self, other: BBox) -> BBox:
        return BBox(
            min(self.minx, other.minx),
            max(self.maxx, other.maxx),
            min(self.miny, other.miny),
            max(self.maxy, other.maxy),
            self.crs,
        )


@record
class Workspace:
    name: str
    isolated: bool = False
    date_created: str | None = None
    date_modified: str | None = None
    extras: dict[str, Any] = field(default_factory=dict)
    """the generic fields of ``fields.WORKSPACE`` (its metadata map), by tag"""


@record
class Namespace:
    prefix: str
    uri: str
    isolated: bool = False
    extras: dict[str, Any] = field(default_factory=dict)


@record
class Store:
    """What every store kind has; ``kind`` is one of the ``*_STORE`` constants."""

    name: str
    workspace: str
    kind: str = DATA_STORE
    type: str | None = None
    description: str | None = None
    enabled: bool = True
    default: bool = False
    """GeoServer's ``__default`` flag (the workspace's default store)."""
    date_created: str | None = None
    date_modified: str | None = None
    disable_on_conn_failure: bool | None = None
    metadata: dict[str, MetadataValue] = field(default_factory=dict)
    available: list[str] = field(default_factory=list)
    """native names the store offers beyond the configured ones (``list=available``)"""
    extras: dict[str, Any] = field(default_factory=dict)
    connection_parameters: dict[str, str] = field(default_factory=dict)
    """every store kind has them (GeoServer's ``StoreInfo``); data stores use them most"""
    lists_children: bool = False
    """the view lists the store's resources (name and link) in place of the one collection
    link: an app-schema store after a ZIP upload, as the spec shows it (set by that area)"""


@record
class DataStore(Store):
    """A vector store (GeoServer's ``DataStoreInfo``): what every store has."""


@record
class CoverageStore(Store):
    kind: str = COVERAGE_STORE
    url: str | None = None


@record
class WMSStore(Store):
    kind: str = WMS_STORE
    capabilities_url: str | None = None
    max_connections: int = 6
    read_timeout: int = 60
    connect_timeout: int = 30


@record
class WMTSStore(Store):
    kind: str = WMTS_STORE
    capabilities_url: str | None = None


@record
class Attribute:
    """A feature type attribute; ``binding`` is a Java class name (``java.lang.String``)."""

    name: str
    min_occurs: int = 0
    max_occurs: int = 1
    nillable: bool = True
    binding: str | None = None
    length: int | None = None


@record
class CoverageDimension:
    name: str
    description: str | None = None
    range_min: float | None = None
    range_max: float | None = None
    null_values: list[float] = field(default_factory=list)
    unit: str | None = None
    dimension_type: str | None = None
    """the sample type name (``REAL_32BITS``, ``UNSIGNED_8BITS``…)"""


SPECIAL = {"inf": math.inf, "-inf": -math.inf, "NaN": math.nan}
"""band values that are no finite number, by the text written for them (GeoServer's
``NumberRange`` converter and Java write these; JSON has no such numbers)"""


def special(value: float | None) -> float | str | None:
    """A band's bound or no-data value as written: infinities and NaN as ``"inf"``,
    ``"-inf"``, ``"NaN"`` (the REST documents and the scenario alike)."""
    if value is None or math.isfinite(value):
        return value
    return "NaN" if math.isnan(value) else ("inf" if value > 0 else "-inf")


@record
class Resource:
    """What feature types and coverages share. ``workspace`` is the namespace prefix."""

    name: str
    workspace: str
    store: str
    kind: str = FEATURE_TYPE
    native_name: str | None = None
    title: str | None = None
    abstract: str | None = None
    description: str | None = None
    keywords: list[str] = field(default_factory=list)
    native_crs: str | None = None
    srs: str | None = None
    native_bbox: BBox | None = None
    latlon_bbox: BBox | None = None
    projection_policy: str | None = None
    enabled: bool = True
    advertised: bool = True
    metadata: dict[str, MetadataValue] = field(default_factory=dict)
    date_created: str | None = None
    date_modified: str | None = None
    extras: dict[str, Any] = field(default_factory=dict)
    """the generic fields of ``fields.FEATURE_TYPE`` / ``fields.COVERAGE``, by tag"""


@record
class FeatureType(Resource):
    attributes: list[Attribute] = field(default_factory=list)
    max_features: int = 0
    num_decimals: int = 0

    @property
    def geometry_binding(self) -> str | None:
        for attr in self.attributes:
            if attr.binding and attr.binding.startswith(
                ("org.locationtech.jts.geom.", "com.vividsolutions.jts.geom.")
            ):
                return attr.binding
        return None


@record
class Coverage(Resource):
    kind: str = COVERAGE
    native_coverage_name: str | None = None
    native_format: str | None = None
    supported_formats: list[str] = field(default_factory=list)
    interpolation_methods: list[str] = field(default_factory=list)
    default_interpolation_method: str | None = None
    dimensions: list[CoverageDimension] = field(default_factory=list)
    request_srs: list[str] = field(default_factory=list)
    response_srs: list[str] = field(default_factory=list)
    parameters: dict[str, str] = field(default_factory=dict)


@record
class Layer:
    """A published resource; ``name`` and ``workspace`` are its resource's."""

    name: str
    workspace: str
    type: str = VECTOR
    default_style: StyleRef | None = None
    styles: list[StyleRef] = field(default_factory=list)
    enabled: bool = True
    advertised: bool = True
    queryable: bool = True
    opaque: bool = False
    path: str | None = None
    date_created: str | None = None
    date_modified: str | None = None
    extras: dict[str, Any] = field(default_factory=dict)
    """the generic fields of ``fields.LAYER`` (attribution, metadata, legend…), by tag"""

    @property
    def prefixed(self) -> str:
        return f"{self.workspace}:{self.name}"

    @property
    def ref(self) -> PublishedRef:
        return PublishedRef("layer", self.workspace, self.name)


@record
class LayerGroup:
    """Members are ``PublishedRef`` s; ``styles[i]`` is the style of member ``i`` (None:
    the member's default)."""

    name: str
    workspace: str | None = None
    mode: str = "SINGLE"
    title: str | None = None
    abstract: str | None = None
    publishables: list[PublishedRef] = field(default_factory=list)
    styles: list[StyleRef | None] = field(default_factory=list)
    bounds: BBox | None = None
    enabled: bool = True
    advertised: bool = True
    keywords: list[str] = field(default_factory=list)
    date_created: str | None = None
    date_modified: str | None = None
    root_layer: PublishedRef | None = None
    """the root layer of an ``EO`` group (only EO groups have one)"""
    root_layer_style: StyleRef | None = None
    extras: dict[str, Any] = field(default_factory=dict)
    """the generic fields of ``fields.LAYER_GROUP``, by tag"""

    @property
    def prefixed(self) -> str:
        return self.name if self.workspace is None else f"{self.workspace}:{self.name}"

    @property
    def ref(self) -> PublishedRef:
        return PublishedRef("layerGroup", self.workspace, self.name)
