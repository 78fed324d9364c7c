"""The public API of the ``emulator`` package: exactly what ``__all__`` lists."""

from __future__ import annotations

import types

import pytest

import geoserver_emulator


def test_all_is_exactly_the_public_api():
    assert geoserver_emulator.__all__ == [
        "Emulator",
        "ScenarioError",
        "__version__",
        "create_app",
        "geoserver_emulated",
    ]


def test_every_public_name_is_listed_and_exists():
    # dir(), not vars(): Emulator and create_app are imported on first access (PEP 562)
    public = {
        name
        for name in dir(geoserver_emulator)
        if not name.startswith("_")
        and not isinstance(getattr(geoserver_emulator, name), types.ModuleType)
    }
    assert public == set(geoserver_emulator.__all__) - {"__version__"}
    for name in geoserver_emulator.__all__:
        assert getattr(geoserver_emulator, name) is not None
    assert geoserver_emulator.Emulator.__module__ == "geoserver_emulator.emulator"


def test_unknown_names_are_attribute_errors():
    with pytest.raises(AttributeError, match="no attribute 'Nothing'"):
        geoserver_emulator.Nothing  # noqa: B018


def test_version_matches_the_distribution():
    from importlib.metadata import version

    assert geoserver_emulator.__version__ == version("geoserver-emulator")
