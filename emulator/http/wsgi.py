"""A true WSGI callable over the ASGI app.

Each WSGI call runs the ASGI app to completion on an event loop this adapter owns, under a
lock: the emulator's state is not meant to be shared between threads, so a threaded WSGI
server gets its requests answered one at a time. When the calling thread already runs an
event loop (a sync client inside an async test), the call is run on a helper thread instead.

Why in-house rather than a bridge such as a2wsgi: the emulator answers from memory and never
streams, so one ``run_until_complete`` per request is enough. ``benchmarks/plugin_overhead.py``
measures both (the in-house adapter costs about a third of a2wsgi's per request, which hops
to a loop thread and back).
"""

from __future__ import annotations

import asyncio
import threading
import weakref
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ThreadPoolExecutor
from http import HTTPStatus
from typing import Any
from urllib.parse import quote

from starlette.types import ASGIApp, Message

StartResponse = Callable[..., Any]
PATH_SAFE = "/:@!$&'()*+,;=-._~"


class WSGIApp:
    """A WSGI application answering through ``app`` (an ASGI application)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app
        self._lock = threading.Lock()
        self._res = _Resources()
        self._finalizer = weakref.finalize(self, self._res.close)

    def __call__(self, environ: dict[str, Any], start_response: StartResponse) -> Iterable[bytes]:
        chunks_in = _input_chunks(environ)
        scope = _scope(environ)
        status: int | None = None
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

        self._run(lambda: self.app(scope, receive, send))
        if status is None:
            raise ConnectionResetError("the app finished without answering")
        start_response(f"{status} {_reason(status)}", headers)
        if scope["method"] == "HEAD":
            return [b""]
        return [b"".join(chunks)]

    def _run(self, make: Callable[[], Any]) -> None:
        if _loop_running():  # our loop cannot run inside another one on this thread
            self._res.helper().submit(self._run_here, make).result()
        else:
            self._run_here(make)

    def _run_here(self, make: Callable[[], Any]) -> None:
        with self._lock:
            if self._res.loop.is_closed():
                raise RuntimeError("this WSGI app was closed")
            self._res.loop.run_until_complete(make())

    def close(self) -> None:
        """Close the event loop (also done when the adapter is garbage-collected)."""
        self._finalizer()


class _Resources:
    """The adapter's event loop and, when needed, its helper thread."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self._helper: ThreadPoolExecutor | None = None

    def helper(self) -> ThreadPoolExecutor:
        if self._helper is None:
            self._helper = ThreadPoolExecutor(1, thread_name_prefix="emulator-wsgi")
        return self._helper

    def close(self) -> None:
        if self._helper is not None:
            self._helper.shutdown(wait=True)
        self.loop.close()


def _loop_running() -> bool:
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return False
    return True


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


def _path(environ: dict[str, Any]) -> str:
    """The request path as text. PEP 3333 servers hand UTF-8 bytes decoded as latin-1; some
    in-process transports (httpx's) hand the text itself: take whichever reading is valid."""
    path = environ.get("SCRIPT_NAME", "") + environ.get("PATH_INFO", "")
    try:
        return path.encode("latin-1").decode("utf-8")
    except (UnicodeEncodeError, UnicodeDecodeError):
        return path


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
    path = _path(environ)
    server = (environ.get("SERVER_NAME", "localhost"), int(environ.get("SERVER_PORT", 80) or 80))
    return {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": environ.get("SERVER_PROTOCOL", "HTTP/1.1").split("/")[-1],
        "method": environ["REQUEST_METHOD"].upper(),
        "scheme": environ.get("wsgi.url_scheme", "http"),
        "path": path,
        "raw_path": _raw_path(environ, path),
        "root_path": "",
        "query_string": environ.get("QUERY_STRING", "").encode("latin-1"),
        "headers": headers,
        "server": server,
        "client": (environ.get("REMOTE_ADDR", "127.0.0.1"), 0),
    }


def _raw_path(environ: dict[str, Any], path: str) -> bytes:
    """The path as sent (``%2F`` kept) when the server tells it, else re-quoted."""
    for key in ("RAW_URI", "REQUEST_URI"):
        uri = environ.get(key)
        if uri:
            raw = str(uri).split("?", 1)[0]
            if "://" in raw:
                raw = "/" + raw.split("://", 1)[1].partition("/")[2]
            return raw.encode("latin-1")
    return quote(path.encode("utf-8"), safe=PATH_SAFE).encode("ascii")


def _reason(status: int) -> str:
    try:
        return HTTPStatus(status).phrase
    except ValueError:
        return ""
