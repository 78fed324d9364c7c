"""The ``external`` method reading this machine's files (host reading on: the default
in-process and on a loopback-bound server), as GeoServer uses a file where it lies."""

from __future__ import annotations

import pytest
from lxml import etree

from geoserver_emulator import Emulator
from geoserver_emulator.areas.mosaics import sources

from .conftest import TEXT, WS, ZIP, geotiff, make_zip, png, shapefile_files, shapefile_zip


def _write(folder, files) -> None:
    for name, data in files.items():
        (folder / name).write_bytes(data)


def test_a_host_shapefile_is_used_where_it_lies(client, emu: Emulator, tmp_path) -> None:
    _write(tmp_path, {**shapefile_files(), "other.txt": b"not read"})
    body = str(tmp_path / "lanes.shp").encode()
    r = client.put(f"{WS}/sf/datastores/ext/external.shp", content=body, headers=TEXT)
    assert r.status_code == 201, r.text
    store = client.get(f"{WS}/sf/datastores/ext.json").json()["dataStore"]
    params = {e["@key"]: e["$"] for e in store["connectionParameters"]["entry"]}
    assert params["url"] == f"file:{tmp_path / 'lanes.shp'}"
    assert len(emu.state.features.get("sf", "ext", "lanes").features) == 2
    assert not any(str(tmp_path).lstrip("/") in p for p in emu.state.datadir.files)
    assert client.get(f"{WS}/sf/datastores/ext/featuretypes/lanes.json").status_code == 200


def test_a_host_folder_of_shapefiles_and_a_file_url(client, emu: Emulator, tmp_path) -> None:
    _write(tmp_path, shapefile_files("a"))
    _write(tmp_path, shapefile_files("b"))
    r = client.put(
        f"{WS}/sf/datastores/dir/external.shp?configure=all",
        content=tmp_path.as_uri().encode(),
        headers=TEXT,
    )
    assert r.status_code == 201, r.text
    names = client.get(f"{WS}/sf/datastores/dir/featuretypes.json").json()
    assert [f["name"] for f in names["featureTypes"]["featureType"]] == ["a", "b"]


def test_a_host_geotiff_and_a_zipped_world_image(client, emu: Emulator, tmp_path) -> None:
    (tmp_path / "dem.tif").write_bytes(geotiff())
    r = client.put(
        f"{WS}/sf/coveragestores/dem/external.geotiff",
        content=str(tmp_path / "dem.tif").encode(),
        headers=TEXT,
    )
    assert r.status_code == 201, r.text
    assert etree.fromstring(r.content).findtext("url") == f"file:{tmp_path / 'dem.tif'}"
    assert client.get(f"{WS}/sf/coveragestores/dem/coverages/dem.json").status_code == 200
    world = make_zip({"pic.png": png(), "pic.pgw": b"0.5\n0\n0\n-0.5\n10\n50\n"})
    (tmp_path / "pic.zip").write_bytes(world)
    r = client.put(
        f"{WS}/sf/coveragestores/pic/external.worldimage",
        content=str(tmp_path / "pic.zip").encode(),
        headers=ZIP,
    )
    assert r.status_code == 201, r.text
    assert "data/sf/pic/pic.png" in emu.state.datadir.files  # unpacked, as GeoServer does


def test_a_host_zip_of_a_shapefile(client, emu: Emulator, tmp_path) -> None:
    (tmp_path / "lanes.zip").write_bytes(shapefile_zip())
    r = client.put(
        f"{WS}/sf/datastores/z/external.shp",
        content=str(tmp_path / "lanes.zip").encode(),
        headers=ZIP,
    )
    assert r.status_code == 201, r.text
    assert "data/sf/z/lanes.shp" in emu.state.datadir.files


@pytest.mark.parametrize(
    ("name", "says"), [("missing.shp", "does not exist"), ("", "is a folder, not a file")]
)
def test_a_missing_host_file_is_refused_and_stores_nothing(client, emu, tmp_path, name, says):
    before = (dict(emu.state.catalog.stores), set(emu.state.datadir.files))
    target = str(tmp_path / name) if name else str(tmp_path)
    headers = ZIP if not name else TEXT
    r = client.put(f"{WS}/sf/datastores/x/external.shp", content=target.encode(), headers=headers)
    assert r.status_code == 400, r.text
    assert says in r.text
    assert (dict(emu.state.catalog.stores), set(emu.state.datadir.files)) == before


def test_reading_the_host_is_bounded(client, emu, tmp_path, monkeypatch) -> None:
    monkeypatch.setattr(sources, "HOST_BYTES", 100)
    (tmp_path / "dem.tif").write_bytes(geotiff(width=64, height=64))
    r = client.put(
        f"{WS}/sf/coveragestores/dem/external.geotiff",
        content=str(tmp_path / "dem.tif").encode(),
        headers=TEXT,
    )
    assert r.status_code == 400, r.text
    assert "Reading the host stopped: more than 100 bytes" in r.text
    assert emu.state.catalog.coverage_store("sf", "dem") is None


def test_with_host_reading_off_a_host_path_is_refused(client, emu, tmp_path) -> None:
    emu.host_read = False
    _write(tmp_path, shapefile_files())
    body = str(tmp_path / "lanes.shp").encode()
    r = client.put(f"{WS}/sf/datastores/ext/external.shp", content=body, headers=TEXT)
    assert r.status_code == 400
    assert "outside the data directory" in r.text
