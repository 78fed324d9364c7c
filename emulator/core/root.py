"""What the root hands down to the layers below it: the root object's class, for the few
places that need whole emulators, and the composition of the server (which stores its state
has, which area answers which hook), which ``core/state.py`` and ``core/hooks.py`` read.

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


_COMPOSITION: list[Callable[[], Any]] = []


def provide_composition(provider: Callable[[], Any]) -> None:
    """Set the callable that returns the composition module (``geoserver_emulator.composition``:
    the stores of the state, their links, the areas' hooks); the facade calls this once."""
    _COMPOSITION[:] = [provider]


def composition() -> Any:
    """The composition module (``STORES``, ``link``, ``HOOKS``), imported on first use."""
    return _COMPOSITION[0]()
