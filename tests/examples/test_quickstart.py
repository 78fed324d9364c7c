import httpx


def test_in_process(geoserver_client, geoserver_emulator):
    geoserver_client.get("/rest/workspaces.json")  # as admin, no socket
    geoserver_emulator.journal.assert_called("GET", "/rest/workspaces.json", times=1)


def test_over_http(geoserver_url):
    r = httpx.get(f"{geoserver_url}/rest/workspaces.json")  # a real socket, no credentials
    assert r.status_code == 401 and r.headers["WWW-Authenticate"].startswith("Basic")
