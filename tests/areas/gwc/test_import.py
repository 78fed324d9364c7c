"""Import from a live server: GWC's configuration comes back as the ``seeding`` section."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from geoserver_emulator import Emulator

try:  # the layout after the layers refactoring (recording/, http/server.py), else the older one
    from geoserver_emulator.http.server import LiveServer
    from geoserver_emulator.recording.importer import import_scenario
except ImportError:
    from geoserver_emulator.http.server import LiveServer
    from geoserver_emulator.recording.importer import import_scenario

from .test_config import FILE_STORE, GRIDSET

ADMIN = ("admin", "geoserver")
S3 = (
    '<S3BlobStore default="true"><id>s3</id><enabled>true</enabled><bucket>tiles</bucket>'
    "<awsAccessKey>AKIA</awsAccessKey><awsSecretKey>very-secret</awsSecretKey></S3BlobStore>"
)


@pytest.fixture
def upstream() -> Iterator[tuple[Emulator, str]]:
    emu = Emulator("stock")
    server = LiveServer(emu.asgi_app).start()
    try:
        yield emu, server.url(emu.context_path)
    finally:
        server.stop()


def test_gwc_configuration_is_imported(upstream, tmp_path: Path):
    emu, url = upstream
    xml = {"content-type": "application/xml"}
    with httpx.Client(base_url=url, auth=ADMIN) as c:
        assert (
            c.put("/gwc/rest/gridsets/EPSG:2163.xml", content=GRIDSET, headers=xml).status_code
            == 201
        )
        assert (
            c.put(
                "/gwc/rest/blobstores/blobStore1.xml", content=FILE_STORE, headers=xml
            ).status_code
            == 201
        )
        assert c.put("/gwc/rest/blobstores/s3.xml", content=S3, headers=xml).status_code == 201
        body = (
            "<GeoServerLayer><enabled>true</enabled><name>sf:roads</name><blobStoreId>s3"
            "</blobStoreId><mimeFormats><string>image/png</string></mimeFormats><gridSubsets>"
            "<gridSubset><gridSetName>EPSG:2163</gridSetName></gridSubset></gridSubsets>"
            "</GeoServerLayer>"
        )
        assert c.put("/gwc/rest/layers/sf:roads.xml", content=body, headers=xml).status_code == 200
        assert c.put(
            "/gwc/rest/global.json", content=b'{"global": {"backendTimeout": 30}}',
            headers={"content-type": "application/json"},
        ).status_code == 200  # fmt: skip
    import_scenario(url, "admin", "geoserver", tmp_path / "s.json")
    text = (tmp_path / "s.json").read_text()
    assert "very-secret" not in text
    loaded = Emulator(tmp_path / "s.json")
    store, theirs = loaded.state.seeding, emu.state.seeding
    assert store.gridset("EPSG:2163") is not None
    assert store.blob_stores["blobStore1"] == theirs.blob_stores["blobStore1"]
    assert store.blob_stores["s3"].default is True
    roads = store.tile_layers["sf:roads"]
    assert roads.blob_store_id == "s3" and roads.gridsets == ["EPSG:2163"]
    assert roads.id == theirs.tile_layers["sf:roads"].id
    assert store.global_config == theirs.global_config
    assert store.disk_quota == theirs.disk_quota


def test_blob_store_keys_are_secrets_when_recording():
    from geoserver_emulator.scenarios.scrub import is_secret_key

    assert is_secret_key("awsSecretKey") and is_secret_key("accountKey")
    assert not is_secret_key("awsAccessKey") and not is_secret_key("bucket")
