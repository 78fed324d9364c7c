"""Where the emulator keeps what it caches on disk between processes (the built-in
scenarios' baselines, the ECQL grammar's parse tables), or None when the cache is off.

``$GEOSERVER_EMULATOR_CACHE``, else ``$XDG_CACHE_HOME/geoserver-emulator``, else
``~/.cache/geoserver-emulator``; ``GEOSERVER_EMULATOR_CACHE=off`` turns the cache off.
"""

from __future__ import annotations

import os
from pathlib import Path

ENV = "GEOSERVER_EMULATOR_CACHE"


def folder() -> Path | None:
    """Where entries live, or None when the cache is off."""
    chosen = os.environ.get(ENV)
    if chosen is not None:
        return None if chosen.strip().lower() in ("", "off", "0", "false", "no") else Path(chosen)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "geoserver-emulator"
