"""``/rest/crs``: the coordinate reference systems GeoServer knows (``CRSController``).

- ``GET /rest/crs[.json]?authority=&query=&offset=0&limit=50``: a page of identifiers, each
  with a link to its WKT (JSON only; ``limit`` at most 200).
- ``GET /rest/crs/authorities[.json]``: the authorities, each with a link to its list.
- ``GET /rest/crs/<identifier>.wkt`` (``text/plain``) and ``.json`` (id, name, extents, WKT):
  one CRS, 404 ``CRS not found: <id>`` when unknown.

Arguments the controller refuses with ``IllegalArgumentException`` answer
``decisions.bad_argument_status`` (400, or GeoServer's 500).
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute

from ...core.errors import Invalid, NotFound
from ...crs import registry
from ...http.context import emulator, respond, response_format, rest_url
from ...http.routing import Route
from . import codec

PAGE_LIMIT = 200


def _bad(request: Request, message: str) -> Invalid:
    return Invalid(message, status=emulator(request).decisions.bad_argument_status)


def _int(request: Request, name: str, default: int) -> int:
    text = request.query_params.get(name)
    if text is None:
        return default
    try:
        return int(text.strip())
    except ValueError:
        raise Invalid(
            f"Failed to convert value of type 'java.lang.String' to required type 'int';"
            f' For input string: "{text}"'
        ) from None


def _json_only(request: Request) -> None:
    ext = request.path_params.get("ext")
    if ext is not None and ext != "json":
        raise NotFound(f"No such resource: {request.url.path}")
    response_format(request, ext, ("json",), default="json")


async def crs_list(request: Request) -> Response:
    _json_only(request)
    offset, limit = _int(request, "offset", 0), _int(request, "limit", 50)
    if offset < 0:
        raise _bad(request, "offset must be >= 0")
    if limit <= 0:
        raise _bad(request, "limit must be > 0")
    if limit > PAGE_LIMIT:
        raise _bad(request, f"limit must be <= {PAGE_LIMIT}")
    q = request.query_params
    ids = registry.identifiers(q.get("authority"), q.get("query"))
    page = ids[min(offset, len(ids)) : min(offset + limit, len(ids))]
    items = [(i, rest_url(request, f"crs/{i}.wkt")) for i in page]
    return respond(codec.dump_codes(items, offset, limit, len(ids)), "json")


async def authorities(request: Request) -> Response:
    _json_only(request)
    items = [(a, rest_url(request, f"crs?authority={a}")) for a in registry.authorities()]
    return respond(codec.dump_authorities(items), "json")


async def one(request: Request) -> Response:
    name = request.path_params["identifier"]
    identifier, _, ext = name.rpartition(".")
    if ext not in ("wkt", "json") or not identifier:
        raise NotFound(f"No such resource: {request.url.path}")
    try:
        registry.parse(identifier)
    except Invalid as exc:
        raise _bad(request, exc.message) from None
    if ext == "wkt":
        response_format(request, "text", ("text",), default="text")
        crs = registry.lookup(identifier)
        from ...crs.wkt import geotools_wkt

        return respond(geotools_wkt(crs), media_type="text/plain")
    return respond(codec.dump_definition(registry.definition(identifier), identifier), "json")


routes: list[BaseRoute] = [
    Route("/rest/crs", crs_list, methods=["GET"], name="crs-list"),
    Route("/rest/crs.{ext}", crs_list, methods=["GET"], name="crs-list-ext"),
    Route("/rest/crs/authorities", authorities, methods=["GET"], name="crs-authorities"),
    Route("/rest/crs/authorities.{ext}", authorities, methods=["GET"], name="crs-authorities-ext"),
    Route("/rest/crs/{identifier:path}", one, methods=["GET"], name="crs-one"),
]
