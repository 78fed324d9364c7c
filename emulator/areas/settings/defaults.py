"""Stock values: a fresh GeoServer on its release data directory (``global.xml``,
``logging.xml``, ``wms.xml``, ``wfs.xml``, ``wcs.xml``, ``wmts.xml``), and the values a new
object of each class starts with (what a POST or a creating PUT leaves unnamed)."""

from __future__ import annotations

import copy
from typing import Any

from .schema import CONTACT_TEXT

_INTL_EMPTY = {"international" + n[0].upper() + n[1:]: {} for n in CONTACT_TEXT}

CONTACT: dict[str, Any] = {
    "addressCity": "Alexandria",
    "addressCountry": "Roman Empire",
    "addressState": "Egypt",
    "addressType": "Work",
    "contactEmail": "claudius.ptolomaeus@mercury.olympus.gov",
    "contactOrganization": "OSGeo",
    "contactPerson": "Claudius Ptolomaeus",
    "contactPosition": "Chief Geographer",
    "onlineResource": "https://www.osgeo.org/",
    "welcome": (
        "Designed for interoperability, GeoServer publishes data from any major spatial data"
        " source using open standards."
    ),
    **_INTL_EMPTY,
}

SETTINGS: dict[str, Any] = {
    "id": "SettingsInfoImpl-68f6c583:154ca420c47:-8000",
    "contact": CONTACT,
    "charset": "UTF-8",
    "numDecimals": 8,
    "onlineResource": "http://geoserver.org",
    "verbose": False,
    "verboseExceptions": False,
    "metadata": {"quietOnNotFound": "false"},
    "localWorkspaceIncludesPrefix": False,
    "showCreatedTimeColumnsInAdminList": False,
    "showModifiedTimeColumnsInAdminList": False,
    "useHeadersProxyURL": False,
}

JAI_EXT_OPERATIONS = [
    "Affine", "BandCombine", "BandMerge", "BandSelect", "Binarize", "Border", "ColorConvert",
    "Crop", "ErrorDiffusion", "Format", "ImageFunction", "Lookup", "Mosaic", "Null",
    "OrderedDither", "Rescale", "Scale", "Stats", "Translate", "Warp", "algebric",
    "operationConst",
]  # fmt: skip

GLOBAL: dict[str, Any] = {
    "settings": SETTINGS,
    "jai": {
        "allowInterpolation": False,
        "recycling": False,
        "tilePriority": 5,
        "tileThreads": 7,
        "memoryCapacity": 0.5,
        "memoryThreshold": 0.75,
        "imageIOCache": False,
        "pngAcceleration": True,
        "jpegAcceleration": True,
        "allowNativeMosaic": False,
        "allowNativeWarp": False,
        "jaiext": {"jaiExtOperations": JAI_EXT_OPERATIONS},
    },
    "coverageAccess": {
        "maxPoolSize": 10,
        "corePoolSize": 5,
        "keepAliveTime": 30000,
        "queueType": "UNBOUNDED",
        "imageIOCacheThreshold": 10240,
    },
    "metadata": {"logRequestsEnabled": "false"},
    "updateSequence": 294,
    "featureTypeCacheSize": 0,
    "globalServices": True,
    "xmlPostRequestLogBufferSize": 1024,
    "webUIMode": "DEFAULT",
}

LOGGING: dict[str, Any] = {
    "level": "DEFAULT_LOGGING",
    "location": "logs/geoserver.log",
    "stdOutLogging": True,
}


def _kw(*values: str) -> list[dict[str, str]]:
    return [{"value": v} for v in values]


WMS: dict[str, Any] = {
    "id": "wms",
    "enabled": True,
    "name": "Maps",
    "title": "Maps",
    "internationalTitle": {},
    "maintainer": "https://geoserver.org/comm",
    "abstrct": "Georeferenced map images generated from vector data, raster data, and imagery.",
    "internationalAbstract": {},
    "accessConstraints": "NONE",
    "fees": "NONE",
    "versions": ["1.1.1", "1.3.0"],
    "keywords": _kw("MAP", "WMS", "GEOSERVER"),
    "metadataLink": {},
    "citeCompliant": False,
    "onlineResource": "https://geoserver.org",
    "schemaBaseURL": "https://schemas.opengis.net",
    "verbose": False,
    "metadata": {
        "disableDatelineWrappingHeuristic": "false",
        "kmlSuperoverlayMode": "auto",
        "kmlReflectorMode": "refresh",
        "svgAntiAlias": "true",
        "rootLayerInCapabilities": "true",
        "kmlPlacemark": "false",
        "kmlKmscore": "40",
        "mapWrapping": "true",
        "pngCompression": "25",
        "jpegCompression": "25",
        "advancedProjectionDensification": "false",
        "advancedProjectionHandling": "true",
        "kmlAttr": "true",
        "svgRenderer": "Batik",
        "MarkFactoryList": "",
        "scalehintMapunitsPixel": "false",
    },
    "watermark": {"enabled": False, "position": "BOT_RIGHT", "transparency": 0},
    "interpolation": "Nearest",
    "getFeatureInfoMimeTypeCheckingEnabled": False,
    "getMapMimeTypeCheckingEnabled": False,
    "dynamicStylingDisabled": False,
    "featuresReprojectionDisabled": False,
    "maxBuffer": 25,
    "maxRequestMemory": 65536,
    "maxRenderingTime": 60,
    "maxRenderingErrors": 1000,
    "internationalRootLayerTitle": {},
    "internationalRootLayerAbstract": {},
    "cacheConfiguration": {"enabled": False, "maxEntries": 1000, "maxEntrySize": 51200},
}

WFS: dict[str, Any] = {
    "id": "wfs",
    "enabled": True,
    "name": "WFS",
    "title": "GeoServer Web Feature Service",
    "internationalTitle": {},
    "maintainer": "http://geoserver.org/comm",
    "abstrct": (
        "This is the reference implementation of WFS 1.0.0 and WFS 1.1.0, supports all WFS"
        " operations including Transaction."
    ),
    "internationalAbstract": {},
    "accessConstraints": "NONE",
    "fees": "NONE",
    "versions": ["1.0.0", "1.1.0", "2.0.0"],
    "keywords": _kw("WFS", "GEOSERVER"),
    "metadataLink": {},
    "citeCompliant": False,
    "onlineResource": "http://geoserver.org",
    "schemaBaseURL": "http://schemas.opengis.net",
    "verbose": False,
    "metadata": {"SHAPE-ZIP_DEFAULT_PRJ_IS_ESRI": "false"},
    "gml": {
        "V_11": {"srsNameStyle": "URN", "overrideGMLAttributes": False},
        "V_20": {"srsNameStyle": "URN2", "overrideGMLAttributes": False},
        "V_10": {"srsNameStyle": "XML", "overrideGMLAttributes": True},
    },
    "serviceLevel": "COMPLETE",
    "maxFeatures": 1000000,
    "featureBounding": False,
    "canonicalSchemaLocation": False,
    "encodeFeatureMember": False,
    "hitsIgnoreMaxFeatures": False,
    "includeWFSRequestDumpFile": False,
}

WCS: dict[str, Any] = {
    "id": "wcs",
    "enabled": True,
    "name": "WCS",
    "title": "Web Coverage Service",
    "maintainer": "http://jira.codehaus.org/secure/BrowseProject.jspa?id=10311",
    "abstrct": (
        "This server implements the WCS specification 1.0 and 1.1.1, it's reference"
        " implementation of WCS 1.1.1. All layers published by this service are available on"
        " WMS also.\n     "
    ),
    "accessConstraints": "NONE",
    "fees": "NONE",
    "versions": ["1.0.0", "1.1.1"],
    "keywords": _kw("WCS", "WMS", "GEOSERVER"),
    "metadataLink": {
        "type": "undef",
        "about": "http://geoserver.sourceforge.net/html/index.php",
        "metadataType": "other",
    },
    "citeCompliant": False,
    "onlineResource": "http://geoserver.sourceforge.net/html/index.php",
    "schemaBaseURL": "http://schemas.opengis.net",
    "verbose": False,
    "gmlPrefixing": False,
    "maxInputMemory": 0,
    "maxOutputMemory": 0,
}

WMTS: dict[str, Any] = {
    "id": "WMTSInfoImpl--3ef31051:182c1e8b194:-8000",
    "enabled": True,
    "name": "Tiles",
    "title": "Tile Services",
    "maintainer": "https://geoserver.org/com",
    "abstrct": (
        "Pre-rendered georeferenced map tile sets generated from vctor data, raster data, and"
        " imagery."
    ),
    "accessConstraints": "NONE",
    "fees": "NONE",
    "versions": ["1.0.0"],
    "keywords": _kw("TILESET", "WMTS", "GEOSERVER"),
    "citeCompliant": False,
    "onlineResource": "https://geoserver.org",
    "schemaBaseURL": "http://schemas.opengis.net",
    "verbose": False,
}

SERVICES: dict[str, dict[str, Any]] = {"wms": WMS, "wfs": WFS, "wcs": WCS, "wmts": WMTS}

# -- what a new object starts with ---------------------------------------------------------

NEW_SETTINGS: dict[str, Any] = {
    "contact": {"id": "contact"},
    "charset": "UTF-8",
    "numDecimals": 4,
    "verbose": False,
    "verboseExceptions": False,
    "localWorkspaceIncludesPrefix": False,
}
"""a workspace's settings before any are given: what its GET answers, and what a POST
starts from"""

_NEW_SERVICE: dict[str, Any] = {"enabled": True, "citeCompliant": False, "verbose": False}

NEW_SERVICES: dict[str, dict[str, Any]] = {
    "wms": {
        **_NEW_SERVICE,
        "watermark": {"enabled": False, "position": "BOT_RIGHT", "transparency": 100},
        "interpolation": "Nearest",
        "getFeatureInfoMimeTypeCheckingEnabled": False,
        "getMapMimeTypeCheckingEnabled": False,
        "dynamicStylingDisabled": False,
        "featuresReprojectionDisabled": False,
        "maxBuffer": 0,
        "maxRequestMemory": 0,
        "maxRenderingTime": 0,
        "maxRenderingErrors": 0,
        "cacheConfiguration": {"enabled": False, "maxEntries": 1000, "maxEntrySize": 51200},
        "autoEscapeTemplateValues": False,
    },
    "wfs": {
        **_NEW_SERVICE,
        "gml": {},
        "serviceLevel": "COMPLETE",
        "maxFeatures": 2147483647,
        "featureBounding": True,
        "canonicalSchemaLocation": False,
        "encodeFeatureMember": False,
        "hitsIgnoreMaxFeatures": False,
        "includeWFSRequestDumpFile": False,
    },
    "wcs": {
        **_NEW_SERVICE,
        "gmlPrefixing": False,
        "latLon": False,
        "maxInputMemory": 0,
        "maxOutputMemory": 0,
        "subsamplingEnabled": True,
    },
    "wmts": dict(_NEW_SERVICE),
}
"""a service configuration created for a workspace starts from its class's values"""

FONTS = [
    "DejaVu Sans", "DejaVu Sans Bold", "DejaVu Sans Bold Oblique", "DejaVu Sans Condensed",
    "DejaVu Sans Condensed Bold", "DejaVu Sans Condensed Bold Oblique",
    "DejaVu Sans Condensed Oblique", "DejaVu Sans ExtraLight", "DejaVu Sans Mono",
    "DejaVu Sans Mono Bold", "DejaVu Sans Mono Bold Oblique", "DejaVu Sans Mono Oblique",
    "DejaVu Sans Oblique", "DejaVu Serif", "DejaVu Serif Bold", "DejaVu Serif Bold Italic",
    "DejaVu Serif Condensed", "DejaVu Serif Condensed Bold",
    "DejaVu Serif Condensed Bold Italic", "DejaVu Serif Condensed Italic", "DejaVu Serif Italic",
    "Dialog.bold", "Dialog.bolditalic", "Dialog.italic", "Dialog.plain", "DialogInput.bold",
    "DialogInput.bolditalic", "DialogInput.italic", "DialogInput.plain", "Monospaced.bold",
    "Monospaced.bolditalic", "Monospaced.italic", "Monospaced.plain", "SansSerif.bold",
    "SansSerif.bolditalic", "SansSerif.italic", "SansSerif.plain", "Serif.bold",
    "Serif.bolditalic", "Serif.italic", "Serif.plain",
]  # fmt: skip
"""the font names of a fresh GeoServer in a Linux container with the DejaVu fonts and the
JDK's logical fonts"""


def fresh(value: Any) -> Any:
    """A deep copy (the tables above are never handed out)."""
    return copy.deepcopy(value)
