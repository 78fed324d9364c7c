import pytest

from geoserver_emulator.scenarios.builder import ScenarioBuilder


# In a conftest.py these apply to every test below it; here, to this module.
@pytest.fixture
def geoserver_default_scenario():
    return ScenarioBuilder("stock").security(catalog_mode="MIXED")


@pytest.fixture
def geoserver_vendor_prefix():
    return "org.service"


def test_configured(geoserver_emulator):
    assert geoserver_emulator.state.security.catalog_mode == "MIXED"
    assert geoserver_emulator.vendor.prefix == "org.service"
    assert geoserver_emulator.clock.kind == "manual"
