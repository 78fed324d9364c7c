"""What the catalog endpoints share: path formats, links, answers, body reading, dates.

Every catalog resource answers XML, JSON or HTML: the path extension wins, then
``Accept``. With neither (or ``*/*``), Spring picks the first media type the controller
declares: JSON for most catalog controllers, HTML for feature types, XML for coverages.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from starlette.requests import Request
from starlette.responses import Response

from ...core.errors import NotFound
from ...http import context
from ...wire.geoserver.dates import catalog_timestamp
from ...wire.geoserver.xstream import names_json, names_xml
from ...wire.negotiate import split_ext
from .codec import LIST_LINK_TYPE, Links, encode, list_node, render
from .tree import Node, read_body

if TYPE_CHECKING:
    from ...core.state import State
    from ...databases.service import Databases
    from .model import Catalog

FORMATS = ("xml", "json", "html")


def state(request: Request) -> State:
    return context.emulator(request).state


def catalog(request: Request) -> Catalog:
    return context.emulator(request).state.catalog


def catalog_view(request: Request) -> Catalog:
    """The catalog for a handler that only reads it (a GET's list): until the first write
    of this state, the start scenario's catalog, shared (``State.view``: no copy per reset)."""
    if request.method not in ("GET", "HEAD"):
        return catalog(request)
    found: Catalog = context.emulator(request).state.view("catalog")
    return found


def param(request: Request, name: str) -> str:
    value: str = request.path_params[name]
    return value


def last(request: Request, name: str) -> tuple[str, str | None]:
    """The last path parameter without its format extension, and the extension."""
    return split_ext(param(request, name), FORMATS)


def out_format(request: Request, ext: str | None, default: str = "json") -> str:
    """The response format; ``default`` is the first type the GeoServer controller declares."""
    if ext is None:
        ext = request.path_params.get("ext")
    return context.response_format(request, ext, FORMATS, default)


def links(request: Request, fmt: str) -> Links:
    return Links(context.rest_url(request, ""), fmt, context.emulator(request).vendor.prefix)


def page_url(request: Request) -> str:
    """The requested page without its extension: list links are relative to it."""
    path = request.url.path.rstrip("/")
    base, ext = split_ext(path.rsplit("/", 1)[-1], FORMATS)
    if ext is not None:
        path = path[: len(path) - len(ext) - 1]
    host = request.headers.get("host") or f"{request.url.hostname}:{request.url.port}"
    return f"{request.url.scheme}://{host}{path}"


def answer(node: Node, fmt: str, title: str = "", status: int = 200) -> Response:
    return context.respond(render(node, fmt, title), fmt, status)


def answer_list(
    request: Request, alias: str, names: list[str], fmt: str, title: str = ""
) -> Response:
    prefix, suffix = page_url(request) + "/", "." + fmt
    items = [(n, prefix + encode(n) + suffix) for n in names]
    if fmt == "json":
        return context.respond(names_json(alias + "s", alias, items), fmt)
    if fmt == "xml":
        return context.respond(names_xml(alias + "s", alias, items, LIST_LINK_TYPE), fmt)
    node = list_node(alias, items)
    return answer(node, fmt, title or node.tag)


async def body(request: Request, root: str | tuple[str, ...]) -> tuple[str, dict[str, Any]]:
    fmt = context.body_format(request)
    return read_body(await context.body(request), fmt, root)


def flag(request: Request, name: str, default: bool = False) -> bool:
    value = request.query_params.get(name)
    if value is None:
        return default
    return value.strip().lower() in ("true", "on", "yes", "1")


def now(request: Request) -> str:
    """The emulated time in GeoServer's catalog date format."""
    dt = context.emulator(request).clock.datetime()
    return catalog_timestamp(dt)


def require(found: Any, message: str) -> Any:
    if found is None:
        raise NotFound(message)
    return found


def created(request: Request, path: str, name: str) -> Response:
    """201, ``Location`` (absolute, no extension), the name as plain text."""
    return context.created(request, path, name)


def databases(request: Request) -> Databases:
    """The emulator's database side (``emulator/databases``)."""
    return context.emulator(request).databases


def note_database(request: Request, store: Any) -> None:
    """Tell the journal which back end ``store`` used for this request."""
    used = context.emulator(request).databases.backends.get((store.workspace, store.name))
    if used is not None:
        notes = request.scope.setdefault("emulator.databases", {})
        notes[f"{store.workspace}:{store.name}"] = used
