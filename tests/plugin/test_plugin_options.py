"""The plugin's port, clock and marker conveniences, run by pytester."""

from __future__ import annotations

import socket

import pytest


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


PORT_TEST = """
def test_it(geoserver_url):
    assert geoserver_url == "http://127.0.0.1:{port}/geoserver"
"""


def test_port_option(pytester: pytest.Pytester) -> None:
    port = _free_port()
    pytester.makepyfile(PORT_TEST.format(port=port))
    pytester.runpytest("--geoserver-port", str(port)).assert_outcomes(passed=1)


def test_port_ini(pytester: pytest.Pytester) -> None:
    port = _free_port()
    pytester.makeini(f"[pytest]\ngeoserver_port = {port}\n")
    pytester.makepyfile(PORT_TEST.format(port=port))
    pytester.runpytest().assert_outcomes(passed=1)


def test_port_zero_is_a_free_port(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        """
        def test_it(geoserver_url):
            port = int(geoserver_url.split(":")[2].split("/")[0])
            assert port > 0 and port != 8080
        """
    )
    pytester.runpytest("--geoserver-port", "0").assert_outcomes(passed=1)


def test_port_in_use_fails_the_test_saying_why(pytester: pytest.Pytester) -> None:
    with socket.socket() as held:
        held.bind(("127.0.0.1", 0))
        held.listen()
        port = held.getsockname()[1]
        pytester.makepyfile("def test_it(geoserver_url): pass")
        result = pytester.runpytest("--geoserver-port", str(port))
    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines([f"*cannot listen on 127.0.0.1:{port}*geoserver_port*"])


@pytest.mark.parametrize("bad", ["--geoserver-port=70000", "--geoserver-clock-step=0"])
def test_bad_values_stop_the_run(pytester: pytest.Pytester, bad: str) -> None:
    pytester.makepyfile("def test_it(): pass")
    result = pytester.runpytest(bad)
    assert result.ret == pytest.ExitCode.USAGE_ERROR


def test_clock_option_and_ini(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        """
        def test_it(geoserver_emulator, geoserver_client):
            assert geoserver_emulator.clock.kind == "step"
            geoserver_client.get("/rest/about/version.json")
            geoserver_client.get("/rest/about/version.json")
            assert geoserver_emulator.clock.now() == 2 * geoserver_emulator.clock.step
        """
    )
    pytester.runpytest("--geoserver-clock", "step").assert_outcomes(passed=1)
    pytester.runpytest("--geoserver-clock=step", "--geoserver-clock-step=0.5").assert_outcomes(
        passed=1
    )
    pytester.makeini("[pytest]\ngeoserver_clock = step\ngeoserver_clock_step = 3\n")
    pytester.runpytest().assert_outcomes(passed=1)


def test_clock_fixture_override(pytester: pytest.Pytester) -> None:
    pytester.makeconftest(
        """
        import pytest
        @pytest.fixture
        def geoserver_clock():
            return "step"
        @pytest.fixture
        def geoserver_clock_step():
            return 7.0
        """
    )
    pytester.makepyfile(
        """
        def test_it(geoserver_emulator, geoserver_client):
            geoserver_client.get("/rest/about/version.json")
            assert geoserver_emulator.clock.now() == 7.0
        """
    )
    pytester.runpytest().assert_outcomes(passed=1)


def test_marker_without_an_emulator_fixture_warns_naming_the_test(
    pytester: pytest.Pytester,
) -> None:
    pytester.makepyfile(
        """
        import pytest

        @pytest.mark.geoserver_scenario("empty")
        def test_forgot_the_fixture():
            pass

        @pytest.mark.geoserver_profile("geoserver")
        def test_also_forgot():
            pass

        @pytest.mark.geoserver_scenario("empty")
        def test_uses_it(geoserver_client):
            pass

        @pytest.fixture
        def mine(geoserver_emulator):
            return geoserver_emulator

        @pytest.mark.geoserver_scenario("empty")
        def test_uses_it_through_a_fixture(mine):
            assert mine.scenario.name == "empty"

        @pytest.mark.geoserver_scenario("empty")
        class TestClass:
            def test_plain(self):
                pass
        """
    )
    result = pytester.runpytest("-W", "default")
    result.assert_outcomes(passed=5)
    assert sum("GeoserverMarkerWarning" in line for line in result.stdout.lines) == 2
    result.stdout.fnmatch_lines(
        [
            "*GeoserverMarkerWarning*test_forgot_the_fixture*geoserver_scenario does nothing*",
            "*GeoserverMarkerWarning*test_also_forgot*geoserver_profile does nothing*",
        ]
    )
    assert "test_uses_it" not in "".join(
        line for line in result.stdout.lines if "GeoserverMarkerWarning" in line
    )


def test_frozen_clock_hint_is_a_warning_at_the_tests_teardown(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        """
        SEED = {"seedRequest": {"name": "topp:states", "zoomStart": 0, "zoomStop": 3,
                "type": "seed", "threadCount": 1, "srs": {"number": 4326},
                "format": "image/png"}}

        def test_polls_forever(geoserver_client, geoserver_emulator):
            geoserver_client.post("/gwc/rest/seed/topp:states.json", json=SEED)
            for _ in range(30):
                r = geoserver_client.get("/gwc/rest/seed/topp:states.json")
                assert r.status_code == 200
            assert len(geoserver_emulator.journal.diagnostics) == 1
        """
    )
    result = pytester.runpytest("-W", "default")
    result.assert_outcomes(passed=1)
    result.stdout.fnmatch_lines(["*FrozenClockWarning*test_polls_forever*manual clock is frozen*"])
    strict = pytester.runpytest("-W", "error::geoserver_emulator.core.clock.FrozenClockWarning")
    strict.assert_outcomes(passed=1, errors=1)  # the requests all answered; teardown says why


def test_frozen_clock_hint_is_said_on_the_terminal_while_the_test_runs(
    pytester: pytest.Pytester,
) -> None:
    """A loop that would poll forever: the line is on the terminal before the test ends (it
    prints its own marker to the terminal after polling, so the order shows when)."""
    pytester.makepyfile(
        """
        import sys

        SEED = {"seedRequest": {"name": "topp:states", "zoomStart": 0, "zoomStop": 3,
                "type": "seed", "threadCount": 1, "srs": {"number": 4326},
                "format": "image/png"}}

        def test_polls(geoserver_url, geoserver_emulator, capsys):
            import httpx
            with httpx.Client(auth=("admin", "geoserver")) as c:
                c.post(f"{geoserver_url}/gwc/rest/seed/topp:states.json", json=SEED)
                for _ in range(25):
                    c.get(f"{geoserver_url}/gwc/rest/seed/topp:states.json")
            with capsys.disabled():
                sys.stdout.write("\\nAFTER-POLLING\\n")
        """
    )
    result = pytester.runpytest("-W", "default", "-p", "no:cacheprovider")
    result.assert_outcomes(passed=1)
    lines = result.stdout.lines
    said = [i for i, line in enumerate(lines) if "geoserver-emulator: FrozenClockWarning" in line]
    assert said, result.stdout.str()
    assert "test_polls" in lines[said[0]] and "--clock step" in lines[said[0]]
    assert said[0] < lines.index("AFTER-POLLING")


def test_a_fixed_port_under_xdist_gives_each_worker_its_own(pytester: pytest.Pytester) -> None:
    port = _free_port()
    pytester.makepyfile(
        """
        import os
        def test_it(geoserver_url):
            worker = int(os.environ["PYTEST_XDIST_WORKER"][2:])
            assert geoserver_url == f"http://127.0.0.1:{PORT + worker}/geoserver"
        """.replace("PORT", str(port))
    )
    result = pytester.runpytest_subprocess(
        "-n", "2", "--dist", "each", "--geoserver-port", str(port)
    )
    result.assert_outcomes(passed=2)


CONTROL_TEST = """
import httpx

def test_it(geoserver_url, geoserver_emulator):
    assert geoserver_emulator.control_credentials == ({user!r}, {password!r})
    reset = geoserver_url + "/__emulator/reset"
    assert httpx.post(reset, auth=({user!r}, {password!r})).status_code == 204
    assert httpx.post(reset, auth=("admin", "geoserver")).status_code == {admin}
"""


def test_control_credentials_option(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(CONTROL_TEST.format(user="ops", password="pw", admin=401))
    result = pytester.runpytest("--geoserver-control-user=ops", "--geoserver-control-password=pw")
    result.assert_outcomes(passed=1)


def test_control_credentials_ini_and_default(pytester: pytest.Pytester) -> None:
    pytester.makeini("[pytest]\ngeoserver_control_user = ops\ngeoserver_control_password = pw\n")
    pytester.makepyfile(CONTROL_TEST.format(user="ops", password="pw", admin=401))
    pytester.runpytest().assert_outcomes(passed=1)


def test_control_credentials_default(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(CONTROL_TEST.format(user="admin", password="geoserver", admin=204))
    pytester.runpytest().assert_outcomes(passed=1)


def test_journal_limit_ini(pytester: pytest.Pytester) -> None:
    pytester.makeini("[pytest]\ngeoserver_journal_limit = 2\n")
    pytester.makepyfile(
        """
        def test_it(geoserver_emulator, geoserver_client):
            for _ in range(4):
                geoserver_client.get("/rest/workspaces.json")
            assert len(geoserver_emulator.journal) == 2
        """
    )
    pytester.runpytest().assert_outcomes(passed=1)


def test_bad_journal_limit_stops_the_test(pytester: pytest.Pytester) -> None:
    pytester.makeini("[pytest]\ngeoserver_journal_limit = none\n")
    pytester.makepyfile("def test_it(geoserver_emulator): pass")
    result = pytester.runpytest()
    result.stdout.fnmatch_lines(["*geoserver_journal_limit*expected a positive number*"])


EXTENSIONS_TEST = """
import pytest

def test_default(geoserver_emulator):
    assert geoserver_emulator.extensions == frozenset({default})
    assert geoserver_emulator.host_read is {host_read}

@pytest.mark.geoserver_extensions(["monitor", "importer"])
@pytest.mark.geoserver_host_read(False)
def test_marked(geoserver_emulator):
    assert geoserver_emulator.extensions == {{"monitor", "importer"}}
    assert geoserver_emulator.host_read is False
"""


@pytest.mark.parametrize(
    ("args", "ini", "default", "host_read"),
    [
        ((), "", "", True),
        (
            ("--geoserver-extensions", "geofence", "--geoserver-no-host-read"),
            "",
            "'geofence'",
            False,
        ),
        (
            (),
            "geoserver_extensions = importer,geofence\ngeoserver_host_read = false\n",
            "'importer', 'geofence'",
            False,
        ),
        (("--geoserver-host-read",), "geoserver_host_read = false\n", "", True),
    ],
)
def test_extensions_and_host_reading(pytester: pytest.Pytester, args, ini, default, host_read):
    if ini:
        pytester.makeini(f"[pytest]\n{ini}")
    pytester.makepyfile(
        EXTENSIONS_TEST.format(default=default and "{" + default + "}" or "", host_read=host_read)
    )
    pytester.runpytest(*args).assert_outcomes(passed=2)


def test_an_unknown_extension_fails_the_test_saying_why(pytester: pytest.Pytester) -> None:
    pytester.makepyfile("def test_it(geoserver_emulator): pass")
    result = pytester.runpytest("--geoserver-extensions", "nope")
    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines(["*unknown extension 'nope'*"])
