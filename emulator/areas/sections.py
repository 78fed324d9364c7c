"""The scenario sections, one per area, in the order they are applied.

Each entry names the top-level key of a scenario document and the area module that reads
(``apply``) and writes (``dump``) it. Order matters: later areas may refer to earlier ones
(layers to workspaces, styles to layers, tile layers to layers).
"""

from __future__ import annotations

from types import ModuleType

from .about import scenario as about
from .appschema import scenario as appschema
from .auth_filters import scenario as auth_filters
from .auth_providers import scenario as auth_providers
from .cascade import scenario as cascade
from .catalog import scenario as catalog
from .filter_chains import scenario as filter_chains
from .mosaics import scenario as mosaics
from .security import scenario as security
from .seeding import scenario as seeding
from .settings import scenario as settings
from .styles import scenario as styles
from .uploads import scenario as uploads
from .urlchecks import scenario as urlchecks
from .users import scenario as users

SECTIONS: list[tuple[str, ModuleType]] = [
    ("users", users),
    ("authProviders", auth_providers),
    ("authFilters", auth_filters),
    ("filterChains", filter_chains),
    ("security", security),
    ("catalog", catalog),
    ("cascade", cascade),
    ("mosaics", mosaics),
    ("styles", styles),
    ("appSchema", appschema),
    ("features", uploads),
    ("urlChecks", urlchecks),
    ("about", about),
    ("seeding", seeding),
    ("serverSettings", settings),
]

TOP_LEVEL_KEYS = frozenset({"extends", "settings", *(key for key, _ in SECTIONS)})
