"""The CLI a newcomer meets: help text with every default, ``--version``, ``--log-requests``,
``--clock step``, and ``import`` against a base URL where nothing answers."""

from __future__ import annotations

import re
import subprocess
import sys
import threading
from pathlib import Path

import httpx
import pytest

import geoserver_emulator
from geoserver_emulator.cli import _parser, main
from geoserver_emulator.recording.importer import ImportFailed, import_scenario

COMMANDS = ("serve", "record", "replay", "import")


def _help_of(command: str) -> str:
    parser = _parser()
    sub = next(a for a in parser._actions if a.dest == "command")
    return sub.choices[command].format_help()  # type: ignore[union-attr]


@pytest.mark.parametrize("command", COMMANDS)
def test_every_optional_flag_states_its_default(command):
    parser = _parser()
    sub = next(a for a in parser._actions if a.dest == "command")
    formatter = sub.choices[command]._get_formatter()  # type: ignore[union-attr]
    for action in sub.choices[command]._actions:  # type: ignore[union-attr]
        if not action.option_strings or action.required or action.dest == "help":
            continue
        text = formatter._expand_help(action)
        assert "default" in text, f"{command} {action.option_strings[0]}: {text!r}"
    assert "(default: " in _help_of(command)


def test_serve_help_shows_the_contract_defaults():
    text = " ".join(_help_of("serve").split())
    for default in ("127.0.0.1", "8080", "/geoserver", "stock", "realtime", "1.0"):
        assert f"(default: {default})" in text
    assert "{manual,realtime,step}" in text


def test_version(capsys):
    with pytest.raises(SystemExit) as info:
        main(["--version"])
    assert info.value.code == 0
    assert capsys.readouterr().out == f"geoserver-emulator {geoserver_emulator.__version__}\n"


@pytest.mark.parametrize("step", ["0", "-1", "nan", "x"])
def test_bad_clock_step_exits_2(capsys, step):
    assert_exit = pytest.raises(SystemExit)
    with assert_exit as info:
        code = main(["serve", "--port", "0", "--clock", "step", "--clock-step", step])
        raise SystemExit(code)
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("geoserver-emulator:") and err.count("\n") == 1


def test_log_requests_and_step_clock_on_a_live_process():
    proc = subprocess.Popen(
        [sys.executable, "-m", "geoserver_emulator", "serve", "--port", "0", "--clock", "step",
         "--clock-step", "2", "--log-requests"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        box: list[str] = []
        reader = threading.Thread(target=lambda: box.append(proc.stdout.readline()), daemon=True)  # type: ignore[union-attr]
        reader.start()
        reader.join(30)
        url = box[0].split("ready: ", 1)[1].strip()
        httpx.get(f"{url}/rest/about/version.json", auth=("admin", "geoserver"))
        r = httpx.get(f"{url}/__emulator/health")  # no credentials needed
        assert r.json()["clock"] == "step" and r.json()["now"] == 2.0
    finally:
        proc.terminate()
        _, err = proc.communicate(timeout=10)
    lines = [line for line in err.splitlines() if '"' in line]
    assert re.fullmatch(r'127\.0\.0\.1:\d+ "GET /geoserver/rest/about/version\.json" 200', lines[0])
    assert lines[1].endswith('"GET /geoserver/__emulator/health" 200')
    assert len(lines) == 2


# -- import where nothing answers ------------------------------------------------------------


def _all_404(request: httpx.Request) -> httpx.Response:
    return httpx.Response(404, text="Not found")


def test_import_where_every_endpoint_404s_fails_with_a_hint(tmp_path: Path):
    out = tmp_path / "s.json"
    with pytest.raises(ImportFailed) as info:
        import_scenario("http://gs:8080", "admin", "geoserver", out,
                        transport=httpx.MockTransport(_all_404))  # fmt: skip
    text = str(info.value)
    assert "no REST endpoint answered" in text and "http://gs:8080/geoserver" in text
    assert not out.exists()


def test_import_with_a_context_path_that_404s_asks_about_it(tmp_path: Path):
    with pytest.raises(ImportFailed, match=r"Is http://gs:8080/gs the server's base URL"):
        import_scenario("http://gs:8080/gs", "admin", "geoserver", tmp_path / "s.json",
                        transport=httpx.MockTransport(_all_404))  # fmt: skip


def test_import_command_exits_non_zero_on_a_url_without_context(tmp_path: Path, capsys):
    from geoserver_emulator import Emulator
    from geoserver_emulator.http.server import LiveServer

    emu = Emulator("stock")
    server = LiveServer(emu.asgi_app).start()
    try:
        origin = f"http://{server.host}:{server.port}"
        code = main(["import", "--from", origin, "--out", str(tmp_path / "s.json")])
    finally:
        server.stop()
    assert code == 2
    err = capsys.readouterr().err
    assert f"try {origin}/geoserver" in err
    assert not (tmp_path / "s.json").exists()
