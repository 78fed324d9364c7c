"""What the emulated server is made of, composed above the areas: the stores its state holds
(``STORES``), how they are linked (``link``), and which area answers each hook an area below
calls (``HOOKS``, see ``core/hooks.py``).

The package facade hands this module to the core (``core/root.provide_composition``); it is
imported when a state is first made or restored, or a hook first called. Everything here is a
name: no area is imported until it is used.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .core.state import State

STORES: dict[str, str] = {
    "ids": "geoserver_emulator.core.ids:Ids",
    "datadir": "geoserver_emulator.core.datadir:DataDir",
    "users": "geoserver_emulator.areas.users.model:UsersStore",
    "auth_providers": "geoserver_emulator.areas.auth_providers.model:ProviderStore",
    "auth_filters": "geoserver_emulator.areas.auth_filters.model:FilterStore",
    "filter_chains": "geoserver_emulator.areas.filter_chains.model:FilterChainStore",
    "security": "geoserver_emulator.areas.security.model:SecurityStore",
    "catalog": "geoserver_emulator.areas.catalog.model:Catalog",
    "styles": "geoserver_emulator.areas.styles.model:StyleStore",
    "seeding": "geoserver_emulator.areas.seeding.model:SeedingStore",
    "urlchecks": "geoserver_emulator.areas.urlchecks.model:UrlCheckStore",
    "about": "geoserver_emulator.areas.about.model:AboutStore",
    "mosaics": "geoserver_emulator.areas.mosaics.model:MosaicStore",
    "appschema": "geoserver_emulator.areas.appschema.model:AppSchemaStore",
    "settings": "geoserver_emulator.areas.settings.model:SettingsStore",
    "features": "geoserver_emulator.features.model:FeatureStore",
    "cascade": "geoserver_emulator.areas.cascade.model:Remotes",
    "importer": "geoserver_emulator.areas.importer.model:ImportStore",
}
"""Each store's name and class (``module:Class``). The classes are imported when an empty
state is made (to build a scenario); a restored state imports a store's module when its
part is unpickled, so a process loads only the models of the areas it uses."""


def link(state: State) -> None:
    """Link the stores of a new, empty state: every published layer and layer group has a
    tile layer, so the catalog keeps the seeding store's."""
    state.catalog.tiles = state.seeding


HOOKS: dict[str, tuple[str, ...]] = {
    # a coverage store left the catalog: its mosaic index and its single-file grids go
    "catalog.store_deleted": (
        "geoserver_emulator.areas.mosaics.service:release_store",
        "geoserver_emulator.areas.uploads.coverages:release_store",
    ),
    # the coverage names a coverage store's reader offers beyond the catalog's (a mosaic's)
    "catalog.reader_names": ("geoserver_emulator.areas.mosaics.service:reader_names",),
    # a feature type or coverage POSTed: fill what the client left out from the upload's data
    "catalog.resource_posted": ("geoserver_emulator.areas.uploads.build:fill_from_data",),
    # a workspace was deleted or renamed: rewrite the settings files it changed
    "catalog.workspace_changed": ("geoserver_emulator.areas.settings.files:sync_workspace",),
    # a single-file coverage (GeoTIFF, world image, ArcGrid) PUT to a mosaic's upload route
    "mosaics.coverage_upload": ("geoserver_emulator.areas.uploads.routes:put_coverage",),
}
"""Each hook an area calls, and the functions (``module:function``) of the areas above it that
answer, in order."""
