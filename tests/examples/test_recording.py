import httpx
import pytest

from geoserver_emulator import Emulator
from geoserver_emulator.recording import verify


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    """Stands for your cassette (``geoserver-emulator record ... --out tests/run.jsonl``):
    here, the journal of an emulator whose catalog mode a client set to MIXED."""
    path = tmp_path_factory.mktemp("cassettes") / "run.jsonl"
    with (
        Emulator("stock") as emu,
        httpx.Client(
            transport=httpx.WSGITransport(app=emu.wsgi_app),
            base_url="http://localhost:8080/geoserver",
            auth=("admin", "geoserver"),
        ) as client,
    ):
        client.put("/rest/security/acl/catalog.json", json={"mode": "MIXED"})
        emu.journal.save(path)
    return path


@pytest.fixture
def geoserver_default_scenario(run):
    # the tests of this module start from the run's writes, replayed; for a cassette kept
    # in your repository, @pytest.mark.geoserver_scenario("tests/run.jsonl") does the same
    return str(run)


def test_starts_where_the_recording_ended(geoserver_emulator):
    assert geoserver_emulator.state.security.catalog_mode == "MIXED"


def test_the_emulator_matches_my_geoserver(run):
    report = verify.verify_file(run)  # in process; against="http://…" for a server
    assert report.ok, report.text()


def test_record_my_own_traffic(geoserver_client, geoserver_emulator, tmp_path):
    geoserver_client.put("/rest/security/acl/catalog.json", json={"mode": "CHALLENGE"})
    geoserver_emulator.journal.save(tmp_path / "mine.jsonl")
    assert Emulator(tmp_path / "mine.jsonl").state.security.catalog_mode == "CHALLENGE"
