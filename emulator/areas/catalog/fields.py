"""The catalog's field tables: for each kind of object, every field GeoServer's model persists
(its ``*Info`` interface as ``XStreamPersister`` writes it), in the order GeoServer writes them.

A table is a tuple of ``Field`` s. A field of kind ``MODEL`` is kept in a named attribute of
the entity and written by the codec's own code (names, references, bounding boxes, the
collections other areas build); every other field is *generic*: its value lives in the
entity's ``extras`` dict under its tag, in a normal form this module defines, and
``codec.py`` and ``parse.py`` read and write it from the table alone. The table's order is
the output order: a generic field is written after the last field before it that the
document holds. The tests draw documents from the same tables (``tests/areas/catalog/
strategies.py``), so a field added here is parsed, kept, written and tested at once.

Kinds and their normal forms (what ``extras`` holds, and what a scenario carries):

- ``TEXT``, ``BOOL``, ``INT``, ``FLOAT``: a ``str``, ``bool``, ``int``, ``float``;
  ``ENUM``: one of ``choices`` (matched as XStream's enum converter does);
- ``STRINGS``: a list of ``str``, written as ``<tag><item>v</item>…</tag>``;
- ``STRUCT``: a dict of the ``sub`` fields' normal forms (a sub field named ``@x`` is the XML
  attribute ``x``, ``{"@x": …}`` in JSON);
- ``LIST``: a list of such dicts, each written as one ``item`` element;
- ``MAP``: a metadata map (text values, or structured ones in the JSON shape);
- ``I18N``: an internationalised string, a dict locale → text (``<en>…</en>``).

An empty list, map or struct is no value: GeoServer leaves empty collections out. A field
that is unset is absent from the output unless it has a ``default`` (GeoServer's primitive
fields, always written).

Another area (WMS and WMTS stores and layers) reuses the mechanism by declaring its own
tables with these kinds and calling ``read_extras`` / ``write_extras`` (see
``docs/catalog.md``).
"""

from __future__ import annotations

from typing import Any, NamedTuple

from .entities import GROUP_MODES, PROJECTION_POLICIES

MODEL, TEXT, BOOL, INT, FLOAT, ENUM = "model", "text", "bool", "int", "float", "enum"
STRINGS, STRUCT, LIST, MAP, I18N = "strings", "struct", "list", "map", "i18n"


class Field(NamedTuple):
    """One persisted field: its element ``tag``, its ``kind``, and what the kind needs."""

    tag: str
    kind: str = MODEL
    item: str = ""
    """the element of each member (``STRINGS``, ``LIST``)"""
    sub: tuple[Field, ...] = ()
    """the fields of a ``STRUCT`` or of each ``LIST`` member"""
    choices: tuple[str, ...] = ()
    """the constants of an ``ENUM``"""
    default: Any = None
    """a generic field's value written when it is unset (GeoServer's primitive fields);
    a model field's value that its absence from a document stands for (the codec leaves
    the field out then: ``advertised`` true, ``opaque`` false); None: none"""
    shape: str = ""
    """a model field's wire kind (``TEXT``, ``BOOL``, ``INT``, ``ENUM``, ``STRINGS``,
    ``MAP``), for the tests and docs; empty for references and structures the codec writes
    its own way (names, links, boxes, attributes, bands)"""

    @property
    def generic(self) -> bool:
        return self.kind != MODEL


def _m(*tags: str) -> tuple[Field, ...]:
    return tuple(Field(t) for t in tags)


def _t(tag: str, shape: str = TEXT, **kw: Any) -> Field:
    """A model field with a plain wire shape."""
    return Field(tag, MODEL, shape=shape, **kw)


# -- nested structures ------------------------------------------------------------------

METADATA_LINK = (
    Field("id", TEXT),
    Field("type", TEXT),
    Field("about", TEXT),
    Field("metadataType", TEXT),
    Field("content", TEXT),
)
DATA_LINK = (Field("id", TEXT), Field("type", TEXT), Field("about", TEXT), Field("content", TEXT))
ATTRIBUTION = (
    Field("title", TEXT),
    Field("href", TEXT),
    Field("logoURL", TEXT),
    Field("logoWidth", INT, default=0),
    Field("logoHeight", INT, default=0),
    Field("logoType", TEXT),
)
AUTHORITY_URL = (Field("name", TEXT), Field("href", TEXT))
IDENTIFIER = (Field("authority", TEXT), Field("identifier", TEXT))
LEGEND = (
    Field("width", INT, default=0),
    Field("height", INT, default=0),
    Field("format", TEXT),
    Field("onlineResource", TEXT),
)
GRID = (
    Field("@dimension", TEXT),
    Field("range", STRUCT, sub=(Field("low", TEXT), Field("high", TEXT))),
    Field(
        "transform",
        STRUCT,
        sub=tuple(
            Field(t, FLOAT)
            for t in ("scaleX", "scaleY", "shearX", "shearY", "translateX", "translateY")
        ),
    ),
    Field("crs", TEXT),
)
WMS_INTERPOLATIONS = ("Nearest", "Bilinear", "Bicubic")

METADATA_LINKS = Field("metadataLinks", LIST, item="metadataLink", sub=METADATA_LINK)
DATA_LINKS = Field(
    "dataLinks", LIST, item="org.geoserver.catalog.impl.DataLinkInfoImpl", sub=DATA_LINK
)
"""GeoServer registers no alias for the data link class, so XStream names each one after it"""
AUTHORITY_URLS = Field("authorityURLs", LIST, item="AuthorityURL", sub=AUTHORITY_URL)
IDENTIFIERS = Field("identifiers", LIST, item="Identifier", sub=IDENTIFIER)
I18N_TITLE = Field("internationalTitle", I18N)
I18N_ABSTRACT = Field("internationalAbstract", I18N)

# -- the tables -------------------------------------------------------------------------

WORKSPACE = (
    Field("name"),
    _t("isolated", BOOL),
    Field("metadata", MAP),
    *_m("dateCreated", "dateModified"),
)
NAMESPACE = (Field("prefix"), _t("uri"), _t("isolated", BOOL), Field("metadata", MAP))


def _store(*extra: Field) -> tuple[Field, ...]:
    return (
        Field("name"),
        _t("description"),
        _t("type"),
        _t("enabled", BOOL),
        Field("workspace"),
        _t("connectionParameters", MAP),
        Field("__default"),
        *extra,
        *_m("dateCreated", "dateModified"),
        _t("disableOnConnFailure", BOOL),
        _t("metadata", MAP),
    )


_HTTP = (
    _t("capabilitiesURL"),
    _t("user"),
    _t("password"),
    _t("maxConnections", INT),
    _t("readTimeout", INT),
    _t("connectTimeout", INT),
)
WMS_STORE = (
    Field("name"),
    _t("description"),
    _t("type"),
    _t("enabled", BOOL),
    Field("workspace"),
    _t("connectionParameters", MAP),
    _t("metadata", MAP),
    Field("__default"),
    *_m("dateCreated", "dateModified"),
    _t("disableOnConnFailure", BOOL),
    *_HTTP,
)
"""a WMS store (``WMSStoreInfo``: a store and an ``HTTPStoreInfo``), as the cascade area's
codec writes it"""
WMTS_STORE = (*WMS_STORE, _t("headerName"), _t("headerValue"))
DATA_STORE = _store()
COVERAGE_STORE = _store(_t("url"))
STORE = _store(_t("url"), _t("capabilitiesURL"))
"""every field of any store kind (WMS and WMTS stores add their own; see ``docs/catalog.md``)"""

RESOURCE = (
    Field("name"),
    _t("nativeName"),
    Field("alias", STRINGS, item="string"),
    Field("namespace"),
    _t("title"),
    _t("description"),
    _t("abstract"),
    _t("keywords", STRINGS),
    METADATA_LINKS,
    DATA_LINKS,
    Field("nativeCRS"),
    _t("srs"),
    *_m("nativeBoundingBox", "latLonBoundingBox"),
    _t("projectionPolicy", ENUM, choices=PROJECTION_POLICIES),
    _t("enabled", BOOL),
    _t("advertised", BOOL, default=True),
    _t("metadata", MAP),
    Field("store"),
    Field("serviceConfiguration", BOOL, default=False),
    Field("disabledServices", STRINGS, item="string"),
    Field("simpleConversionEnabled", BOOL, default=False),
    I18N_TITLE,
    I18N_ABSTRACT,
)
FEATURE_TYPE = (
    *RESOURCE,
    Field("cqlFilter", TEXT),
    _t("maxFeatures", INT),
    _t("numDecimals", INT),
    Field("padWithZeros", BOOL, default=False),
    Field("forcedDecimal", BOOL, default=False),
    Field("responseSRS", STRINGS, item="string"),
    Field("overridingServiceSRS", BOOL, default=False),
    Field("skipNumberMatched", BOOL, default=False),
    Field("circularArcPresent", BOOL, default=False),
    Field("encodeMeasures", BOOL),
    Field("linearizationTolerance", TEXT),
    *_m("attributes", "dateCreated", "dateModified"),
)
COVERAGE = (
    *RESOURCE,
    _t("nativeFormat"),
    Field("grid", STRUCT, sub=GRID),
    _t("supportedFormats", STRINGS),
    _t("interpolationMethods", STRINGS),
    _t("defaultInterpolationMethod"),
    Field("dimensions"),
    _t("requestSRS", STRINGS),
    _t("responseSRS", STRINGS),
    _t("parameters", MAP),
    _t("nativeCoverageName"),
    *_m("dateCreated", "dateModified"),
)
WMS_LAYER = (
    *RESOURCE,
    _t("forcedRemoteStyle"),
    _t("preferredFormat"),
    _t("selectedRemoteFormats", STRINGS),
    _t("selectedRemoteStyles", STRINGS),
    _t("minScale", FLOAT),
    _t("maxScale", FLOAT),
    _t("metadataBBoxRespected", BOOL),
    Field("allAvailableRemoteStyles"),
    *_m("dateCreated", "dateModified"),
)
"""a cascaded WMS layer (``WMSLayerInfo``): every resource field, then its own (the cascade
area's codec writes the model fields, the generic ones come from here)"""
WMTS_LAYER = (*RESOURCE, *_m("dateCreated", "dateModified"))
"""a cascaded WMTS layer (``WMTSLayerInfo``): the resource fields"""
LAYER = (
    Field("name"),
    Field("abstractTxt", TEXT),
    _t("path"),
    *_m("type", "defaultStyle", "styles", "resource"),
    Field("legend", STRUCT, sub=LEGEND),
    _t("enabled", BOOL),
    _t("queryable", BOOL, default=True),
    _t("opaque", BOOL, default=False),
    _t("advertised", BOOL, default=True),
    Field("metadata", MAP),
    Field("attribution", STRUCT, sub=ATTRIBUTION, default={"logoWidth": 0, "logoHeight": 0}),
    AUTHORITY_URLS,
    IDENTIFIERS,
    Field("defaultWMSInterpolationMethod", ENUM, choices=WMS_INTERPOLATIONS),
    I18N_TITLE,
    I18N_ABSTRACT,
    *_m("dateCreated", "dateModified"),
)
LAYER_GROUP = (
    Field("name"),
    _t("mode", ENUM, choices=GROUP_MODES),
    Field("queryDisabled", BOOL),
    _t("title"),
    _t("abstractTxt"),
    Field("workspace"),
    Field("path", TEXT),
    *_m("rootLayer", "rootLayerStyle", "publishables", "styles"),
    METADATA_LINKS,
    Field("bounds"),
    Field("metadata", MAP),
    Field("attribution", STRUCT, sub=ATTRIBUTION),
    AUTHORITY_URLS,
    IDENTIFIERS,
    _t("keywords", STRINGS),
    I18N_TITLE,
    I18N_ABSTRACT,
    _t("enabled", BOOL, default=True),
    _t("advertised", BOOL, default=True),
    *_m("dateCreated", "dateModified"),
)

TABLES: dict[str, tuple[Field, ...]] = {
    "workspace": WORKSPACE,
    "namespace": NAMESPACE,
    "dataStore": DATA_STORE,
    "coverageStore": COVERAGE_STORE,
    "featureType": FEATURE_TYPE,
    "coverage": COVERAGE,
    "layer": LAYER,
    "layerGroup": LAYER_GROUP,
    "wmsStore": WMS_STORE,
    "wmtsStore": WMTS_STORE,
    "wmsLayer": WMS_LAYER,
    "wmtsLayer": WMTS_LAYER,
}
"""every catalog kind this area writes, by its root element"""


def generic(table: tuple[Field, ...]) -> tuple[Field, ...]:
    """The fields of ``table`` kept in ``extras``."""
    return tuple(f for f in table if f.generic)


def order(table: tuple[Field, ...]) -> dict[str, int]:
    """Each tag's position in the output."""
    return {f.tag: i for i, f in enumerate(table)}
