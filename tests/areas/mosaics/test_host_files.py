"""Paths outside the data directory: they read this machine (the default in-process, and for a
server bound to a loopback address), within a budget of files and bytes per request; with
host reading off they resolve inside the emulated data directory."""

from __future__ import annotations

import pytest

from geoserver_emulator import Emulator
from geoserver_emulator.areas.mosaics import sources


def _write(folder, files) -> None:
    for name, body in files.items():
        (folder / name).write_bytes(body.encode() if isinstance(body, str) else body)


@pytest.fixture
def no_host(wcs):
    """Host reading off (``--no-host-read``): host paths resolve in the data directory."""
    wcs.host_read = False
    return wcs


@pytest.mark.parametrize("body", ["/etc", "file:///etc", "/etc/../etc/", "file://localhost/etc"])
def test_a_host_folder_is_not_read_and_no_store_is_kept(no_host, client, m, body):
    r = client.put(f"{m.ROOT}/external.imagemosaic", content=body, headers=m.TEXT)
    assert 400 <= r.status_code < 500, r.text
    assert r.text.strip()
    for shown in ("passwd", "hosts", "os-release"):  # nothing found on the host is named
        assert shown not in r.text
    assert client.get(f"{m.ROOT}.json").status_code == 404


def test_a_host_folder_with_granules_is_not_read_when_off(no_host, client, m, tmp_path):
    _write(tmp_path, m.watertemp())
    r = client.put(f"{m.ROOT}/external.imagemosaic", content=str(tmp_path), headers=m.TEXT)
    assert r.status_code == 400, r.text
    assert client.get(f"{m.ROOT}.json").status_code == 404
    r = client.put(f"{m.ROOT}/external.imagemosaic", content=tmp_path.as_uri(), headers=m.TEXT)
    assert r.status_code == 400, r.text


def test_an_absolute_path_resolves_inside_the_data_directory(no_host, client, m):
    """``/data/mosaic`` names the emulated data directory's folder ``data/mosaic``."""
    for name, body in m.watertemp().items():
        data = body.encode() if isinstance(body, str) else body
        r = client.put(f"/rest/resource/data/mosaic/{name}", content=data)
        assert r.status_code in (200, 201), r.text
    r = client.put(f"{m.ROOT}/external.imagemosaic", content="/data/mosaic", headers=m.TEXT)
    assert r.status_code == 200, r.text
    features = client.get(f"{m.ROOT}/coverages/mosaic/index/granules.json").json()["features"]
    assert len(features) == 2
    names = {f["properties"]["location"] for f in features}
    assert names == {n for n in m.watertemp() if n.endswith(".tiff")}
    assert client.get(f"{m.ROOT}.json").json()["coverageStore"]["url"] == "file:///data/mosaic"


def test_host_reading_is_on_in_process_by_default(client_for, m, tmp_path):
    emu = Emulator("stock")
    emu.state.catalog.add_workspace(m.WS)
    _write(tmp_path, m.watertemp())
    r = client_for(emulator=emu).put(
        f"{m.ROOT}/external.imagemosaic", content=str(tmp_path), headers=m.TEXT
    )
    assert r.status_code == 200, r.text


@pytest.mark.parametrize(("files", "size", "says"), [(3, None, "files"), (None, 100, "bytes")])
def test_host_reading_is_bounded(client_for, m, tmp_path, monkeypatch, files, size, says):
    if files is not None:
        monkeypatch.setattr(sources, "HOST_FILES", files)
    if size is not None:
        monkeypatch.setattr(sources, "HOST_BYTES", size)
    emu = Emulator("stock", host_read=True)
    emu.state.catalog.add_workspace(m.WS)
    _write(tmp_path, m.watertemp(days=("20081031", "20081101", "20081102")))
    client = client_for(emulator=emu)
    r = client.put(f"{m.ROOT}/external.imagemosaic", content=str(tmp_path), headers=m.TEXT)
    assert r.status_code == 400, r.text
    assert f"Reading the host stopped: more than {files or size} {says}" in r.text
    assert client.get(f"{m.ROOT}.json").status_code == 404


def test_the_scenario_setting_and_the_argument_decide(m):
    doc = {"extends": "stock", "settings": {"hostRead": False}}
    emu = Emulator(doc)
    assert not emu.host_read
    assert emu.dump_scenario()["settings"]["hostRead"] is False
    assert Emulator(doc, host_read=True).host_read
    assert Emulator("stock").host_read
    assert "hostRead" not in Emulator("stock").dump_scenario()["settings"]
    assert not Emulator("stock", host_read_default=False).host_read
    on = {"extends": "stock", "settings": {"hostRead": True}}
    assert Emulator(on, host_read_default=False).host_read
