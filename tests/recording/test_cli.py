"""``record``, ``serve --record``, ``replay`` and ``import`` as a user runs them (subprocesses)."""

from __future__ import annotations

import json
import re
import signal
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

import httpx
import pytest

from geoserver_emulator import Emulator
from geoserver_emulator.cli import main
from geoserver_emulator.scenarios import cassette

from .conftest import ADMIN, SECRETS, cassette_text, run_requests

READY = re.compile(r"ready: (http://127\.0\.0\.1:\d+/geoserver)\n")
LIMIT = 30.0
"""generous: only a hung process fails on it (the machine may be busy)"""
DATA = Path(__file__).parent / "data"

Spawn = Callable[..., tuple[subprocess.Popen[str], str]]


def _cli(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "geoserver_emulator", *args],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=cwd,
    )


@pytest.fixture
def spawn() -> Iterator[Spawn]:
    """Start a long-running command; returns the process and the URL of its ready line."""
    procs: list[subprocess.Popen[str]] = []

    def start(*args: str) -> tuple[subprocess.Popen[str], str]:
        proc = subprocess.Popen(
            [sys.executable, "-m", "geoserver_emulator", *args],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        procs.append(proc)
        box: list[str] = []
        reader = threading.Thread(target=lambda: box.append(proc.stdout.readline()), daemon=True)  # type: ignore[union-attr]
        reader.start()
        reader.join(LIMIT)
        match = READY.fullmatch(box[0] if box else "")
        assert match, f"no ready line: {box!r}"
        return proc, match.group(1)

    yield start
    for proc in procs:
        if proc.poll() is None:
            proc.kill()
        proc.communicate()


def _stop(proc: subprocess.Popen[str]) -> str:
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=LIMIT)
    assert proc.returncode == 0, err
    return err


def test_record_through_the_proxy(
    spawn: Spawn, upstream: tuple[Emulator, str], tmp_path: Path
) -> None:
    out = tmp_path / "run.jsonl"
    proc, url = spawn("record", "--upstream", upstream[1], "--port", "0", "--out", str(out))
    answers = run_requests(url)
    err = _stop(proc)
    assert f"recorded {len(answers)} exchanges to {out}" in err
    tape = cassette.read(out)
    assert [e.response.status for e in tape.exchanges] == [a.status_code for a in answers]
    text = cassette_text(out)
    assert not any(secret in text for secret in SECRETS)
    verified = _cli("replay", str(out), "--verify")
    assert verified.returncode == 0, verified.stdout
    assert verified.stdout.endswith(f"{len(answers)} of {len(answers)} exchanges match\n")


def test_serve_records_its_own_traffic(spawn: Spawn, tmp_path: Path) -> None:
    out = tmp_path / "own.jsonl"
    proc, url = spawn("serve", "--port", "0", "--clock", "manual", "--record", str(out))
    with httpx.Client(base_url=url, auth=ADMIN) as c:
        c.post("/rest/urlchecks", json={"regexUrlCheck": {"name": "before", "regex": "^b$"}})
        c.post("/__emulator/reset")
        c.post("/rest/urlchecks", json={"regexUrlCheck": {"name": "after", "regex": "^a$"}})
        c.get("/rest/urlchecks.xml")
    _stop(proc)
    tape = cassette.read(out)
    assert tape.header.source == "emulator" and tape.header.scenario == "stock"
    assert [(e.request.method, e.request.path) for e in tape.exchanges] == [
        ("POST", "/rest/urlchecks"),
        ("GET", "/rest/urlchecks.xml"),
    ]  # the reset started the cassette over
    assert "127.0.0.1" not in cassette_text(out)
    assert [c.name for c in Emulator(out).state.urlchecks.checks] == ["after"]


def test_serve_takes_a_cassette_as_scenario(spawn: Spawn) -> None:
    proc, url = spawn("serve", "--port", "0", "--scenario", str(DATA / "setup.jsonl"))
    answer = httpx.get(f"{url}/rest/security/acl/catalog.json", auth=ADMIN)
    _stop(proc)
    assert answer.json() == {"mode": "MIXED"}


def test_replay_verify_reports_and_fails_on_a_difference(tmp_path: Path) -> None:
    path = tmp_path / "changed.jsonl"
    lines = (DATA / "setup.jsonl").read_text().splitlines()
    data = json.loads(lines[2])
    data["response"]["body"] = data["response"]["body"].replace("icon server", "another server")
    lines[2] = json.dumps(data)
    path.write_text("\n".join(lines) + "\n")
    result = _cli("replay", str(path), "--verify")
    assert result.returncode == 1
    assert "#2 GET /rest/urlchecks/icons.json -> 200: DIFFERS" in result.stdout
    assert '-    "description": "another server",' in result.stdout
    assert result.stdout.endswith("6 of 7 exchanges match; 1 differ\n")
    verbose = _cli("replay", str(DATA / "setup.jsonl"), "--verify", "-v")
    assert verbose.returncode == 0 and "#1 POST /rest/urlchecks -> 201: ok" in verbose.stdout


def test_replay_against_a_live_server_and_to_a_scenario(spawn: Spawn, tmp_path: Path) -> None:
    proc, url = spawn("serve", "--port", "0")
    setup = _cli("replay", str(DATA / "setup.jsonl"), "--against", url)
    assert setup.returncode == 0 and setup.stdout.startswith("applied 5 writes")
    assert httpx.get(f"{url}/rest/security/acl/catalog.json", auth=ADMIN).json() == {
        "mode": "MIXED"
    }
    again = _cli("replay", str(DATA / "setup.jsonl"), "--against", url)
    assert again.returncode == 1 and "exchange 1 (POST /rest/urlchecks, line 2)" in again.stderr
    _stop(proc)
    written = _cli("replay", str(DATA / "setup.jsonl"), "--out", str(tmp_path / "s.json"))
    assert written.returncode == 0, written.stderr
    assert Emulator(tmp_path / "s.json").state.security.catalog_mode == "MIXED"


def test_import_from_a_live_server(spawn: Spawn, tmp_path: Path) -> None:
    proc, url = spawn("serve", "--port", "0", "--scenario", str(DATA / "setup.jsonl"))
    result = _cli(
        "import",
        "--from",
        url,
        "--user",
        "admin",
        "--password",
        "geoserver",
        "--out",
        "imp.json",
        cwd=tmp_path,
    )
    refused = _cli(
        "import",
        "--from",
        url,
        "--user",
        "admin",
        "--password",
        "nope",
        "--out",
        "x.json",
        cwd=tmp_path,
    )
    _stop(proc)
    assert result.returncode == 0, result.stderr
    assert result.stdout.endswith("wrote imp.json\n")
    emu = Emulator(tmp_path / "imp.json")
    assert emu.state.security.catalog_mode == "MIXED"
    assert [c.name for c in emu.state.urlchecks.checks] == ["icons"]
    assert refused.returncode == 2 and "refused the credentials of admin" in refused.stderr


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["record", "--out", "x.jsonl"], "required: --upstream"),
        (
            ["record", "--upstream", "ftp://x", "--out", "x.jsonl", "--port", "0"],
            "expected a base URL",
        ),
        (
            ["record", "--upstream", "http://h/geoserver", "--out", "x.jsonl", "--port", "70000"],
            "invalid port",
        ),
        (["replay", "missing.jsonl"], "missing.jsonl: cannot read"),
        (["replay", str(DATA / "setup.jsonl"), "--secret", "novalue"], "expected NAME=VALUE"),
        (
            ["replay", str(DATA / "setup.jsonl"), "--against", "nope"],
            "expected an http(s) base URL",
        ),
        (["replay", str(DATA / "setup.jsonl"), "--scenario", "nowhere.json"], "bad scenario"),
        (["import", "--from", "http://127.0.0.1:9/geoserver", "--out", "x.json"], "import failed"),
        (["serve", "--port", "0", "--record", "/proc/nope/x.jsonl"], "cannot write"),
    ],
)
def test_bad_input_exits_2_with_one_line(
    args: list[str],
    message: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.chdir(tmp_path)
    try:
        status = main(args)
    except SystemExit as exc:  # argparse
        status = int(exc.code or 0)
    err = capsys.readouterr().err
    assert status == 2
    assert message in err and err.count("\n") == 1, err
