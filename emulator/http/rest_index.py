"""``/rest`` and ``/rest/index``: GeoServer's REST index page (``IndexController``).

HTML only (the controller produces ``text/html``; any other format asked for answers 406).
The page lists, sorted, every path under ``/rest`` that answers GET and has no path
parameter (GeoServer walks its request mappings the same way), those of the installed
extensions included. Each link is the page's own path plus ``/`` plus the entry, as
``RequestInfo.pageURI`` builds it: from ``/rest/index`` the links read
``/rest/index/<entry>``, as GeoServer writes them.
"""

from __future__ import annotations

from collections.abc import Iterator
from html import escape

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute

from ..core.errors import NotFound
from .context import base_url, emulator, respond, response_format
from .routing import Route

TITLE = "GeoServer Configuration API"


def links(extensions: frozenset[str]) -> list[str]:
    """The index entries: GET paths under ``/rest`` without parameters, sorted."""
    from .app import app_routes
    from .endpoints import flatten

    found: set[str] = set()
    for route in _routes(app_routes(), extensions):
        for path, methods in flatten([route], ""):
            if "GET" in methods and "{" not in path and path.startswith("/rest/"):
                found.add(path[len("/rest/") :])
    return sorted(found)


def _routes(routes: list[BaseRoute], extensions: frozenset[str]) -> Iterator[BaseRoute]:
    """The routes, groups expanded; an extension's only where it is installed."""
    from .routing import Installed, RouteGroup

    for route in routes:
        if isinstance(route, Installed):
            if route.extension in extensions:
                yield route.route
        elif isinstance(route, RouteGroup):
            yield from _routes(route.routes, extensions)
        else:
            yield route


def page(base: str, page_path: str, entries: list[str]) -> str:
    """The index page as ``index.ftl`` writes it."""
    head = (
        f"<html>\n<head>\n<title> {TITLE} </title>\n"
        '<meta name="ROBOTS" content="NOINDEX, NOFOLLOW"/>\n</head>\n<body>\n'
        f"<h2>{TITLE}</h2>\n"
    )
    if not entries:
        body = (
            "<p>There are no REST extensions installed.  If you expected some, please verify"
            " your installation (did you restart the server?).</p>\n"
        )
    else:
        items = "".join(
            f'<li><a href="{escape(f"{base}{page_path}/{e}")}">{escape(e)}</a></li>\n'
            for e in entries
        )
        body = f"<ul>\n{items}</ul>\n"
    return head + body + "</body>\n</html>\n"


_CACHE: dict[frozenset[str], list[str]] = {}


async def index(request: Request) -> Response:
    ext = request.path_params.get("ext")
    if ext is not None and ext != "html":
        raise NotFound(f"No such resource: {request.url.path}")
    response_format(request, ext, ("html",), default="html")
    emu = emulator(request)
    entries = _CACHE.get(emu.extensions)
    if entries is None:
        entries = _CACHE[emu.extensions] = links(emu.extensions)
    page_path = (
        "/rest/index"
        if request.url.path.rstrip("/").split("/")[-1].startswith("index")
        else "/rest"
    )
    return respond(page(base_url(request), page_path, entries), "html")


routes: list[BaseRoute] = [
    Route("/rest", index, methods=["GET"], name="rest-index-root"),
    Route("/rest.{ext}", index, methods=["GET"], name="rest-index-root-ext"),
    Route("/rest/index", index, methods=["GET"], name="rest-index"),
    Route("/rest/index.{ext}", index, methods=["GET"], name="rest-index-ext"),
]
