"""The configuration files of the emulated data directory, kept in step with the store.

``global.xml``, ``logging.xml``, ``wms.xml``, ``wfs.xml``, ``wcs.xml``, ``wmts.xml`` at the
root; ``workspaces/{ws}/settings.xml`` and ``workspaces/{ws}/{service}.xml`` for what a
workspace has of its own; ``gwc-gs.xml`` (GeoServer's tile-caching integration) as a fresh
server writes it. ``sync`` rewrites only the files whose bytes changed, so the resource
API's ``Last-Modified`` moves only for them, and removes the workspace files of
configurations that are gone.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from . import codec, schema

if TYPE_CHECKING:
    from ...core.state import State

_WORKSPACE_FILE = re.compile(r"workspaces/[^/]+/(?:settings|wms|wfs|wcs|wmts)\.xml")

GWC_CONFIG = "gwc-gs.xml"
GWC_CONFIG_XML = b"""<GeoServerGWCConfig>
  <version>1.1.0</version>
  <directWMSIntegrationEnabled>false</directWMSIntegrationEnabled>
  <WMSCEnabled>true</WMSCEnabled>
  <TMSEnabled>true</TMSEnabled>
  <securityEnabled>false</securityEnabled>
  <innerCachingEnabled>false</innerCachingEnabled>
  <persistenceEnabled>true</persistenceEnabled>
  <cacheProviderClass>class org.geoserver.gwc.ConfigurableBlobStore</cacheProviderClass>
  <cacheConfigurations>
    <entry>
      <string>class org.geowebcache.storage.blobstore.memory.guava.GuavaCacheProvider</string>
      <InnerCacheConfiguration>
        <hardMemoryLimit>16</hardMemoryLimit>
        <policy>NULL</policy>
        <concurrencyLevel>4</concurrencyLevel>
        <evitionTime>120</evitionTime>
      </InnerCacheConfiguration>
    </entry>
  </cacheConfigurations>
  <cacheLayersByDefault>true</cacheLayersByDefault>
  <cacheNonDefaultStyles>false</cacheNonDefaultStyles>
  <metaTilingX>4</metaTilingX>
  <metaTilingY>4</metaTilingY>
  <gutter>0</gutter>
  <defaultCachingGridSetIds>
    <string>EPSG:4326</string>
    <string>EPSG:900913</string>
  </defaultCachingGridSetIds>
  <defaultCoverageCacheFormats>
    <string>image/jpeg</string>
    <string>image/png</string>
  </defaultCoverageCacheFormats>
  <defaultVectorCacheFormats>
    <string>image/png</string>
    <string>image/jpeg</string>
  </defaultVectorCacheFormats>
  <defaultOtherCacheFormats>
    <string>image/png</string>
    <string>image/jpeg</string>
  </defaultOtherCacheFormats>
  <lockProviderName>nioLock</lockProviderName>
</GeoServerGWCConfig>"""


def wanted(state: State) -> dict[str, bytes]:
    """Every configuration file the store implies, by data-directory path."""
    s = state.settings
    out = {
        "global.xml": codec.file_xml(
            codec.node(schema.GLOBAL, s.global_info, "global", files=True)
        ),
        "logging.xml": codec.file_xml(codec.node(schema.LOGGING, s.logging, "logging", files=True)),
    }
    for kind, table in schema.SERVICES.items():
        out[f"{kind}.xml"] = _xml(table, s.services[kind], kind)
    for ws, values in s.workspace_settings.items():
        out[f"workspaces/{ws}/settings.xml"] = _xml(schema.SETTINGS, values, "settings", ws)
    for kind, table in schema.SERVICES.items():
        for ws, values in s.workspace_services[kind].items():
            out[f"workspaces/{ws}/{kind}.xml"] = _xml(table, values, kind, ws)
    return out


def _xml(table: schema.Table, values: dict[str, Any], tag: str, ws: str | None = None) -> bytes:
    return codec.file_xml(codec.node(table, values, tag, workspace=ws, files=True))


def sync(state: State, now: float = 0.0) -> None:
    """Write the files that changed and remove the workspace files no longer backed."""
    dd = state.datadir
    want = wanted(state)
    for path in [p for p in dd.files if _WORKSPACE_FILE.fullmatch(p) and p not in want]:
        dd.delete(path)
    for path, data in want.items():
        if dd.read(path) != data:
            dd.write(path, data, now)


def ensure_gwc_config(state: State) -> None:
    if state.datadir.read(GWC_CONFIG) is None:
        state.datadir.write(GWC_CONFIG, GWC_CONFIG_XML)
