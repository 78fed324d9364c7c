import httpx
import pytest

from geoserver_emulator.scenarios.builder import ScenarioBuilder

pytestmark = pytest.mark.geoserver_scenario("empty")  # every test in this module...


def test_module_scenario(geoserver_emulator):
    assert geoserver_emulator.scenario.name == "empty"


@pytest.mark.geoserver_scenario("stock")  # ...unless a closer marker says otherwise
class TestStock:
    def test_class_scenario(self, geoserver_emulator):
        assert geoserver_emulator.scenario.name == "stock"

    @pytest.mark.geoserver_profile("geoserver")
    def test_profile(self, geoserver_emulator):
        assert geoserver_emulator.profile == "geoserver"


AUTHOR = ScenarioBuilder("stock").user("bob", "secret", roles=["ROLE_AUTHOR"])


@pytest.mark.geoserver_scenario(AUTHOR)
def test_built_in_code(geoserver_url):
    r = httpx.get(f"{geoserver_url}/rest/workspaces.json", auth=("bob", "secret"))
    assert r.status_code == 403  # stock REST rules: administrators only
