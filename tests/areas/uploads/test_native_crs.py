"""``nativeCRS`` is marked ``class="projected"`` only for a projected CRS, whichever way it was
set: a shapefile's ``.prj``, a resource written over REST (XML and JSON), a scenario. A WKT is
judged by its root keyword (``PROJCS``/``PROJCRS`` projected; ``GEOGCS``, ``GEOGCRS``, ... not)."""

from __future__ import annotations

import pytest
from lxml import etree

from geoserver_emulator import Emulator
from geoserver_emulator.areas.catalog.entities import is_projected

from .conftest import WGS84_PRJ, WS, ZIP, make_zip, shapefile_files

UTM_PRJ = (
    'PROJCS["WGS_1984_UTM_Zone_33N",GEOGCS["GCS_WGS_1984",DATUM["D_WGS_1984",'
    'SPHEROID["WGS_1984",6378137.0,298.257223563]],PRIMEM["Greenwich",0.0],'
    'UNIT["Degree",0.0174532925199433]],PROJECTION["Transverse_Mercator"],'
    'PARAMETER["False_Easting",500000.0],PARAMETER["False_Northing",0.0],'
    'PARAMETER["Central_Meridian",15.0],PARAMETER["Scale_Factor",0.9996],'
    'PARAMETER["Latitude_Of_Origin",0.0],UNIT["Meter",1.0]]'
)
WKT2_GEOGRAPHIC = 'GEOGCRS["WGS 84",DATUM["World Geodetic System 1984"],CS[ellipsoidal,2]]'


@pytest.mark.parametrize(
    ("crs", "projected"),
    [
        (WGS84_PRJ, False),
        ("  " + WGS84_PRJ, False),
        (WKT2_GEOGRAPHIC, False),
        ('GEODCRS["x"]', False),
        ('GEOCCS["geocentric"]', False),
        ('COMPD_CS["x",PROJCS["y"],VERT_CS["z"]]', False),
        (UTM_PRJ, True),
        ('PROJCRS["WGS 84 / UTM zone 33N"]', True),
        ("projcs(x)", True),
        ("EPSG:4326", False),
        ("CRS:84", False),
        ("EPSG:32633", True),
        (None, False),
    ],
)
def test_projected_is_read_from_the_wkt_root(crs: str | None, projected: bool) -> None:
    assert is_projected(crs) is projected


@pytest.mark.parametrize(("prj", "projected"), [(WGS84_PRJ, False), (UTM_PRJ, True)])
def test_an_uploaded_shapefile_reports_its_crs_class(
    client, emu: Emulator, prj: str, projected: bool
) -> None:
    body = make_zip(shapefile_files("lanes", prj=prj))
    r = client.put(f"{WS}/sf/datastores/lanes/file.shp", content=body, headers=ZIP)
    assert r.status_code == 201, r.text
    path = f"{WS}/sf/datastores/lanes/featuretypes/lanes"
    node = etree.fromstring(client.get(f"{path}.xml").content).find("nativeCRS")
    assert node is not None and node.text.startswith(prj[:6])
    assert node.get("class") == ("projected" if projected else None)
    native = client.get(f"{path}.json").json()["featureType"]["nativeCRS"]
    if projected:
        assert native["@class"] == "projected" and native["$"].startswith("PROJCS")
    else:
        assert native == prj or native.get("@class") is None  # a plain string, no class


def test_a_geographic_wkt_written_over_rest_is_not_projected(client) -> None:
    path = f"{WS}/topp/datastores/taz_shapes/featuretypes/tasmania_roads"
    ft = client.get(f"{path}.json").json()["featureType"]
    r = client.put(
        f"{path}.json", json={"featureType": {"name": ft["name"], "nativeCRS": WKT2_GEOGRAPHIC}}
    )
    assert r.status_code == 200, r.text
    node = etree.fromstring(client.get(f"{path}.xml").content).find("nativeCRS")
    assert node.text == WKT2_GEOGRAPHIC and node.get("class") is None
