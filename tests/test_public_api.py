"""The public API of the ``emulator`` package: exactly what ``__all__`` lists."""

from __future__ import annotations

import types

import pytest

import emulator


def test_all_is_exactly_the_public_api():
    assert emulator.__all__ == ["Emulator", "ScenarioError", "__version__", "create_app"]


def test_every_public_name_is_listed_and_exists():
    # dir(), not vars(): Emulator and create_app are imported on first access (PEP 562)
    public = {
        name
        for name in dir(emulator)
        if not name.startswith("_") and not isinstance(getattr(emulator, name), types.ModuleType)
    }
    assert public == set(emulator.__all__) - {"__version__"}
    for name in emulator.__all__:
        assert getattr(emulator, name) is not None
    assert emulator.Emulator.__module__ == "emulator.emulator"


def test_unknown_names_are_attribute_errors():
    with pytest.raises(AttributeError, match="no attribute 'Nothing'"):
        emulator.Nothing  # noqa: B018


def test_version_matches_the_distribution():
    from importlib.metadata import version

    assert emulator.__version__ == version("geoserver-emulator")
