"""OWSLib against the live emulator in other CRSs: a WFS ``srsname`` and a WMS map of
EPSG:26713 data requested in EPSG:4326."""

from __future__ import annotations

import json
from io import BytesIO

import pytest
import requests
from pyproj import Transformer

UTM = (600000.0, 4920000.0)
PROPS = f"_=name:String,geom:Point:srid=26713\nsite.1=one|POINT({UTM[0]} {UTM[1]})\n"


@pytest.fixture
def sites(base_url: str) -> str:
    r = requests.put(
        f"{base_url}/rest/workspaces/sf/datastores/site/file.properties",
        data=PROPS.encode(),
        headers={"Content-Type": "text/plain"},
        auth=("admin", "geoserver"),
        timeout=10,
    )
    assert r.status_code == 201, r.text
    return "sf:site"


@pytest.mark.parametrize("version", ["1.1.0", "2.0.0"])
def test_owslib_getfeature_in_another_crs(base_url, sites, version):
    owslib_wfs = pytest.importorskip("owslib.wfs")
    wfs = owslib_wfs.WebFeatureService(f"{base_url}/wfs", version=version)
    assert str(wfs.contents[sites].crsOptions[0].code) == "26713"  # DefaultSRS/DefaultCRS
    got = wfs.getfeature(
        typename=[sites], srsname="EPSG:3857", outputFormat="application/json"
    ).read()
    doc = json.loads(got)
    x, y = Transformer.from_crs("EPSG:26713", "EPSG:3857", always_xy=True).transform(*UTM)
    assert doc["features"][0]["geometry"]["coordinates"] == pytest.approx([x, y], abs=1e-3)
    assert doc["crs"]["properties"]["name"] == "urn:ogc:def:crs:EPSG::3857"


def test_owslib_getmap_of_projected_data_in_wgs84(base_url, sites):
    owslib_wms = pytest.importorskip("owslib.wms")
    from PIL import Image

    wms = owslib_wms.WebMapService(f"{base_url}/wms", version="1.1.1")
    lon, lat = Transformer.from_crs("EPSG:26713", "EPSG:4326", always_xy=True).transform(*UTM)
    img = wms.getmap(
        layers=[sites],
        styles=["point"],
        srs="EPSG:4326",
        bbox=(lon - 0.01, lat - 0.01, lon + 0.01, lat + 0.01),
        size=(100, 100),
        format="image/png",
    )
    image = Image.open(BytesIO(img.read())).convert("RGB")
    assert image.getpixel((50, 50)) != (255, 255, 255)  # the point's mark, at the centre
    assert image.getpixel((5, 5)) == (255, 255, 255)
