"""``LazyModule``: a module imported on first attribute access, not at import time.

Heavy third-party modules (lxml, regex, werkzeug…) cost tens of milliseconds each to
import; most runs of the emulator never need some of them. A module that uses one through
``etree = LazyModule("lxml.etree")`` reads as before (``etree.SubElement(...)``) and pays
the import when the first call is made. Each attribute is looked up once and then kept on
the proxy (pure memoization of the module's own attributes: nothing mutable is shared).
"""

from __future__ import annotations

import importlib
from typing import Any


class LazyModule:
    """Stands for the module ``name``; imports it when an attribute is first read."""

    def __init__(self, name: str) -> None:
        self._lazy_name = name

    def __getattr__(self, attr: str) -> Any:
        # called only for attributes not yet kept on the proxy
        if attr.startswith("__") and attr.endswith("__"):
            raise AttributeError(attr)  # copy, pickle and friends probe these: no import
        value = getattr(importlib.import_module(self._lazy_name), attr)
        setattr(self, attr, value)
        return value

    def __repr__(self) -> str:
        return f"<lazy module {self._lazy_name!r}>"
