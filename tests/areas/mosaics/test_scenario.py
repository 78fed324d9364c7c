"""Scenario section ``mosaics``: declared mosaics with their granules, dump and reload."""

from __future__ import annotations

import json

import pytest

from geoserver_emulator import Emulator
from geoserver_emulator.core.errors import ScenarioError

SECTION = {
    "stores": [
        {
            "workspace": "nurc",
            "store": "sst",
            "parameters": {
                "TimeAttribute": "time",
                "Schema": "*the_geom:Polygon,location:String,time:java.util.Date,depth:Double",
            },
            "collectors": [
                {"spi": "TimestampFileNameExtractorSPI", "attribute": "time", "regex": "[0-9]{8}"}
            ],
            "crs": "EPSG:4326",
            "granules": [
                {
                    "location": "sst_20200101.tif",
                    "bbox": [0, 40, 10, 50],
                    "values": {"time": "2020-01-01T00:00:00Z", "depth": 5},
                },
                {
                    "id": 7,
                    "location": "sst_20200102.tif",
                    "bbox": [10, 40, 20, 50],
                    "values": {"time": "2020-01-02", "depth": "bad"},
                },
            ],
            "configure": ["sst"],
        }
    ]
}


def scenario(tmp_path, section) -> Emulator:
    path = tmp_path / "scenario.json"
    path.write_text(json.dumps({"extends": "stock", "mosaics": section}))
    return Emulator(path)


def test_declared_mosaic_is_served(tmp_path, client_for):
    emu = scenario(tmp_path, SECTION)
    client = client_for(emulator=emu)
    root = "/rest/workspaces/nurc/coveragestores/sst"
    assert client.get(f"{root}.json").json()["coverageStore"]["type"] == "ImageMosaic"
    feats = client.get(f"{root}/coverages/sst/index/granules.json").json()["features"]
    assert [f["id"] for f in feats] == ["sst.1", "sst.7"]
    assert feats[0]["properties"] == {
        "location": "sst_20200101.tif",
        "time": "2020-01-01T00:00:00.000+0000",
        "depth": 5.0,
    }
    assert feats[1]["properties"]["depth"] is None  # not convertible to the schema type
    cov = client.get(f"{root}/coverages/sst.json").json()["coverage"]
    assert cov["nativeBoundingBox"]["maxx"] == 20.0
    # the configuration files are in the data directory
    text = client.get("/rest/resource/data/nurc/sst/indexer.properties").text
    assert "PropertyCollectors=TimestampFileNameExtractorSPI[collector1regex](time)" in text
    assert (
        client.get("/rest/resource/data/nurc/sst/collector1regex.properties").text
        == "regex=[0-9]{8}\n"
    )
    # harvesting continues the ids
    client.put("/rest/resource/data/nurc/sst/sst_20200103.tif", content=_tiff())
    r = client.post(
        f"{root}/external.imagemosaic",
        content="data/nurc/sst/sst_20200103.tif",
        headers={"Content-Type": "text/plain"},
    )
    assert r.status_code == 201
    feats = client.get(f"{root}/coverages/sst/index/granules.json").json()["features"]
    assert feats[-1]["id"] == "sst.8"
    assert feats[-1]["properties"]["time"] == "2020-01-03T00:00:00.000+0000"


def _tiff() -> bytes:
    import io

    from PIL import Image, TiffImagePlugin, TiffTags

    ifd = TiffImagePlugin.ImageFileDirectory_v2()
    ifd[33550] = (1.0, 1.0, 0.0)
    ifd.tagtype[33550] = TiffTags.DOUBLE
    ifd[33922] = (0.0, 0.0, 0.0, 20.0, 50.0, 0.0)
    ifd.tagtype[33922] = TiffTags.DOUBLE
    ifd[34735] = (1, 1, 0, 2, 1024, 0, 1, 2, 2048, 0, 1, 4326)
    ifd.tagtype[34735] = TiffTags.SHORT
    buf = io.BytesIO()
    Image.new("L", (2, 2)).save(buf, format="TIFF", tiffinfo=ifd)
    return buf.getvalue()


def test_dump_and_reload_round_trip(tmp_path, wcs, client, client_for, m):
    m.put_mosaic(client, m.watertemp(elevations=(0, 100)))
    client.delete(f"{m.INDEX}/granules/watertemp.2")
    doc = wcs.dump_scenario()
    stores = doc["mosaics"]["stores"]
    names = [(e["workspace"], e["store"]) for e in stores]
    assert names == [("nurc", "mosaic"), ("wcs", "watertemp")]
    entry = stores[1]
    assert [g["id"] for g in entry["granules"]] == [1, 3, 4]
    assert entry["nextId"] == 5
    path = tmp_path / "dumped.json"
    path.write_text(json.dumps(doc))
    again = Emulator(path)
    assert again.dump_scenario()["mosaics"] == doc["mosaics"]
    other = client_for(emulator=again)
    assert (
        other.get(f"{m.INDEX}/granules.json").json()
        == client.get(f"{m.INDEX}/granules.json").json()
    )
    assert other.get(f"{m.INDEX}.json").json() == client.get(f"{m.INDEX}.json").json()


def test_external_folder_mosaic(tmp_path):
    section = {
        "stores": [{"workspace": "nurc", "store": "ext", "folder": str(tmp_path), "granules": []}]
    }
    emu = scenario(tmp_path, section)
    store = emu.state.catalog.coverage_store("nurc", "ext")
    assert store is not None and store.url == f"file://{tmp_path.as_posix()}"
    assert emu.dump_scenario()["mosaics"]["stores"][0]["folder"] == tmp_path.as_posix()


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"store": None}, "store: missing"),
        ({"surprise": 1}, "surprise: unknown key"),
        (
            {"granules": [{"location": "a", "bbox": [0, 0, 1]}]},
            "bbox: expected [minx, miny, maxx, maxy]",
        ),
        ({"granules": [{"location": "a", "bbox": [2, 0, 1, 1]}]}, "bbox: min is greater than max"),
        ({"parameters": {"Schema": "the_geom:Polygon"}}, "no location attribute"),
        (
            {
                "collectors": [
                    {"spi": "IntegerFileNameExtractorSPI", "attribute": "nope", "regex": "x"}
                ]
            },
            "not in the index schema",
        ),
        ({"workspace": "nowhere"}, "No such workspace : nowhere"),
        ({"folder": "https://example.com/x"}, "folder: expected a data-directory path"),
        ({"store": "arcGridSample"}, "points at file:coverages/arc_sample/precip30min.asc"),
        ({"configure": ["sst"], "granules": []}, "has no granules yet"),
    ],
)
def test_errors(tmp_path, change, message):
    entry = {**SECTION["stores"][0], **change}
    entry = {k: v for k, v in entry.items() if v is not None}
    with pytest.raises(ScenarioError) as info:
        scenario(tmp_path, {"stores": [entry]})
    assert message in str(info.value)
