"""``with Emulator(...) as emu``, ``with emu.serve() as url`` and ``@geoserver_emulated``
(tests outside pytest's fixtures, unittest style)."""

from __future__ import annotations

import socket
import unittest

import httpx
import pytest

from geoserver_emulator import Emulator, geoserver_emulated
from geoserver_emulator.core.journal import JournalClosed

ADMIN = ("admin", "geoserver")


def test_emulator_is_a_context_manager_closing_its_journal():
    with Emulator("empty") as emu:
        assert emu.scenario.name == "empty"
    assert emu.journal.closed


def test_serve_gives_a_live_url_for_the_block():
    with Emulator("stock") as emu, emu.serve(port=0) as url:
        assert url.startswith("http://127.0.0.1:") and url.endswith("/geoserver")
        r = httpx.get(f"{url}/rest/about/version.json", auth=ADMIN)
        assert r.status_code == 200
        emu.journal.assert_called("GET", "/rest/about/version.json", times=1)
        port = int(url.split(":")[2].split("/")[0])
    with socket.socket() as s:  # stopped: the port is free again
        assert s.connect_ex(("127.0.0.1", port)) != 0


def test_requests_after_close_are_refused():
    with Emulator("stock") as emu:
        pass
    with pytest.raises(JournalClosed):
        with httpx.Client(transport=httpx.WSGITransport(app=emu.wsgi_app)) as c:
            c.get("http://x/geoserver/rest/about/version.json", auth=ADMIN)


@geoserver_emulated(scenario="empty", profile="geoserver")
def test_decorated_function(emulator, url):
    assert emulator.scenario.name == "empty" and emulator.profile == "geoserver"
    assert httpx.get(f"{url}/__emulator/health").json()["profile"] == "geoserver"


@geoserver_emulated(serve=False, clock="step", clock_step=2)
def test_decorated_without_a_server(emulator, url):
    assert url is None and emulator.clock.kind == "step" and emulator.clock.step == 2


class DecoratedCase(unittest.TestCase):
    @geoserver_emulated(scenario="stock")
    def test_method(self, emulator, url):
        r = httpx.post(
            f"{url}/rest/workspaces.json", json={"workspace": {"name": "u1"}}, auth=ADMIN
        )
        self.assertEqual(r.status_code, 201)
        emulator.journal.assert_called(
            "POST", "/rest/workspaces.json", json_contains={"workspace": {"name": "u1"}}
        )


@geoserver_emulated(scenario="empty")
class DecoratedClass(unittest.TestCase):
    def test_one(self, emulator, url):
        self.assertEqual(emulator.scenario.name, "empty")
        self.assertTrue(url.endswith("/geoserver"))

    def helper(self):  # not a test: left alone
        return 1


def test_unittest_runner_runs_them():
    suite = unittest.TestSuite()
    loader = unittest.defaultTestLoader
    suite.addTests(loader.loadTestsFromTestCase(DecoratedCase))
    suite.addTests(loader.loadTestsFromTestCase(DecoratedClass))
    result = unittest.TestResult()
    suite.run(result)
    assert result.testsRun == 2 and result.wasSuccessful(), result.errors + result.failures
    assert DecoratedClass().helper() == 1


def test_each_decorated_call_gets_a_fresh_emulator():
    seen = []

    @geoserver_emulated(serve=False)
    def body(emulator, url):
        seen.append(emulator)
        emulator.state.users.create_user(None, "temp", "x", True)

    body()
    body()
    assert seen[0] is not seen[1] and all(e.journal.closed for e in seen)


def test_emulator_bug_fails_the_decorated_test():
    @geoserver_emulated(serve=False)
    def body(emulator, url):
        emulator.internal_errors.append("Traceback: boom")

    with pytest.raises(AssertionError, match="boom"):
        body()


def test_decorating_something_else_is_a_type_error():
    with pytest.raises(TypeError, match="test function or class"):
        geoserver_emulated()(42)
