import httpx
import pytest

from geoserver_emulator import Emulator
from geoserver_emulator.scenarios.builder import ScenarioBuilder

EDITORS = (
    ScenarioBuilder("stock")
    .user("ann", "secret", groups=["editors"])
    .group("editors", roles=["ROLE_EDITOR"])
    .rest_rule("/rest/styles/**:GET,POST,PUT,DELETE", "ROLE_EDITOR")
    .security(catalog_mode="MIXED")
)


@pytest.mark.geoserver_scenario(EDITORS)
def test_editors_may_touch_styles(geoserver_url):
    r = httpx.get(f"{geoserver_url}/rest/styles/x.json", auth=("ann", "secret"))
    assert r.status_code != 403  # allowed by the added rule (404: no such style)


def test_outside_a_fixture():
    emu = Emulator(EDITORS, clock="realtime")  # parsed once, then cheap copies
    assert emu.state.security.catalog_mode == "MIXED"


def test_catalog_additions():
    scenario = ScenarioBuilder("stock")
    acme = scenario.workspace("acme", uri="http://acme.example.com")
    acme.datastore("roads_db", type="PostGIS", connection_parameters={"host": "db"}).feature_type(
        "roads", attributes=["the_geom:MultiLineString", "name:String"], bbox=(-10, 40, 5, 50)
    )
    scenario.layer_group("basemap", ["acme:roads"], workspace="acme")
    catalog = scenario.document()["catalog"]  # what a scenario file would hold
    assert catalog["dataStores"][0]["featureTypes"][0]["name"] == "roads"
