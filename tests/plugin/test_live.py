"""The per-process live server and its swap between emulators."""

from __future__ import annotations

import threading

import httpx
import pytest

from geoserver_emulator import Emulator
from geoserver_emulator_pytest.live import LiveTarget

AUTH = ("admin", "geoserver")


@pytest.fixture(scope="module")
def live() -> LiveTarget:
    target = LiveTarget()
    yield target
    target.stop()


def test_idle_server_answers_503(live):
    r = httpx.get(live.server.url("/geoserver") + "/rest")
    assert r.status_code == 503 and "No test" in r.text


def test_attach_serves_that_emulator_then_the_next(live):
    first, second = Emulator("empty"), Emulator("empty")
    url = live.attach(first)
    assert url == f"http://127.0.0.1:{live.server.port}/geoserver"
    with httpx.Client(base_url=url, auth=AUTH) as c:  # one keep-alive connection across the swap
        c.get("/rest/one")
        assert live.detach() == []
        first.journal.close()
        live.attach(second)
        c.get("/rest/two")
        live.detach()
        second.journal.close()
    assert [e.path for e in first.journal] == ["/rest/one"]
    assert [e.path for e in second.journal] == ["/rest/two"]


def test_attach_refuses_while_the_previous_journal_is_open(live):
    emu = Emulator("empty")
    live.attach(emu)
    live.detach()
    with pytest.raises(RuntimeError, match="still open"):
        live.attach(Emulator("empty"))
    emu.journal.close()


def test_attach_refuses_while_attached(live):
    emu = Emulator("empty")
    live.attach(emu)
    with pytest.raises(RuntimeError, match="still attached"):
        live.dispatcher.attach(emu.asgi_app)
    live.detach()
    emu.journal.close()


def test_journal_is_written_before_the_client_has_its_answer(live):
    emu = Emulator("empty")
    url = live.attach(emu)
    with httpx.Client(base_url=url, auth=AUTH) as c:
        for n in range(1, 31):
            c.get("/rest/x")
            assert len(emu.journal) == n
    live.detach()
    emu.journal.close()


def test_dropped_connection_on_the_live_server(live):
    emu = Emulator("empty")
    url = live.attach(emu)
    emu.faults.add("POST", "/rest/**", drop=True)
    with httpx.Client(base_url=url, auth=AUTH) as c:
        with pytest.raises(httpx.RemoteProtocolError):
            c.post("/rest/x", content=b"payload")
        assert c.post("/rest/x").status_code == 404
    live.detach()
    emu.journal.close()
    dropped = emu.journal[0]
    assert dropped.status == 0 and dropped.body == b"payload" and dropped.fault


def test_detach_cancels_requests_the_test_left_running(live):
    emu = Emulator("empty", clock="realtime")
    url = live.attach(emu)
    fault = emu.faults.add("GET", "/rest/slow", status=503, delay=30)
    outcome: list[object] = []

    def slow_client() -> None:
        try:
            outcome.append(httpx.get(url + "/rest/slow", auth=AUTH, timeout=60).status_code)
        except httpx.HTTPError as exc:
            outcome.append(type(exc))

    thread = threading.Thread(target=slow_client)
    thread.start()
    while not fault.hits:  # wait until the server holds the request
        threading.Event().wait(0.01)
    cancelled_before = live.cancelled
    assert live.detach() == []
    thread.join(10)
    emu.journal.close()
    assert live.cancelled == cancelled_before + 1
    assert outcome == [httpx.RemoteProtocolError]


def test_server_errors_are_handed_to_the_test(live):
    async def broken(scope, receive, send):
        raise RuntimeError("kaput")

    live.dispatcher.attach(broken)
    r = httpx.get(live.server.url("") + "/x")
    errors = live.detach()
    assert r.status_code == 500
    assert len(errors) == 1 and "kaput" in errors[0]


def test_connections_send_small_writes_at_once(live):
    import socket

    # without TCP_NODELAY every keep-alive request waits for a delayed ACK (~40 ms)
    assert live.server.sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY)
