"""The ``features`` scenario section: dump and load round trips, file-backed stores."""

from __future__ import annotations

import json
from datetime import date

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from geoserver_emulator import Emulator
from geoserver_emulator.core.errors import ScenarioError
from geoserver_emulator.wire.text import xml_safe

from .conftest import PROPERTIES, TEXT, WS, ZIP, geopackage, geotiff, shapefile_zip


def _round_trip(emu: Emulator) -> Emulator:
    doc = json.loads(json.dumps(emu.dump_scenario()))
    return Emulator(doc)


def test_uploaded_stores_survive_dump_and_load(client, emu: Emulator) -> None:
    client.put(f"{WS}/sf/datastores/lanes/file.shp", content=shapefile_zip(), headers=ZIP)
    client.put(f"{WS}/sf/datastores/pds/file.properties", content=PROPERTIES, headers=TEXT)
    client.put(f"{WS}/sf/datastores/gp/file.gpkg", content=geopackage())
    client.put(
        f"{WS}/sf/coveragestores/dem/file.geotiff",
        content=geotiff(),
        headers={"Content-Type": "image/tiff"},
    )
    again = _round_trip(emu)
    assert again.state.features == emu.state.features
    assert again.state.datadir.files.keys() >= {
        "data/sf/lanes/lanes.shp",
        "data/sf/pds/pds.properties",
        "data/sf/gp/gp.gpkg",
    }
    table = again.state.features.get("sf", "lanes", "lanes")
    assert table.features[0].properties["OPENED"] == date(2020, 1, 1)


def test_file_backed_store_declared_beside_the_scenario(tmp_path) -> None:
    (tmp_path / "lanes.zip").write_bytes(shapefile_zip())
    (tmp_path / "dem.tif").write_bytes(geotiff())
    doc = {
        "extends": "stock",
        "features": {
            "stores": [
                {"workspace": "sf", "store": "lanes", "format": "shp", "file": "lanes.zip"},
                {"workspace": "sf", "store": "dem", "format": "geotiff", "file": "dem.tif"},
            ]
        },
    }
    path = tmp_path / "scenario.json"
    path.write_text(json.dumps(doc))
    emu = Emulator(str(path))
    assert emu.state.catalog.feature_type("sf", "lanes") is not None
    assert emu.state.catalog.coverage("sf", "dem") is not None
    assert len(emu.state.features.get("sf", "lanes", "lanes").features) == 2
    assert emu.state.features.grids[("sf", "dem", "dem")].width == 4


def test_bad_declared_store_names_the_problem(tmp_path) -> None:
    (tmp_path / "bad.zip").write_bytes(b"not a zip")
    doc = {"extends": "stock", "features": {"stores": [
        {"workspace": "sf", "store": "bad", "format": "shp", "file": "bad.zip"}]}}  # fmt: skip
    path = tmp_path / "scenario.json"
    path.write_text(json.dumps(doc))
    with pytest.raises(ScenarioError, match="not a ZIP"):
        Emulator(str(path))


names = st.text(alphabet="abcdefghij", min_size=1, max_size=8)
values = st.one_of(
    st.none(),
    st.text(max_size=10).filter(xml_safe),  # a scenario refuses what XML cannot carry
    st.integers(-(2**31), 2**31 - 1),
)


@settings(max_examples=25, deadline=None)
@given(rows=st.lists(st.tuples(values, st.floats(-180, 180), st.floats(-90, 90)), max_size=5))
def test_tables_round_trip(rows) -> None:
    attrs = [
        {"name": "geom", "binding": "org.locationtech.jts.geom.Point"},
        {"name": "v", "binding": "java.lang.Object"},
    ]
    feats = [
        {"fid": f"t.{i}", "properties": {"geom": f"POINT ({x!r} {y!r})", "v": v}}
        for i, (v, x, y) in enumerate(rows)
    ]
    doc = {"extends": "empty", "features": {"tables": [
        {"workspace": "w", "store": "s", "name": "t", "srs": "EPSG:4326", "geometry": "geom",
         "attributes": attrs, "features": feats}]}}  # fmt: skip
    emu = Emulator(doc)
    again = _round_trip(emu)
    assert again.state.features == emu.state.features
    assert len(again.state.features.get("w", "s", "t").features) == len(rows)


def test_remote_content_and_text_files_from_a_scenario(tmp_path, client_for) -> None:
    (tmp_path / "pds.properties").write_bytes(PROPERTIES)
    doc = {
        "extends": "stock",
        "features": {
            "remote": [{"url": "http://example.com/pds.properties", "file": "pds.properties"}],
            "files": [{"path": "data/notes/readme.txt", "text": "hello"}],
        },
    }
    path = tmp_path / "scenario.json"
    path.write_text(json.dumps(doc))
    emu = Emulator(str(path))
    assert emu.state.datadir.read("data/notes/readme.txt") == b"hello"
    c = client_for(emulator=emu)
    r = c.put(
        f"{WS}/sf/datastores/r/url.properties",
        content=b"http://example.com/pds.properties",
        headers=TEXT,
    )
    assert r.status_code == 201, r.text
    assert emu.state.features.get("sf", "r", "r") is not None
    again = _round_trip(emu)
    assert again.state.features.remote == emu.state.features.remote


def test_unknown_keys_are_refused() -> None:
    doc = {"extends": "empty", "features": {"tables": [{"workspace": "w", "bogus": 1}]}}
    with pytest.raises(ScenarioError, match="bogus"):
        Emulator(doc)
