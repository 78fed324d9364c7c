import time

import httpx
import pytest


def wait_for_seeding(base, layer):  # the code under test: polls with real sleeps
    while True:
        r = httpx.get(f"{base}/gwc/rest/seed/{layer}.json", auth=("admin", "geoserver"))
        if not r.json()["long-array-array"]:
            return
        time.sleep(0.01)


@pytest.fixture
def geoserver_clock():
    return "step"  # each request moves simulated time by geoserver_clock_step (1 s)


def test_polling_loop_ends(geoserver_url, geoserver_emulator):
    seed = {"name": "topp:states", "srs": {"number": 4326}, "zoomStart": 0, "zoomStop": 4,
            "format": "image/png", "type": "seed", "threadCount": 1}  # fmt: skip
    httpx.post(f"{geoserver_url}/gwc/rest/seed/topp:states.json",
               json={"seedRequest": seed}, auth=("admin", "geoserver"))  # fmt: skip
    wait_for_seeding(geoserver_url, "topp:states")  # under the manual clock: forever
    assert geoserver_emulator.clock.now() > 1
