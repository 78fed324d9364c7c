"""The standalone process of the outside contract (section 1), driven as a user would."""

from __future__ import annotations

import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

READY = re.compile(r"ready: (http://127\.0\.0\.1:(\d+)(/[^\s]*)?)\n")
ADMIN = ("admin", "geoserver")
STARTUP_LIMIT = 30.0
"""generous: only a hung start-up fails on it (the machine may be busy)"""


class Served:
    def __init__(self, proc: subprocess.Popen[str], line: str) -> None:
        self.proc = proc
        self.line = line
        match = READY.fullmatch(line)
        assert match, f"not a ready line: {line!r}"
        self.url = match.group(1)
        self.port = int(match.group(2))

    def health(self) -> dict[str, object]:
        r = httpx.get(f"{self.url}/__emulator/health", auth=ADMIN, timeout=10)
        assert r.status_code == 200
        return dict(r.json())


def _readline(proc: subprocess.Popen[str]) -> str:
    box: list[str] = []
    reader = threading.Thread(target=lambda: box.append(proc.stdout.readline()), daemon=True)  # type: ignore[union-attr]
    reader.start()
    reader.join(STARTUP_LIMIT)
    assert box, "no ready line in time"
    return box[0]


def _spawn(*args: str, module: bool = False) -> subprocess.Popen[str]:
    exe = (
        [sys.executable, "-m", "geoserver_emulator"]
        if module
        else [
            sys.executable,
            "-c",
            "from geoserver_emulator.cli import main; raise SystemExit(main())",
        ]
    )
    return subprocess.Popen(
        [*exe, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=os.getcwd()
    )


@pytest.fixture
def serve() -> Iterator:
    procs: list[subprocess.Popen[str]] = []

    def start(*args: str, module: bool = False) -> Served:
        proc = _spawn("serve", "--port", "0", *args, module=module)
        procs.append(proc)
        return Served(proc, _readline(proc))

    yield start
    for proc in procs:
        if proc.poll() is None:
            proc.kill()
        proc.wait()
        for stream in (proc.stdout, proc.stderr):
            if stream:
                stream.close()


def _stop(served: Served, sig: signal.Signals) -> tuple[int, float, str]:
    started = time.monotonic()
    served.proc.send_signal(sig)
    code = served.proc.wait(timeout=STARTUP_LIMIT)
    elapsed = time.monotonic() - started
    rest = served.proc.stdout.read()  # type: ignore[union-attr]
    return code, elapsed, rest


def _listening(port: int) -> bool:
    with socket.socket() as s:
        s.settimeout(1)
        return s.connect_ex(("127.0.0.1", port)) == 0


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


# -- start, answer, stop -------------------------------------------------------------------


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_ready_line_then_clean_stop(serve, sig):
    served = serve()
    assert served.url == f"http://127.0.0.1:{served.port}/geoserver"
    with httpx.Client(auth=ADMIN) as client:  # keep a connection open across the stop
        r = client.get(f"{served.url}/rest/security/usergroup/users.json")
        assert r.status_code == 200 and r.json()["users"][0]["userName"] == "admin"
        code, elapsed, rest = _stop(served, sig)
    assert code == 0
    assert elapsed < 1.0, f"took {elapsed:.2f}s to stop"
    assert rest == "", "exactly one line on stdout"
    assert not _listening(served.port)


def test_defaults_seen_through_health(serve):
    h = serve().health()
    assert h == {
        **h,
        "status": "ok",
        "scenario": "stock",
        "profile": "spec",
        "clock": "realtime",
        "vendorPrefix": "org.geoserver",
    }


def test_python_dash_m_and_every_option(serve):
    served = serve(
        "--context-path",
        "/gs",
        "--profile",
        "geoserver",
        "--vendor-prefix",
        "org.service",
        "--clock",
        "manual",
        "--scenario",
        "empty",
        "--host",
        "127.0.0.1",
        module=True,
    )
    assert served.url.endswith("/gs")
    h = served.health()
    assert (h["scenario"], h["profile"], h["clock"], h["vendorPrefix"]) == (
        "empty",
        "geoserver",
        "manual",
        "org.service",
    )
    assert h["now"] == 0.0  # manual: frozen
    assert (
        httpx.get(
            f"http://127.0.0.1:{served.port}/geoserver/rest/security/roles", auth=ADMIN
        ).status_code
        == 404
    )
    r = httpx.post(f"{served.url}/__emulator/clock/advance?seconds=5", auth=ADMIN)
    assert r.json() == {"now": 5.0}


def test_control_credentials_and_bounds_flags(serve):
    served = serve(
        "--control-user",
        "ops",
        "--control-password",
        "s3cret",
        "--journal-limit",
        "2",
        "--journal-body-limit",
        "4",
        "--timeout-header",
        "5",
        "--timeout-body",
        "5",
        "--timeout-keep-alive",
        "5",
        "--host-read",
    )
    assert httpx.post(f"{served.url}/__emulator/reset", auth=ADMIN).status_code == 401
    assert httpx.post(f"{served.url}/__emulator/reset", auth=("ops", "s3cret")).status_code == 204
    assert httpx.get(f"{served.url}/__emulator/health").status_code == 200
    for _ in range(3):
        httpx.post(f"{served.url}/rest/workspaces", auth=ADMIN, content=b"0123456789")
    found = httpx.get(f"{served.url}/__emulator/requests", auth=("ops", "s3cret")).json()
    assert len(found["requests"]) == 2
    assert found["requests"][0]["body"] == "0123" and found["requests"][0]["bodyLength"] == 10


def test_root_context_path(serve):
    served = serve("--context-path", "/")
    assert served.url == f"http://127.0.0.1:{served.port}"
    assert httpx.get(f"{served.url}/rest/security/roles.json", auth=ADMIN).json()["roles"]


def test_scenario_file_and_folder(serve, tmp_path):
    file = tmp_path / "one.json"
    file.write_text('{"extends": "stock", "settings": {"profile": "geoserver"}}')
    assert serve("--scenario", str(file)).health()["profile"] == "geoserver"
    folder = tmp_path / "folder"
    folder.mkdir()
    (folder / "users.json").write_text(
        '{"extends": "empty", "users": {"services": [{"name": "default", '
        '"users": [{"name": "eve", "password": "pw"}]}]}}'
    )
    served = serve("--scenario", str(folder))
    users = httpx.get(f"{served.url}/rest/security/usergroup/users.json", auth=ADMIN).json()[
        "users"
    ]
    assert [u["userName"] for u in users] == ["admin", "eve"]


# -- refusals ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["serve", "--port", "abc"], "--port"),
        (["serve", "--port", "70000"], "port"),
        (["serve", "--profile", "other"], "--profile"),
        (["serve", "--clock", "sometimes"], "--clock"),
        (["serve", "--vendor-prefix", "not a package"], "vendor prefix"),
        (["serve", "--context-path", "/a b"], "context path"),
        (["serve", "--nope"], "--nope"),
        (["serve", "extra"], "extra"),
        (["frobnicate"], "frobnicate"),
        ([], "command"),
        (["serve", "--scenario", "/no/such/scenario"], "/no/such/scenario"),
        (["serve", "--journal-limit", "0"], "--journal-limit"),
        (["serve", "--journal-max-bytes", "-1"], "--journal-max-bytes"),
        (["serve", "--journal-body-limit", "x"], "--journal-body-limit"),
        (["serve", "--timeout-header", "0"], "--timeout-header"),
        (["serve", "--timeout-body", "nan"], "--timeout-body"),
        (["serve", "--timeout-keep-alive", "-2"], "--timeout-keep-alive"),
        (["serve", "--extensions", "importer,nope"], "unknown extension 'nope'"),
        (["serve", "--host-read", "--no-host-read"], "not allowed with"),
    ],
)
def test_bad_flags_exit_2_with_one_line(args, says):
    port = _free_port()
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "emulator",
            *args,
            *(["--port", str(port)] if args[:1] == ["serve"] and "--port" not in args else []),
        ],
        capture_output=True,
        text=True,
        timeout=STARTUP_LIMIT,
    )
    assert proc.returncode == 2
    assert proc.stdout == ""
    lines = proc.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("geoserver-emulator: ") and says in lines[0]
    assert not _listening(port)


@pytest.mark.parametrize(
    ("content", "says"),
    [
        ("not json", "not valid JSON"),
        ("[1, 2]", "a JSON object"),
        ('{"users": {"services": [{"name": 3}]}}', "users.services[0].name"),
        ('{"nonsense": 1}', "nonsense"),
        ('{"extends": "nowhere"}', "nowhere"),
        ('{"settings": {"profile": "best"}}', "settings.profile"),
        (b"\xff\xfe", "not valid JSON"),
    ],
)
def test_bad_scenario_file_exits_2_naming_file_and_key(tmp_path, content, says):
    file = tmp_path / "bad.json"
    if isinstance(content, bytes):
        file.write_bytes(content)
    else:
        file.write_text(content)
    port = _free_port()
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "geoserver_emulator",
            "serve",
            "--port",
            str(port),
            "--scenario",
            str(file),
        ],
        capture_output=True,
        text=True,
        timeout=STARTUP_LIMIT,
    )
    assert proc.returncode == 2 and proc.stdout == ""
    lines = proc.stderr.splitlines()
    assert len(lines) == 1 and str(file) in lines[0] and says in lines[0]
    assert not _listening(port)


def test_port_in_use_exits_2():
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        proc = subprocess.run(
            [sys.executable, "-m", "geoserver_emulator", "serve", "--port", str(port)],
            capture_output=True,
            text=True,
            timeout=STARTUP_LIMIT,
        )
    assert proc.returncode == 2 and proc.stdout == ""
    assert len(proc.stderr.splitlines()) == 1 and "cannot listen" in proc.stderr


def test_console_script_is_installed():
    script = shutil.which("geoserver-emulator", path=str(Path(sys.executable).parent))
    assert script is not None
    proc = subprocess.run([script, "--help"], capture_output=True, text=True, timeout=STARTUP_LIMIT)
    assert proc.returncode == 0 and "serve" in proc.stdout


def test_extensions_flag_installs_them(serve):
    served = serve("--extensions", "importer,monitor")
    status = httpx.get(f"{served.url}/rest/about/status.xml", auth=ADMIN).text
    assert "<name>Importer Core</name>" in status and "<name>Monitor Core Extension<" in status
    assert "<name>GeoFence</name>" not in status
    plain = serve()
    assert "Importer Core" not in httpx.get(f"{plain.url}/rest/about/status.xml", auth=ADMIN).text


@pytest.mark.parametrize(
    ("host", "flags", "reads"),
    [
        ("127.0.0.1", (), True),
        ("localhost", (), True),
        ("::1", (), True),
        ("0.0.0.0", (), False),
        ("192.0.2.7", (), False),
        ("0.0.0.0", ("--host-read",), True),
        ("127.0.0.1", ("--no-host-read",), False),
    ],
)
def test_host_reading_follows_the_bound_address(host, flags, reads, monkeypatch):
    """On for a loopback address, off for any other unless ``--host-read``; ``--no-host-read``
    off everywhere (the Emulator ``serve`` builds, without binding)."""
    from geoserver_emulator import cli

    made = {}

    class Stop(Exception):
        pass

    def fake_bind(h, p):
        raise Stop

    import geoserver_emulator.http.server as server
    from geoserver_emulator import emulator as emulator_module

    class Spy(emulator_module.Emulator):
        def __init__(self, *a, **kw):
            super().__init__(*a, **kw)
            made["emu"] = self

    monkeypatch.setattr(emulator_module, "Emulator", Spy)
    monkeypatch.setattr(server, "bind", fake_bind)
    args = cli._parser().parse_args(["serve", "--host", host, "--scenario", "empty", *flags])
    with pytest.raises(Stop):
        cli.serve(args)
    assert made["emu"].host_read is reads


def test_frozen_clock_polling_is_said_on_stderr_while_serving(serve):
    """A client polling seed status under ``--clock manual`` would wait forever: the server
    says so on stderr at once (while it keeps serving), naming ``--clock step``."""
    served = serve("--clock", "manual")
    seed = {
        "seedRequest": {"name": "topp:states", "zoomStart": 0, "zoomStop": 3, "type": "seed",
                        "threadCount": 1, "srs": {"number": 4326}, "format": "image/png"}
    }  # fmt: skip
    with httpx.Client(base_url=served.url, auth=ADMIN, timeout=10) as c:
        assert c.post("/gwc/rest/seed/topp:states.json", json=seed).status_code == 200
        for _ in range(25):
            assert c.get("/gwc/rest/seed/topp:states.json").status_code == 200
    box: list[str] = []
    reader = threading.Thread(target=lambda: box.append(served.proc.stderr.readline()), daemon=True)  # type: ignore[union-attr]
    reader.start()
    reader.join(STARTUP_LIMIT)
    assert served.proc.poll() is None  # still serving
    assert box and box[0].startswith("geoserver-emulator: warning: the seed status ")
    assert "manual clock is frozen" in box[0] and "--clock step" in box[0]
