"""Geographic bounds computed from native bounds in any CRS: uploads whose data is in a
projected CRS, and REST ``recalculate=latlonbbox``."""

from __future__ import annotations

import pytest
from pyproj import Transformer

ROWS = "_=name:String,geom:Point:srid={srid}\np.1=a|POINT({x0} {y0})\np.2=b|POINT({x1} {y1})\n"


@pytest.mark.parametrize(
    ("srid", "corners"),
    [
        (26713, ((591000.0, 4915000.0), (605000.0, 4925000.0))),  # NAD27 / UTM 13N
        (2154, ((650000.0, 6860000.0), (660000.0, 6870000.0))),  # RGF93 / Lambert-93
        (3035, ((4321000.0, 3210000.0), (4400000.0, 3300000.0))),  # ETRS89-LAEA
    ],
)
def test_an_upload_in_a_projected_crs_gets_its_lat_lon_box(client, srid, corners):
    (x0, y0), (x1, y1) = corners
    body = ROWS.format(srid=srid, x0=x0, y0=y0, x1=x1, y1=y1)
    r = client.put(
        "/rest/workspaces/sf/datastores/pts/file.properties",
        content=body.encode(),
        headers={"Content-Type": "text/plain"},
    )
    assert r.status_code == 201, r.text
    ft = client.get("/rest/workspaces/sf/datastores/pts/featuretypes/pts.json").json()
    ft = ft["featureType"]
    assert ft["srs"] == f"EPSG:{srid}"
    box = ft["latLonBoundingBox"]
    t = Transformer.from_crs(f"EPSG:{srid}", "EPSG:4326", always_xy=True)
    expected = t.transform_bounds(x0, y0, x1, y1, densify_pts=50)
    got = (box["minx"], box["miny"], box["maxx"], box["maxy"])
    assert got == pytest.approx(expected, abs=1e-6)


def test_recalculating_the_lat_lon_box_of_a_projected_type(client):
    path = "/rest/workspaces/sf/datastores/sf/featuretypes/roads"
    native = client.get(f"{path}.json").json()["featureType"]["nativeBoundingBox"]
    box = {"minx": 600000.0, "maxx": 601000.0, "miny": 4920000.0, "maxy": 4921000.0}
    body = {"featureType": {"nativeBoundingBox": {**box, "crs": "EPSG:26713"}}}
    r = client.put(f"{path}?recalculate=latlonbbox", json=body)
    assert r.status_code == 200, r.text
    latlon = client.get(f"{path}.json").json()["featureType"]["latLonBoundingBox"]
    t = Transformer.from_crs("EPSG:26713", "EPSG:4326", always_xy=True)
    expected = t.transform_bounds(600000, 4920000, 601000, 4921000, densify_pts=50)
    got = (latlon["minx"], latlon["miny"], latlon["maxx"], latlon["maxy"])
    assert got == pytest.approx(expected, abs=1e-6)
    assert native["minx"] != box["minx"]  # the box did change
