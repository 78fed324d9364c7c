import httpx
import pytest

ADMIN = ("admin", "geoserver")


def get_with_retries(client, path, attempts=3):  # the code under test
    for _ in range(attempts):
        r = client.get(path)
        if r.status_code != 503:
            return r
    return r


def test_retries_until_the_server_recovers(geoserver_client, geoserver_emulator):
    geoserver_emulator.faults.add("GET", "/rest/workspaces*", status=503, times=2)
    assert get_with_retries(geoserver_client, "/rest/workspaces.json").status_code != 503
    geoserver_emulator.journal.assert_called("GET", "/rest/workspaces.json", times=3)


def test_dropped_connection(geoserver_url, geoserver_emulator):
    geoserver_emulator.faults.add("POST", "/rest/**", drop=True)
    with pytest.raises(httpx.RemoteProtocolError):
        httpx.post(f"{geoserver_url}/rest/workspaces", json={}, auth=ADMIN)


def test_delay_uses_the_emulator_clock(geoserver_client, geoserver_emulator):
    geoserver_emulator.faults.add("GET", "/rest/**", status=504, delay=90)
    assert geoserver_client.get("/rest/workspaces.json").status_code == 504
    assert geoserver_emulator.clock.now() == 90  # no real time passed


def test_from_another_process(geoserver_url):
    faults = f"{geoserver_url}/__emulator/faults"
    r = httpx.post(faults, json={"method": "GET", "path": "/rest/**", "status": 500}, auth=ADMIN)
    assert r.status_code == 201
    assert httpx.get(f"{geoserver_url}/rest/workspaces.json", auth=ADMIN).status_code == 500
