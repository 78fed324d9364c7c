"""The plugin tested from outside: downstream-style test files run by pytester, plain and
under xdist."""

from __future__ import annotations

import json
from pathlib import Path

import httpcore  # noqa: F401
import hypothesis  # noqa: F401
import pytest
import requests  # noqa: F401
import werkzeug.test  # noqa: F401

# pytester's in-process runs remove the modules they imported when they end, so what the
# runs use is imported here once. It also matters for correctness: httpx imports httpcore
# lazily and maps httpcore's exception classes once; were httpcore first imported inside a
# run, later httpx errors in this process would surface as httpcore's own.

DOWNSTREAM = """
import asyncio, json, os, subprocess, sys
import httpx, pytest, requests
from werkzeug.test import Client
from geoserver_emulator import Emulator
from geoserver_emulator.scenarios.builder import ScenarioBuilder
from geoserver_emulator_pytest.requests_adapter import WSGIAdapter

ADMIN = ("admin", "geoserver")
PORTS = os.environ["PORTS_FILE"]


def remember_port(url):
    with open(PORTS, "a") as f:
        f.write(json.dumps([os.getpid(), url.split(":")[2].split("/")[0]]) + "\\n")


@pytest.mark.parametrize("n", range(4))
def test_each_test_gets_a_fresh_emulator(geoserver_emulator, geoserver_client, n):
    assert isinstance(geoserver_emulator, Emulator) and len(geoserver_emulator.journal) == 0
    assert not geoserver_emulator.faults.active() and geoserver_emulator.clock.now() == 0
    assert "intruder" not in geoserver_emulator.state.users.service().users
    geoserver_emulator.state.users.service().users["intruder"] = None
    geoserver_emulator.faults.add("*", "/**", status=500, times=None)
    geoserver_emulator.clock.advance(10)
    geoserver_client.get("/rest/x")


@pytest.mark.parametrize("n", range(4))
def test_live_url_sees_this_tests_emulator(geoserver_url, geoserver_emulator, n):
    remember_port(geoserver_url)
    assert geoserver_url.startswith("http://127.0.0.1:") and geoserver_url.endswith("/geoserver")
    with httpx.Client(base_url=geoserver_url, auth=ADMIN) as c:
        assert c.get("/__emulator/requests").json() == {"requests": []}
        assert c.get("/__emulator/faults").json() == {"faults": []}
        c.post("/__emulator/faults", json={"path": "/rest/**", "status": 418, "times": 5})
        assert c.get("/rest/anything").status_code == 418
    geoserver_emulator.journal.assert_called("GET", "/rest/anything", times=1, status=418)


def test_live_url_from_a_subprocess(geoserver_url):
    script = f"import httpx; print(httpx.get('{geoserver_url}/rest/x').status_code)"
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "401"


def test_asgi_app(geoserver_asgi_app, geoserver_emulator):
    async def main():
        transport = httpx.ASGITransport(app=geoserver_asgi_app)
        async with httpx.AsyncClient(transport=transport, base_url="http://t/geoserver") as c:
            return await c.get("/__emulator/health", auth=ADMIN)
    assert asyncio.run(main()).json()["status"] == "ok"
    assert geoserver_asgi_app is geoserver_emulator.asgi_app


def test_wsgi_app_three_ways(geoserver_wsgi_app, geoserver_emulator):
    with httpx.Client(transport=httpx.WSGITransport(app=geoserver_wsgi_app), auth=ADMIN) as c:
        assert c.get("http://t/geoserver/__emulator/health").status_code == 200
    assert Client(geoserver_wsgi_app).get("/geoserver/rest/x").status_code == 401
    s = requests.Session()
    s.mount("http://t/", WSGIAdapter(geoserver_wsgi_app))
    assert s.get("http://t/geoserver/rest/x", auth=ADMIN).status_code == 404
    assert len(geoserver_emulator.journal) == 2


def test_client_conveniences(geoserver_client, geoserver_requests, geoserver_async_client):
    assert geoserver_client.get("/__emulator/health").status_code == 200
    assert geoserver_requests.get("/__emulator/health").status_code == 200
    async def main():
        return (await geoserver_async_client.get("/__emulator/health")).status_code
    assert asyncio.run(main()) == 200


def test_dropped_connection_everywhere(
    geoserver_client, geoserver_requests, geoserver_url, geoserver_emulator
):
    geoserver_emulator.faults.add("GET", "/rest/**", drop=True, times=3)
    with pytest.raises(httpx.RemoteProtocolError):
        geoserver_client.get("/rest/a")
    with pytest.raises(requests.ConnectionError):
        geoserver_requests.get("/rest/a")
    with pytest.raises(httpx.RemoteProtocolError):
        httpx.get(geoserver_url + "/rest/a", auth=ADMIN)
    assert [e.status for e in geoserver_emulator.journal] == [0, 0, 0]


def test_clock_is_manual(geoserver_emulator):
    assert geoserver_emulator.clock.kind == "manual"
    geoserver_emulator.clock.advance(5)
    geoserver_emulator.scheduler.drain()
    assert geoserver_emulator.clock.now() == 5


@pytest.mark.geoserver_scenario("empty")
class TestMarkers:
    def test_class_marker(self, geoserver_emulator):
        assert geoserver_emulator.scenario.name == "empty"

    @pytest.mark.geoserver_scenario(ScenarioBuilder("stock").user("bob", "pw"))
    def test_closest_marker_wins(self, geoserver_emulator, geoserver_url):
        assert "bob" in geoserver_emulator.state.users.service().users
        assert httpx.get(geoserver_url + "/rest/x", auth=("bob", "pw")).status_code == 403

    @pytest.mark.geoserver_scenario("scenarios/mixed.json")
    def test_path_relative_to_the_test_file(self, geoserver_emulator):
        assert geoserver_emulator.state.security.catalog_mode == "MIXED"

    @pytest.mark.geoserver_profile("geoserver")
    def test_profile_marker(self, geoserver_emulator):
        assert geoserver_emulator.profile == "geoserver"
"""

MODULE_MARKER = """
import pytest

pytestmark = [pytest.mark.geoserver_scenario("empty"), pytest.mark.geoserver_profile("geoserver")]


def test_module_markers(geoserver_emulator):
    assert geoserver_emulator.scenario.name == "empty" and geoserver_emulator.profile == "geoserver"
"""

CONFTEST = """
import pytest

@pytest.fixture
def geoserver_credentials():
    return ("bob", "pw")

@pytest.fixture
def geoserver_default_scenario():
    from geoserver_emulator.scenarios.builder import ScenarioBuilder
    return ScenarioBuilder("stock").user("bob", "pw", roles=["ADMIN"])

@pytest.fixture
def geoserver_context_path():
    return "/gs"

@pytest.fixture
def geoserver_clock():
    return "realtime"

@pytest.fixture
def geoserver_profile():
    return "geoserver"

@pytest.fixture
def geoserver_vendor_prefix():
    return "org.service"
"""


@pytest.fixture
def downstream(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> pytest.Pytester:
    pytester.makepyfile(test_downstream=DOWNSTREAM, test_module_marker=MODULE_MARKER)
    (pytester.path / "scenarios").mkdir()
    (pytester.path / "scenarios" / "mixed.json").write_text(
        json.dumps({"extends": "stock", "security": {"catalogMode": "MIXED"}})
    )
    monkeypatch.setenv("PORTS_FILE", str(pytester.path / "ports.jsonl"))
    return pytester


def ports(pytester: pytest.Pytester) -> dict[int, set[str]]:
    out: dict[int, set[str]] = {}
    for line in (pytester.path / "ports.jsonl").read_text().splitlines():
        pid, port = json.loads(line)
        out.setdefault(pid, set()).add(port)
    return out


DOWNSTREAM_TESTS = 4 + 4 + 1 + 1 + 1 + 1 + 1 + 1 + 4 + 1


COVERAGE_REPORT = [
    "geoserver-emulator endpoint coverage: * endpoints exercised (*%)",
    "exercised (*):",
    "never touched (*):",
    # every request of the downstream file goes to a path no area serves: all 15 are counted,
    # whichever worker made them
    "requests to no emulated endpoint (answered 404 or 405): 15",
]


def test_downstream_file_plain(downstream: pytest.Pytester) -> None:
    result = downstream.runpytest("--geoserver-coverage")
    result.assert_outcomes(passed=DOWNSTREAM_TESTS)
    result.stdout.fnmatch_lines(["geoserver-emulator 0.1.0: scenario stock, profile spec"])
    result.stdout.fnmatch_lines(COVERAGE_REPORT)
    assert [len(p) for p in ports(downstream).values()] == [1]  # one live server for the run


def test_downstream_file_under_xdist(downstream: pytest.Pytester) -> None:
    result = downstream.runpytest("-n", "2", "--dist", "load", "--geoserver-coverage")
    result.assert_outcomes(passed=DOWNSTREAM_TESTS)
    result.stdout.fnmatch_lines(COVERAGE_REPORT)
    per_worker = ports(downstream)
    # one live server per worker that ran live tests (on a busy machine xdist's load
    # balancing may hand them all to one worker), never shared between workers
    assert per_worker and all(len(p) == 1 for p in per_worker.values())
    assert len(set().union(*per_worker.values())) == len(per_worker)


def test_each_xdist_worker_gets_its_own_live_server(downstream: pytest.Pytester) -> None:
    result = downstream.runpytest("-n", "2", "--dist", "each")
    result.assert_outcomes(passed=2 * DOWNSTREAM_TESTS)
    per_worker = ports(downstream)
    assert all(len(p) == 1 for p in per_worker.values())
    assert len(set().union(*per_worker.values())) == len(per_worker) == 2


def test_config_fixtures_can_be_overridden(pytester: pytest.Pytester) -> None:
    pytester.makeconftest(CONFTEST)
    pytester.makepyfile(
        """
        def test_it(geoserver_client, geoserver_emulator, geoserver_url):
            assert str(geoserver_client.base_url) == "http://localhost:8080/gs/"
            assert geoserver_client.get("/__emulator/health").status_code == 200
            assert geoserver_url.endswith("/gs")
            assert geoserver_emulator.scenario.name.startswith("document-")
            assert geoserver_emulator.clock.kind == "realtime"
            assert geoserver_emulator.profile == "geoserver"
            assert geoserver_emulator.vendor.prefix == "org.service"
        """
    )
    pytester.runpytest().assert_outcomes(passed=1)


def test_scenario_option_and_ini(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        """
        import os
        def test_it(geoserver_emulator):
            assert geoserver_emulator.state.security.catalog_mode == os.environ["WANT_MODE"]
        """
    )
    (pytester.path / "sub").mkdir()
    (pytester.path / "sub" / "challenge.json").write_text(
        '{"security": {"catalogMode": "CHALLENGE"}}'
    )
    (pytester.path / "mixed.json").write_text(
        '{"extends": "stock", "security": {"catalogMode": "MIXED"}}'
    )
    env = pytester._monkeypatch  # pytester's own, undone after the test
    env.setenv("WANT_MODE", "HIDE")
    pytester.runpytest().assert_outcomes(passed=1)
    env.setenv("WANT_MODE", "CHALLENGE")
    pytester.runpytest("--geoserver-scenario", "sub/challenge.json").assert_outcomes(passed=1)
    pytester.makeini("[pytest]\ngeoserver_scenario = mixed.json\n")
    env.setenv("WANT_MODE", "MIXED")
    pytester.runpytest().assert_outcomes(passed=1)
    env.setenv("WANT_MODE", "CHALLENGE")  # the option beats the ini setting; absolute paths too
    absolute = str(pytester.path / "sub" / "challenge.json")
    pytester.runpytest("--geoserver-scenario", absolute).assert_outcomes(passed=1)


def test_profile_option_and_ini(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        """
        import os
        def test_it(geoserver_emulator):
            assert geoserver_emulator.profile == os.environ["WANT_PROFILE"]
        """
    )
    env = pytester._monkeypatch
    env.setenv("WANT_PROFILE", "geoserver")
    pytester.runpytest("--geoserver-profile", "geoserver").assert_outcomes(passed=1)
    pytester.makeini("[pytest]\ngeoserver_profile = geoserver\n")
    pytester.runpytest().assert_outcomes(passed=1)
    env.setenv("WANT_PROFILE", "spec")
    pytester.runpytest("--geoserver-profile", "spec").assert_outcomes(passed=1)


def test_bad_options_stop_the_run(pytester: pytest.Pytester) -> None:
    pytester.makepyfile("def test_it(): pass")
    result = pytester.runpytest("--geoserver-scenario", "nowhere.json")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(
        ["*geoserver-emulator: bad scenario 'nowhere.json': nowhere.json: no such scenario*"]
    )
    result = pytester.runpytest("--geoserver-profile", "fast")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*--geoserver-profile: invalid choice: 'fast'*"])
    pytester.makeini("[pytest]\ngeoserver_profile = fast\n")
    assert pytester.runpytest().ret == pytest.ExitCode.USAGE_ERROR


def test_a_missing_marker_scenario_names_both_places_looked(pytester: pytest.Pytester) -> None:
    """A relative marker path is looked for beside the test file, then in the working
    directory: the error names both."""
    sub = pytester.mkdir("sub")
    (sub / "test_it.py").write_text(
        "import pytest\n\n"
        '@pytest.mark.geoserver_scenario("data/nowhere.json")\n'
        "def test_missing(geoserver_emulator): pass\n"
    )
    result = pytester.runpytest("sub")
    result.assert_outcomes(errors=1)
    beside, cwd = sub / "data" / "nowhere.json", pytester.path / "data" / "nowhere.json"
    result.stdout.fnmatch_lines(
        [f"*data/nowhere.json: no such scenario: looked for {beside} and {cwd} (built-ins:*"]
    )


def test_bad_markers_fail_the_test(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        """
        import pytest

        @pytest.mark.geoserver_scenario("nowhere")
        def test_missing(geoserver_emulator): pass

        @pytest.mark.geoserver_scenario()
        def test_no_argument(geoserver_emulator): pass

        @pytest.mark.geoserver_profile("fast")
        def test_bad_profile(geoserver_emulator): pass
        """
    )
    result = pytester.runpytest()
    result.assert_outcomes(errors=3)
    result.stdout.fnmatch_lines(
        [
            "*geoserver-emulator: cannot start the emulator: nowhere: no such scenario:"
            f" looked for {pytester.path / 'nowhere'} (built-ins: stock, empty)*",
            "*@pytest.mark.geoserver_scenario takes exactly one argument*",
            "*geoserver_profile: expected one of spec, geoserver, got 'fast'*",
        ]
    )


def test_journal_failure_report_in_pytest_output(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        """
        def test_it(geoserver_client, geoserver_emulator):
            xml = {"Content-Type": "text/xml"}
            geoserver_client.put("/rest/styles/roads.xml", content=b"<x/>", headers=xml)
            geoserver_client.get("/rest/styles.json")
            journal = geoserver_emulator.journal
            journal.assert_called("PUT", "/rest/styles/roads", content_type="application/xml")
        """
    )
    result = pytester.runpytest()
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(
        [
            "E *AssertionError: expected PUT /rest/styles/roads with content type application/xml "
            "at least once, it was made 0 times.",
            "E *Closest requests made:",
            "E *  PUT /rest/styles/roads.xml [[]text/xml[]] -> *",
            "E *  GET /rest/styles.json -> *",
        ]
    )
    assert "def assert_called" not in result.stdout.str()  # the helper's own frame is hidden


def test_emulator_bugs_error_the_test_at_teardown(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        """
        import httpx

        async def boom(request):
            raise RuntimeError("emulator bug")

        def test_in_process(geoserver_emulator, geoserver_client):
            geoserver_emulator.asgi_app.add_route("/boom", boom)
            assert geoserver_client.get("http://localhost:8080/boom").status_code == 500

        def test_live(geoserver_emulator, geoserver_url):
            geoserver_emulator.asgi_app.add_route("/boom", boom)
            assert httpx.get(geoserver_url.rsplit("/", 1)[0] + "/boom").status_code == 500

        def test_next_one_is_fine(geoserver_url):
            assert httpx.get(geoserver_url + "/rest").status_code == 401
        """
    )
    result = pytester.runpytest()
    # in process the exception also reaches the caller, as with Starlette's TestClient
    result.assert_outcomes(failed=1, passed=2, errors=2)
    result.stdout.fnmatch_lines(
        [
            "*ERROR at teardown of test_in_process*",
            "*the emulator hit unexpected errors (a geoserver-emulator bug)*",
            "*RuntimeError: emulator bug",
            "*ERROR at teardown of test_live*",
            "*the emulator hit unexpected errors (a geoserver-emulator bug)*",
        ]
    )
    assert "Exception Group" not in result.stdout.str()


def test_no_coverage_report_without_the_option(pytester: pytest.Pytester) -> None:
    pytester.makepyfile("def test_it(geoserver_client): geoserver_client.get('/rest/x')")
    result = pytester.runpytest()
    result.assert_outcomes(passed=1)
    assert "endpoint coverage" not in result.stdout.str()


def test_entry_point_names_the_plugin_module() -> None:
    from importlib.metadata import entry_points

    (ep,) = [ep for ep in entry_points(group="pytest11") if ep.name == "geoserver_emulator"]
    assert ep.value == "geoserver_emulator_pytest.pytest_plugin"
    assert Path(ep.load().__file__).parent.name == "plugin"
