from pathlib import Path

import pytest

from geoserver_emulator import Emulator
from geoserver_emulator.recording import verify

RUN = str(Path(__file__).parents[1] / "recording" / "data" / "setup.jsonl")  # your cassette


@pytest.mark.geoserver_scenario(RUN)  # the run's writes, replayed
def test_starts_where_the_recording_ended(geoserver_emulator):
    assert geoserver_emulator.state.security.catalog_mode == "MIXED"


def test_the_emulator_matches_my_geoserver():
    report = verify.verify_file(RUN)  # in process; against="http://…" for a server
    assert report.ok, report.text()


def test_record_my_own_traffic(geoserver_client, geoserver_emulator, tmp_path):
    geoserver_client.put("/rest/security/acl/catalog.json", json={"mode": "CHALLENGE"})
    geoserver_emulator.journal.save(tmp_path / "mine.jsonl")
    assert Emulator(tmp_path / "mine.jsonl").state.security.catalog_mode == "CHALLENGE"
