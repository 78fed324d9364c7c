"""``State``: everything the emulated server holds, one store per area.

A snapshot is the pickled state: restoring it is a structural copy, much cheaper than
re-reading a scenario, and complete by construction (nothing can be forgotten).
"""

from __future__ import annotations

import pickle
from dataclasses import dataclass, field

from .areas.about.model import AboutStore
from .areas.appschema.model import AppSchemaStore
from .areas.auth_filters.model import FilterStore
from .areas.auth_providers.model import ProviderStore
from .areas.catalog.model import Catalog
from .areas.mosaics.model import MosaicStore
from .areas.security.model import SecurityStore
from .areas.seeding.model import SeedingStore
from .areas.styles.model import StyleStore
from .areas.urlchecks.model import UrlCheckStore
from .areas.users.model import UsersStore
from .core.datadir import DataDir
from .core.ids import Ids


@dataclass
class State:
    ids: Ids = field(default_factory=Ids)
    datadir: DataDir = field(default_factory=DataDir)
    users: UsersStore = field(default_factory=UsersStore)
    auth_providers: ProviderStore = field(default_factory=ProviderStore)
    auth_filters: FilterStore = field(default_factory=FilterStore)
    security: SecurityStore = field(default_factory=SecurityStore)
    catalog: Catalog = field(default_factory=Catalog)
    styles: StyleStore = field(default_factory=StyleStore)
    seeding: SeedingStore = field(default_factory=SeedingStore)
    urlchecks: UrlCheckStore = field(default_factory=UrlCheckStore)
    about: AboutStore = field(default_factory=AboutStore)
    mosaics: MosaicStore = field(default_factory=MosaicStore)
    appschema: AppSchemaStore = field(default_factory=AppSchemaStore)

    def __post_init__(self) -> None:
        # every published layer and layer group has a tile layer: the catalog keeps them
        self.catalog.tiles = self.seeding

    def snapshot(self) -> bytes:
        return pickle.dumps(self, protocol=pickle.HIGHEST_PROTOCOL)

    @staticmethod
    def restore(snapshot: bytes) -> State:
        state = pickle.loads(snapshot)
        assert isinstance(state, State)
        return state
