"""Slow clients are cut off (``http/timeouts.py``): a header that never ends, a body that
stops coming. The timeouts are short here; nothing below measures time: each test waits,
with a generous socket timeout, for the server to close the connection."""

from __future__ import annotations

import socket
from collections.abc import Iterator

import pytest

from geoserver_emulator import Emulator
from geoserver_emulator.http.server import LiveServer
from geoserver_emulator.http.timeouts import Timeouts

SAFETY = 30.0
"""seconds the test waits before giving up (the server closes well before)"""


@pytest.fixture
def server() -> Iterator[LiveServer]:
    live = LiveServer(Emulator("stock").asgi_app, timeouts=Timeouts(0.3, 0.3, 0.3)).start()
    yield live
    live.stop()


def _connect(server: LiveServer) -> socket.socket:
    sock = socket.create_connection((server.host, server.port))
    sock.settimeout(SAFETY)
    return sock


def _closed(sock: socket.socket) -> bool:
    """Whether the server closed the connection (read gives end of file, or a reset)."""
    try:
        while True:
            data = sock.recv(4096)
            if not data:
                return True
            if b"HTTP/1.1 " in data:  # an answer: not what a cut-off gives
                return False
    except ConnectionResetError:
        return True
    except TimeoutError:
        return False


def test_half_a_header_is_cut_off(server):
    with _connect(server) as sock:
        sock.sendall(b"GET /geoserver/rest/about/version.json HTTP/1.1\r\nHost: x\r\nAcc")
        assert _closed(sock)


def test_a_connection_that_sends_nothing_is_cut_off(server):
    with _connect(server) as sock:
        assert _closed(sock)


def test_a_body_that_stops_coming_is_cut_off(server):
    with _connect(server) as sock:
        sock.sendall(
            b"POST /geoserver/rest/workspaces HTTP/1.1\r\nHost: x\r\n"
            b'Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{"workspace"'
        )
        assert _closed(sock)


def test_a_whole_request_is_answered_and_the_idle_connection_closed(server):
    with _connect(server) as sock:
        sock.sendall(b"GET /geoserver/__emulator/health HTTP/1.1\r\nHost: x\r\n\r\n")
        answer = b""
        while b"\r\n\r\n" not in answer or not answer.rstrip().endswith(b"}"):
            chunk = sock.recv(4096)
            assert chunk, answer
            answer += chunk
        assert answer.startswith(b"HTTP/1.1 200 ")
        assert _closed(sock)  # then idle past the keep-alive timeout
