"""A stand-in extension's routes module (the table's rows name modules like this one)."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response
from starlette.routing import BaseRoute

from geoserver_emulator.http.routing import Route


async def hello(request: Request) -> Response:
    return PlainTextResponse("installed")


routes: list[BaseRoute] = [Route("/rest/fakeext", hello, methods=["GET"], name="fakeext")]
