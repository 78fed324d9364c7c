"""A recording that fails leaves the user's files exactly as they were: the cassette and its
side-file folder, byte for byte (``record --out``, ``serve --record``, ``CassetteWriter``).

A recording is written to a partial file beside the target and moved into place only when it
ends normally (SIGINT or SIGTERM for the commands, ``close()`` or a ``with`` block left
normally in code).
"""

from __future__ import annotations

import signal
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from geoserver_emulator.cli import main
from geoserver_emulator.scenarios import cassette
from geoserver_emulator.scenarios.cassette import (
    CassetteWriter,
    Header,
    RecordedRequest,
    RecordedResponse,
)

from .conftest import ADMIN
from .test_cli import Spawn, spawn  # noqa: F401 (the fixture)

ZIP = b"PK\x03\x04\x14\x00\x00\x00\x08\x00\xff\xfe binary"


def _tree(folder: Path) -> dict[str, bytes]:
    """Every file under ``folder`` (relative name → bytes), partial files included."""
    return {
        str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()
    }


@pytest.fixture
def kept(tmp_path: Path) -> Path:
    """An existing 13 KB cassette, ``keep.jsonl``, with a side-file folder and a file of the
    user's in it; the folder holds nothing else."""
    path = tmp_path / "keep.jsonl"
    with CassetteWriter(path, Header()) as writer:
        for n in range(40):
            writer.add(
                RecordedRequest("GET", f"/rest/workspaces/ws{n}.json"),
                RecordedResponse(200, {"content-type": "application/json"}, b'{"w":"' * 40),
            )
        writer.add(
            RecordedRequest("PUT", "/rest/x", "", {"content-type": "application/zip"}, ZIP),
            RecordedResponse(201),
        )
    (tmp_path / "keep.files" / "notes.txt").write_text("the user's own")
    assert path.stat().st_size > 13_000
    return path


@pytest.fixture
def busy_port() -> Iterator[int]:
    """A port something else listens on."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        yield int(s.getsockname()[1])


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "geoserver_emulator", *args],
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.mark.parametrize("command", ["record", "serve"])
def test_a_busy_port_leaves_the_cassette_and_its_side_files(
    command: str, kept: Path, busy_port: int
) -> None:
    before = _tree(kept.parent)
    if command == "record":
        args = ["record", "--upstream", "http://127.0.0.1:9/geoserver", "--out", str(kept)]
    else:
        args = ["serve", "--record", str(kept)]
    done = _cli(*args, "--port", str(busy_port))
    assert done.returncode == 2
    assert done.stderr.startswith("geoserver-emulator: cannot listen on 127.0.0.1:")
    assert done.stderr.count("\n") == 1 and "recorded" not in done.stderr
    assert done.stdout == ""
    assert _tree(kept.parent) == before


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["record", "--upstream", "nope", "--port", "0"], "expected a base URL"),
        (["record", "--upstream", "http://h/geoserver", "--port", "99999"], "invalid port"),
        (["record", "--upstream", "http://h/geoserver", "--profile", "x"], "invalid choice"),
        (["record", "--upstream", "http://h/geoserver", "--bogus"], "unrecognized arguments"),
        (["serve", "--port", "0", "--clock", "sometimes"], "invalid choice"),
        (["serve", "--port", "99999"], "invalid port"),
        (["serve", "--port", "0", "--scenario", "nowhere.json"], "bad scenario"),
        (["serve", "--port", "0", "--clock-step", "-1"], "invalid clock step"),
    ],
)
def test_bad_flags_leave_the_cassette_and_its_side_files(
    args: list[str], message: str, kept: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before = _tree(kept.parent)
    out = ["--out", str(kept)] if args[0] == "record" else ["--record", str(kept)]
    try:
        status = main([*args, *out])
    except SystemExit as exc:  # argparse
        status = int(exc.code or 0)
    err = capsys.readouterr().err
    assert status == 2 and message in err and "recorded" not in err, err
    assert _tree(kept.parent) == before


@pytest.mark.parametrize("command", ["record", "serve"])
def test_an_unwritable_folder_leaves_the_cassette_and_its_side_files(
    command: str,
    kept: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The folder refuses new files (as a read-only folder does for a user who is not root;
    the tests may run as root, so the refusal is made by hand)."""
    before = _tree(kept.parent)

    def refuse(path: Path) -> Path:
        raise PermissionError(13, "Permission denied", str(path))

    monkeypatch.setattr(cassette, "_partial_file", refuse)
    if command == "record":
        args = ["record", "--upstream", "http://127.0.0.1:9/geoserver", "--out", str(kept)]
    else:
        args = ["serve", "--record", str(kept)]
    assert main([*args, "--port", "0"]) == 2
    err = capsys.readouterr().err
    assert err == f"geoserver-emulator: cannot write {kept}: Permission denied\n"
    assert _tree(kept.parent) == before


def test_a_folder_that_is_a_file_is_said_and_nothing_is_made(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "plain").write_text("x")
    before = _tree(tmp_path)
    target = tmp_path / "plain" / "deeper" / "keep.jsonl"
    assert main(["serve", "--port", "0", "--record", str(target)]) == 2
    assert "cannot write" in capsys.readouterr().err
    assert _tree(tmp_path) == before


def test_a_killed_recording_leaves_the_old_cassette_and_a_partial_one(
    spawn: Spawn,  # noqa: F811
    kept: Path,
) -> None:
    before = _tree(kept.parent)
    proc, url = spawn("serve", "--port", "0", "--clock", "manual", "--record", str(kept))
    httpx.get(f"{url}/rest/about/version.json", auth=ADMIN)
    proc.send_signal(signal.SIGKILL)
    proc.communicate(timeout=30)
    after = _tree(kept.parent)
    partial = [name for name in after if name not in before]
    assert {name: after[name] for name in before} == before
    assert len(partial) == 1 and partial[0].startswith(".keep.jsonl.")
    tape = cassette.read(kept.parent / partial[0])  # a valid cassette up to the kill
    assert [e.request.path for e in tape.exchanges] == ["/rest/about/version.json"]


def test_a_normal_end_replaces_the_cassette_and_only_its_side_files(
    spawn: Spawn,  # noqa: F811
    kept: Path,
) -> None:
    proc, url = spawn("serve", "--port", "0", "--clock", "manual", "--record", str(kept))
    httpx.get(f"{url}/rest/about/version.json", auth=ADMIN)
    assert b"ws39" in kept.read_bytes()  # still the old one while recording
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=30)
    assert proc.returncode == 0, err
    assert [e.request.path for e in cassette.read(kept).exchanges] == ["/rest/about/version.json"]
    assert _tree(kept.parent / "keep.files") == {"notes.txt": b"the user's own"}
    assert sorted(p.name for p in kept.parent.iterdir()) == ["keep.files", "keep.jsonl"]


def test_a_writer_left_by_an_exception_discards(kept: Path) -> None:
    before = _tree(kept.parent)
    with pytest.raises(ValueError), CassetteWriter(kept, Header()) as writer:
        writer.add(RecordedRequest("PUT", "/rest/y", "", {"content-type": "image/png"}, ZIP),
                   RecordedResponse(200))  # fmt: skip
        raise ValueError("the recording failed")
    assert writer.done and _tree(kept.parent) == before
    with pytest.raises(RuntimeError, match="has ended"):
        writer.restart()
