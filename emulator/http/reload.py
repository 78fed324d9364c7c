"""``/rest/reload`` and ``/rest/reset``: clients call them after configuration changes.

GeoServer re-reads its data directory (reload) or drops its store and authentication caches
(reset). The emulator has no caches: both count a security reload
(``state.security.reloads``), a reload also reads the settings' configuration files back
(``global.xml``, ``wms.xml``… edited through the resource API take effect), and both answer
200 with an empty body; GET and DELETE get 405, as in GeoServer.
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute

from .context import emulator
from .routing import Route


async def reload(request: Request) -> Response:
    state = emulator(request).state
    state.security.reload()
    if request.url.path.rstrip("/").endswith("/reload"):
        from ..areas.settings import files  # the settings area, loaded when first needed

        files.load(state)
    return Response(status_code=200)


routes: list[BaseRoute] = [
    Route("/rest/reload", reload, methods=["POST", "PUT"]),
    Route(
        "/rest/reset",
        reload,
        methods=["POST", "PUT"],
        support="no-op: the emulator keeps no caches to drop",
    ),
]
