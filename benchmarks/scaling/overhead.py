"""Per-request overhead (issue 34, part 3): a cheap GET against a bare Starlette route
through the same transport, in process (goal ≤ 1.2×) and over loopback (≤ 1.15×), and three
requests through the plugin's in-process client against the ``responses`` library."""

from __future__ import annotations

from typing import Any

import httpx

from geoserver_emulator import Emulator

from .common import AUTH, CHEAP_BODY, bare_app, bare_wsgi, client, paired, row

CHEAP = "/rest/about/version.json"
THREE = ["/rest/about/version.json", "/rest/workspaces.json", "/rest/layers/topp:states.json"]


def in_process(calls: int) -> None:
    ours, bare = client(Emulator("stock").wsgi_app), client(bare_wsgi())
    CHEAP_BODY[0] = ours.get(CHEAP).content  # the bare route answers the same bytes
    mine, floor = paired([lambda: ours.get(CHEAP), lambda: bare.get("/cheap")], calls)
    row("cheap GET in process (version.json)", mine, floor, 1.2, "a bare Starlette route")


def loopback(calls: int) -> None:
    from geoserver_emulator.http.server import LiveServer

    CHEAP_BODY[0] = client(Emulator("stock").wsgi_app).get(CHEAP).content
    servers = [LiveServer(Emulator("stock").asgi_app).start(), LiveServer(bare_app()).start()]
    try:
        ours = httpx.Client(base_url=servers[0].url("/geoserver"), auth=AUTH)
        bare = httpx.Client(base_url=servers[1].url("/geoserver"), auth=AUTH)
        with ours, bare:
            mine, floor = paired(
                [lambda: ours.get(CHEAP), lambda: bare.get("/cheap")], calls, clock="wall"
            )
    finally:
        for server in servers:
            server.stop()
    row("cheap GET over loopback (keep-alive)", mine, floor, 1.15, "a bare Starlette route")


def plugin_client(calls: int) -> None:
    """Three GETs through ``geoserver_client`` (the plugin's in-process httpx client) against
    three through ``requests`` with the ``responses`` library answering canned bodies."""
    from geoserver_emulator_pytest.clients import httpx_client

    emu = Emulator("stock")
    ours = httpx_client(emu.wsgi_app, "http://localhost:8080/geoserver", AUTH)
    bodies = {path: ours.get(path).content for path in THREE}
    try:
        import requests
        import responses
    except ImportError:
        print("three requests through geoserver_client vs responses: responses not installed")
        return
    mock = responses.RequestsMock(assert_all_requests_are_fired=False)
    for path, body in bodies.items():
        mock.add(responses.GET, f"http://localhost:8080/geoserver{path}", body=body, status=200)
    session = requests.Session()

    def mine() -> None:
        for path in THREE:
            ours.get(path)

    def theirs() -> Any:
        for path in THREE:
            session.get(f"http://localhost:8080/geoserver{path}", auth=AUTH)

    with mock:
        a, b = paired([mine, theirs], calls)
    row("three requests through geoserver_client", a, b, None, "the responses library")


def overhead_figures(calls: int) -> None:
    print(f"\nPer-request overhead (medians of {calls})")
    in_process(calls)
    loopback(calls)
    plugin_client(max(10, calls // 3))
