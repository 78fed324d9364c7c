"""Hooks: how an area tells the areas above it that something happened, without importing
them (the layers point one way: ``docs/architecture.md``).

An area calls ``call("catalog.store_deleted", state, store, purge)``; the composition
(``geoserver_emulator/composition.py``, above the areas) declares which functions answer each
hook, as ``module:function`` names, imported when the hook is first called. Every hook an
area may call is declared there, in one table; ``tests/test_layers.py`` checks that the
functions exist and that no area reaches another otherwise, beyond the downward imports the
table in ``docs/architecture.md`` allows.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from functools import cache
from typing import Any

from . import root


@cache
def implementations(name: str) -> tuple[Callable[..., Any], ...]:
    """The functions that answer hook ``name``, in declared order (``KeyError`` for a hook
    the composition does not declare)."""
    found = []
    for where in root.composition().HOOKS[name]:
        module, _, function = where.partition(":")
        found.append(getattr(importlib.import_module(module), function))
    return tuple(found)


def call(name: str, *args: Any, **kwargs: Any) -> list[Any]:
    """Call every function of hook ``name``; their results, in declared order."""
    return [function(*args, **kwargs) for function in implementations(name)]
