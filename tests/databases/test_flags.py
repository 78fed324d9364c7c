"""The databases mode and allowed hosts, set through the CLI, the scenario, ``Emulator(...)``
and the pytest plugin (option, ini value, marker); the inspector shows what each store uses.
None of these needs a database."""

from __future__ import annotations

import subprocess
import sys

import httpx
import pytest

from geoserver_emulator import Emulator, ScenarioError

ADMIN = ("admin", "geoserver")


def test_serve_takes_the_flags_word_for_word():
    proc = subprocess.Popen(
        [sys.executable, "-m", "geoserver_emulator", "serve", "--port", "0", "--scenario",
         "empty", "--databases", "live", "--database-hosts", "db.example,10.1.2.3"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        line = proc.stdout.readline().strip()  # type: ignore[union-attr]
        assert line.startswith("ready: http://127.0.0.1:")
        page = httpx.get(line.removeprefix("ready: ") + "/__emulator/", auth=ADMIN, timeout=10)
        assert "mode <b>live</b> · hosts: db.example, 10.1.2.3" in page.text
    finally:
        proc.terminate()
        proc.wait(timeout=10)
        proc.stdout.close()  # type: ignore[union-attr]
        proc.stderr.close()  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["--databases", "sometimes"], "invalid choice: 'sometimes'"),
        (["--database-hosts", "a b"], "invalid --database-hosts entry 'a b'"),
        (["--database-hosts", ","], "invalid --database-hosts"),
    ],
)
def test_bad_database_flags_exit_2(args, says):
    proc = subprocess.run(
        [sys.executable, "-m", "geoserver_emulator", "serve", "--port", "0", *args],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert proc.returncode == 2 and proc.stdout == ""
    assert says in proc.stderr


def test_the_scenario_setting_and_the_argument():
    doc = {"settings": {"databases": "memory", "databaseHosts": ["db.example"]}}
    emu = Emulator(doc)
    assert (emu.database_policy.mode, emu.database_policy.hosts) == ("memory", ("db.example",))
    assert emu.dump_scenario()["settings"]["databases"] == "memory"
    assert Emulator(doc, databases="live").database_policy.mode == "live"
    assert Emulator({"settings": {"databaseHosts": "a, B"}}).database_policy.hosts == ("a", "b")
    assert Emulator("empty").database_policy.mode == "auto"
    with pytest.raises(ScenarioError, match="settings.databases: expected one of auto"):
        Emulator({"settings": {"databases": "never"}})
    with pytest.raises(ValueError, match="unknown databases mode"):
        Emulator("empty", databases="never")


def test_the_plugin_option_ini_value_and_marker(pytester):
    pytester.makeini("[pytest]\ngeoserver_databases = memory\ngeoserver_database_hosts = db.ini\n")
    pytester.makepyfile(
        """
        import pytest

        def test_ini(geoserver_emulator):
            policy = geoserver_emulator.database_policy
            assert (policy.mode, policy.hosts) == ("memory", ("db.ini",))

        @pytest.mark.geoserver_databases("live", hosts=["db.marker"])
        def test_marker(geoserver_emulator):
            policy = geoserver_emulator.database_policy
            assert (policy.mode, policy.hosts) == ("live", ("db.marker",))
        """
    )
    pytester.runpytest("-p", "no:cacheprovider").assert_outcomes(passed=2)
    pytester.makepyfile(
        test_option="""
        def test_option(geoserver_emulator):
            assert geoserver_emulator.database_policy.mode == "auto"
        """
    )
    result = pytester.runpytest("--geoserver-databases", "auto", "test_option.py")
    result.assert_outcomes(passed=1)


def test_the_inspector_says_which_back_end_each_store_uses():
    emu = Emulator("empty", databases="memory")
    with httpx.Client(
        transport=httpx.WSGITransport(app=emu.wsgi_app),
        base_url="http://localhost/geoserver",
        auth=ADMIN,
    ) as c:
        c.post("/rest/workspaces", json={"workspace": {"name": "ws"}})
        params = {"entry": [{"@key": "dbtype", "$": "postgis"}, {"@key": "host", "$": "localhost"}]}
        c.post(
            "/rest/workspaces/ws/datastores",
            json={"dataStore": {"name": "pg", "connectionParameters": params}},
        )
        c.get("/rest/workspaces/ws/datastores/pg/featuretypes.json?list=available")
        page = c.get("/__emulator/").text
    assert "mode <b>memory</b>" in page
    assert "store <b>ws:pg</b> uses <b>memory</b>" in page
    emu.close()
