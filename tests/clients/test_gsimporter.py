"""``gsimporter`` (GeoNode's importer client, PyPI ``gn-gsimporter``) against a live emulator
with the importer installed, end to end: GeoNode's upload flow (an import for a workspace's
store, a zipped shapefile, its tasks inspected and changed, the run, the layer read with
WFS and drawn with WMS through OWSLib), a GeoTIFF, a GeoPackage, files named by URL, and an
asynchronous import on the simulated clock.

gsimporter sends files it does not zip as a multipart form it builds as text (urllib3 2
encodes it as UTF-8, which garbles binary files, against GeoServer as against the emulator);
the tests upload ZIPs (``put_zip``) or name files by URL, as GeoNode does."""

from __future__ import annotations

import importlib.util
from collections.abc import Iterator
from io import BytesIO
from pathlib import Path
from types import ModuleType

import pytest
import requests
from gsimporter import Client
from gsimporter.api import BadRequest, NotFound
from owslib.wfs import WebFeatureService
from owslib.wms import WebMapService
from PIL import Image

from geoserver_emulator import Emulator
from geoserver_emulator.http.server import LiveServer

ADMIN = ("admin", "geoserver")


def _files() -> ModuleType:
    path = Path(__file__).resolve().parents[1] / "areas" / "uploads" / "conftest.py"
    spec = importlib.util.spec_from_file_location("gsimporter_upload_files", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


made = _files()


@pytest.fixture(scope="module", params=["spec", "geoserver"])
def live(request: pytest.FixtureRequest) -> Iterator[tuple[Emulator, str]]:
    emu = Emulator("stock", profile=request.param, extensions=["importer"], databases="memory")
    server = LiveServer(emu.asgi_app).start()
    try:
        yield emu, server.url(emu.context_path)
    finally:
        server.stop()


@pytest.fixture
def emu(live: tuple[Emulator, str], monkeypatch: pytest.MonkeyPatch) -> Iterator[Emulator]:
    emulator, _ = live
    emulator.reset()
    emulator.internal_errors.clear()
    monkeypatch.setenv("NO_PROXY", "127.0.0.1,localhost")
    monkeypatch.setenv("no_proxy", "127.0.0.1,localhost")
    yield emulator
    assert not emulator.internal_errors, "server errors:\n" + "\n".join(emulator.internal_errors)


@pytest.fixture
def url(live: tuple[Emulator, str], emu: Emulator) -> str:
    return live[1]


@pytest.fixture
def gs(url: str) -> Client:
    return Client(url + "/rest", *ADMIN)


def _zip(tmp_path: Path, name: str, files: dict[str, bytes]) -> str:
    path = tmp_path / name
    path.write_bytes(made.make_zip(files))
    return str(path)


def _geonode_store(url: str) -> None:
    """The workspace and PostGIS store a GeoNode imports into."""
    rest = url + "/rest"
    r = requests.post(f"{rest}/workspaces", json={"workspace": {"name": "geonode"}}, auth=ADMIN)
    assert r.status_code == 201, r.text
    store = {"dataStore": {"name": "datastore", "connectionParameters": {"entry": [
        {"@key": "dbtype", "$": "postgis"}, {"@key": "host", "$": "db"},
        {"@key": "database", "$": "geonode_data"}]}}}  # fmt: skip
    r = requests.post(f"{rest}/workspaces/geonode/datastores", json=store, auth=ADMIN)
    assert r.status_code == 201, r.text


def test_the_geonode_upload_flow(gs: Client, url: str, tmp_path: Path) -> None:
    _geonode_store(url)
    rest = gs.client
    r = requests.post(f"{url}/rest/imports", auth=ADMIN, json={"import": {
        "targetWorkspace": {"workspace": {"name": "geonode"}},
        "targetStore": {"dataStore": {"name": "datastore"}}}})  # fmt: skip
    session = gs.get_session(r.json()["import"]["id"])
    assert session.state == "PENDING" and session.targetStore.name == "datastore"
    shp = made.shapefile_files("lanes", kind="polygon")
    session.upload_task([_zip(tmp_path, "lanes.zip", shp)])
    task = session.tasks[0]
    assert (task.state, task.data.format, task.target.name) == ("READY", "Shapefile", "datastore")
    assert [a.name for a in task.layer.attributes] == ["the_geom", "NAME", "LANES", "WIDTH",
                                                       "OPENED"]  # fmt: skip
    task.layer.set_target_layer_name("lanes_geonode")
    task.set_update_mode("CREATE")
    task.set_transforms([{"type": "AttributeRemapTransform", "field": "NAME",
                          "target": "java.lang.String"}])  # fmt: skip
    session = session.reload()
    task = session.tasks[0]
    assert (task.layer.name, task.updateMode, task.transforms[0]["field"]) == (
        "lanes_geonode", "CREATE", "NAME"
    )  # fmt: skip
    session.commit()
    session = gs.get_session(session.id)
    assert session.state == "COMPLETE"
    assert session.tasks[0].get_target_layer_name() == "geonode:lanes_geonode"
    assert session.tasks[0].get_progress() == {"state": "COMPLETE"}
    assert rest.url() == url + "/rest"

    wfs = WebFeatureService(f"{url}/wfs", version="2.0.0")
    assert "geonode:lanes_geonode" in wfs.contents
    got = wfs.getfeature(typename=["geonode:lanes_geonode"], outputFormat="application/json")
    text = got.read()
    assert b'"NAME":"Main"' in text and b'"NAME":"High"' in text

    wms = WebMapService(f"{url}/wms", version="1.1.1")
    layer = wms["geonode:lanes_geonode"]
    image = wms.getmap(layers=[layer.name], styles=[""], srs="EPSG:4326",
                       bbox=(0.0, 1.0, 5.0, 7.0), size=(50, 60), format="image/png")  # fmt: skip
    pixels = Image.open(BytesIO(image.read())).convert("RGB")
    colors = {pixels.getpixel((x, y)) for x in range(50) for y in range(60)}
    assert (255, 51, 0) in colors  # drawn with the style the importer generated


def test_a_geotiff_import(gs: Client, url: str, tmp_path: Path) -> None:
    session = gs.upload(_zip(tmp_path, "dem.zip", {"dem.tif": made.geotiff()}))
    assert [(t.state, t.data.format, t.target.store_type) for t in session.tasks] == [
        ("READY", "GeoTIFF", "coverageStore")
    ]
    session.commit()
    assert gs.get_session(session.id).state == "COMPLETE"
    layer = requests.get(f"{url}/rest/layers/ne:dem.json", auth=ADMIN).json()["layer"]
    assert (layer["type"], layer["defaultStyle"]["name"]) == ("RASTER", "ne_dem")


def test_a_geopackage_import_into_a_workspace(gs: Client, url: str, tmp_path: Path) -> None:
    gpkg = made.geopackage({"cities": [("Rome", 12.5, 41.9)], "towns": [("Ulm", 10.0, 48.4)]})
    session = gs.start_import()
    session.upload_task([_zip(tmp_path, "places.zip", {"places.gpkg": gpkg})])
    for task in session.tasks:
        task.set_target(workspace="sf")
    session.commit()
    session = gs.get_session(session.id)
    assert [t.state for t in session.tasks] == ["COMPLETE", "COMPLETE"]
    assert [t.get_target_layer_name() for t in session.tasks] == ["sf:cities", "sf:towns"]


def test_files_named_by_url_and_a_missing_srs(gs: Client, url: str, tmp_path: Path) -> None:
    for name, data in made.shapefile_files("roads", prj=None).items():
        (tmp_path / name).write_bytes(data)
    session = gs.upload(str(tmp_path / "roads.shp"), use_url=True)
    task = session.tasks[0]
    assert task.state == "NO_CRS"
    task.set_srs("EPSG:4326")
    assert task.reload().state == "READY"
    with pytest.raises(BadRequest) as info:
        task.set_srs("EPSG:999999")
    assert info.value.args == ("Invalid SRS EPSG:999999",)
    session.commit()
    assert gs.get_session(session.id).state == "COMPLETE"


def test_an_async_import_on_the_simulated_clock(
    gs: Client, url: str, emu: Emulator, tmp_path: Path
) -> None:
    session = gs.start_import()
    session.upload_task([_zip(tmp_path, "lanes.zip", made.shapefile_files("lanes"))])
    r = requests.post(f"{url}/rest/imports/{session.id}?async=true", auth=ADMIN)
    assert r.status_code == 204
    task = gs.get_session(session.id).tasks[0]
    assert task.state == "RUNNING" and task.get_progress() == {"state": "RUNNING"}
    r = requests.post(f"{url}/__emulator/clock/advance?seconds=5", auth=ADMIN)
    assert r.status_code == 200
    assert gs.get_session(session.id).tasks[0].get_progress() == {"state": "COMPLETE"}


def test_sessions_deleting_and_missing_ones(gs: Client, tmp_path: Path) -> None:
    first = gs.start_import()
    second = gs.start_import(import_id=7)
    assert (first.id, second.id) == (0, 7)
    assert [s.id for s in gs.get_sessions()] == [0, 7]
    second.upload_task([_zip(tmp_path, "docs.zip", {"readme.txt": b"hello"})])
    second.delete_unrecognized_tasks()
    assert gs.get_session(7).tasks == []
    second.delete()
    with pytest.raises(NotFound):
        gs.get_session(7)
