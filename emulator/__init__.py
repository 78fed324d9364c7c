"""geoserver-emulator: an in-memory, deterministic emulator of GeoServer's REST interface.

``Emulator`` and ``create_app`` are imported on first use (PEP 562), so that importing a
submodule alone (``geoserver_emulator.core.errors``, as the pytest plugin does when pytest starts)
does not load the whole emulator and Starlette.
"""

import importlib
import typing

from .core import root
from .core.errors import ScenarioError

if typing.TYPE_CHECKING:
    from .emulator import Emulator
    from .http.app import create_app
    from .testing import geoserver_emulated

__version__ = "0.1.0"

__all__ = ["Emulator", "ScenarioError", "__version__", "create_app", "geoserver_emulated"]

_LAZY = {"Emulator": ".emulator", "create_app": ".http.app", "geoserver_emulated": ".testing"}


def __getattr__(name: str) -> typing.Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(module, __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_LAZY})


root.provide(lambda: __getattr__("Emulator"))  # for the layers below the root (core/root.py)
root.provide_composition(lambda: importlib.import_module(".composition", __name__))
