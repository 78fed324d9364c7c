"""Benchmark: the OGC services in-process (targets: WMS capabilities of the stock catalog
<= 5 ms, a 256x256 PNG GetMap <= 10 ms, GetLegendGraphic <= 5 ms).

Run: ``.venv/bin/python benchmarks/ows.py [--repeat N]``. Each request goes through the
ASGI app (middleware, routing, the endpoint) on a stock emulator; the map draws 500
polygons uploaded as a property file. Prints the median and best CPU milliseconds of each
(CPU time: wall time on a shared machine mostly measures the neighbours) and whether the
median met its target; the figures are printed, never asserted.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import time
from collections.abc import Callable

from geoserver_emulator import Emulator

TARGETS = {"capabilities 1.3.0": 5.0, "capabilities 1.1.1": 5.0, "GetMap 256x256 PNG": 10.0}
TARGETS["GetLegendGraphic PNG"] = 5.0
TARGETS["GetLegendGraphic JSON"] = 5.0


def _properties(count: int) -> bytes:
    lines = ["_=name:String,pop:Integer,geom:Polygon:srid=4326"]
    for i in range(count):
        x, y = (i % 25) * 14 - 175, (i // 25) * 8 - 80
        ring = f"{x} {y},{x} {y + 6},{x + 10} {y + 6},{x + 10} {y},{x} {y}"
        lines.append(f"cells.{i}=cell{i}|{i}|POLYGON(({ring}))")
    return ("\n".join(lines) + "\n").encode()


def _request(app: object, path: str, query: str) -> Callable[[], None]:
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "GET",
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "root_path": "",
        "query_string": query.encode(),
        "server": ("localhost", 8080),
        "client": ("127.0.0.1", 1),
        "headers": [(b"host", b"localhost:8080")],
    }
    loop = asyncio.new_event_loop()

    async def one() -> None:
        status: list[int] = []

        async def receive() -> dict[str, object]:
            return {"type": "http.request", "body": b"", "more_body": False}

        async def send(message: dict[str, object]) -> None:
            if message["type"] == "http.response.start":
                status.append(int(message["status"]))  # type: ignore[call-overload]

        await app(dict(scope), receive, send)  # type: ignore[operator]
        assert status == [200], status

    return lambda: loop.run_until_complete(one())


def _setup() -> Emulator:
    import httpx

    emu = Emulator("stock")
    client = httpx.Client(
        transport=httpx.WSGITransport(app=emu.wsgi_app),
        base_url="http://localhost:8080/geoserver",
        auth=("admin", "geoserver"),
    )
    r = client.put(
        "/rest/workspaces/sf/datastores/cells/file.properties",
        content=_properties(500),
        headers={"Content-Type": "text/plain"},
    )
    assert r.status_code == 201, r.text
    client.put("/rest/layers/sf:cells", json={"layer": {"defaultStyle": {"name": "population"}}})
    return emu


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=50)
    args = parser.parse_args()
    emu = _setup()
    app = emu.asgi_app
    ctx = "/geoserver"
    cases = {
        "capabilities 1.3.0": (f"{ctx}/ows", "service=WMS&request=GetCapabilities&version=1.3.0"),
        "capabilities 1.1.1": (f"{ctx}/wms", "service=WMS&request=GetCapabilities&version=1.1.1"),
        "GetMap 256x256 PNG": (
            f"{ctx}/wms",
            "service=WMS&version=1.1.1&request=GetMap&layers=sf:cells&styles=polygon"
            "&srs=EPSG:4326&bbox=-180,-90,180,90&width=256&height=256&format=image/png",
        ),
        "GetLegendGraphic PNG": (
            f"{ctx}/wms",
            "service=WMS&version=1.1.1&request=GetLegendGraphic&layer=topp:states&format=image/png",
        ),
        "GetLegendGraphic JSON": (
            f"{ctx}/wms",
            "service=WMS&version=1.1.1&request=GetLegendGraphic&layer=topp:states"
            "&format=application/json",
        ),
    }
    print(f"OWS requests in-process, {args.repeat} runs each (CPU ms: median / best / target)")
    missed = 0
    for name, (path, query) in cases.items():
        run = _request(app, path, query)
        run()  # the first call imports the area and parses the styles
        times = []
        for _ in range(max(1, args.repeat)):
            start = time.process_time()
            run()
            times.append((time.process_time() - start) * 1000)
        median = statistics.median(times)
        mark = "met" if median <= TARGETS[name] else "MISSED"
        missed += mark == "MISSED"
        print(f"  {name:24} {median:7.2f} / {min(times):7.2f} / {TARGETS[name]:.0f}  {mark}")
    print(f"targets: {len(cases) - missed} met, {missed} missed (median against the target)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
