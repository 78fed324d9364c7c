"""Uploads do their slow part off the event loop, within budgets, and refuse lying headers.

(Data store, single-file coverage and mosaic uploads.)

The slow part of an upload (unpacking, reading and checking its files) runs on a worker
thread while the event loop answers other clients; the changes are made afterwards, on the
loop, under the write lock. Checked here with events, never with timings: while an upload's
staging is held back, a read is answered and a second write waits its turn.
"""

from __future__ import annotations

import asyncio
import io
import struct
import threading
import zipfile

import httpx
import pytest

from geoserver_emulator import Emulator
from geoserver_emulator.areas.mosaics import service as mosaics
from geoserver_emulator.areas.uploads import coverages, datastores, rasters, readers

BASE = "http://localhost:8080/geoserver"
ADMIN = ("admin", "geoserver")
PROPS = b"_=name:String,geom:Point:srid=4326\np.1=a|POINT(1 1)\n"
WAIT = 10.0
"""the longest any step waits for another (a bound, never a timing: they take milliseconds)"""


def _held(
    monkeypatch: pytest.MonkeyPatch, module: object, name: str
) -> tuple[threading.Event, ...]:
    """Hold ``module.<name>`` until ``release`` is set; ``started`` is set when it runs, and
    ``off_loop`` when it runs on a thread other than the event loop's."""
    started, release, off_loop = threading.Event(), threading.Event(), threading.Event()
    real = getattr(module, name)
    loop_thread = threading.get_ident()

    def stage(*args: object) -> object:
        if threading.get_ident() != loop_thread:
            off_loop.set()
        started.set()
        assert release.wait(WAIT), "the test never released the upload"
        return real(*args)

    monkeypatch.setattr(module, name, stage)
    return started, release, off_loop


async def _until(event: threading.Event) -> None:
    for _ in range(int(WAIT / 0.01)):
        if event.is_set():
            return
        await asyncio.sleep(0.01)
    raise AssertionError("never happened")


def _mosaic() -> bytes:
    from PIL import Image

    png = io.BytesIO()
    Image.new("L", (4, 4)).save(png, format="PNG")
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as z:
        z.writestr("g1.png", png.getvalue())
        z.writestr("g1.pgw", "1\n0\n0\n-1\n0.5\n3.5\n")
    return out.getvalue()


@pytest.mark.parametrize(
    ("module", "name", "path", "body", "kind"),
    [
        (datastores, "stage", "/rest/workspaces/topp/datastores/p/file.properties", PROPS,
         "text/plain"),
        (coverages, "stage", "/rest/workspaces/topp/coveragestores/g/file.arcgrid",
         b"ncols 2\nnrows 1\nxllcorner 0\nyllcorner 0\ncellsize 1\n1 2\n", "text/plain"),
        (mosaics, "stage_upload", "/rest/workspaces/topp/coveragestores/m/file.imagemosaic",
         _mosaic(), "application/zip"),
    ],
    ids=["data store", "coverage", "mosaic"],
)  # fmt: skip
def test_an_upload_is_read_off_the_loop_while_others_are_answered(
    monkeypatch: pytest.MonkeyPatch, module: object, name: str, path: str, body: bytes, kind: str
):
    emu = Emulator("stock")
    started, release, off_loop = _held(monkeypatch, module, name)

    async def run() -> None:
        transport = httpx.ASGITransport(app=emu.asgi_app)
        async with httpx.AsyncClient(transport=transport, base_url=BASE, auth=ADMIN) as client:
            upload = asyncio.create_task(
                client.put(path, content=body, headers={"Content-Type": kind})
            )
            await _until(started)
            read = await client.get("/rest/workspaces.json")  # answered meanwhile
            assert read.status_code == 200
            write = asyncio.create_task(client.post("/rest/workspaces", json={"workspace": {
                "name": "second"}}))  # fmt: skip
            await asyncio.sleep(0.05)
            assert not write.done()  # writes stay one at a time
            assert emu.state.catalog.workspace("second") is None
            release.set()
            assert (await upload).status_code in (200, 201)
            assert (await write).status_code == 201

    asyncio.run(run())
    assert off_loop.is_set()
    assert not emu.internal_errors, emu.internal_errors


def test_a_refused_staging_changes_nothing(client: httpx.Client, emu: Emulator):
    shp = io.BytesIO()
    with zipfile.ZipFile(shp, "w") as z:
        z.writestr("x.shp", b"not a shapefile")
    files = dict(emu.state.datadir.files)
    r = client.put(
        "/rest/workspaces/topp/datastores/x/file.shp",
        content=shp.getvalue(),
        headers={"Content-Type": "application/zip"},
    )
    assert r.status_code == 400
    assert emu.state.catalog.store("topp", "x") is None
    assert dict(emu.state.datadir.files) == files


# -- the readers' budgets -----------------------------------------------------------------


def _tiff(tags: list[tuple[int, int, int, int]], data: bytes) -> bytes:
    ifd = struct.pack("<H", len(tags))
    for tag, kind, n, value in sorted(tags):
        fmt = "<HHIHH" if kind == 3 else "<HHII"
        ifd += struct.pack(fmt, tag, kind, n, value, *((0,) if kind == 3 else ()))
    return b"II*\x00" + struct.pack("<I", 8) + ifd + struct.pack("<I", 0) + data


def _plain(width: int, height: int, strip: int, compression: int = 1, **extra: int) -> bytes:
    at = 8 + 2 + 12 * (9 + len(extra)) + 4
    tags = [
        (256, 4, 1, width), (257, 4, 1, height), (258, 3, 1, 8), (259, 3, 1, compression),
        (262, 3, 1, 1), (273, 4, 1, at), (277, 3, 1, 1), (278, 4, 1, height),
        (279, 4, 1, strip),
    ]  # fmt: skip
    tags += [(int(k[1:]), 4, 1, v) for k, v in extra.items()]
    return _tiff(tags, bytes(strip))


def _tags(data: bytes) -> dict[int, object]:
    return rasters._tiff_tags("x.tif", data)


def test_a_tiff_must_hold_the_pixels_it_declares():
    ok = _plain(100, 100, 10_000)
    rasters._check_tiff_data("x.tif", ok, _tags(ok), readers.DEFAULT_INPUT_MEMORY)
    lying = _plain(100, 101, 10_000)
    with pytest.raises(readers.Unreadable, match="declares 100 × 101 pixels"):
        rasters._check_tiff_data("x.tif", lying, _tags(lying), readers.DEFAULT_INPUT_MEMORY)


def test_compressed_tiff_data_may_stand_for_at_most_max_compression_times_its_size():
    side = 1000
    need = side * side // rasters.MAX_COMPRESSION
    ok = _plain(side, side, need, compression=8)
    rasters._check_tiff_data("x.tif", ok, _tags(ok), readers.DEFAULT_INPUT_MEMORY)
    short = _plain(side, side, need - 1, compression=8)
    with pytest.raises(readers.Unreadable, match="bytes of compressed image data"):
        rasters._check_tiff_data("x.tif", short, _tags(short), readers.DEFAULT_INPUT_MEMORY)


def test_a_tiled_tiff_declares_whole_tiles():
    tags = {256: 100, 257: 100, 277: 1, 258: 8, 322: 64, 323: 64}
    assert rasters._declared_bytes(tags) == 4 * 64 * 64


def test_the_budget_counts_every_declared_sample():
    with pytest.raises(readers.Unreadable, match="the upload budget is 1000 bytes"):
        rasters.check_budget("x.tif", 1001, 1000)
    rasters.check_budget("x.tif", 1000, 1000)


@pytest.mark.parametrize("chunk", [1, 2, 3, 7, 1 << 20])
def test_arcgrid_cells_are_counted_across_chunks(monkeypatch: pytest.MonkeyPatch, chunk: int):
    monkeypatch.setattr(rasters, "CHUNK", chunk)
    text = b"1 22  333\n\t4 -5.5e3\r\n6\n  7 "
    assert rasters.count_tokens(text, 0, 10**9) == len(text.split())
    assert rasters.count_tokens(text, 3, 10**9) == len(text[3:].split())
    assert rasters.count_tokens(text, 0, 2) >= 2


@pytest.mark.parametrize("newline", [b"\n", b"\r\n", b"\r"])
def test_arcgrid_headers_read_with_any_line_ending(newline: bytes):
    lines = [b"ncols 2", b"nrows 2", b"xllcorner 0", b"yllcorner 0", b"cellsize 1", b"1 2", b"3 4"]
    raster = rasters.read_arcgrid("g.asc", newline.join(lines), lambda _n: None)
    assert (raster.width, raster.height) == (2, 2)
    with pytest.raises(readers.Unreadable, match="truncated"):
        rasters.read_arcgrid("g.asc", newline.join(lines[:-1]), lambda _n: None)


def test_an_arcgrid_past_the_budget_is_refused_on_its_header():
    head = b"ncols 1000000\nnrows 1000000\nxllcorner 0\nyllcorner 0\ncellsize 1\n"
    with pytest.raises(readers.Unreadable, match="declares 4000000000000 bytes"):
        rasters.read_arcgrid("g.asc", head + b"1", lambda _n: None)


def test_a_budget_refusal_is_a_400_in_the_geoserver_profile_too():
    """GeoServer answers a corrupt file with 500 (the ``geoserver`` profile does too); a file
    past a budget of the emulator's is a client's request too large: 400 in both."""
    emu = Emulator("stock", profile="geoserver")
    c = httpx.Client(transport=httpx.WSGITransport(app=emu.wsgi_app), base_url=BASE, auth=ADMIN)
    assert c.put("/rest/services/wcs/settings", json={"wcs": {"maxInputMemory": 1}}).is_success
    grid = b"ncols 300\nnrows 1\nxllcorner 0\nyllcorner 0\ncellsize 1\n" + b"1 " * 300
    r = c.put(
        "/rest/workspaces/topp/coveragestores/g/file.arcgrid",
        content=grid,
        headers={"Content-Type": "text/plain"},
    )
    assert r.status_code == 400 and "the upload budget is 1024 bytes" in r.text
    assert not emu.internal_errors


def _point_files(null_at: int | None = None) -> dict[str, bytes]:
    import shapefile as pyshp

    shp, shx, dbf = io.BytesIO(), io.BytesIO(), io.BytesIO()
    with pyshp.Writer(shp=shp, shx=shx, dbf=dbf, shapeType=pyshp.POINT) as w:
        w.field("name", "C", 10)
        for i in range(40):
            if i == null_at:
                w.null()
            else:
                w.point(i * 1.5 - 20, 40 - i * 0.25)
            w.record(f"p{i}")
    return {"p.shp": shp.getvalue(), "p.shx": shx.getvalue(), "p.dbf": dbf.getvalue()}


@pytest.mark.parametrize("null_at", [None, 7])
def test_point_shapefiles_read_in_one_pass_as_record_by_record(
    monkeypatch: pytest.MonkeyPatch, null_at: int | None
):
    from geoserver_emulator.areas.uploads import shapefiles

    files = _point_files(null_at)
    assert (shapefiles._points(files["p.shp"]) is None) == (null_at is not None)
    fast = shapefiles.read(files, "p").table.features
    monkeypatch.setattr(shapefiles, "_points", lambda _shp: None)
    slow = shapefiles.read(files, "p").table.features
    assert [f.fid for f in fast] == [f.fid for f in slow]
    assert [f.properties["name"] for f in fast] == [f.properties["name"] for f in slow]
    for f, s in zip(fast, slow, strict=True):
        a, b = f.properties["the_geom"], s.properties["the_geom"]
        assert (a is None and b is None) or a.equals_exact(b, 0)
