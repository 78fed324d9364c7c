"""The fields of GeoServer's configuration classes, in the order XStream writes them.

One table per class (``GeoServerInfo``, ``SettingsInfo``, ``ContactInfo``, ``JAIInfo``,
``CoverageAccessInfo``, ``LoggingInfo`` and the service classes ``WMSInfo``, ``WFSInfo``,
``WCSInfo``, ``WMTSInfo``). A value is held in its *plain* shape, the one the store, the
scenario section and the OGC services read:

=========== =============================================================================
kind        plain value
=========== =============================================================================
str         ``str``
int         ``int``
float       ``float`` (an ``int`` is accepted)
bool        ``bool``
enum        ``str``, one of the field's ``choices``
strings     ``list[str]`` (``srs``, MIME types, exception formats…)
versions    ``list[str]`` (``["1.1.1", "1.3.0"]``)
keywords    ``list[{"value": str, "language"?: str, "vocabulary"?: str}]``
intl        ``dict[str, str]``: locale → text (``internationalTitle``…)
metadata    ``dict[str, str | dict]``: the metadata map's entries; an entry holding an object
            of a registered type (``METADATA_TYPES``: the OGC API conformance settings) is
            ``{type id: {field: value}}``
record      ``dict``: a nested class, checked against its own table
items       ``list[dict]``: a list of a nested class (each element named ``choices[0]``)
gml         ``dict[str, dict]``: WFS GML version (``V_10``, ``V_11``, ``V_20``) → GML record
=========== =============================================================================

A key that is absent means GeoServer's default for the field (XStream leaves out fields
that are null). ``check`` validates a plain value completely and raises ``ValueError`` with
the path of the first bad field; nothing here knows about HTTP or XML.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


class Field:
    """One field: its element name, kind, nested table (``record``/``gml``) or choices."""

    __slots__ = ("name", "kind", "table", "choices", "attrs")

    def __init__(
        self,
        name: str,
        kind: str,
        table: tuple[Field, ...] = (),
        choices: tuple[str, ...] = (),
        attrs: Mapping[str, str] | None = None,
    ) -> None:
        self.name = name
        self.kind = kind
        self.table = table
        self.choices = choices
        self.attrs = dict(attrs or {})

    def __repr__(self) -> str:
        return f"Field({self.name!r}, {self.kind!r})"


def _f(name: str, kind: str = "str") -> Field:
    return Field(name, kind)


def _enum(name: str, *choices: str) -> Field:
    return Field(name, "enum", choices=choices)


def _rec(name: str, table: tuple[Field, ...]) -> Field:
    return Field(name, "record", table)


def _items(name: str, item: str, table: tuple[Field, ...]) -> Field:
    return Field(name, "items", table, choices=(item,))


Table = tuple[Field, ...]

# -- contact, settings, global -----------------------------------------------------------

CONTACT_TEXT = (
    "address", "addressCity", "addressCountry", "addressDeliveryPoint", "addressPostalCode",
    "addressState", "addressType", "contactEmail", "contactFacsimile", "contactOrganization",
    "contactPerson", "contactPosition", "contactVoice", "onlineResource", "welcome",
)  # fmt: skip
INTL_CLASS = "org.geotools.util.GrowableInternationalString"

CONTACT: Table = (
    _f("id"),
    *(_f(name) for name in CONTACT_TEXT),
    *(
        Field("international" + name[0].upper() + name[1:], "intl", attrs={"class": INTL_CLASS})
        for name in CONTACT_TEXT
    ),
)
CONTACT_ALIASES = {"addressElectronicMailAddress": "contactEmail"}
"""element names GeoServer's contact reader accepts for another field"""

SETTINGS: Table = (
    _f("id"),
    _f("title"),
    _rec("contact", CONTACT),
    _f("charset"),
    _f("numDecimals", "int"),
    _f("onlineResource"),
    _f("proxyBaseUrl"),
    _f("schemaBaseUrl"),
    _f("verbose", "bool"),
    _f("verboseExceptions", "bool"),
    _f("metadata", "metadata"),
    _f("localWorkspaceIncludesPrefix", "bool"),
    _f("showCreatedTimeColumnsInAdminList", "bool"),
    _f("showModifiedTimeColumnsInAdminList", "bool"),
    _f("defaultLocale"),
    _f("useHeadersProxyURL", "bool"),
)

JAI_EXT: Table = (Field("jaiExtOperations", "strings", attrs={"class": "sorted-set"}),)

JAI: Table = (
    _f("allowInterpolation", "bool"),
    _f("recycling", "bool"),
    _f("tilePriority", "int"),
    _f("tileThreads", "int"),
    _f("memoryCapacity", "float"),
    _f("memoryThreshold", "float"),
    _f("imageIOCache", "bool"),
    _f("pngAcceleration", "bool"),
    _f("jpegAcceleration", "bool"),
    _f("allowNativeMosaic", "bool"),
    _f("allowNativeWarp", "bool"),
    _rec("jaiext", JAI_EXT),
)

COVERAGE_ACCESS: Table = (
    _f("maxPoolSize", "int"),
    _f("corePoolSize", "int"),
    _f("keepAliveTime", "int"),
    _enum("queueType", "UNBOUNDED", "DIRECT"),
    _f("imageIOCacheThreshold", "int"),
)

GLOBAL: Table = (
    _rec("settings", SETTINGS),
    _rec("jai", JAI),
    _rec("coverageAccess", COVERAGE_ACCESS),
    _f("metadata", "metadata"),
    _f("updateSequence", "int"),
    _f("featureTypeCacheSize", "int"),
    _f("globalServices", "bool"),
    _f("xmlPostRequestLogBufferSize", "int"),
    _f("xmlExternalEntitiesEnabled", "bool"),
    _f("lockProviderName"),
    _enum("webUIMode", "DEFAULT", "REDIRECT", "DO_NOT_REDIRECT"),
    _f("allowStoredQueriesPerWorkspace", "bool"),
    _enum("resourceErrorHandling", "OGC_EXCEPTION_REPORT", "SKIP_MISCONFIGURED_LAYERS"),
    _f("trailingSlashMatch", "bool"),
)

LOGGING: Table = (
    _f("level"),
    _f("location"),
    _f("stdOutLogging", "bool"),
)

# -- services ----------------------------------------------------------------------------

METADATA_LINK: Table = (_f("type"), _f("about"), _f("metadataType"), _f("content"))

SERVICE: Table = (
    _f("id"),
    _f("enabled", "bool"),
    _f("name"),
    _f("title"),
    _f("internationalTitle", "intl"),
    _f("maintainer"),
    _f("abstrct"),
    _f("internationalAbstract", "intl"),
    _f("accessConstraints"),
    _f("fees"),
    _f("versions", "versions"),
    _f("keywords", "keywords"),
    _f("exceptionFormats", "strings"),
    _rec("metadataLink", METADATA_LINK),
    _f("citeCompliant", "bool"),
    _f("onlineResource"),
    _f("schemaBaseURL"),
    _f("verbose", "bool"),
    _f("metadata", "metadata"),
    _f("defaultLocale"),
)

WATERMARK: Table = (
    _f("enabled", "bool"),
    _enum(
        "position", "TOP_LEFT", "TOP_CENTER", "TOP_RIGHT", "MID_LEFT", "MID_CENTER",
        "MID_RIGHT", "BOT_LEFT", "BOT_CENTER", "BOT_RIGHT",
    ),
    _f("transparency", "int"),
    _f("URL"),
)  # fmt: skip

CACHE_CONFIGURATION: Table = (
    _f("enabled", "bool"),
    _f("maxEntries", "int"),
    _f("maxEntrySize", "int"),
)

AUTHORITY_URL: Table = (_f("name"), _f("href"))
LAYER_IDENTIFIER: Table = (_f("authority"), _f("identifier"))

WMS: Table = (
    *SERVICE,
    _f("srs", "strings"),
    _f("allowedURLsForAuthForwarding", "strings"),
    _f("bboxForEachCRS", "bool"),
    _rec("watermark", WATERMARK),
    _enum("interpolation", "Nearest", "Bilinear", "Bicubic"),
    _f("getFeatureInfoMimeTypeCheckingEnabled", "bool"),
    _f("getFeatureInfoMimeTypes", "strings"),
    _f("getMapMimeTypeCheckingEnabled", "bool"),
    _f("getMapMimeTypes", "strings"),
    _f("dynamicStylingDisabled", "bool"),
    _f("featuresReprojectionDisabled", "bool"),
    _items("authorityURLs", "AuthorityURL", AUTHORITY_URL),
    _items("identifiers", "Identifier", LAYER_IDENTIFIER),
    _f("maxBuffer", "int"),
    _f("maxRequestMemory", "int"),
    _f("maxRenderingTime", "int"),
    _f("maxRenderingErrors", "int"),
    _f("rootLayerTitle"),
    _f("rootLayerAbstract"),
    _f("internationalRootLayerTitle", "intl"),
    _f("internationalRootLayerAbstract", "intl"),
    _f("maxRequestedDimensionValues", "int"),
    _rec("cacheConfiguration", CACHE_CONFIGURATION),
    _f("remoteStyleMaxRequestTime", "int"),
    _f("remoteStyleTimeout", "int"),
    _f("defaultGroupStyleEnabled", "bool"),
    _f("transformFeatureInfoDisabled", "bool"),
    _f("autoEscapeTemplateValues", "bool"),
    _f("exceptionOnInvalidDimension", "bool"),
)

GML_VERSIONS = ("V_10", "V_11", "V_20")
GML: Table = (
    _enum("srsNameStyle", "NORMAL", "XML", "URN", "URN2", "URL"),
    _f("overrideGMLAttributes", "bool"),
    _f("mimeTypeToForce"),
)

WFS: Table = (
    *SERVICE,
    Field("gml", "gml", GML),
    _enum("serviceLevel", "BASIC", "TRANSACTIONAL", "COMPLETE"),
    _f("maxFeatures", "int"),
    _f("featureBounding", "bool"),
    _f("canonicalSchemaLocation", "bool"),
    _f("encodeFeatureMember", "bool"),
    _f("hitsIgnoreMaxFeatures", "bool"),
    _f("includeWFSRequestDumpFile", "bool"),
    _f("maxNumberOfFeaturesForPreview", "int"),
    _f("srs", "strings"),
    _f("allowGlobalQueries", "bool"),
    _f("simpleConversionEnabled", "bool"),
    _f("getFeatureOutputTypeCheckingEnabled", "bool"),
    _f("getFeatureOutputTypes", "strings"),
    _f("csvDateFormat"),
)

WCS: Table = (
    *SERVICE,
    _f("gmlPrefixing", "bool"),
    _f("latLon", "bool"),
    _f("maxInputMemory", "int"),
    _f("maxOutputMemory", "int"),
    _f("srs", "strings"),
    _f("subsamplingEnabled", "bool"),
    _f("maxRequestedDimensionValues", "int"),
    _f("defaultDeflateCompressionLevel", "int"),
)

WMTS: Table = SERVICE

# -- objects a service's metadata map holds --------------------------------------------------

FEATURE_CONFORMANCE: Table = tuple(
    _f(name, "bool")
    for name in (
        "core", "gml321", "gmlSF0", "gmlSF2", "featuresFilter", "crsByReference", "filter",
        "search", "queryables", "ids", "sortBy", "propertySelection",
    )
)  # fmt: skip
"""OGC API Features' ``FeatureConformance`` (its Java fields, in declaration order)"""
CQL2_CONFORMANCE: Table = tuple(
    _f(name, "bool")
    for name in (
        "json", "text", "advanced", "arithmetic", "basic", "basicSpatial", "functions",
        "propertyProperty", "spatial",
    )
)  # fmt: skip
"""``CQL2Conformance``: the CQL2 encodings and capabilities an OGC API accepts"""
ECQL_CONFORMANCE: Table = (_f("text", "bool"),)
"""``ECQLConformance``: whether ECQL text is accepted"""

METADATA_TYPES: dict[str, Table] = {
    "ogcapiFeatures": FEATURE_CONFORMANCE,
    "cql2": CQL2_CONFORMANCE,
    "ecql": ECQL_CONFORMANCE,
}
"""the objects a metadata entry may hold, by the type id GeoServer registers for them
(``registerBriefMapComplexType``): ``<entry key="k"><cql2><text>true</text></cql2></entry>``"""

SERVICES: dict[str, Table] = {"wms": WMS, "wfs": WFS, "wcs": WCS, "wmts": WMTS}
"""the service kinds, by the name of their REST path segment, data-directory file and root"""

_INT_MIN, _INT_MAX = -(2**63), 2**63 - 1


def by_name(table: Table) -> dict[str, Field]:
    return {f.name: f for f in table}


def check(table: Table, value: Any, where: str) -> dict[str, Any]:
    """``value`` checked against ``table`` (a plain dict); ``ValueError`` names the bad path."""
    if not isinstance(value, dict):
        raise ValueError(f"{where}: expected an object")
    fields = by_name(table)
    out: dict[str, Any] = {}
    for key, item in value.items():
        field = fields.get(key)
        if field is None:
            raise ValueError(f"{where}.{key}: no such field")
        if item is None:
            continue
        out[key] = check_field(field, item, f"{where}.{key}")
    return out


def check_field(field: Field, value: Any, where: str) -> Any:
    kind = field.kind
    if kind == "str":
        if not isinstance(value, str):
            raise ValueError(f"{where}: expected a string")
        return value
    if kind == "bool":
        if not isinstance(value, bool):
            raise ValueError(f"{where}: expected true or false")
        return value
    if kind == "int":
        if isinstance(value, bool) or not isinstance(value, int):
            raise ValueError(f"{where}: expected an integer")
        if not _INT_MIN <= value <= _INT_MAX:
            raise ValueError(f"{where}: out of range")
        return value
    if kind == "float":
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise ValueError(f"{where}: expected a number")
        if value != value or value in (float("inf"), float("-inf")):
            raise ValueError(f"{where}: expected a finite number")
        return float(value)
    if kind == "enum":
        if value not in field.choices:
            raise ValueError(f"{where}: expected one of {', '.join(field.choices)}")
        return value
    if kind in ("strings", "versions"):
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise ValueError(f"{where}: expected a list of strings")
        return list(value)
    if kind == "intl":
        if not isinstance(value, dict) or not all(isinstance(v, str) for v in value.values()):
            raise ValueError(f"{where}: expected an object of strings")
        return dict(value)
    if kind == "metadata":
        if not isinstance(value, dict):
            raise ValueError(f"{where}: expected an object")
        return {k: metadata_value(v, f"{where}.{k}") for k, v in value.items()}
    if kind == "keywords":
        return [keyword(k, f"{where}[{i}]") for i, k in enumerate(_list(value, where))]
    if kind == "record":
        return check(field.table, value, where)
    if kind == "items":
        return [check(field.table, v, f"{where}[{i}]") for i, v in enumerate(_list(value, where))]
    if kind == "gml":
        if not isinstance(value, dict):
            raise ValueError(f"{where}: expected an object")
        out: dict[str, Any] = {}
        for version, gml in value.items():
            if version not in GML_VERSIONS:
                raise ValueError(f"{where}.{version}: expected one of {', '.join(GML_VERSIONS)}")
            out[version] = check(field.table, gml, f"{where}.{version}")
        return out
    raise AssertionError(kind)  # pragma: no cover


def metadata_value(value: Any, where: str) -> str | dict[str, dict[str, Any]]:
    """A checked metadata entry: a string, or ``{type id: object}`` of a ``METADATA_TYPES``
    type."""
    if isinstance(value, str):
        return value
    if not isinstance(value, dict) or len(value) != 1:
        raise ValueError(f"{where}: expected a string or an object of one registered type")
    ((kind, inner),) = value.items()
    table = METADATA_TYPES.get(kind)
    if table is None:
        raise ValueError(f"{where}.{kind}: expected one of {', '.join(METADATA_TYPES)}")
    return {kind: check(table, inner or {}, f"{where}.{kind}")}


def _list(value: Any, where: str) -> list[Any]:
    if not isinstance(value, list):
        raise ValueError(f"{where}: expected a list")
    return value


def keyword(value: Any, where: str) -> dict[str, str]:
    """A checked keyword: ``{"value", "language"?, "vocabulary"?}`` (a string is a value)."""
    if isinstance(value, str):
        value = {"value": value}
    if not isinstance(value, dict) or not isinstance(value.get("value"), str):
        raise ValueError(f"{where}: expected a keyword with a string value")
    unknown = set(value) - {"value", "language", "vocabulary"}
    if unknown:
        raise ValueError(f"{where}.{sorted(unknown)[0]}: no such field")
    out = {"value": value["value"]}
    for key in ("language", "vocabulary"):
        if value.get(key) is not None:
            if not isinstance(value[key], str):
                raise ValueError(f"{where}.{key}: expected a string")
            out[key] = value[key]
    return out


def merge(table: Table, current: Mapping[str, Any], patch: Mapping[str, Any]) -> dict[str, Any]:
    """``current`` with the fields ``patch`` names replaced; nested records are merged field
    by field (a PUT changes only what it names), lists and maps are replaced whole."""
    fields = by_name(table)
    out = dict(current)
    for key, value in patch.items():
        field = fields[key]
        old = out.get(key)
        if field.kind == "record" and isinstance(old, dict) and isinstance(value, dict):
            out[key] = merge(field.table, old, value)
        else:
            out[key] = value
    return out
