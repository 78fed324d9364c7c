import unittest

import httpx

from geoserver_emulator import Emulator, geoserver_emulated


class WorkspaceTest(unittest.TestCase):
    @geoserver_emulated(scenario="empty", profile="geoserver")
    def test_create(self, emulator, url):  # a fresh emulator and its live server
        r = httpx.post(f"{url}/rest/workspaces.json", json={"workspace": {"name": "w"}},
                       auth=("admin", "geoserver"))  # fmt: skip
        self.assertEqual(r.status_code, 201)
        emulator.journal.assert_called(
            "POST", "/rest/workspaces.json", json_contains={"workspace": {"name": "w"}}
        )


def test_without_any_fixture():
    with Emulator("stock", clock="step") as emu, emu.serve(port=0) as url:
        assert httpx.get(f"{url}/__emulator/health").json()["now"] == 0  # control plane: no step
        httpx.get(f"{url}/rest/about/version.json", auth=("admin", "geoserver"))
        assert emu.clock.now() == 1
