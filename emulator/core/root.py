"""The root object's class, for the few places below it that need whole emulators.

A cassette scenario is the state its writes build through an emulator's app
(``Emulator.state_of_cassette``), and ``ScenarioBuilder.emulator()`` returns one; both sit
below the root object, which they therefore may not import. The package's facade
(``geoserver_emulator/__init__.py``, which runs before any submodule) hands down a callable
that imports the root class on first use.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

_PROVIDER: list[Callable[[], Any]] = []


def provide(provider: Callable[[], Any]) -> None:
    """Set the callable that returns the ``Emulator`` class (the facade calls this once)."""
    _PROVIDER[:] = [provider]


def emulator_class() -> Any:
    """The ``Emulator`` class."""
    return _PROVIDER[0]()
