"""Recording through the proxy, in front of a second emulator standing in for a real server."""

from __future__ import annotations

import base64
from pathlib import Path

import httpx

from geoserver_emulator import Emulator
from geoserver_emulator.http.server import LiveServer
from geoserver_emulator.recording.recorder import RecordingProxy
from geoserver_emulator.scenarios import cassette

from .conftest import ADMIN, SECRETS, cassette_text, run_requests


def test_the_proxy_forwards_and_records_every_exchange(
    upstream: tuple[Emulator, str], proxy: tuple[RecordingProxy, str], tmp_path: Path
) -> None:
    up, _ = upstream
    rec, url = proxy
    answers = run_requests(url)
    assert up.state.urlchecks.checks[0].name == "icons"  # the upstream did the work
    assert not (tmp_path / "run.jsonl").exists()  # in place only when the recording ends
    rec.close()
    tape = cassette.read(tmp_path / "run.jsonl")
    assert rec.recorded == len(answers) == len(tape.exchanges)
    assert tape.header.source == "proxy" and tape.header.timing == "wall"
    assert tape.header.upstream == "http://recorded.invalid"
    for answer, exchange in zip(answers, tape.exchanges, strict=True):
        assert exchange.request.method == answer.request.method
        assert "/geoserver" + exchange.request.path == answer.request.url.path
        assert exchange.response.status == answer.status_code
    assert [e.number for e in tape.exchanges] == list(range(1, len(answers) + 1))
    elapsed = [e.elapsed for e in tape.exchanges]
    assert elapsed == sorted(elapsed)


def test_links_lead_back_through_the_proxy(proxy: tuple[RecordingProxy, str]) -> None:
    _, url = proxy
    with httpx.Client(base_url=url, auth=ADMIN) as c:
        created = c.post("/rest/urlchecks", json={"regexUrlCheck": {"name": "a", "regex": "^x$"}})
        listing = c.get("/rest/urlchecks.xml")
        head = c.head("/rest/urlchecks.json")
    assert created.headers["location"] == f"{url}/rest/urlchecks/a"
    assert f'href="{url}/rest/urlchecks/a.xml"' in listing.text
    assert head.status_code == 200 and head.content == b""
    assert listing.headers.get_list("server") == ["uvicorn"]


def test_no_credential_reaches_the_cassette(
    proxy: tuple[RecordingProxy, str], tmp_path: Path
) -> None:
    rec, url = proxy
    run_requests(url)
    with httpx.Client(base_url=url, auth=("bob", SECRETS[0])) as c:
        c.get("/rest/urlchecks.json")
    rec.close()
    text = cassette_text(tmp_path / "run.jsonl")
    admin_token = base64.b64encode(b"admin:geoserver").decode()
    for secret in (*SECRETS, admin_token, "127.0.0.1"):
        assert secret not in text
    assert "Basic bob:scrubbed-secret-" in text and "Basic admin:scrubbed-secret-1" in text
    tape = cassette.read(tmp_path / "run.jsonl")
    bodies = {(e.request.method, e.request.path): e.request.body for e in tape.exchanges}
    assert b'"clientSecret":"scrubbed-secret-' in bodies["POST", "/rest/security/authfilters.json"]
    assert b'"newMasterPassword":"scrubbed-secret-' in bodies["PUT", "/rest/security/masterpw.json"]


def test_binary_bodies_are_side_files(proxy: tuple[RecordingProxy, str], tmp_path: Path) -> None:
    rec, url = proxy
    zipped = b"PK\x03\x04\x00\xff binary payload"
    with httpx.Client(base_url=url, auth=ADMIN) as c:
        c.put("/rest/urlchecks/a", content=zipped, headers={"Content-Type": "application/zip"})
    rec.close()
    [ex] = cassette.read(tmp_path / "run.jsonl").exchanges
    assert ex.request.body == zipped
    assert (tmp_path / "run.files" / "0001-request.zip").read_bytes() == zipped


def test_control_plane_and_other_paths_are_forwarded_not_recorded(
    proxy: tuple[RecordingProxy, str], tmp_path: Path
) -> None:
    rec, url = proxy
    with httpx.Client(base_url=url, auth=ADMIN) as c:
        assert c.post("/__emulator/clock/advance", params={"seconds": 1}).status_code == 200
        assert c.get(url.rsplit("/", 1)[0] + "/elsewhere").status_code == 404
    assert rec.recorded == 0
    rec.close()
    assert len((tmp_path / "run.jsonl").read_text().splitlines()) == 1


def test_an_unreachable_upstream_answers_502_and_records_nothing(tmp_path: Path) -> None:
    rec = RecordingProxy("http://127.0.0.1:9/geoserver", tmp_path / "x.jsonl", scrub=False)
    server = LiveServer(rec.app).start()
    try:
        answer = httpx.get(server.url("/geoserver") + "/rest/about/version.json")
    finally:
        server.stop()
        rec.close()
    assert answer.status_code == 502 and "Upstream unreachable" in answer.text
    assert rec.recorded == 0


def test_unscrubbed_recordings_keep_credentials_and_host(
    upstream: tuple[Emulator, str], tmp_path: Path
) -> None:
    rec = RecordingProxy(
        upstream[1], tmp_path / "raw.jsonl", scrub=False, scenario="empty", profile="geoserver"
    )
    server = LiveServer(rec.app).start()
    try:
        with httpx.Client(base_url=server.url("/geoserver"), auth=ADMIN) as c:
            c.post("/rest/urlchecks", json={"regexUrlCheck": {"name": "a", "regex": "^x$"}})
    finally:
        server.stop()
        rec.close()
    tape = cassette.read(tmp_path / "raw.jsonl")
    assert tape.header.scrubbed is False and tape.header.upstream == upstream[1].rsplit("/", 1)[0]
    assert (tape.header.scenario, tape.header.profile) == ("empty", "geoserver")
    [ex] = tape.exchanges
    assert (
        ex.request.headers["authorization"]
        == "Basic " + base64.b64encode(b"admin:geoserver").decode()
    )
    assert ex.response.headers["location"].startswith(upstream[1])


def test_rerecording_replaces_the_cassette(upstream: tuple[Emulator, str], tmp_path: Path) -> None:
    for _ in range(2):
        rec = RecordingProxy(upstream[1], tmp_path / "again.jsonl")
        server = LiveServer(rec.app).start()
        try:
            httpx.get(server.url("/geoserver") + "/rest/urlchecks.json", auth=ADMIN)
        finally:
            server.stop()
            rec.close()
    assert len(cassette.read(tmp_path / "again.jsonl").exchanges) == 1
