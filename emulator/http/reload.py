"""``/rest/reload`` and ``/rest/reset``: clients call them after configuration changes.

GeoServer re-reads its data directory (reload) or drops its store and authentication caches
(reset). The emulator has nothing on disk and no caches, so both only count a security
reload (``state.security.reloads``) and answer 200 with an empty body; GET and DELETE get
405, as in GeoServer.
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute

from .context import emulator
from .routing import Route


async def reload(request: Request) -> Response:
    emulator(request).state.security.reload()
    return Response(status_code=200)


routes: list[BaseRoute] = [
    Route("/rest/reload", reload, methods=["POST", "PUT"]),
    Route("/rest/reset", reload, methods=["POST", "PUT"]),
]
