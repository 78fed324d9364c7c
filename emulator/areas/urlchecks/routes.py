"""``/rest/urlchecks``: list, view, create, update, delete URL checks (JSON by default)."""

from __future__ import annotations

from urllib.parse import quote

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute

from ...core.errors import NotFound
from ...http.context import body, body_format, created, emulator, respond, response_format, rest_url
from ...http.routing import Route
from ...wire.negotiate import split_ext
from . import codec
from .model import CheckInput

OFFERED = ("json", "xml", "html")
"""GeoServer's ``produces`` order: JSON first, so JSON is the default"""


def _format(request: Request, ext: str | None) -> str:
    return response_format(request, ext, OFFERED, default="json")


async def _parse(request: Request) -> CheckInput:
    fmt = body_format(request, ("xml", "json"))
    data = await body(request)
    return codec.parse_check_xml(data) if fmt == "xml" else codec.parse_check_json(data)


async def collection(request: Request) -> Response:
    ext = request.path_params.get("ext")
    if ext is not None and ext not in OFFERED:
        raise NotFound(f"No such resource: {request.url.path}")
    store = emulator(request).state.urlchecks
    if request.method == "POST":
        check = store.create(await _parse(request))
        return created(request, f"urlchecks/{quote(check.name, safe='')}", check.name)
    fmt = _format(request, ext)
    base = rest_url(request, "urlchecks")
    if fmt == "xml":
        return respond(codec.dump_list_xml(store.checks, base), "xml")
    if fmt == "html":
        return respond(codec.dump_list_html(store.checks, base), "html")
    keys = emulator(request).decisions.urlcheck_json_list_keys
    return respond(codec.dump_list_json(store.checks, base, keys), "json")


async def item(request: Request) -> Response:
    name, ext = split_ext(request.path_params["name"])
    store = emulator(request).state.urlchecks
    if request.method == "PUT":
        store.update(name, await _parse(request))
        return Response(status_code=200)
    if request.method == "DELETE":
        store.delete(name)
        return Response(status_code=200)
    fmt = _format(request, ext)
    check = store.get(name)
    if fmt == "xml":
        return respond(codec.dump_check_xml(check), "xml")
    if fmt == "html":
        return respond(codec.dump_check_html(check), "html")
    return respond(codec.dump_check_json(check), "json")


routes: list[BaseRoute] = [
    Route("/rest/urlchecks", collection, methods=["GET", "POST"], name="urlchecks"),
    Route("/rest/urlchecks.{ext}", collection, methods=["GET", "POST"], name="urlchecks-ext"),
    Route("/rest/urlchecks/{name}", item, methods=["GET", "PUT", "DELETE"], name="urlcheck"),
]
