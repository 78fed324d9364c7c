"""The ``appSchema`` scenario section: loading, refusals, and dump → load round trips."""

from __future__ import annotations

import base64
import json

import pytest

from geoserver_emulator import Emulator
from geoserver_emulator.core.errors import ScenarioError

from .conftest import (
    GEOSCIML_ZIP,
    MONGO_URL,
    PAYLOADS,
    geosciml_zip,
    payload,
    short_id,
    stations_docs,
)

ID0, ID1 = "58e5889ce4b02461ad5af080", "58e5889ce4b02461ad5af081"


def write(tmp_path, doc: dict) -> str:
    path = tmp_path / "scenario.json"
    path.write_text(json.dumps({"extends": "stock", **doc}))
    return str(path)


def stations_scenario(**store_extra) -> dict:
    return {
        "catalog": {"workspaces": [{"name": "st", "uri": "http://www.stations.org/1.0"}]},
        "appSchema": {
            "documentDatabases": [
                {
                    "url": MONGO_URL,
                    "collections": [
                        {"name": "stations", "geometry": "geometry", "documents": stations_docs()}
                    ],
                }
            ],
            "stores": [
                {
                    "workspace": "st",
                    "name": "stations",
                    "files": {"stations.appschema": payload("stations.appschema").decode()},
                    **store_extra,
                }
            ],
        },
    }


def test_a_store_loads_like_an_upload(tmp_path, client_for):
    emu = Emulator(write(tmp_path, stations_scenario()))
    c = client_for(emulator=emu)
    ds = c.get("/rest/workspaces/st/datastores/stations.json").json()["dataStore"]
    assert ds["type"] == "Application Schema DataAccess"
    assert isinstance(ds["featureTypes"], str)
    body = c.get("/rest/workspaces/st/datastores/stations/featuretypes.json").json()
    assert len(body["featureTypes"]["featureType"]) == 3
    assert emu.state.appschema.schemas("st", "stations", "data_source")["stations"].sampled == (
        ID0,
    )
    assert c.post("/rest/workspaces/st/appschemastores/stations/cleanSchemas").status_code == 200


def test_declared_schemas_replace_the_inferred_ones(tmp_path):
    schemas = {
        "data_source": [
            {
                "name": "stations",
                "geometry": "geometry",
                "attributes": [["name", "java.lang.String"]],
                "sampled": [ID1],
            }
        ]
    }
    emu = Emulator(write(tmp_path, stations_scenario(schemas=schemas, configure="none")))
    found = emu.state.appschema.schemas("st", "stations", "data_source")["stations"]
    assert found.sampled == (ID1,) and found.fields == {"name": "java.lang.String"}
    assert emu.state.catalog.list_resources("st") == []


def test_side_files_and_a_zip_store(tmp_path, client_for):
    (tmp_path / "side").mkdir()
    for name in GEOSCIML_ZIP:
        (tmp_path / "side" / name).write_bytes((PAYLOADS / name).read_bytes())
    doc = {
        "catalog": {"workspaces": [{"name": "gsml", "uri": "urn:cgi:xmlns:CGI:GeoSciML:2.0"}]},
        "appSchema": {
            "stores": [
                {
                    "workspace": "gsml",
                    "name": "geosciml",
                    "files": {n: {"path": f"side/{n}"} for n in GEOSCIML_ZIP},
                }
            ]
        },
    }
    c = client_for(emulator=Emulator(write(tmp_path, doc)))
    fts = c.get("/rest/workspaces/gsml/datastores/geosciml.json").json()["dataStore"][
        "featureTypes"
    ]
    assert [f["name"] for f in fts["featureType"]] == [
        "GeologicEvent",
        "GeologicUnit",
        "MappedFeature",
    ]


@pytest.mark.parametrize(
    ("mutate", "words"),
    [
        (lambda s: s["appSchema"]["stores"][0].update(files={}), "files: no files"),
        (
            lambda s: s["appSchema"]["stores"][0].update(files={"a.xml": "<x/>", "b.xml": "<y/>"}),
            "no .appschema file",
        ),
        (
            lambda s: s["appSchema"]["stores"][0].update(files={"m.appschema": "<x/>"}),
            "Invalid app-schema mapping",
        ),
        (lambda s: s["appSchema"]["stores"][0].update(workspace="nope"), "No such workspace"),
        (lambda s: s["appSchema"]["stores"][0].update(extra=1), "extra: unknown key"),
        (
            lambda s: s["appSchema"]["stores"][0].update(schemas={"lookup": []}),
            "not a document-database",
        ),
        (
            lambda s: s["appSchema"]["stores"][0].update(files={"m.appschema": {"base64": "***"}}),
            "not valid base64",
        ),
        (
            lambda s: s["appSchema"]["stores"][0].update(
                files={"m.appschema": {"path": "missing.xml"}}
            ),
            "cannot read missing.xml",
        ),
        (
            lambda s: s["appSchema"]["documentDatabases"][0]["collections"][0].update(
                documents=[1]
            ),
            "expected a list of objects",
        ),
        (
            lambda s: s["appSchema"]["stores"][0].update(files={"../x.appschema": "<x/>"}),
            "escapes the store directory",
        ),
    ],
    ids=short_id,
)
def test_refusals_name_the_place(tmp_path, mutate, words):
    doc = stations_scenario()
    mutate(doc)
    with pytest.raises(ScenarioError, match="appSchema") as info:
        Emulator(write(tmp_path, doc))
    assert words in str(info.value)


def test_dump_then_load_gives_the_same_state(tmp_path, client_for):
    emu = Emulator(write(tmp_path, stations_scenario()))
    c = client_for(emulator=emu)
    c.post("/rest/workspaces/st/appschemastores/stations/rebuildMongoSchemas?max=-1")
    c.post("/rest/workspaces", json={"workspace": {"name": "gsml"}})
    r = c.put(
        "/rest/workspaces/gsml/datastores/geosciml/file.appschema?configure=all",
        content=geosciml_zip(),
        headers={"Content-Type": "application/zip"},
    )
    assert r.status_code == 200
    emu.state.datadir.write("data/gsml/geosciml/logo.bin", b"\xff\x00\xfe")
    dumped = emu.dump_scenario()
    assert {"base64": base64.b64encode(b"\xff\x00\xfe").decode()} in [
        s["files"].get("logo.bin") for s in dumped["appSchema"]["stores"]
    ]
    path = tmp_path / "dumped.json"
    path.write_text(json.dumps(dumped))
    again = Emulator(str(path))
    assert again.dump_scenario()["appSchema"] == dumped["appSchema"]
    assert again.state.appschema.schemas(
        "st", "stations", "data_source"
    ) == emu.state.appschema.schemas("st", "stations", "data_source")
    c2 = client_for(emulator=again)
    for store in (
        "/rest/workspaces/gsml/datastores/geosciml.json",
        "/rest/workspaces/st/datastores/stations/featuretypes.json",
    ):
        assert c2.get(store).json() == c.get(store).json()


def test_a_store_deleted_through_the_catalog_is_not_dumped(tmp_path, client_for):
    emu = Emulator(write(tmp_path, stations_scenario()))
    c = client_for(emulator=emu)
    assert c.delete("/rest/workspaces/st/datastores/stations?recurse=true").status_code == 200
    assert emu.dump_scenario()["appSchema"]["stores"] == []
