"""OWSLib reads the stock layers' features and attribute values back from the live emulator,
and a map of ``topp:states`` shows the population classes."""

from __future__ import annotations

import json
from io import BytesIO

import pytest

owslib_wfs = pytest.importorskip("owslib.wfs")
owslib_wms = pytest.importorskip("owslib.wms")


@pytest.mark.parametrize("version", ["1.1.0", "2.0.0"])
def test_owslib_reads_stock_features_and_values(base_url, version):
    wfs = owslib_wfs.WebFeatureService(f"{base_url}/wfs", version=version)
    got = wfs.getfeature(
        typename=["topp:states"], outputFormat="application/json", maxfeatures=100
    ).read()
    found = {f["properties"]["STATE_ABBR"]: f for f in json.loads(got)["features"]}
    assert len(found) == 49
    assert found["CA"]["properties"]["STATE_NAME"] == "California"
    assert found["CA"]["properties"]["PERSONS"] > 30_000_000
    schema = wfs.get_schema("topp:states")
    assert {"STATE_NAME", "PERSONS"} <= set(schema["properties"])
    gml = wfs.getfeature(typename=["ne:populated_places"], maxfeatures=300).read()
    text = gml.decode() if isinstance(gml, bytes) else gml
    assert text.count("<ne:name>") == 243 and "<ne:name>Rome</ne:name>" in text


def test_owslib_map_of_the_states_shows_the_population_classes(base_url):
    from PIL import Image

    wms = owslib_wms.WebMapService(f"{base_url}/wms", version="1.1.1")
    img = wms.getmap(layers=["topp:states"], styles=[""], srs="EPSG:4326",
                     bbox=(-125, 24, -66, 50), size=(590, 260), format="image/png")  # fmt: skip
    image = Image.open(BytesIO(img.read())).convert("RGB")

    def at(lon: float, lat: float) -> tuple[int, int, int]:
        return image.getpixel((round((lon + 125) * 10), round((50 - lat) * 10)))

    def near(found: tuple[int, int, int], rgb: tuple[int, int, int]) -> bool:
        return all(abs(a - b) <= 2 for a, b in zip(found, rgb, strict=True))

    # the style's colours at 70 % over white: > 4M #4D4DFF, < 2M #4DFF4D, 2M - 4M #FF4D4D
    big, small, middle = (131, 131, 255), (131, 255, 131), (255, 131, 131)
    assert near(at(-101, 34.5), big) and near(at(-122, 40.5), big)  # Texas, California
    assert near(at(-105.5, 41.5), small)  # Wyoming
    assert near(at(-113, 38), middle)  # Utah
    assert near(at(-124.5, 25), (255, 255, 255))  # the sea: the background
