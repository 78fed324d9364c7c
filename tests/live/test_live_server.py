"""The emulator served by uvicorn in a thread (``server.LiveServer``), over real HTTP."""

from __future__ import annotations

import httpx

from geoserver_emulator import Emulator
from geoserver_emulator.http.server import LiveServer

ADMIN = ("admin", "geoserver")


def test_serves_rest_with_authentication(live):
    base = live(Emulator("stock"))
    assert base.startswith("http://127.0.0.1:") and base.endswith("/geoserver")
    r = httpx.get(f"{base}/rest/security/usergroup/users.json", auth=ADMIN)
    assert r.status_code == 200 and r.json()["users"][0]["userName"] == "admin"
    r = httpx.get(f"{base}/rest/security/usergroup/users.json", auth=("admin", "nope"))
    assert r.status_code == 401 and r.headers["www-authenticate"] == 'Basic realm="GeoServer Realm"'


def test_create_user_then_log_in_over_http(live):
    base = live(Emulator("stock"))
    with httpx.Client(base_url=base, auth=ADMIN) as c:
        assert (
            c.post(
                "/rest/security/usergroup/users/",
                json={"user": {"userName": "bob", "password": "pw", "enabled": True}},
            ).status_code
            == 201
        )
    assert httpx.get(f"{base}/rest/security/roles", auth=("bob", "pw")).status_code == 403


def test_two_servers_two_emulators(live):
    a, b = Emulator("stock"), Emulator("empty", context_path="/gs")
    url_a, url_b = live(a), live(b)
    assert url_b.endswith("/gs")
    httpx.post(f"{url_a}/rest/security/roles/role/ONLY_A", auth=ADMIN)
    assert "ONLY_A" in httpx.get(f"{url_a}/rest/security/roles.json", auth=ADMIN).json()["roles"]
    assert (
        "ONLY_A" not in httpx.get(f"{url_b}/rest/security/roles.json", auth=ADMIN).json()["roles"]
    )


def test_journal_and_control_plane_over_http(live):
    emu = Emulator("stock")
    base = live(emu)
    httpx.get(f"{base}/rest/security/roles.json?x=1", auth=ADMIN)
    entries = httpx.get(f"{base}/__emulator/requests", auth=ADMIN).json()["requests"]
    assert [(e["method"], e["path"], e["query"], e["status"]) for e in entries] == [
        ("GET", "/rest/security/roles.json", "x=1", 200)
    ]
    assert httpx.post(f"{base}/__emulator/reset", auth=ADMIN).status_code == 204
    assert httpx.get(f"{base}/__emulator/requests", auth=ADMIN).json() == {"requests": []}


def test_streamed_body_over_the_cap_is_413(live):
    emu = Emulator("stock", max_body=1024)
    base = live(emu)

    def chunks():
        yield b"<user><userName>big</userName><password>"
        for _ in range(100):
            yield b"p" * 1000
        yield b"</password><enabled>true</enabled></user>"

    r = httpx.post(
        f"{base}/rest/security/usergroup/users",
        content=chunks(),
        auth=ADMIN,
        headers={"Content-Type": "application/xml"},
    )
    assert r.status_code == 413
    assert "big" not in emu.state.users.service().users
    r = httpx.post(
        f"{base}/rest/security/usergroup/users",
        content=b"x" * 5000,
        auth=ADMIN,
        headers={"Content-Type": "application/xml"},
    )
    assert r.status_code == 413


def test_stop_releases_the_port():
    emu = Emulator("stock")
    server = LiveServer(emu.asgi_app).start()
    port = server.port
    server.stop()
    import socket

    with socket.socket() as s:
        assert s.connect_ex(("127.0.0.1", port)) != 0


def test_accepted_connections_have_nagle_off():
    """Each keep-alive request would otherwise wait ~40 ms for the client's delayed ACK
    (benchmarks/startup.py prints the live-server latency)."""
    import socket

    server = LiveServer(Emulator("stock").asgi_app).start()
    try:
        assert server.sock.proto == socket.IPPROTO_TCP  # so asyncio sets it on each connection
        with httpx.Client(base_url=server.url("/geoserver"), auth=ADMIN) as client:
            assert client.get("/rest/about/version.json").status_code == 200
            connections = list(server.server.server_state.connections)
            assert connections
            for connection in connections:
                sock = connection.transport.get_extra_info("socket")
                assert sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY)
    finally:
        server.stop()
