"""The public API of the ``emulator`` package: exactly what ``__all__`` lists."""

from __future__ import annotations

import types

import emulator


def test_all_is_exactly_the_public_api():
    assert emulator.__all__ == ["Emulator", "ScenarioError", "__version__", "create_app"]


def test_every_public_name_is_listed_and_exists():
    public = {
        name
        for name, value in vars(emulator).items()
        if not name.startswith("_") and not isinstance(value, types.ModuleType)
    }
    assert public == set(emulator.__all__) - {"__version__"}
    for name in emulator.__all__:
        assert getattr(emulator, name) is not None
    assert emulator.Emulator.__module__ == "emulator.emulator"


def test_version_matches_the_distribution():
    from importlib.metadata import version

    assert emulator.__version__ == version("geoserver-emulator")
