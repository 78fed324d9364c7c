"""Amplification (issue 36): for each operation with a bound on the work it causes, the
largest request the bound lets through, and a request ten times past it.

Asserted: the largest legal request is answered as usual (and the emulator keeps answering
after it); the one past the limit is refused with its status and a message naming the limit,
the state does not change, and nothing answers 500. Never timed: what the requests cost is
measured by ``benchmarks/amplification.py``.

The cases are data (``CASES``): a new operation with a limit (a legend, a map, a tile, a
coverage, a transaction) is one more ``Case``.
"""

from __future__ import annotations

import hashlib
import io
import json
import struct
import zipfile
from collections.abc import Callable
from dataclasses import dataclass

import httpx
import numpy
import pytest

from geoserver_emulator import Emulator
from geoserver_emulator.areas.seeding import gridsets, model, request
from geoserver_emulator.areas.uploads import readers
from geoserver_emulator.control import routes as control
from geoserver_emulator.wire import json as wjson
from geoserver_emulator.wire import xml as wxml

BASE = "http://localhost:8080/geoserver"
ADMIN = ("admin", "geoserver")
JSON, XML, ZIP, TEXT, TIFF = (
    "application/json", "text/xml", "application/zip", "text/plain", "image/tiff"
)  # fmt: skip
WS = "/rest/workspaces"


# -- bodies -------------------------------------------------------------------------------


def json_values(n: int) -> bytes:
    """A workspace whose unknown field holds numbers: ``n`` values as ``MAX_VALUES`` counts
    them (the commas and opening brackets and braces)."""
    return b'{"workspace":{"name":"amp","junk":[' + b",".join([b"0"] * (n - 3)) + b"]}}"


def json_nested(depth: int) -> bytes:
    """A workspace whose unknown field nests objects until the body is ``depth`` deep."""
    inner = depth - 2  # the body's object and the workspace's
    return b'{"workspace":{"name":"amp","junk":' + b'{"a":' * inner + b"1" + b"}" * inner + b"}}"


def xml_elements(n: int) -> bytes:
    return b"<workspace><name>amp</name><junk>" + b"<a/>" * (n - 3) + b"</junk></workspace>"


def scenario(n: int) -> bytes:
    """A scenario document of ``n`` values (its settings' free ``extras`` hold numbers)."""
    return (
        b'{"extends":"empty","settings":{"extras":{"junk":[' + b",".join([b"0"] * (n - 4)) + b"]}}}"
    )


def seed(threads: int) -> bytes:
    doc = {"seedRequest": {
        "name": "topp:states", "gridSetId": "EPSG:4326", "zoomStart": 0, "zoomStop": 2,
        "format": "image/png", "type": "seed", "threadCount": threads,
    }}  # fmt: skip
    return json.dumps(doc).encode()


def gridset(levels: int = 3, tile: int = 256, finest: float | None = None) -> bytes:
    """A gridset of ``levels`` resolutions from 1 (the last one ``finest``, if given) over
    an extent of 2^32 units: a resolution of 1 with 256-pixel tiles is 2^24 tiles wide."""
    res = [1.0 / (1.0 + i / levels) for i in range(levels)]
    if finest is not None:
        res[-1] = finest
    doubles = "".join(f"<double>{r!r}</double>" for r in res)
    return (
        "<gridSet><name>amp</name><srs><number>3857</number></srs><extent><coords>"
        f"<double>0</double><double>0</double><double>{2.0**32}</double><double>{2.0**32}"
        "</double></coords></extent><alignTopLeft>false</alignTopLeft>"
        f"<resolutions>{doubles}</resolutions><metersPerUnit>1</metersPerUnit>"
        f"<pixelSize>0.00028</pixelSize><tileHeight>{tile}</tileHeight>"
        f"<tileWidth>{tile}</tileWidth></gridSet>"
    ).encode()


def tile_layer(meta: int) -> bytes:
    return (
        "<GeoServerLayer><name>topp:states</name><metaWidthHeight>"
        f"<int>{meta}</int><int>{meta}</int></metaWidthHeight></GeoServerLayer>"
    ).encode()


def shapefile(n: int) -> bytes:
    """A zipped point shapefile of ``n`` features with a one-character attribute."""
    rec = numpy.zeros(
        n, [("num", ">i4"), ("words", ">i4"), ("kind", "<i4"), ("x", "<f8"), ("y", "<f8")]
    )
    rec["num"], rec["words"], rec["kind"] = numpy.arange(1, n + 1), 10, 1
    rec["x"], rec["y"] = numpy.arange(n) % 360 - 180.0, numpy.arange(n) % 180 - 90.0
    index = numpy.zeros(n, [("offset", ">i4"), ("words", ">i4")])
    index["offset"], index["words"] = (100 + numpy.arange(n) * 28) // 2, 10

    def header(size: int) -> bytes:
        return (
            struct.pack(">7i", 9994, 0, 0, 0, 0, 0, size // 2)
            + struct.pack("<2i", 1000, 1)
            + struct.pack("<8d", -180, -90, 180, 90, 0, 0, 0, 0)
        )

    field = b"id".ljust(11, b"\0") + b"C" + b"\0" * 4 + bytes([1, 0]) + b"\0" * 14
    dbf = struct.pack("<4BIHH", 3, 126, 1, 1, n, 32 + len(field) + 1, 2) + b"\0" * 20
    letters = numpy.random.default_rng(36).integers(97, 123, n, dtype=numpy.uint8)
    cells = numpy.full((n, 2), 32, numpy.uint8)
    cells[:, 1] = letters  # random letters: the archive stays within its compression ratio
    dbf += field + b"\r" + cells.tobytes() + b"\x1a"
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED, compresslevel=1) as z:
        z.writestr("pts.shp", header(100 + rec.nbytes) + rec.tobytes())
        z.writestr("pts.shx", header(100 + index.nbytes) + index.tobytes())
        z.writestr("pts.dbf", dbf)
    return out.getvalue()


def arcgrid(cells: int) -> bytes:
    """An ArcGrid of one row of ``cells`` cells."""
    head = f"ncols {cells}\nnrows 1\nxllcorner 0\nyllcorner 0\ncellsize 1\n"
    return head.encode() + b"1 " * cells + b"\n"


def geotiff(width: int, height: int, strip: int, compression: int = 1) -> bytes:
    """An 8-bit GeoTIFF (pixel scale and tie point) declaring ``width`` × ``height`` pixels
    in one strip of ``strip`` bytes."""
    count = 11
    data_at = 8 + 2 + 12 * count + 4
    scale_at, tie_at = data_at + strip, data_at + strip + 24
    tags = [
        (256, 4, 1, width), (257, 4, 1, height), (258, 3, 1, 8), (259, 3, 1, compression),
        (262, 3, 1, 1), (273, 4, 1, data_at), (277, 3, 1, 1), (278, 4, 1, height),
        (279, 4, 1, strip), (33550, 12, 3, scale_at), (33922, 12, 6, tie_at),
    ]  # fmt: skip
    ifd = struct.pack("<H", count)
    for tag, kind, n, value in tags:
        fmt = "<HHIHH" if kind == 3 else "<HHII"
        ifd += struct.pack(fmt, tag, kind, n, value, *((0,) if kind == 3 else ()))
    georef = struct.pack("<3d", 0.001, 0.001, 0.0) + struct.pack("<6d", 0, 0, 0, 0, 50, 0)
    return b"II*\x00" + struct.pack("<I", 8) + ifd + struct.pack("<I", 0) + bytes(strip) + georef


# -- the cases ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Send:
    method: str
    path: str
    body: Callable[[], bytes] | None = None
    content_type: str | None = None


@dataclass(frozen=True)
class Case:
    """One limit: ``legal`` is the largest request it lets through (answered ``accepted``),
    ``past`` one ten times past it (answered ``refused``, with ``message`` in the answer).
    ``setup`` runs first (each must succeed); ``then`` after the legal request (each must
    succeed: an accepted request never poisons a later one)."""

    name: str
    legal: Send
    accepted: int
    past: Send
    refused: int
    message: str
    setup: tuple[Send, ...] = ()
    then: tuple[Send, ...] = ()


AFTER = (Send("POST", WS, lambda: b'{"workspace":{"name":"after"}}', JSON),)
GRIDSET = "/gwc/rest/gridsets/amp.xml"
V, D, E = wjson.MAX_VALUES, wjson.MAX_DEPTH, wxml.MAX_ELEMENTS
F = readers.MAX_FEATURES
SCENARIO = control.SCENARIO_VALUES
KIB = 64  # the WCS maxInputMemory set for the ArcGrid case: 16,384 cells of 4 bytes
DEFAULT_BUDGET = readers.DEFAULT_INPUT_MEMORY  # 1 GiB: 32,768 × 32,768 8-bit pixels
ROOM = 251_603_539_200.0  # seconds from the stock clock origin (2026) to 9999-01-01
CASES = [
    Case("JSON values", Send("POST", WS, lambda: json_values(V), JSON), 201,
         Send("POST", WS, lambda: json_values(10 * V), JSON), 400,
         f"at most {V} are accepted", then=AFTER),
    Case("JSON nesting", Send("POST", WS, lambda: json_nested(D), JSON), 201,
         Send("POST", WS, lambda: json_nested(10 * D), JSON), 400, "nested too deeply",
         then=AFTER),
    Case("XML elements", Send("POST", WS, lambda: xml_elements(E), XML), 201,
         Send("POST", WS, lambda: xml_elements(10 * E), XML), 400,
         f"at most {E} are accepted", then=AFTER),
    Case("scenario document values",
         Send("PUT", "/__emulator/scenario", lambda: scenario(SCENARIO), JSON), 204,
         Send("PUT", "/__emulator/scenario", lambda: scenario(10 * SCENARIO), JSON), 400,
         f"at most {SCENARIO} are accepted", then=(Send("GET", "/__emulator/health"),)),
    Case("disk quota nesting",
         Send("PUT", "/gwc/rest/diskquota.json",
              lambda: b'{"gwcQuotaConfiguration":{"layerQuotas":'
              + b'{"a":' * (D - 2) + b"1" + b"}" * (D - 2) + b"}}", JSON), 200,
         Send("PUT", "/gwc/rest/diskquota.json",
              lambda: b'{"gwcQuotaConfiguration":{"junk":'
              + b'{"a":' * (10 * D) + b"1" + b"}" * (10 * D) + b"}}", JSON), 400,
         "nested too deeply", then=AFTER),
    Case("seed threadCount",
         Send("POST", "/gwc/rest/seed/topp:states.json", lambda: seed(request.MAX_THREAD_COUNT),
              JSON), 200,
         Send("POST", "/gwc/rest/seed/topp:states.json",
              lambda: seed(10 * request.MAX_THREAD_COUNT), JSON), 400,
         f"at most {request.MAX_THREAD_COUNT} tasks", then=AFTER),
    Case("gridset levels", Send("PUT", GRIDSET, lambda: gridset(gridsets.MAX_LEVELS), XML), 201,
         Send("PUT", GRIDSET, lambda: gridset(10 * gridsets.MAX_LEVELS), XML), 400,
         f"at most {gridsets.MAX_LEVELS} levels", then=(Send("GET", GRIDSET), *AFTER)),
    Case("gridset tile size",
         Send("PUT", GRIDSET, lambda: gridset(tile=gridsets.TILE_SIZES[1]), XML), 201,
         Send("PUT", GRIDSET, lambda: gridset(tile=10 * gridsets.TILE_SIZES[1]), XML), 400,
         f"between {gridsets.TILE_SIZES[0]} and {gridsets.TILE_SIZES[1]}",
         then=(Send("GET", GRIDSET),)),
    Case("gridset tiles per level",  # 2^32 units / (256 px × 2^-8) = 2^32 tiles
         Send("PUT", GRIDSET, lambda: gridset(finest=2.0**-8), XML), 201,
         Send("PUT", GRIDSET, lambda: gridset(finest=2.0**-8 / 10), XML), 400,
         f"at most {gridsets.MAX_TILES_PER_SIDE} tiles wide or high",
         then=(Send("GET", GRIDSET),)),
    Case("metatiling",
         Send("PUT", "/gwc/rest/layers/topp:states.xml",
              lambda: tile_layer(model.MAX_METATILING), XML), 200,
         Send("PUT", "/gwc/rest/layers/topp:states.xml",
              lambda: tile_layer(10 * model.MAX_METATILING), XML), 400,
         f"at most {model.MAX_METATILING} tiles wide and high",
         then=(Send("GET", "/gwc/rest/layers/topp:states.xml"),)),
    Case("upload features",
         Send("PUT", WS + "/topp/datastores/pts/file.shp", lambda: shapefile(F), ZIP), 201,
         Send("PUT", WS + "/topp/datastores/pts/file.shp", lambda: shapefile(10 * F), ZIP), 400,
         f"at most {F} are accepted", then=(Send("GET", WS + "/topp/featuretypes/pts.json"),)),
    Case("raster budget (WCS maxInputMemory)",
         Send("PUT", WS + "/topp/coveragestores/g/file.arcgrid",
              lambda: arcgrid(KIB * 1024 // 4), TEXT), 201,
         Send("PUT", WS + "/topp/coveragestores/g/file.arcgrid",
              lambda: arcgrid(10 * KIB * 1024 // 4), TEXT), 400,
         f"the upload budget is {KIB * 1024} bytes",
         setup=(Send("PUT", "/rest/services/wcs/settings",
                     lambda: b'{"wcs":{"maxInputMemory":%d}}' % KIB, JSON),),
         then=(Send("GET", WS + "/topp/coverages/g.json"),)),
    Case("raster budget (default)",
         Send("PUT", WS + "/topp/coveragestores/t/file.geotiff",
              lambda: geotiff(32768, 32768, 110_000, compression=8), TIFF), 201,
         Send("PUT", WS + "/topp/coveragestores/t/file.geotiff",
              lambda: geotiff(327680, 32768, 1_100_000, compression=8), TIFF), 400,
         f"the upload budget is {DEFAULT_BUDGET} bytes",
         then=(Send("GET", WS + "/topp/coverages/t.json"),)),
    Case("TIFF data for the pixels declared",
         Send("PUT", WS + "/topp/coveragestores/t/file.geotiff",
              lambda: geotiff(100, 100, 10_000), TIFF), 201,
         Send("PUT", WS + "/topp/coveragestores/t/file.geotiff",
              lambda: geotiff(1000, 100, 10_000), TIFF), 400,
         "declares 1000 × 100 pixels", then=(Send("GET", WS + "/topp/coverages/t.json"),)),
    Case("simulated clock",
         Send("POST", f"/__emulator/clock/advance?seconds={ROOM!r}"), 200,
         Send("POST", f"/__emulator/clock/advance?seconds={10 * ROOM!r}"), 400,
         "past 9999-01-01",
         then=(Send("GET", "/wms?service=WMS&request=GetCapabilities"),
               Send("GET", "/wfs?service=WFS&version=1.1.0&request=GetFeature"
                    "&typeName=topp:states&maxFeatures=1"), *AFTER,
               Send("PUT", WS + "/topp/datastores/late/file.properties",
                    lambda: b"_=name:String,geom:Point:srid=4326\np.1=a|POINT(1 1)\n", TEXT))),
]  # fmt: skip


# -- the tests ----------------------------------------------------------------------------


def digest(emu: Emulator) -> str:
    dumped = json.dumps(emu.dump_scenario(), sort_keys=True, default=str)
    return hashlib.sha256(dumped.encode()).hexdigest() + f"@{emu.clock.now()!r}"


def send(c: httpx.Client, s: Send) -> httpx.Response:
    headers = {"Content-Type": s.content_type} if s.content_type else {}
    body = s.body() if s.body is not None else None
    return c.request(s.method, s.path, content=body, headers=headers)


@pytest.fixture
def emu() -> Emulator:
    return Emulator("stock")


@pytest.fixture
def c(emu: Emulator) -> httpx.Client:
    client = httpx.Client(
        transport=httpx.WSGITransport(app=emu.wsgi_app), base_url=BASE, auth=ADMIN, timeout=60
    )
    yield client
    client.close()
    assert not emu.internal_errors, "\n".join(emu.internal_errors)


def _setup(c: httpx.Client, case: Case) -> None:
    for step in case.setup:
        r = send(c, step)
        assert r.status_code < 300, (step.path, r.status_code, r.text)


@pytest.mark.parametrize("case", CASES, ids=lambda case: case.name)
def test_the_largest_legal_request_is_answered(emu: Emulator, c: httpx.Client, case: Case):
    _setup(c, case)
    r = send(c, case.legal)
    assert r.status_code == case.accepted, r.text[:500]
    for step in case.then:
        after = send(c, step)
        assert after.status_code < 300, (step.path, after.status_code, after.text[:500])


@pytest.mark.parametrize("case", CASES, ids=lambda case: case.name)
def test_ten_times_past_the_limit_is_refused_and_changes_nothing(
    emu: Emulator, c: httpx.Client, case: Case
):
    _setup(c, case)
    before = digest(emu)
    r = send(c, case.past)
    assert r.status_code == case.refused, r.text[:500]
    assert case.message in r.text, r.text[:500]
    assert digest(emu) == before
