"""The mosaics model and its helpers: granule ids and selection, envelopes and lon/lat
boxes, file locations, and safe unzipping."""

from __future__ import annotations

import io
import zipfile
from datetime import UTC, datetime

import pytest

from geoserver_emulator.areas.mosaics import archive
from geoserver_emulator.areas.mosaics.indexer import Indexer
from geoserver_emulator.areas.mosaics.model import Granule, Mosaic, MosaicStore
from geoserver_emulator.areas.mosaics.sources import (
    DATADIR,
    HOST,
    FileRef,
    Remote,
    locate,
    store_root,
)
from geoserver_emulator.core.errors import Invalid, PayloadTooLarge
from geoserver_emulator.crs.envelope import Envelope, epsg_code, to_lonlat, union


def granule(location: str, x: float = 0.0, **values) -> Granule:
    return Granule(
        0, "m", location, Envelope(x, 0, x + 1, 1), values, f"datadir:data/ws/m/{location}"
    )


def test_ids_count_up_and_are_never_reused():
    mosaic = Mosaic("datadir:data/ws/m", "m")
    a, b = mosaic.add([granule("a.tif"), granule("b.tif")])
    assert (a.fid, b.fid) == ("m.1", "m.2")
    mosaic.remove([b])
    (c,) = mosaic.add([granule("c.tif")])
    assert c.fid == "m.3"
    # a granule of a file already indexed replaces the old entry (re-harvest)
    (a2,) = mosaic.add([granule("a.tif", x=5)])
    assert a2.fid == "m.4"
    assert [g.location for g in mosaic.granules] == ["c.tif", "a.tif"]
    assert mosaic.find("m", "m.1") is None and mosaic.find("m", "m.4") is a2


def test_select_filters_and_pages():
    mosaic = Mosaic("datadir:x", "m")
    mosaic.add([granule(f"{i}.tif", x=i, e=i) for i in range(5)])
    assert [g.location for g in mosaic.select("m", lambda f: f["e"] % 2 == 0)] == [
        "0.tif",
        "2.tif",
        "4.tif",
    ]
    assert [g.location for g in mosaic.select("m", None, 1, 2)] == ["1.tif", "2.tif"]
    feature = mosaic.feature(mosaic.granules[0])
    assert feature == {"e": 0, "location": "0.tif", "the_geom": Envelope(0, 0, 1, 1)}


def test_envelope_and_domains():
    mosaic = Mosaic(
        "datadir:x", "m", Indexer(params={"TimeAttribute": "t", "ElevationAttribute": "e"})
    )
    t1, t2 = datetime(2008, 10, 31, tzinfo=UTC), datetime(2008, 11, 1, tzinfo=UTC)
    mosaic.add(
        [granule("a", 0, t=t2, e=100), granule("b", 3, t=t1, e=0), granule("c", 1, t=t2, e=None)]
    )
    assert mosaic.envelope("m") == Envelope(0, 0, 4, 1)
    assert mosaic.domain("m", "TimeAttribute") == [t1, t2]
    assert mosaic.domain("m", "ElevationAttribute") == [0, 100]
    assert mosaic.envelope("other") is None


def test_store_keys_by_root():
    store = MosaicStore()
    mosaic = store.put(Mosaic("datadir:data/ws/m", "m"))
    assert store.get("datadir:data/ws/m") is mosaic
    assert store.get(None) is None
    assert store.all() == [mosaic]
    assert store.drop("datadir:data/ws/m") is mosaic and store.all() == []


# -- geometry ---------------------------------------------------------------------------------


def test_union_and_intersects():
    assert union([]) is None
    assert union([Envelope(0, 0, 1, 1), Envelope(-1, 2, 0, 3)]) == Envelope(-1, 0, 1, 3)
    assert Envelope(0, 0, 1, 1).intersects(Envelope(1, 1, 2, 2))
    assert not Envelope(0, 0, 1, 1).intersects(Envelope(1.5, 0, 2, 1))


def test_lonlat_boxes():
    env = Envelope(1, 2, 3, 4)
    assert to_lonlat(env, "EPSG:4326") == env
    assert to_lonlat(env, None) is None
    assert to_lonlat(env, "EPSG:999999") is None  # a code the EPSG database does not have
    lambert = to_lonlat(Envelope(700000, 6600000, 700001, 6600001), "EPSG:2154")
    assert lambert is not None and lambert.minx == pytest.approx(3.0, abs=1e-6)
    assert lambert.miny == pytest.approx(46.5, abs=1e-6)  # RGF93 / Lambert-93's origin
    merc = to_lonlat(Envelope(-20037508.34, -20037508.34, 20037508.34, 20037508.34), "EPSG:3857")
    assert (
        merc is not None
        and merc.minx == pytest.approx(-180)
        and merc.maxy == pytest.approx(85.0511, abs=1e-3)
    )
    utm = to_lonlat(Envelope(500000, 0, 500001, 1), "EPSG:32633")
    assert (
        utm is not None
        and utm.minx == pytest.approx(15.0)
        and utm.miny == pytest.approx(0.0, abs=1e-6)
    )
    south = to_lonlat(Envelope(500000, 10000000, 500001, 10000001), "EPSG:32733")
    assert south is not None and south.miny == pytest.approx(0.0, abs=1e-6)
    assert epsg_code("epsg:4326") == 4326 and epsg_code("CRS:84") is None


@pytest.mark.parametrize("zone", [1, 17, 33, 60])
def test_utm_known_point(zone):
    """On a zone's central meridian, northing 4982950.4 m is latitude 45°N (WGS84)."""
    box = to_lonlat(Envelope(500000, 4982950.4, 500000, 4982950.4), f"EPSG:{32600 + zone}")
    assert box is not None
    assert box.minx == pytest.approx((zone - 1) * 6 - 180 + 3)
    assert box.miny == pytest.approx(45.0, abs=1e-5)


# -- locations ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        ("data/ws/x.tif", FileRef(DATADIR, "data/ws/x.tif")),
        ("file:data/ws/x.tif", FileRef(DATADIR, "data/ws/x.tif")),
        ("file:data/ws/a%20b.tif", FileRef(DATADIR, "data/ws/a b.tif")),
        ("/opt/geoserver_data/data/ws", FileRef(DATADIR, "data/ws")),
        ("file:///opt/geoserver_data/data/ws/", FileRef(DATADIR, "data/ws")),
        ("/tmp/x.tif", FileRef(HOST, "/tmp/x.tif")),
        ("file:///tmp/x.tif", FileRef(HOST, "/tmp/x.tif")),
        ("file:/tmp/./y/../x.tif", FileRef(HOST, "/tmp/x.tif")),
        ("file://localhost/tmp/x.tif", FileRef(HOST, "/tmp/x.tif")),
        ("  /tmp/x.tif\n", FileRef(HOST, "/tmp/x.tif")),
        ("https://example.com/x.tif", Remote("https://example.com/x.tif")),
        ("file://server/share/x.tif", Remote("file://server/share/x.tif")),
    ],
)
def test_locate(text, ref):
    assert locate(text) == ref


def test_locate_refuses_escaping_the_data_directory():
    with pytest.raises(Invalid):
        locate("data/../../etc/passwd")


def test_store_roots():
    assert store_root("file:data/ws/m") == "datadir:data/ws/m"
    assert store_root("file:///srv/m") == "host:/srv/m"
    assert store_root("http://x/m") is None
    assert store_root(None) is None
    assert store_root("file:data/../../x") is None
    # a URL naming the index shapefile or the mosaic properties: the mosaic of its folder
    shp = "file:coverages/mosaic_sample/mosaic.shp"
    assert store_root(shp) == "datadir:coverages/mosaic_sample"
    assert store_root("file:///srv/m/m.PROPERTIES") == "host:/srv/m"
    assert store_root("file:coverages/arc/precip.asc") == "datadir:coverages/arc/precip.asc"


def test_file_refs():
    ref = FileRef(DATADIR, "data/ws/a b+c")
    assert ref.url == "file:data/ws/a%20b%2Bc"
    assert ref.absolute == "/opt/geoserver_data/data/ws/a b+c"
    assert FileRef(HOST, "/srv/x").url == "file:///srv/x"
    assert (
        FileRef(DATADIR, "data/ws/m/sub/x.tif").relative_to(FileRef(DATADIR, "data/ws/m"))
        == "sub/x.tif"
    )
    assert FileRef(DATADIR, "data/ws/mm/x.tif").relative_to(FileRef(DATADIR, "data/ws/m")) is None
    assert FileRef(HOST, "data/ws/m/x").relative_to(FileRef(DATADIR, "data/ws/m")) is None


# -- archives ----------------------------------------------------------------------------------


def make_zip(entries: dict[str, bytes], compression: int = zipfile.ZIP_DEFLATED) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", compression) as z:
        for name, body in entries.items():
            z.writestr(name, body)
    return buf.getvalue()


def test_unzip_keeps_paths_and_drops_folders():
    data = make_zip({"a.tif": b"1", "sub/": b"", "sub/b.tif": b"22", "./c.txt": b"3"})
    assert archive.unzip(data, 1000) == {"a.tif": b"1", "sub/b.tif": b"22", "c.txt": b"3"}


@pytest.mark.parametrize("name", ["../x", "a/../../x", "/abs/x", "C:\\x", "..\\x"])
def test_unzip_refuses_names_outside(name):
    with pytest.raises(Invalid, match="Illegal entry"):
        archive.unzip(make_zip({name: b"x"}), 1000)


def test_unzip_counts_inflated_bytes():
    data = make_zip({"a": b"0" * 10_000, "b": b"0" * 10_000})
    assert len(data) < 1000
    with pytest.raises(PayloadTooLarge):
        archive.unzip(data, 15_000)
    assert len(archive.unzip(data, 20_000)) == 2


def test_unzip_of_garbage():
    with pytest.raises(Invalid, match="not a ZIP archive"):
        archive.unzip(b"PK\x03\x04 nope", 1000)
