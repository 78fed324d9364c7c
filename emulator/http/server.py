"""A live uvicorn server, in a thread (for fixtures) or in the foreground (for the CLI)."""

from __future__ import annotations

import asyncio
import functools
import socket
import threading
from typing import IO, Any

import uvicorn

from .timeouts import Timeouts, guarded_protocol


class ThreadedServer(uvicorn.Server):
    """uvicorn with signal handlers off, on a socket bound before start (port 0 works)."""

    def __init__(self, config: uvicorn.Config) -> None:
        super().__init__(config)
        if isinstance(config.app, DropHook):
            config.app.server = self

    def install_signal_handlers(self) -> None:  # pragma: no cover - uvicorn < 0.29 only
        # newer uvicorn (capture_signals) installs none outside the main thread
        pass

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        """uvicorn's shutdown, then the connections still open past its graceful timeout
        (a browser's keep-alive or polling request) aborted while the loop still runs: a
        transport left to the garbage collector after the loop is gone warns (an unclosed
        socket) in whatever code runs next."""
        await super().shutdown(sockets)
        for connection in list(self.server_state.connections):
            transport = getattr(connection, "transport", None)
            if transport is not None and not transport.is_closing():
                transport.abort()
        await asyncio.sleep(0)  # let the aborted transports close their sockets


class DropHook:
    """ASGI wrapper that gives each request a way to drop its connection without an answer.

    It puts a callable under ``scope["emulator.drop"]``; calling it aborts the client's
    connection (found among uvicorn's open connections by the client address) and returns
    whether it did. Injected ``drop`` faults use it.
    """

    def __init__(self, app: Any) -> None:
        self.app = app
        self.server: uvicorn.Server | None = None

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "http":
            scope["emulator.drop"] = functools.partial(self._drop, scope.get("client"))
        await self.app(scope, receive, send)

    def _drop(self, client: Any) -> bool:
        if self.server is None or client is None:
            return False
        for connection in list(self.server.server_state.connections):
            if getattr(connection, "client", None) == tuple(client):
                connection.transport.abort()
                return True
        return False


def bind(host: str, port: int) -> socket.socket:
    """The listening socket, bound and listening, that the server is handed.

    Every accepted connection must have ``TCP_NODELAY``: without it each keep-alive request
    waits ~40 ms (the response goes out in two writes and Nagle holds the second for the
    client's delayed ACK). asyncio sets it on each accepted connection, but only for sockets
    whose protocol is ``IPPROTO_TCP`` (a socket made with protocol 0 does not qualify), hence
    the explicit protocol; the option is also set on the listener, which Linux passes on."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        sock.bind((host, port))
        sock.listen(128)
    except OSError:
        sock.close()
        raise
    sock.set_inheritable(True)
    return sock


def config(app: Any, host: str, timeouts: Timeouts | None = None) -> uvicorn.Config:
    """The uvicorn configuration; slow clients are cut off after ``timeouts``
    (``http/timeouts.py``)."""
    timeouts = timeouts or Timeouts()
    return uvicorn.Config(
        DropHook(app),
        host=host,
        log_level="warning",
        access_log=False,
        lifespan="off",
        timeout_graceful_shutdown=1,
        timeout_keep_alive=timeouts.keep_alive,  # type: ignore[arg-type]
        http=guarded_protocol(timeouts.header, timeouts.body),
    )


class LiveServer:
    """Serve an ASGI app on 127.0.0.1 and a free port in a background thread."""

    def __init__(
        self, app: Any, host: str = "127.0.0.1", port: int = 0, timeouts: Timeouts | None = None
    ) -> None:
        self.sock = bind(host, port)
        self.host, self.port = self.sock.getsockname()[:2]
        self.server = ThreadedServer(config(app, host, timeouts))
        self.thread = threading.Thread(
            target=self.server.run, kwargs={"sockets": [self.sock]}, daemon=True
        )

    def start(self) -> LiveServer:
        self.thread.start()
        while not self.server.started:
            if not self.thread.is_alive():
                raise RuntimeError("live server failed to start")
            threading.Event().wait(0.001)
        return self

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=5)
        self.sock.close()

    def url(self, context_path: str) -> str:
        return f"http://{self.host}:{self.port}{context_path}"


class AccessLog:
    """ASGI wrapper writing one line per request to a stream (``serve --log-requests``):
    ``127.0.0.1:50122 "GET /geoserver/rest/about/version.json" 200``, written when the
    answer starts (``-`` for a connection closed without one)."""

    def __init__(self, app: Any, stream: IO[str]) -> None:
        self.app = app
        self.stream = stream

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        status: list[int] = []

        async def watch(message: Any) -> None:
            if message["type"] == "http.response.start":
                status.append(message["status"])
            await send(message)

        try:
            await self.app(scope, receive, watch)
        finally:
            self.stream.write(self.line(scope, status[0] if status else None) + "\n")
            self.stream.flush()

    @staticmethod
    def line(scope: Any, status: int | None) -> str:
        client = scope.get("client")
        who = f"{client[0]}:{client[1]}" if client else "-"
        query = scope.get("query_string", b"").decode("latin-1")
        target = scope.get("path", "") + (f"?{query}" if query else "")
        return f'{who} "{scope["method"]} {target}" {status if status is not None else "-"}'
