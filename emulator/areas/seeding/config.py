"""GeoWebCache's server configuration besides layers and gridsets: blob stores, the disk
quota settings and the global settings, each kept as the ordered fields a client gave.

A configuration document is a ``Tree``: ``(tag, value)`` pairs in document order, where a
value is a string or a nested ``Tree``. Codecs read and write it; this module only knows
the few fields it checks (a blob store's ``id``, ``enabled``, its default flag; the disk
quota's numbers and units).
"""

from __future__ import annotations

from decimal import Decimal
from typing import Union

from ...core.errors import Invalid
from ...core.record import field, record
from ...wire.geoserver.java import parse_int

Tree = list[tuple[str, Union[str, "Tree"]]]

BLOB_STORE_TYPES = {
    "FileBlobStore": "org.geowebcache.config.FileBlobStoreInfo",
    "S3BlobStore": "org.geowebcache.s3.S3BlobStoreInfo",
    "AzureBlobStore": "org.geowebcache.azure.AzureBlobStoreInfo",
    "MbtilesBlobStore": "org.geowebcache.sqlite.MbtilesInfo",
    "SqliteBlobStore": "org.geowebcache.sqlite.SqliteInfo",
    "GcsBlobStore": "org.geowebcache.storage.blobstore.gcs.GoogleCloudStorageBlobStoreInfo",
    "SwiftBlobStore": "org.geowebcache.swift.SwiftBlobStoreInfo",
}
"""the blob store kinds GeoServer's extensions add, by the root element XStream gives them"""
REQUIRED_FIELDS = {
    "FileBlobStore": "baseDirectory",
    "S3BlobStore": "bucket",
    "AzureBlobStore": "container",
    "GcsBlobStore": "bucket",
    "SwiftBlobStore": "container",
}

QUOTA_UNITS = ("B", "KiB", "MiB", "GiB", "TiB")
TIME_UNITS = ("NANOSECONDS", "MICROSECONDS", "MILLISECONDS", "SECONDS", "MINUTES", "HOURS", "DAYS")
EXPIRATION_POLICIES = ("LRU", "LFU")


def get(tree: Tree, tag: str) -> str | Tree | None:
    for k, v in tree:
        if k == tag:
            return v
    return None


def text(tree: Tree, tag: str) -> str | None:
    v = get(tree, tag)
    return v if isinstance(v, str) else None


def put(tree: Tree, tag: str, value: str | Tree) -> Tree:
    """``tree`` with ``tag`` set to ``value`` (in place if present, else appended)."""
    out = [(k, value if k == tag else v) for k, v in tree]
    if all(k != tag for k, _ in tree):
        out.append((tag, value))
    return out


@record
class BlobStore:
    """One blob store configuration (GWC's ``BlobStoreInfo``)."""

    kind: str
    """the root element: ``FileBlobStore``, ``S3BlobStore``, ``AzureBlobStore``…"""
    id: str
    enabled: bool = True
    default: bool = False
    fields: Tree = field(default_factory=list)
    """every other field, in the order given"""


def check_blob_store(store: BlobStore) -> None:
    """What GWC's blob store validation refuses (the message is the emulator's)."""
    if store.kind not in BLOB_STORE_TYPES:
        raise Invalid(f"Unknown blob store type: {store.kind}")
    if not store.id:
        raise Invalid("BlobStoreInfo id must not be null or empty")
    required = REQUIRED_FIELDS.get(store.kind)
    if required is not None and not text(store.fields, required):
        raise Invalid(f"{store.kind} {store.id}: {required} is required")
    if store.default and not store.enabled:
        raise Invalid("The default blob store can't be disabled")


DEFAULT_QUOTA: Tree = [
    ("enabled", "false"),
    ("cacheCleanUpFrequency", "10"),
    ("cacheCleanUpUnits", "SECONDS"),
    ("maxConcurrentCleanUps", "2"),
    ("globalExpirationPolicyName", "LFU"),
    ("globalQuota", [("value", "500"), ("units", "MiB")]),
    ("layerQuotas", []),
]
"""GeoServer's disk quota defaults (``DiskQuotaConfig`` as a fresh install writes it)"""


@record
class DiskQuotaConfig:
    fields: Tree = field(default_factory=lambda: list(DEFAULT_QUOTA))


def _integer(value: str | None, what: str, minimum: int) -> None:
    if value is None:
        return
    try:
        n = parse_int(value.strip())
    except ValueError:
        raise Invalid(f"{what} must be an integer (a Java int): {value}") from None
    if n < minimum:
        raise Invalid(f"{what} must be at least {minimum}")


QUOTA_FIELDS = (
    "enabled", "cacheCleanUpFrequency", "cacheCleanUpUnits", "maxConcurrentCleanUps",
    "globalExpirationPolicyName", "globalQuota", "layerQuotas", "quotaStore",
)  # fmt: skip
"""the fields of GWC's ``DiskQuotaConfig`` (XStream refuses any other)"""


def check_quota(tree: Tree) -> None:
    """``DiskQuotaConfig.validate``'s rules, before anything is stored; a field the class
    does not have is refused, as XStream refuses it (nothing unknown is kept)."""
    for tag, _ in tree:
        if tag not in QUOTA_FIELDS:
            raise Invalid(f"No such field org.geowebcache.diskquota.DiskQuotaConfig.{tag}")
    enabled = text(tree, "enabled")
    if enabled is not None and enabled.strip() not in ("true", "false"):
        raise Invalid(f"enabled must be true or false: {enabled}")
    _integer(text(tree, "cacheCleanUpFrequency"), "cacheCleanUpFrequency", 0)
    _integer(text(tree, "maxConcurrentCleanUps"), "maxConcurrentCleanUps", 1)
    units = text(tree, "cacheCleanUpUnits")
    if units is not None and units not in TIME_UNITS:
        raise Invalid(f"No enum constant java.util.concurrent.TimeUnit.{units}")
    policy = text(tree, "globalExpirationPolicyName")
    if policy is not None and policy not in EXPIRATION_POLICIES:
        raise Invalid(f"Unknown expiration policy: {policy}")
    quota = get(tree, "globalQuota")
    if isinstance(quota, list):
        value = text(quota, "value")
        if value is not None:
            try:  # a BigDecimal: a finite decimal, no NaN or infinity
                if not Decimal(value.strip()).is_finite() or Decimal(value.strip()) < 0:
                    raise ValueError
            except (ValueError, ArithmeticError):
                raise Invalid(f"globalQuota value must be a non-negative number: {value}") from None
        unit = text(quota, "units")
        if unit is not None and unit not in QUOTA_UNITS:
            raise Invalid(f"No enum constant org.geowebcache.diskquota.storage.StorageUnit.{unit}")


DEFAULT_GLOBAL: Tree = [
    (
        "serviceInformation",
        [
            ("title", "GeoWebCache"),
            (
                "description",
                "GeoWebCache is an advanced tile cache for WMS servers. It supports a large"
                " variety of protocols and formats, including WMS-C, WMTS, KML, Google Maps and"
                " Virtual Earth.",
            ),
            ("keywords", [("string", "WFS"), ("string", "WMS"), ("string", "WMTS"),
                          ("string", "GEOWEBCACHE")]),
            ("serviceProvider", [("providerName", "John Smith inc."),
                                 ("providerSite", "http://www.example.com/")]),
            ("fees", "NONE"),
            ("accessConstraints", "NONE"),
        ],
    ),
    ("runtimeStatsEnabled", "true"),
    ("wmtsCiteCompliant", "false"),
    ("backendTimeout", "120"),
    ("cacheBypassAllowed", "false"),
    ("version", "1.28.0"),
    ("identifier", "geowebcache.xml"),
    ("location", "gwc/geowebcache.xml"),
]  # fmt: skip
"""the global settings a GeoServer data directory's ``gwc/geowebcache.xml`` gives"""
READ_ONLY_GLOBAL = ("identifier", "location", "version")
"""``ServerConfigurationPOJO`` fields GWC reports but refuses to set"""
GLOBAL_FIELDS = (
    "serviceInformation", "runtimeStatsEnabled", "wmtsCiteCompliant", "backendTimeout",
    "cacheBypassAllowed", "lockProvider", "httpUsername", "httpPassword",
    *READ_ONLY_GLOBAL,
)  # fmt: skip


@record
class GlobalConfig:
    fields: Tree = field(default_factory=lambda: list(DEFAULT_GLOBAL))


def merge_global(current: Tree, given: Tree) -> Tree:
    """``ServerController.serverPut``: every field given replaces the current one; a
    read-only one may only repeat its value; unknown ones are refused (nothing changes)."""
    for tag in READ_ONLY_GLOBAL:
        value = get(given, tag)
        if value is not None and value != get(current, tag):
            raise Invalid(f'Cannot modify read-only property "{tag}"')
    given = [(k, v) for k, v in given if k not in READ_ONLY_GLOBAL]
    for tag, value in given:
        if tag not in GLOBAL_FIELDS:
            raise Invalid(f"Unknown configuration property {tag}")
        if tag in ("runtimeStatsEnabled", "wmtsCiteCompliant", "cacheBypassAllowed"):
            if value not in ("true", "false"):
                raise Invalid(f"{tag} must be true or false")
        if tag == "backendTimeout":
            _integer(value if isinstance(value, str) else None, tag, 0)
    out = list(current)
    for tag, value in given:
        out = put(out, tag, value)
    return out
