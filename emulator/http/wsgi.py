"""A true WSGI callable over the ASGI app.

Each WSGI call runs the ASGI app to completion on an event loop this adapter owns, under a
lock (the emulator's state is not meant to be shared between threads). Not for use from
inside a running event loop on the same thread: use the ASGI app there.
"""

from __future__ import annotations

import asyncio
import threading
import weakref
from collections.abc import Callable, Iterable, Iterator
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
        chunks_in = _input_chunks(environ)
        scope = _scope(environ)
        status = 500
        headers: list[tuple[str, str]] = []
        chunks: list[bytes] = []
        done = False

        async def receive() -> Message:
            nonlocal done
            if done:
                return {"type": "http.disconnect"}
            chunk = next(chunks_in, None)
            if chunk is None:
                done = True
                return {"type": "http.request", "body": b"", "more_body": False}
            return {"type": "http.request", "body": chunk, "more_body": True}

        async def send(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
                headers.extend(
                    (k.decode("latin-1"), v.decode("latin-1"))
                    for k, v in message.get("headers", [])
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


CHUNK = 64 * 1024


def _input_chunks(environ: dict[str, Any]) -> Iterator[bytes]:
    """The request body in pieces, read only as the app asks (so a body past the cap is
    refused without being read whole); ``CONTENT_LENGTH`` bounds it when given."""
    stream = environ.get("wsgi.input")
    if stream is None:
        return
    length = environ.get("CONTENT_LENGTH") or ""
    left = int(length) if length.isdigit() else None
    while left is None or left > 0:
        data = stream.read(CHUNK if left is None else min(CHUNK, left))
        if not data:
            return
        if left is not None:
            left -= len(data)
        yield bytes(data)


def _scope(environ: dict[str, Any]) -> dict[str, Any]:
    headers = []
    for key, value in environ.items():
        if key.startswith("HTTP_"):
            headers.append(
                (key[5:].replace("_", "-").lower().encode("latin-1"), value.encode("latin-1"))
            )
        elif key in ("CONTENT_TYPE", "CONTENT_LENGTH") and value:
            headers.append(
                (key.replace("_", "-").lower().encode("latin-1"), value.encode("latin-1"))
            )
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
