"""``Route``: Starlette's route, with its path regex compiled when it is first matched;
``LazyRoutes``: an area's routes, imported when a request first reaches the area.

Starlette compiles every route's path into a regex when the route is made; the emulator has
~170 routes, which costs ~20 ms of every start-up (``benchmarks/startup.py``). Here the
compilation waits for the first request whose routing reaches the route (the router tries
routes in order, so the first request compiles the routes before the one it matches, and
a 404 inside an area compiles all of that area's: ``benchmarks/startup.py`` prints that
first-request cost). Its ``Allow`` header names the methods in the order declared
(Starlette's would vary between processes). A route behaves as Starlette's in every other
way; ``tests/test_startup.py`` checks that every path compiles.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

from starlette import routing
from starlette.datastructures import URLPath
from starlette.routing import BaseRoute, Match
from starlette.types import Receive, Scope, Send

from ..wire import text as wtext

_COMPILED = ("path_regex", "path_format", "param_convertors")
_PLACEHOLDER = "/"
"""the path given to Starlette's constructor: ``re`` caches its regex, so it is compiled once"""


class Route(routing.Route):
    """A ``starlette.routing.Route`` whose path regex is compiled on first use."""

    def __init__(
        self,
        path: str,
        endpoint: Callable[..., Any],
        *,
        answers: str | None = None,
        support: str | None = None,
        **kwargs: Any,
    ) -> None:
        assert path.startswith("/"), "Routed paths must start with '/'"
        super().__init__(_PLACEHOLDER, endpoint, **kwargs)
        self.answers = answers
        """for the coverage table, when the endpoint itself refuses some of ``methods`` with
        405: the methods it answers (``"POST; GET too under geoserver"``)"""
        self.support = support
        """for the coverage table, when the route is canned or a no-op: what it does
        (``"no-op: …"``, ``"canned: …"``)"""
        self.path = path
        self.literal = path.split("{", 1)[0]
        """the path's text before its first parameter: a path that does not start with it
        cannot match, and is turned away without the regex"""
        self.exact = "{" not in path
        """no parameters: only the path itself matches (or, as the regex's ``$`` allows,
        the path and a final newline)"""
        if self.methods is not None:  # in the declared order, HEAD after GET: Starlette's
            # set would name them in an order that changes from one process to the next
            declared = [m.upper() for m in kwargs["methods"]]
            if "GET" in declared and "HEAD" not in declared:
                declared.insert(declared.index("GET") + 1, "HEAD")
            self.methods = dict.fromkeys(declared)  # type: ignore[assignment]
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

    check_query = True
    """whether ``handle`` checks the query too (the OGC services check theirs, to answer in
    a service exception report)"""

    async def handle(self, scope: Scope, receive: Receive, send: Send) -> None:
        check_request_text(scope, self.check_query)
        await super().handle(scope, receive, send)


WRITES = frozenset({"POST", "PUT", "PATCH"})


def check_request_text(scope: Scope, query: bool = True) -> None:
    """Refuse with ``Invalid`` (400, before the endpoint runs: nothing is stored) a
    percent-decoded path segment or query value that XML 1.0 cannot carry, and, on a write,
    a path segment or a name parameter longer than ``text.NAME_LIMIT`` (``wire/text.py``)."""
    path: str = scope["path"]
    write = scope.get("method") in WRITES
    if not (path.isascii() and path.isprintable()) or (write and len(path) > wtext.NAME_LIMIT):
        for segment in path.split("/"):
            wtext.check_text(segment, "the request path")
            if write:
                wtext.check_name(segment, "path segment")
    raw: bytes = scope.get("query_string", b"")
    if query and raw:
        from urllib.parse import parse_qsl

        pairs = parse_qsl(raw.decode("latin-1"), keep_blank_values=True)
        wtext.check_pairs(pairs, "query", names=write)


def match_in_order(routes: list[BaseRoute], path: str, scope: Scope) -> tuple[Match, Scope]:
    """The first full match among ``routes`` (else the first partial one), as a router
    trying them in order would find it; a ``Route`` whose literal start the path lacks is
    passed over without running its regex."""
    return _first_match(_candidates(routes, path), scope)


def _candidates(routes: list[BaseRoute], path: str) -> tuple[BaseRoute, ...]:
    """The routes that may match ``path``, in order: a ``Route`` is left out when the path
    lacks its literal start, or, without parameters, is not its path."""
    out: list[BaseRoute] = []
    for route in routes:
        if isinstance(route, RouteGroup):  # a group within: its own candidates, in place
            out.extend(route.candidates(path))
            continue
        literal = getattr(route, "literal", None)
        if literal is not None and (
            not path.startswith(literal)
            or (route.exact and path != literal and path != literal + "\n")  # type: ignore[attr-defined]
        ):
            continue
        out.append(route)
    return tuple(out)


def _first_match(routes: tuple[BaseRoute, ...], scope: Scope) -> tuple[Match, Scope]:
    partial: tuple[Match, Scope] | None = None
    for route in routes:
        match, child = route.matches(scope)
        if match is Match.FULL:
            return match, {**child, _ROUTE: route}
        if match is Match.PARTIAL and partial is None:
            partial = (match, {**child, _ROUTE: route})
    return partial or (Match.NONE, {})


CANDIDATES_KEPT = 1024
"""paths whose candidate routes a group remembers (then it starts over: tile paths vary)"""


class RouteGroup(BaseRoute):
    """Routes matched in order as if listed in place (``match_in_order``): the control plane
    and reload routes, which every request passes on its way to an area. The routes that may
    match a path (``_candidates``, a function of the path alone) are remembered per path."""

    def __init__(self, routes: list[BaseRoute]) -> None:
        self.routes = routes
        self._by_path: dict[str, tuple[BaseRoute, ...]] = {}

    def covers(self, path: str) -> bool:
        return True

    def candidates(self, path: str) -> tuple[BaseRoute, ...]:
        """The routes of this group (groups within it expanded) that may match ``path``."""
        return _candidates(self.routes, path) if self.covers(path) else ()

    def matches(self, scope: Scope) -> tuple[Match, Scope]:
        if scope["type"] != "http":
            return Match.NONE, {}
        path = _route_path(scope)
        found = self._by_path.get(path)
        if found is None:
            found = self.candidates(path)
            if len(self._by_path) >= CANDIDATES_KEPT:
                self._by_path.clear()
            self._by_path[path] = found
        return _first_match(found, scope) if found else (Match.NONE, {})

    async def handle(self, scope: Scope, receive: Receive, send: Send) -> None:
        await scope[_ROUTE].handle(scope, receive, send)

    def url_path_for(self, name: str, /, **path_params: Any) -> URLPath:
        for route in self.routes:
            try:
                return route.url_path_for(name, **path_params)
            except routing.NoMatchFound:
                continue
        raise routing.NoMatchFound(name, path_params)


class ContextRoot(routing.Mount):
    """Starlette's ``Mount`` of the context path over one group of routes, without its
    per-request regex and inner router: a path under ``<path>/`` matches with the scope the
    mount would give it, and a full match in the group is handled at once. Anything else
    (a partial match, a 404, a redirected slash, a path with a newline) goes the mount's
    own way, unchanged."""

    def __init__(self, path: str, group: RouteGroup) -> None:
        super().__init__(path, routes=[group])
        self.group = group
        self.prefix = self.path + "/"

    def matches(self, scope: Scope) -> tuple[Match, Scope]:
        if scope["type"] == "http":
            path = _route_path(scope)
            if path.startswith(self.prefix) and "\n" not in path:
                root_path = scope.get("root_path", "")
                return Match.FULL, {
                    "path_params": dict(scope.get("path_params", {})),
                    "app_root_path": scope.get("app_root_path", root_path),
                    "root_path": root_path + self.path,
                    "endpoint": self.app,
                }
        return super().matches(scope)

    async def handle(self, scope: Scope, receive: Receive, send: Send) -> None:
        match, child = self.group.matches(scope) if scope["type"] == "http" else (None, {})
        if match is not Match.FULL or "router" not in scope:
            await self.app(scope, receive, send)  # the inner router, as Mount does
            return
        scope["route"] = self.group  # what the inner router would do on a full match
        scope.update(child)
        await self.group.handle(scope, receive, send)


class LazyRoutes(RouteGroup):
    """An area's routes, imported when a request first reaches one of the area's paths.

    ``module`` names the area's routes module (its ``routes`` list); ``prefixes`` are the
    paths the area answers under, from the context root, where ``*`` stands for any one
    segment and the last segment also covers a format suffix (``/rest/about`` covers
    ``/rest/about/version.json``, ``/rest/styles`` covers ``/rest/styles.xml``). A request
    outside the prefixes matches none of the area's routes, so the module is not imported;
    one inside is matched against them in order, exactly as if they were listed in place.
    ``tests/http/test_routing.py`` checks that the prefixes cover every route.
    """

    def __init__(self, module: str, prefixes: tuple[str, ...]) -> None:
        self.module = module
        self.prefixes = tuple(tuple(p.strip("/").split("/")) for p in prefixes)
        self._routes: list[BaseRoute] | None = None
        self._by_path: dict[str, tuple[BaseRoute, ...]] = {}

    @property  # type: ignore[override]
    def routes(self) -> list[BaseRoute]:
        """The area's routes (imported on first use)."""
        if self._routes is None:
            self._routes = list(importlib.import_module(self.module).routes)
        return self._routes

    def covers(self, path: str) -> bool:
        """Whether ``path`` (from the context root) lies under one of the prefixes."""
        segments = path.strip("/").split("/")
        return any(_under(segments, prefix) for prefix in self.prefixes)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.module!r})"


class LazyPaths(LazyRoutes):
    """An area's routes that answer exactly the given paths (each also with a format
    suffix), not what lies under them: ``/rest`` is the index page, not every REST path."""

    def covers(self, path: str) -> bool:
        segments = path.strip("/").split("/")
        return any(
            len(segments) == len(prefix) and _under(segments, prefix) for prefix in self.prefixes
        )


class ExtensionRoutes(LazyRoutes):
    """An extension's routes (``core/extensions.py``): they match only on an emulator that
    has the extension installed; elsewhere the path answers 404, as on a stock GeoServer."""

    def __init__(self, extension: str, module: str, prefixes: tuple[str, ...]) -> None:
        super().__init__(module, prefixes)
        self.extension = extension

    @property  # type: ignore[override]
    def routes(self) -> list[BaseRoute]:
        if self._routes is None:
            inner = importlib.import_module(self.module).routes
            self._routes = [Installed(self.extension, r) for r in inner]
        return self._routes


class Installed(BaseRoute):
    """A route that matches only where its extension is installed; otherwise it is the
    route it wraps (path, methods and name read through)."""

    def __init__(self, extension: str, route: BaseRoute) -> None:
        self.extension = extension
        self.route = route

    def __getattr__(self, name: str) -> Any:
        return getattr(self.route, name)

    def matches(self, scope: Scope) -> tuple[Match, Scope]:
        app = scope.get("app")
        emu = getattr(getattr(app, "state", None), "emulator", None)
        if emu is None or self.extension not in emu.extensions:
            return Match.NONE, {}
        return self.route.matches(scope)

    async def handle(self, scope: Scope, receive: Receive, send: Send) -> None:
        await self.route.handle(scope, receive, send)

    def url_path_for(self, name: str, /, **path_params: Any) -> URLPath:
        return self.route.url_path_for(name, **path_params)


def unwrapped(route: BaseRoute) -> BaseRoute:
    """The route an ``Installed`` wraps, else the route itself."""
    return route.route if isinstance(route, Installed) else route


_ROUTE = "emulator.route"
"""scope key: the route of a lazy area that matched"""


def _under(segments: list[str], prefix: tuple[str, ...]) -> bool:
    if len(segments) < len(prefix):
        return False
    for i, (seg, want) in enumerate(zip(segments, prefix, strict=False)):
        if want == "*" or seg == want:
            continue
        if i == len(prefix) - 1 and seg.startswith(want + "."):
            continue
        return False
    return True


def _route_path(scope: Scope) -> str:
    """The path the routes match: the request path inside the mount's root path."""
    path: str = scope["path"]
    root: str = scope.get("root_path", "")
    if root and path.startswith(root) and path[len(root) : len(root) + 1] in ("/", ""):
        return path[len(root) :]
    return path
