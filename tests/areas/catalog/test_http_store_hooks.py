"""Deleting a store reaches the areas that keep state for it: an image mosaic's index and
files (``purge``), an app-schema store's loaded mapping."""

from __future__ import annotations

import json

import pytest

from geoserver_emulator import Emulator

ROOT = "data/nurc/sst"
KEY = f"datadir:{ROOT}"
STORE = "/rest/workspaces/nurc/coveragestores/sst"
MOSAIC = {
    "stores": [
        {
            "workspace": "nurc",
            "store": "sst",
            "parameters": {"Schema": "*the_geom:Polygon,location:String"},
            "crs": "EPSG:4326",
            "granules": [
                {"location": "a.tif", "bbox": [0, 40, 10, 50]},
                {"location": "b.tif", "bbox": [10, 40, 20, 50], "file": "data/shared/b.tif"},
            ],
            "configure": ["sst"],
        }
    ]
}
GRANULES = ["a.tif", "a.tfw"]
METADATA = ["sst.properties", "sst.shp", "sst.dbf", "sst.shx", "sample_image.dat", "a.tif.aux.xml"]


@pytest.fixture
def mosaic_emu(tmp_path) -> Emulator:
    path = tmp_path / "scenario.json"
    path.write_text(json.dumps({"extends": "stock", "mosaics": MOSAIC}))
    emu = Emulator(path)
    for name in GRANULES + METADATA + ["sub/c.tif"]:
        emu.state.datadir.write(f"{ROOT}/{name}", b"x")
    emu.state.datadir.write("data/shared/b.tif", b"x")
    return emu


def files(emu: Emulator) -> set[str]:
    return {p for p in emu.state.datadir.files if p.startswith(("data/nurc/", "data/shared/"))}


def test_scenario_mosaic_has_its_config_files(mosaic_emu):
    assert f"{ROOT}/indexer.properties" in files(mosaic_emu)
    assert mosaic_emu.state.mosaics.get(KEY) is not None


@pytest.mark.parametrize("purge", [None, "none", "NONE", "bogus"])
def test_delete_without_purge_drops_the_index_and_keeps_the_files(mosaic_emu, client_for, purge):
    client = client_for(emulator=mosaic_emu)
    before = files(mosaic_emu)
    query = "?recurse=true" + (f"&purge={purge}" if purge else "")
    assert client.delete(STORE + query).status_code == 200
    assert mosaic_emu.state.mosaics.get(KEY) is None
    assert files(mosaic_emu) == before
    assert client.get(STORE + ".json").status_code == 404


def test_purge_metadata_deletes_config_and_index_files_only(mosaic_emu, client_for):
    client = client_for(emulator=mosaic_emu)
    assert client.delete(STORE + "?recurse=true&purge=metadata").status_code == 200
    assert mosaic_emu.state.mosaics.get(KEY) is None
    assert files(mosaic_emu) == {
        f"{ROOT}/a.tif",
        f"{ROOT}/a.tfw",
        f"{ROOT}/sub/c.tif",
        "data/shared/b.tif",
    }
    listing = client.get(f"/rest/resource/{ROOT}?format=json").json()["ResourceDirectory"]
    assert [c["name"] for c in listing["children"]["child"]] == ["a.tfw", "a.tif", "sub"]


def test_purge_all_deletes_the_granules_and_the_folder(mosaic_emu, client_for):
    client = client_for(emulator=mosaic_emu)
    assert client.delete(STORE + "?recurse=true&purge=all").status_code == 200
    assert mosaic_emu.state.mosaics.get(KEY) is None
    assert files(mosaic_emu) == set()
    assert client.get(f"/rest/resource/{ROOT}/a.tif").status_code == 404


def test_refused_delete_changes_nothing(mosaic_emu, client_for):
    client = client_for(emulator=mosaic_emu)
    before = files(mosaic_emu)
    r = client.delete(STORE + "?purge=all")
    assert (r.status_code, r.text) == (401, "coveragestore not empty")
    assert mosaic_emu.state.mosaics.get(KEY) is not None and files(mosaic_emu) == before


def test_an_index_another_store_reads_stays_until_the_last_store_goes(mosaic_emu, client_for):
    client = client_for(emulator=mosaic_emu)
    body = {"coverageStore": {"name": "sst2", "type": "ImageMosaic", "url": f"file:{ROOT}"}}
    assert client.post("/rest/workspaces/nurc/coveragestores", json=body).status_code == 201
    assert client.delete(STORE + "?recurse=true").status_code == 200
    assert mosaic_emu.state.mosaics.get(KEY) is not None
    assert client.delete("/rest/workspaces/nurc/coveragestores/sst2").status_code == 200
    assert mosaic_emu.state.mosaics.get(KEY) is None


def test_recursive_workspace_delete_drops_the_index(mosaic_emu, client_for):
    client = client_for(emulator=mosaic_emu)
    assert client.delete("/rest/workspaces/nurc?recurse=true").status_code == 200
    assert mosaic_emu.state.mosaics.get(KEY) is None
    assert f"{ROOT}/a.tif" in files(mosaic_emu)


def test_other_coverage_stores_delete_as_before(client, emu):
    url = "/rest/workspaces/sf/coveragestores/sfdem?recurse=true&purge=all"
    assert client.delete(url).status_code == 200
    assert emu.state.catalog.coverage_store("sf", "sfdem") is None


MAPPING = (
    '<as:AppSchemaDataAccess xmlns:as="http://www.geotools.org/app-schema">'
    "<namespaces><Namespace><prefix>sf</prefix><uri>http://www.openplans.org/spearfish</uri>"
    "</Namespace></namespaces>"
    "<sourceDataStores><DataStore><id>ds</id><parameters><Parameter><name>directory</name>"
    "<value>file:./</value></Parameter></parameters></DataStore></sourceDataStores>"
    "<targetTypes><FeatureType><schemaUri>http://example.org/x.xsd</schemaUri>"
    "</FeatureType></targetTypes><typeMappings><FeatureTypeMapping>"
    "<sourceDataStore>ds</sourceDataStore><sourceType>MF</sourceType>"
    "<targetElement>sf:MappedThing</targetElement></FeatureTypeMapping></typeMappings>"
    "</as:AppSchemaDataAccess>"
)


@pytest.mark.parametrize("recurse", [True, False])
def test_deleting_an_app_schema_store_forgets_its_mapping(client, emu, recurse):
    url = "/rest/workspaces/sf/datastores/things"
    r = client.put(
        url + "/file.appschema?configure=" + ("all" if recurse else "none"),
        content=MAPPING.encode(),
        headers={"Content-Type": "text/xml"},
    )
    assert r.status_code in (201, 202)
    assert emu.state.appschema.record("sf", "things") is not None
    assert client.delete(url + ("?recurse=true" if recurse else "")).status_code == 200
    assert emu.state.appschema.record("sf", "things") is None
    assert emu.state.catalog.data_store("sf", "things") is None
    assert emu.state.datadir.read("data/sf/things/things.appschema") is not None
