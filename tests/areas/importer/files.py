"""What the importer tests share: an emulator with the extension, a client, and the upload
tests' file makers (``tests/areas/uploads/conftest.py``: shapefiles, GeoPackages, GeoTIFFs,
world images, ZIPs), loaded by path."""

from __future__ import annotations

import hashlib
import importlib.util
import json
from pathlib import Path
from types import ModuleType
from typing import Any

import httpx

from geoserver_emulator import Emulator

BASE = "http://localhost:8080/geoserver"
ADMIN = ("admin", "geoserver")
ZIP = {"Content-Type": "application/zip"}
JSON = {"Content-Type": "application/json"}


def _uploads() -> ModuleType:
    path = Path(__file__).resolve().parents[1] / "uploads" / "conftest.py"
    spec = importlib.util.spec_from_file_location("importer_upload_files", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


made = _uploads()
shapefile_files = made.shapefile_files
shapefile_zip = made.shapefile_zip
make_zip = made.make_zip
geopackage = made.geopackage
geotiff = made.geotiff
png = made.png
arcgrid = made.arcgrid
WGS84_PRJ = made.WGS84_PRJ


def emulator(profile: str = "spec", scenario: str = "stock", **kw: Any) -> Emulator:
    return Emulator(scenario, profile=profile, extensions=["importer"], **kw)


def client(emu: Emulator) -> httpx.Client:
    return httpx.Client(transport=httpx.WSGITransport(app=emu.wsgi_app), base_url=BASE, auth=ADMIN)


def digest(emu: Emulator) -> str:
    """The whole state: the scenario dump and the import store."""
    doc = json.dumps(emu.dump_scenario(), sort_keys=True, default=str)
    store = emu.state.importer
    extra = repr((sorted(store.imports.items()), store.next_id, store.next_folder, store.jobs))
    return hashlib.sha256((doc + extra).encode()).hexdigest()


def new_import(c: httpx.Client, body: dict[str, Any] | None = None, **params: str) -> int:
    r = (
        c.post("/rest/imports", json=body, params=params)
        if body
        else c.post("/rest/imports", params=params)
    )
    assert r.status_code == 201, r.text
    return int(r.json()["import"]["id"])


def upload_zip(c: httpx.Client, import_id: int, name: str, data: bytes) -> httpx.Response:
    return c.put(f"/rest/imports/{import_id}/tasks/{name}", content=data, headers=ZIP)


def lanes_import(c: httpx.Client, ws: str = "topp", **kw: Any) -> int:
    """An import for ``ws`` with the ``lanes`` shapefile uploaded as a ZIP (one task)."""
    i = new_import(c, {"import": {"targetWorkspace": {"workspace": {"name": ws}}}})
    r = upload_zip(c, i, "lanes.zip", shapefile_zip("lanes", **kw))
    assert r.status_code == 201, r.text
    return i
