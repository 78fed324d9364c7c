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


LAMBERT_93_PRJ = (
    'PROJCS["RGF_1993_Lambert_93",GEOGCS["GCS_RGF_1993",DATUM["D_RGF_1993",'
    'SPHEROID["GRS_1980",6378137.0,298.257222101]],PRIMEM["Greenwich",0.0],'
    'UNIT["Degree",0.0174532925199433]],PROJECTION["Lambert_Conformal_Conic"],'
    'PARAMETER["False_Easting",700000.0],PARAMETER["False_Northing",6600000.0],'
    'PARAMETER["Central_Meridian",3.0],PARAMETER["Standard_Parallel_1",44.0],'
    'PARAMETER["Standard_Parallel_2",49.0],PARAMETER["Latitude_Of_Origin",46.5],'
    'UNIT["Meter",1.0]]'
)


def test_a_shapefile_with_an_esri_prj_is_identified_in_the_epsg_database(client):
    from tests.areas.uploads.conftest import make_zip, shapefile_files

    rows = [
        ("Main", 2, 7.5, "20200101", (650000.0, 6860000.0)),
        ("High", 4, 1.5, "20210101", (660000.0, 6870000.0)),
    ]
    body = make_zip(shapefile_files("lanes", kind="point", records=rows, prj=LAMBERT_93_PRJ))
    r = client.put(
        "/rest/workspaces/sf/datastores/lanes/file.shp",
        content=body,
        headers={"Content-Type": "application/zip"},
    )
    assert r.status_code == 201, r.text
    ft = client.get("/rest/workspaces/sf/datastores/lanes/featuretypes/lanes.json").json()
    assert ft["featureType"]["srs"] == "EPSG:2154"
    t = Transformer.from_crs("EPSG:2154", "EPSG:4326", always_xy=True)
    expected = t.transform_bounds(650000.0, 6860000.0, 660000.0, 6870000.0, densify_pts=50)
    box = ft["featureType"]["latLonBoundingBox"]
    got = (box["minx"], box["miny"], box["maxx"], box["maxy"])
    assert got == pytest.approx(expected, abs=1e-6)
