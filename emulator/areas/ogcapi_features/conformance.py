"""The conformance classes of OGC API Features, switched on and off by the WFS settings.

GeoServer keeps three objects in the WFS service's metadata map (``settings/schema.py``
``METADATA_TYPES``): ``ogcapiFeatures`` (``FeatureConformance``), ``cql2``
(``CQL2Conformance``) and ``ecql`` (``ECQLConformance``), each a set of switches that are
``true``, ``false`` or absent. An absent switch takes its class's default, from the class's
level: a stable class is on, a draft one off, and with ``citeCompliant`` only a class that is
both stable and endorsed by the OGC is on (GeoServer's ``ConformanceInfo.enabledDefault``).

``Conformance(wfs)`` answers what the service does: the classes ``/conformance`` declares
(``classes``), the filter languages it reads (``languages``), and whether ``sortby``,
``properties``, ``ids``, ``crs``, ``filter``, ``search`` and ``/functions`` are honoured.
Pure domain logic.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

FEATURES = "http://www.opengis.net/spec/ogcapi-features-1/1.0/conf/"
PART3 = "http://www.opengis.net/spec/ogcapi-features-3/1.0/conf/"
CQL2 = "http://www.opengis.net/spec/cql2/1.0/conf/"


class Level(NamedTuple):
    stable: bool
    endorsed: bool


STANDARD = Level(True, True)
DRAFT = Level(False, True)
COMMUNITY = Level(True, False)


class Class(NamedTuple):
    """One configurable conformance class: the switch's name in its settings object, its
    URI, its level."""

    switch: str
    uri: str
    level: Level


CORE = Class("core", FEATURES + "core", STANDARD)
BUILT_IN = (FEATURES + "core", FEATURES + "oas30", FEATURES + "html", FEATURES + "geojson")
"""always declared (when ``core`` is on), in GeoServer's order"""

FEATURE_CLASSES = (
    Class("crsByReference", "http://www.opengis.net/spec/ogcapi-features-2/1.0/conf/crs", STANDARD),
    Class("featuresFilter", PART3 + "features-filter", STANDARD),
    Class("filter", PART3 + "filter", STANDARD),
    Class("queryables", PART3 + "queryables", STANDARD),
    Class("gml321", "http://schemas.opengis.net/gml/3.2.1/gml.xsd", STANDARD),
    Class("ids", "http://www.opengis.net/spec/ogcapi-features-1/1.1/conf/ids", DRAFT),
    Class("search", "http://www.opengis.net/spec/ogcapi-features-5/1.0/conf/search", DRAFT),
    Class("sortBy", "http://www.opengis.net/spec/ogcapi-records-1/1.0/conf/sorting", DRAFT),
    Class(
        "propertySelection",
        "http://www.opengis.net/spec/ogcapi-features-6/1.0/conf/properties-features",
        DRAFT,
    ),
)
"""the optional classes of ``FeatureConformance``, in the order they are declared"""

ECQL_TEXT = Class("text", "http://geoserver.org/spec/ecql/1.0/conf/ecql-text", COMMUNITY)

CQL2_CLASSES = (
    Class("text", CQL2 + "cql2-text", STANDARD),
    Class("json", CQL2 + "cql2-json", STANDARD),
    Class("basic", CQL2 + "basic-cql2", STANDARD),
    Class("advanced", CQL2 + "advanced-comparison-operators", STANDARD),
    Class("arithmetic", CQL2 + "arithmetic", STANDARD),
    Class("propertyProperty", CQL2 + "property-property", STANDARD),
    Class("basicSpatial", CQL2 + "basic-spatial-functions", STANDARD),
    Class("spatial", CQL2 + "spatial-functions", STANDARD),
    Class("functions", CQL2 + "functions", STANDARD),
)
"""``CQL2Conformance``'s classes, in the order they are declared"""

CQL2_TEXT, CQL2_JSON, ECQL = "cql2-text", "cql2-json", "ecql-text"
LEGACY_CQL = "cql-text"
"""accepted as ``ecql-text``, never advertised"""


def _object(wfs: Mapping[str, Any], key: str) -> Mapping[str, Any]:
    """The settings object stored under ``key`` (of the type GeoServer registers under the
    same name), or none."""
    metadata = wfs.get("metadata") or {}
    entry = metadata.get(key) if isinstance(metadata, Mapping) else None
    inner = entry.get(key) if isinstance(entry, Mapping) else None
    return inner if isinstance(inner, Mapping) else {}


class Conformance:
    """What the OGC API Features service of one WFS configuration does."""

    def __init__(self, wfs: Mapping[str, Any]) -> None:
        self.cite = bool(wfs.get("citeCompliant"))
        self.features = _object(wfs, "ogcapiFeatures")
        self.cql2 = _object(wfs, "cql2")
        self.ecql = _object(wfs, "ecql")

    def _on(self, switches: Mapping[str, Any], cls: Class) -> bool:
        value = switches.get(cls.switch)
        if isinstance(value, bool):
            return value
        if self.cite:
            return cls.level.stable and cls.level.endorsed
        return cls.level.stable

    def feature(self, switch: str) -> bool:
        """Whether an optional class of ``FeatureConformance`` is on (``filter`` also needs
        a filter language; ``featuresFilter`` also needs ``filter``)."""
        if switch == "core":
            return self._on(self.features, CORE)
        cls = next(c for c in FEATURE_CLASSES if c.switch == switch)
        on = self._on(self.features, cls)
        if switch == "filter":
            return on and bool(self.languages())
        if switch == "featuresFilter":
            return on and self.feature("filter")
        return on

    def cql2_on(self, switch: str) -> bool:
        return self._on(self.cql2, next(c for c in CQL2_CLASSES if c.switch == switch))

    def languages(self) -> list[str]:
        """The filter languages read, ``cql2-text`` first (the default of ``filter-lang``)."""
        out = []
        if self.cql2_on("text"):
            out.append(CQL2_TEXT)
        if self.cql2_on("json"):
            out.append(CQL2_JSON)
        if self._on(self.ecql, ECQL_TEXT):
            out.append(ECQL)
        return out

    def classes(self) -> list[str]:
        """The classes ``/conformance`` declares: none while ``core`` is off."""
        if not self.feature("core"):
            return []
        out = list(BUILT_IN)
        out += [c.uri for c in FEATURE_CLASSES if self.feature(c.switch)]
        if self._on(self.ecql, ECQL_TEXT):
            out.append(ECQL_TEXT.uri)
        if self.cql2_on("text") or self.cql2_on("json"):
            out += [c.uri for c in CQL2_CLASSES if self.cql2_on(c.switch)]
        return out

    def language(self, requested: str | None) -> str:
        """The language a ``filter`` is read in: ``requested`` (``cql-text`` is
        ``ecql-text``), else the first enabled one; ``ValueError`` naming the enabled ones
        for one that is not."""
        enabled = self.languages()
        lang = ECQL if requested == LEGACY_CQL else requested
        if lang is None:
            return enabled[0]
        if lang not in enabled:
            raise ValueError(
                f"Invalid filter-lang '{requested}', supported values are [{', '.join(enabled)}]"
            )
        return lang
