"""Benchmark: OGC API Features in-process (target: an items page of 100 features <= 5 ms),
against WFS 2.0 GetFeature of the same 100 features as GeoJSON (the comparator: the same
data, the same feature source, GeoServer's older API).

Run: ``.venv/bin/python benchmarks/ogcapi_features.py [--repeat N]``. Each request goes
through the ASGI app (middleware, routing, the endpoint) on a stock emulator with the
``ogcapi-features`` extension and 500 polygons uploaded as a property file. Prints the median
and best CPU milliseconds of each, the ratio of the medians to the comparator's, and whether
the median met its target; the figures are printed, never asserted.
"""

from __future__ import annotations

import argparse
import statistics
import time

from ows import _properties, _request

from geoserver_emulator import Emulator

TARGETS = {"items, 100 features (GeoJSON)": 5.0, "items, 100 features, filter + bbox": 5.0}
COMPARATOR = "WFS 2.0 GetFeature, 100 features (GeoJSON)"


def _setup() -> Emulator:
    import httpx

    emu = Emulator("stock", extensions=["ogcapi-features"])
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
    return emu


def _time(run: object, repeat: int) -> list[float]:
    run()  # type: ignore[operator]  # the first call imports the area
    times = []
    for _ in range(max(1, repeat)):
        start = time.process_time()
        run()  # type: ignore[operator]
        times.append((time.process_time() - start) * 1000)
    return times


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=50)
    args = parser.parse_args()
    app = _setup().asgi_app
    items = "/geoserver/ogc/features/v1/collections/sf:cells/items"
    cases = {
        COMPARATOR: (
            "/geoserver/wfs",
            "service=WFS&version=2.0.0&request=GetFeature&typeNames=sf:cells&count=100"
            "&outputFormat=application/json",
        ),
        "items, 100 features (GeoJSON)": (items, "limit=100"),
        "items, 100 features, filter + bbox": (
            items,
            "limit=100&filter=pop%20%3E%3D%200&bbox=-180,-90,180,90",
        ),
    }
    print(f"OGC API Features in-process, {args.repeat} runs each")
    print("(CPU ms: median / best / target; ratio of the medians to the comparator's)")
    medians: dict[str, float] = {}
    missed = 0
    for name, (path, query) in cases.items():
        times = _time(_request(app, path, query), args.repeat)
        medians[name] = statistics.median(times)
        target = TARGETS.get(name)
        mark = "" if target is None else ("met" if medians[name] <= target else "MISSED")
        missed += mark == "MISSED"
        ratio = medians[name] / medians[COMPARATOR] if medians[COMPARATOR] else 0.0
        shown = f"{target:.0f}" if target is not None else "-"
        print(
            f"  {name:40} {medians[name]:7.2f} / {min(times):7.2f} / {shown:>2}"
            f"  x{ratio:4.2f}  {mark}"
        )
    met = len(TARGETS) - missed
    print(f"targets: {met} met, {missed} missed (median against the target)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
