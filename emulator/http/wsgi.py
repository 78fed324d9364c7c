"""A true WSGI callable over the ASGI app.

Each WSGI call runs the ASGI app to completion on an event loop this adapter owns, under a
lock (the emulator's state is not meant to be shared between threads). Not for use from
inside a running event loop on the same thread: use the ASGI app there.
"""

from __future__ import annotations

import asyncio
import threading
import weakref
from collections.abc import Callable, Iterable
from typing import Any

from starlette.types import ASGIApp, Message

StartResponse = Callable[..., Any]


class WSGIApp:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app
        self._lock = threading.Lock()
        self._loop = asyncio.new_event_loop()
        self._finalizer = weakref.finalize(self, self._loop.close)

    def __call__(self, environ: dict[str, Any], start_response: StartResponse) -> Iterable[bytes]:
        body = _read_input(environ)
        scope = _scope(environ)
        status = 500
        headers: list[tuple[str, str]] = []
        chunks: list[bytes] = []
        sent = False

        async def receive() -> Message:
            nonlocal sent
            if not sent:
                sent = True
                return {"type": "http.request", "body": body, "more_body": False}
            return {"type": "http.disconnect"}

        async def send(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
                headers.extend(
                    (k.decode("latin-1"), v.decode("latin-1")) for k, v in message.get("headers", [])
                )
            elif message["type"] == "http.response.body":
                chunks.append(message.get("body", b""))

        with self._lock:
            if self._loop.is_closed():
                raise RuntimeError("this WSGI app was closed")
            self._loop.run_until_complete(self.app(scope, receive, send))
        start_response(f"{status} {_reason(status)}", headers)
        return [b"".join(chunks)]

    def close(self) -> None:
        self._finalizer()


def _read_input(environ: dict[str, Any]) -> bytes:
    stream = environ.get("wsgi.input")
    if stream is None:
        return b""
    length = environ.get("CONTENT_LENGTH") or ""
    if length.isdigit():
        return bytes(stream.read(int(length)))
    data = stream.read()
    return bytes(data or b"")


def _scope(environ: dict[str, Any]) -> dict[str, Any]:
    headers = []
    for key, value in environ.items():
        if key.startswith("HTTP_"):
            headers.append((key[5:].replace("_", "-").lower().encode("latin-1"), value.encode("latin-1")))
        elif key in ("CONTENT_TYPE", "CONTENT_LENGTH") and value:
            headers.append((key.replace("_", "-").lower().encode("latin-1"), value.encode("latin-1")))
    script = environ.get("SCRIPT_NAME", "")
    path = script + environ.get("PATH_INFO", "")
    server = (environ.get("SERVER_NAME", "localhost"), int(environ.get("SERVER_PORT", 80) or 80))
    return {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": environ.get("SERVER_PROTOCOL", "HTTP/1.1").split("/")[-1],
        "method": environ["REQUEST_METHOD"].upper(),
        "scheme": environ.get("wsgi.url_scheme", "http"),
        "path": path.encode("latin-1").decode("utf-8", "replace"),
        "raw_path": path.encode("latin-1"),
        "root_path": "",
        "query_string": environ.get("QUERY_STRING", "").encode("latin-1"),
        "headers": headers,
        "server": server,
        "client": (environ.get("REMOTE_ADDR", "127.0.0.1"), 0),
    }


def _reason(status: int) -> str:
    from http import HTTPStatus

    try:
        return HTTPStatus(status).phrase
    except ValueError:
        return ""
