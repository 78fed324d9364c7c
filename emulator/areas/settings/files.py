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
from collections.abc import Callable, Iterable
from functools import partial
from typing import TYPE_CHECKING, Any

from . import codec, schema

if TYPE_CHECKING:
    from ...state import State

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


Render = Callable[[], bytes]


def wanted(state: State) -> dict[str, Render]:
    """Every configuration file the store implies, by data-directory path, each rendered
    when called (a save renders only the files it touched)."""
    s = state.settings
    out: dict[str, Render] = {
        "global.xml": partial(_xml, schema.GLOBAL, s.global_info, "global"),
        "logging.xml": partial(_xml, schema.LOGGING, s.logging, "logging"),
    }
    for kind, table in schema.SERVICES.items():
        out[f"{kind}.xml"] = partial(_xml, table, s.services[kind], kind)
    for ws, values in s.workspace_settings.items():
        out[f"workspaces/{ws}/settings.xml"] = partial(
            _xml, schema.SETTINGS, values, "settings", ws
        )
    for kind, table in schema.SERVICES.items():
        for ws, values in s.workspace_services[kind].items():
            out[f"workspaces/{ws}/{kind}.xml"] = partial(_xml, table, values, kind, ws)
    return out


def _xml(table: schema.Table, values: dict[str, Any], tag: str, ws: str | None = None) -> bytes:
    return codec.file_xml(codec.node(table, values, tag, workspace=ws, files=True))


def sync(state: State, now: float = 0.0, paths: Iterable[str] | None = None) -> None:
    """Write the files that changed and remove the workspace files no longer backed; with
    ``paths``, only those files (what a save touched: GeoServer rewrites the file of the
    object it saves, so a file edited through the resource API stays until then)."""
    dd = state.datadir
    want = wanted(state)
    scope = set(want) | {p for p in dd.files if _WORKSPACE_FILE.fullmatch(p)}
    if paths is not None:
        scope &= set(paths)
    for path in sorted(scope):
        render = want.get(path)
        if render is None:
            dd.delete(path)
            continue
        data = render()
        if dd.read(path) != data:
            dd.write(path, data, now)


def sync_workspace(state: State, now: float, workspace: str) -> None:
    """Rewrite what a workspace's deletion or renaming changed: its own files and
    ``global.xml``."""
    names = ("settings", *schema.SERVICES)
    sync(state, now, ["global.xml", *(f"workspaces/{workspace}/{n}.xml" for n in names)])


def ensure_gwc_config(state: State) -> None:
    if state.datadir.read(GWC_CONFIG) is None:
        state.datadir.write(GWC_CONFIG, GWC_CONFIG_XML)


def load(state: State) -> list[str]:
    """Read the configuration files back into the store (``/rest/reload``), as GeoServer
    re-reads its data directory: a file edited through the resource API takes effect. A
    file that is missing or cannot be read leaves that part as it was; the problems are
    returned, one line each."""
    from ...core.errors import Invalid

    s, dd = state.settings, state.datadir
    problems: list[str] = []

    def read(path: str, root: str, table: schema.Table) -> dict[str, Any] | None:
        data = dd.read(path)
        if data is None:
            return None
        try:
            patch, _ = codec.parse(data, "xml", root, table, [], ids=True)
        except Invalid as exc:
            problems.append(f"{path}: {exc.message}")
            return None
        return patch

    found = read("global.xml", "global", schema.GLOBAL)
    if found is not None:
        s.global_info = found
    found = read("logging.xml", "logging", schema.LOGGING)
    if found is not None:
        s.logging = found
    for kind, table in schema.SERVICES.items():
        found = read(f"{kind}.xml", kind, table)
        if found is not None:
            s.services[kind] = found
    settings: dict[str, dict[str, Any]] = {}
    services: dict[str, dict[str, dict[str, Any]]] = {kind: {} for kind in schema.SERVICES}
    for path in sorted(p for p in dd.files if _WORKSPACE_FILE.fullmatch(p)):
        ws, name = path.split("/")[1], path.split("/")[2].removesuffix(".xml")
        if state.catalog.workspace(ws) is None:
            continue
        if name == "settings":
            found = read(path, "settings", schema.SETTINGS)
            if found is not None:
                settings[ws] = found
        else:
            found = read(path, name, schema.SERVICES[name])
            if found is not None:
                services[name][ws] = found
    s.workspace_settings = settings
    s.workspace_services = services
    return problems
