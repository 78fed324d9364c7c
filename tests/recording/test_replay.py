"""Replay as setup (a cassette stands where a scenario stands) and as verification."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import httpx
import pytest

from geoserver_emulator import Emulator
from geoserver_emulator.core.errors import ScenarioError
from geoserver_emulator.http.server import LiveServer
from geoserver_emulator.recording import verify
from geoserver_emulator.recording.recorder import RecordingProxy
from geoserver_emulator.scenarios import cassette, replay
from geoserver_emulator.scenarios.builder import ScenarioBuilder

from .conftest import ADMIN, CLIENT_SECRET, MASTER_PASSWORD, run_requests

DATA = Path(__file__).parent / "data"
SETUP = DATA / "setup.jsonl"


def _client(emu: Emulator, auth: tuple[str, str] | None = ADMIN) -> httpx.Client:
    return httpx.Client(
        transport=httpx.WSGITransport(app=emu.wsgi_app),
        base_url="http://localhost:8080/geoserver",
        auth=auth,
    )


def _expected_setup(emu: Emulator) -> None:
    doc = emu.dump_scenario()
    assert [c["name"] for c in doc["urlChecks"]["checks"]] == ["icons"]
    assert doc["security"]["layerRules"]["topp.*.r"] == "ROLE_AUTHOR"
    assert doc["security"]["catalogMode"] == "MIXED"


# -- setup ----------------------------------------------------------------------------------


def test_a_cassette_is_a_scenario() -> None:
    _expected_setup(Emulator(SETUP))


@pytest.mark.geoserver_scenario(str(SETUP))
def test_the_pytest_marker_takes_a_cassette(geoserver_emulator: Emulator) -> None:
    _expected_setup(geoserver_emulator)
    geoserver_emulator.reset()
    _expected_setup(geoserver_emulator)


def test_a_builder_and_a_scenario_file_can_extend_a_cassette(tmp_path: Path) -> None:
    _expected_setup(Emulator(ScenarioBuilder(SETUP).layer_rule("sf.*.r", "ROLE_X")))
    (tmp_path / "s.json").write_text(
        json.dumps({"extends": str(SETUP), "urlChecks": {"enabled": False}})
    )
    emu = Emulator(tmp_path / "s.json")
    _expected_setup(emu)
    assert emu.state.urlchecks.enabled is False


def test_the_recorded_run_rebuilds_the_upstream_state(
    upstream: tuple[Emulator, str], proxy: tuple[RecordingProxy, str], tmp_path: Path
) -> None:
    up, _ = upstream
    run_requests(proxy[1])
    proxy[0].close()  # the recording ends: the cassette is in place
    replayed = Emulator(tmp_path / "run.jsonl")
    ours, theirs = replayed.dump_scenario(), up.dump_scenario()
    for key in ("urlChecks", "catalog", "seeding", "about"):
        assert ours[key] == theirs[key], key
    assert _without_passwords(ours["users"]) == _without_passwords(theirs["users"])
    assert ours["security"] == {
        **theirs["security"],
        "keystorePassword": ours["security"]["keystorePassword"],
    }
    [oauth] = [f for f in ours["authFilters"]["filters"] if f["name"] == "oauth"]
    [real] = [f for f in theirs["authFilters"]["filters"] if f["name"] == "oauth"]
    assert real["fields"]["clientSecret"] == CLIENT_SECRET
    assert oauth == {
        **real,
        "fields": {**real["fields"], "clientSecret": oauth["fields"]["clientSecret"]},
    }
    assert oauth["fields"]["clientSecret"].startswith("scrubbed-secret-")
    assert len(replayed.state.seeding.tasks) == len(up.state.seeding.tasks) == 1


def _without_passwords(users: dict[str, object]) -> str:
    """The users section with every password masked (scrubbed ones are placeholders)."""
    return re.sub(r'"password": "[^"]*"', '"password": "?"', json.dumps(users, sort_keys=True))


def test_scrubbed_secrets_resolve_when_given(
    proxy: tuple[RecordingProxy, str], tmp_path: Path
) -> None:
    run_requests(proxy[1])
    proxy[0].close()  # the recording ends: the cassette is in place
    tape = cassette.read(tmp_path / "run.jsonl")
    put = next(
        e for e in tape.exchanges if e.request.method == "PUT" and "masterpw" in e.request.path
    )
    new_name = json.loads(put.request.body)["newMasterPassword"]
    emu = replay.start_emulator(tape)
    replay.apply(tape, emu, replay.Secrets({new_name: MASTER_PASSWORD}))
    assert emu.state.security.keystore_password == MASTER_PASSWORD
    unresolved = Emulator(tmp_path / "run.jsonl").state.security.keystore_password
    assert unresolved == new_name  # the placeholder stands in, consistently


def test_a_write_that_fails_on_replay_is_named(tmp_path: Path) -> None:
    lines = SETUP.read_text().splitlines()
    bad = json.loads(lines[1])
    bad["request"]["body"] = json.dumps({"regexUrlCheck": {"name": "icons", "regex": "("}})
    path = tmp_path / "bad.jsonl"
    path.write_text("\n".join([lines[0], json.dumps(bad)]) + "\n")
    with pytest.raises(ScenarioError) as info:
        Emulator(path)
    message = str(info.value)
    assert str(path) in message and "exchange 1 (POST /rest/urlchecks, line 2)" in message
    assert "answered 201 when recorded, but 400 on replay" in message


def test_failed_writes_and_reads_are_not_replayed(tmp_path: Path) -> None:
    emu = Emulator("stock")
    tape = cassette.read(SETUP)
    assert replay.apply(tape, emu) == 5
    assert [e.method for e in emu.journal] == ["POST", "POST", "PUT", "POST", "DELETE"]


def test_cassettes_may_chain_but_not_loop(tmp_path: Path) -> None:
    shutil.copy(SETUP, tmp_path / "first.jsonl")
    lines = SETUP.read_text().splitlines()
    header = json.loads(lines[0])
    header["scenario"] = "first.jsonl"
    (tmp_path / "second.jsonl").write_text(json.dumps(header) + "\n")
    _expected_setup(Emulator(tmp_path / "second.jsonl"))
    header["scenario"] = "loop.jsonl"
    (tmp_path / "loop.jsonl").write_text(json.dumps(header) + "\n")
    with pytest.raises(ScenarioError, match="starts from itself through 1 cassette"):
        Emulator(tmp_path / "loop.jsonl")
    header["scenario"] = "b.jsonl"
    (tmp_path / "a.jsonl").write_text(json.dumps(header) + "\n")
    header["scenario"] = "a.jsonl"
    (tmp_path / "b.jsonl").write_text(json.dumps(header) + "\n")
    with pytest.raises(ScenarioError, match="a.jsonl: starts from itself through 2 cassette"):
        Emulator(tmp_path / "a.jsonl")
    header["scenario"] = "absent.json"
    (tmp_path / "absent.jsonl").write_text(json.dumps(header) + "\n")
    with pytest.raises(ScenarioError, match=r"absent.jsonl:1: scenario: absent.json: no such"):
        Emulator(tmp_path / "absent.jsonl")


def test_header_scenarios_inline_and_none(tmp_path: Path) -> None:
    header = json.loads(SETUP.read_text().splitlines()[0])
    header["scenario"] = {"extends": "empty", "urlChecks": {"enabled": False}}
    (tmp_path / "inline.jsonl").write_text(json.dumps(header) + "\n")
    assert Emulator(tmp_path / "inline.jsonl").state.urlchecks.enabled is False
    header["scenario"] = None
    (tmp_path / "none.jsonl").write_text(json.dumps(header) + "\n")
    assert Emulator(tmp_path / "none.jsonl").state.users.services == {}


def test_the_emulators_own_traffic_saved_from_the_journal(tmp_path: Path) -> None:
    emu = Emulator(ScenarioBuilder("stock").settings(profile="geoserver"))
    with _client(emu) as c:
        c.post("/rest/urlchecks", json={"regexUrlCheck": {"name": "a", "regex": "^a$"}})
        c.put("/rest/security/acl/catalog.json", json={"mode": "CHALLENGE"})
    emu.faults.add("GET", "/rest/urlchecks", status=503)
    with _client(emu) as c:
        assert c.get("/rest/urlchecks").status_code == 503
    path = emu.journal.save(tmp_path / "own.jsonl")
    tape = cassette.read(path)
    assert [e.request.method for e in tape.exchanges] == ["POST", "PUT"]  # the fault is left out
    assert isinstance(tape.header.scenario, dict)  # an in-memory start travels inside
    assert (tape.header.source, tape.header.timing, tape.header.profile) == (
        "emulator",
        "simulated",
        "geoserver",
    )
    again = Emulator(path)
    assert again.profile == "geoserver" and again.state.security.catalog_mode == "CHALLENGE"
    assert verify.verify_file(path).ok


def test_simulated_time_is_followed(tmp_path: Path) -> None:
    emu = Emulator("stock")
    seed = {
        "seedRequest": {
            "name": "ne:coastlines",
            "gridSetId": "EPSG:4326",
            "zoomStart": 0,
            "zoomStop": 3,
            "format": "image/png",
            "type": "seed",
            "threadCount": 1,
        }
    }
    with _client(emu) as c:
        c.post("/gwc/rest/seed/ne:coastlines.json", json=seed)
        emu.clock.advance(2)
        first = c.get("/gwc/rest/seed/ne:coastlines.json").json()
        emu.clock.advance(3)
        second = c.get("/gwc/rest/seed/ne:coastlines.json").json()
    assert first != second  # the task made progress in between
    emu.journal.save(tmp_path / "seed.jsonl")
    report = verify.verify_file(tmp_path / "seed.jsonl")
    assert report.ok, report.text()
    assert [e.elapsed for e in cassette.read(tmp_path / "seed.jsonl").exchanges] == [0.0, 2.0, 5.0]


# -- verification ---------------------------------------------------------------------------


def test_a_recording_verifies_against_the_emulator(
    proxy: tuple[RecordingProxy, str], tmp_path: Path
) -> None:
    run_requests(proxy[1])
    proxy[0].close()  # the recording ends: the cassette is in place
    report = verify.verify_file(tmp_path / "run.jsonl")
    assert report.ok, report.text()
    assert len(report.outcomes) == 17
    text = report.text(verbose=True)
    assert re.search(r"^#1 POST /rest/styles\?name=recorded -> \d+: ok$", text, re.MULTILINE)
    assert text.endswith("17 of 17 exchanges match\n")


def test_a_changed_response_is_reported(proxy: tuple[RecordingProxy, str], tmp_path: Path) -> None:
    run_requests(proxy[1])
    proxy[0].close()  # the recording ends: the cassette is in place
    path = tmp_path / "run.jsonl"
    lines = path.read_text().splitlines()
    changed = []
    for i, line in enumerate(lines[1:], start=1):
        data = json.loads(line)
        if data["request"]["path"] == "/rest/urlchecks/icons.json":
            data["response"]["body"] = data["response"]["body"].replace(
                '"enabled":true', '"enabled":false'
            )
        elif data["request"]["path"] == "/rest/urlchecks/missing.json":
            data["response"]["status"] = 403
            data["response"]["headers"]["content-type"] = "application/xml"
        else:
            continue
        changed.append(data["exchange"])
        lines[i] = json.dumps(data)
    path.write_text("\n".join(lines) + "\n")
    report = verify.verify_file(path)
    assert not report.ok
    assert [o.exchange.number for o in report.mismatches] == changed
    text = report.text()
    assert f"#{changed[0]} GET /rest/urlchecks/icons.json -> 200: DIFFERS" in text
    assert '-    "enabled": false,' in text and '+    "enabled": true,' in text
    assert f"#{changed[1]} GET /rest/urlchecks/missing.json -> 404: DIFFERS" in text
    assert "status: recorded 403, answered 404" in text
    assert "content type: recorded application/xml, answered text/plain" in text
    assert text.endswith("15 of 17 exchanges match; 2 differ\n")


def test_verification_against_a_live_server(
    proxy: tuple[RecordingProxy, str], tmp_path: Path
) -> None:
    run_requests(proxy[1])
    proxy[0].close()  # the recording ends: the cassette is in place
    tape = cassette.read(tmp_path / "run.jsonl")
    fresh = Emulator("stock")
    server = LiveServer(fresh.asgi_app).start()
    try:
        target = replay.Remote(server.url("/geoserver"))
        report = verify.verify(tape, target)
        again = verify.verify(tape, target)  # the server now holds the run's state
        target.close()
    finally:
        server.stop()
    assert report.ok, report.text()
    assert not again.ok
    assert "#4 POST /rest/security/acl/layers.json -> 409: DIFFERS" in again.text()


def test_skipped_paths_are_sent_not_compared(
    proxy: tuple[RecordingProxy, str], tmp_path: Path
) -> None:
    run_requests(proxy[1])
    proxy[0].close()  # the recording ends: the cassette is in place
    tape = cassette.read(tmp_path / "run.jsonl")
    tape.exchanges[1].response.status = 500
    emu = replay.start_emulator(tape)
    report = verify.verify(tape, replay.InProcess(emu), skip=("/rest/styles*",))
    assert report.ok and "2 sent but not compared" in report.text()
    assert len(emu.journal) == 17


def test_no_answer_is_a_difference(tmp_path: Path) -> None:
    report = verify.verify(
        cassette.read(SETUP), replay.Remote("http://127.0.0.1:9/geoserver", timeout=2)
    )
    assert not report.ok
    assert "status: recorded 201, answered none" in report.text()
    assert "no answer: ConnectError" in report.text()
    with pytest.raises(ValueError, match="base URL"):
        replay.Remote("ftp://x")


def test_secrets_are_resolved_from_the_target_or_left_as_placeholders() -> None:
    emu = Emulator("stock")
    target = replay.InProcess(emu)
    secrets = replay.Secrets(users={})
    assert (
        secrets.authorization("Basic admin:scrubbed-secret-1", target)
        == "Basic YWRtaW46Z2Vvc2VydmVy"
    )
    assert secrets.values == {"scrubbed-secret-1": "geoserver"}
    body = secrets.body(
        b'{"oldMasterPassword":"scrubbed-secret-2","newMasterPassword":"scrubbed-secret-3"}',
        "application/json",
        target,
    )
    assert json.loads(body) == {
        "oldMasterPassword": "geoserver",
        "newMasterPassword": "scrubbed-secret-3",
    }
    assert secrets.unresolved == {"scrubbed-secret-3"}
    assert secrets.authorization("Basic nobody:scrubbed-secret-9", target).startswith("Basic ")
    assert "scrubbed-secret-9" in secrets.unresolved
    assert secrets.authorization("Bearer scrubbed-secret-1", target) == "Bearer geoserver"
    target.close()
