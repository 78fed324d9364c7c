"""``Route``: Starlette's route, with its path regex compiled when it is first matched.

Starlette compiles every route's path into a regex when the route is made; the emulator has
~170 routes, which costs ~20 ms of every start-up (``benchmarks/startup.py``). Here the
compilation waits for the first request whose routing reaches the route (the router tries
routes in order, so the first request compiles the routes before the one it matches, and
the first 404 compiles them all: ``benchmarks/startup.py`` prints that first-request cost).
A route behaves as Starlette's in every other way; ``tests/test_startup.py`` checks that
every path compiles.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from starlette import routing

_COMPILED = ("path_regex", "path_format", "param_convertors")
_PLACEHOLDER = "/"
"""the path given to Starlette's constructor: ``re`` caches its regex, so it is compiled once"""


class Route(routing.Route):
    """A ``starlette.routing.Route`` whose path regex is compiled on first use."""

    def __init__(self, path: str, endpoint: Callable[..., Any], **kwargs: Any) -> None:
        assert path.startswith("/"), "Routed paths must start with '/'"
        super().__init__(_PLACEHOLDER, endpoint, **kwargs)
        self.path = path
        for name in _COMPILED:  # the placeholder's: dropped, so __getattr__ compiles
            delattr(self, name)

    def __getattr__(self, name: str) -> Any:
        # called only while the compiled attributes are missing
        if name not in _COMPILED:
            raise AttributeError(name)
        self.path_regex, self.path_format, self.param_convertors = routing.compile_path(self.path)
        return getattr(self, name)

    def compiled(self) -> bool:
        """Whether the path regex has been compiled yet."""
        return "path_regex" in self.__dict__
