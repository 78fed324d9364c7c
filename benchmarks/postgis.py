"""Benchmark: features read live from PostGIS (targets: WFS GetFeature of 1,000 rows as
GeoJSON <= 2x what psycopg alone takes to fetch the same rows and ``json.dumps`` them; a
256x256 GetMap of 1,000 polygons <= 15 ms beyond its query).

Run: ``.venv/bin/python benchmarks/postgis.py [--repeat N] [--quick]``. Starts a throwaway
PostgreSQL + PostGIS cluster (``tests/pgcluster.py``, on pytest-postgresql's executor; the
figures are skipped, saying why, where PostgreSQL or PostGIS is missing), fills a table of
1,000 polygons, publishes it over REST and times, in the same run, each request through the
ASGI app and its comparator: psycopg fetching the same rows (``ST_AsGeoJSON``) and dumping
them as GeoJSON for the first, the map's query alone (the rows as WKB, read into geometries)
for the second. Wall-clock medians (the database works in another process), in
milliseconds; the figures are printed with "met" or "not met", never asserted. Each pair runs
in turns, so that a neighbour's load falls on both alike.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
ROWS = 1000
GEOJSON_RATIO = 2.0
MAP_BEYOND_MS = 15.0


@contextmanager
def cluster() -> Iterator[Any]:
    """A running cluster's executor, or None (with the reason printed) when none can run."""
    sys.path.insert(0, str(ROOT / "tests"))
    from pgcluster import cluster as start
    from pgcluster import find_pg_ctl, missing

    pg_ctl = find_pg_ctl(None)
    why = missing(pg_ctl)
    if why is not None or pg_ctl is None:
        print(f"PostGIS benchmarks skipped: {why}")
        yield None
        return
    gen = start(pg_ctl)
    executor = next(gen)
    try:
        yield executor
    finally:
        gen.close()


def fill(executor: Any, rows: int) -> dict[str, str]:
    """A database with the PostGIS template's extension and a table of ``rows`` polygons."""
    import psycopg

    base = {"host": executor.host, "port": executor.port, "user": executor.user}
    with psycopg.connect(**base, dbname="postgres", autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE bench TEMPLATE {executor.template_dbname}")
    with psycopg.connect(**base, dbname="bench", autocommit=True) as conn:
        conn.execute(
            "CREATE TABLE cells (fid serial PRIMARY KEY, label varchar, pop int4,"
            " geom geometry(Polygon, 4326))"
        )
        conn.execute(
            "INSERT INTO cells (label, pop, geom) SELECT 'cell' || i, i,"
            " ST_MakeEnvelope((i %% 40) * 9 - 180, (i / 40) * 7 - 90,"
            " (i %% 40) * 9 - 173, (i / 40) * 7 - 84, 4326)"
            " FROM generate_series(0, %s - 1) AS i",
            (rows,),
        )
        conn.execute("ANALYZE cells")
    return {
        "dbtype": "postgis",
        "host": executor.host,
        "port": str(executor.port),
        "database": "bench",
        "user": executor.user,
        "passwd": "",
    }


def publish(params: dict[str, str]) -> Any:
    import httpx

    from geoserver_emulator import Emulator

    emu = Emulator("empty")
    client = httpx.Client(
        transport=httpx.WSGITransport(app=emu.wsgi_app),
        base_url="http://localhost:8080/geoserver",
        auth=("admin", "geoserver"),
    )
    client.post("/rest/workspaces", json={"workspace": {"name": "b"}})
    entries = [{"@key": k, "$": v} for k, v in params.items()]
    store = {"dataStore": {"name": "db", "connectionParameters": {"entry": entries}}}
    assert client.post("/rest/workspaces/b/datastores", json=store).status_code == 201
    ft = {"featureType": {"name": "cells"}}
    r = client.post("/rest/workspaces/b/datastores/db/featuretypes", json=ft)
    assert r.status_code == 201, r.text
    return emu, client


def request(app: Any, path: str, query: str) -> Callable[[], int]:
    """One GET through the ASGI app; returns the body's length."""
    import asyncio

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

    async def one() -> int:
        status: list[int] = []
        size = 0

        async def receive() -> dict[str, object]:
            return {"type": "http.request", "body": b"", "more_body": False}

        async def send(message: dict[str, Any]) -> None:
            nonlocal size
            if message["type"] == "http.response.start":
                status.append(int(message["status"]))
            elif message["type"] == "http.response.body":
                size += len(message.get("body", b""))

        await app(dict(scope), receive, send)
        assert status == [200], status
        return size

    return lambda: loop.run_until_complete(one())


def medians_ms(
    ours: Callable[[], object], theirs: Callable[[], object], repeat: int
) -> tuple[float, float]:
    """Median milliseconds of each, run in turns (a neighbour's load falls on both alike)."""
    ours(), theirs()  # warm: imports, pools, caches of the first call
    times: tuple[list[float], list[float]] = ([], [])
    for _ in range(repeat):
        for work, found in ((ours, times[0]), (theirs, times[1])):
            start = time.perf_counter()
            work()
            found.append((time.perf_counter() - start) * 1000)
    return statistics.median(times[0]), statistics.median(times[1])


def psycopg_geojson(params: dict[str, str]) -> Callable[[], object]:
    import psycopg

    conn = psycopg.connect(
        host=params["host"], port=int(params["port"]), user=params["user"], dbname="bench"
    )

    def work() -> str:
        rows = conn.execute(
            "SELECT fid, label, pop, ST_AsGeoJSON(geom) FROM cells ORDER BY fid"
        ).fetchall()
        conn.rollback()
        features = [
            {
                "type": "Feature",
                "id": f"cells.{fid}",
                "geometry": json.loads(geom),
                "properties": {"label": label, "pop": pop},
            }
            for fid, label, pop, geom in rows
        ]
        return json.dumps({"type": "FeatureCollection", "features": features})

    return work


def map_query(params: dict[str, str]) -> Callable[[], object]:
    import psycopg
    import shapely

    conn = psycopg.connect(
        host=params["host"], port=int(params["port"]), user=params["user"], dbname="bench"
    )

    def work() -> object:
        rows = conn.execute(
            "SELECT fid, label, pop, ST_AsBinary(geom) FROM cells"
            " WHERE geom && ST_MakeEnvelope(-540, -270, 540, 270, 4326) ORDER BY fid"
        ).fetchall()
        conn.rollback()
        return shapely.from_wkb([r[3] for r in rows])

    return work


def source_read(emu: Any) -> Callable[[], object]:
    """The map's read through the PostGIS source alone (what GetMap asks of it)."""
    from geoserver_emulator.features import resolver
    from geoserver_emulator.features.query import Query

    ft = emu.state.catalog.resources[("b", "cells")]

    def work() -> object:
        source = resolver.source_for(emu.state, ft)
        assert source is not None
        return list(source.read(Query(bbox=(-540.0, -270.0, 540.0, 270.0))))

    return work


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=15)
    parser.add_argument("--quick", action="store_true", help="fewer repeats (a smoke run)")
    args = parser.parse_args()
    repeat = 3 if args.quick else args.repeat
    print(f"PostGIS: {ROWS} polygons, wall-clock medians of {repeat} runs")
    with cluster() as executor:
        if executor is None:
            return 0
        params = fill(executor, ROWS)
        emu, _ = publish(params)
        app = emu.asgi_app
        wfs = request(
            app,
            "/geoserver/wfs",
            "service=WFS&version=2.0.0&request=GetFeature&typeNames=b:cells"
            "&outputFormat=application/json",
        )
        wms = request(
            app,
            "/geoserver/wms",
            "service=WMS&version=1.1.1&request=GetMap&layers=b:cells&styles=&srs=EPSG:4326"
            "&bbox=-180,-90,180,90&width=256&height=256&format=image/png",
        )
        ours, theirs = medians_ms(wfs, psycopg_geojson(params), repeat)
        ratio = ours / theirs
        verdict = "met" if ratio <= GEOJSON_RATIO else "not met"
        print(
            f"WFS GetFeature {ROWS} rows GeoJSON: {ours:.1f} ms; psycopg + json.dumps:"
            f" {theirs:.1f} ms; ratio {ratio:.2f} (target <= {GEOJSON_RATIO}): {verdict}"
        )
        drawn, query = medians_ms(wms, map_query(params), repeat)
        read, _ = medians_ms(source_read(emu), lambda: None, repeat)
        beyond = drawn - query
        verdict = "met" if beyond <= MAP_BEYOND_MS else "not met"
        print(
            f"GetMap 256x256 of {ROWS} polygons: {drawn:.1f} ms; its query alone:"
            f" {query:.1f} ms; beyond the query {beyond:.1f} ms"
            f" (target <= {MAP_BEYOND_MS}): {verdict}"
        )
        print(
            f"  of which the PostGIS source's read (query, rows, geometries): {read:.1f} ms;"
            f" drawing and PNG encoding: {drawn - read:.1f} ms"
        )
        emu.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
