"""In-process clients for the emulator: httpx transports and a requests adapter.

They call the emulator's WSGI (sync) or ASGI (async) app directly, with no socket. Two things
make them better than a generic WSGI transport: the path is passed on as sent (``%2F`` in a
path segment stays encoded, as REST access-rule paths need), and a connection dropped by an
injected fault surfaces as the library's own error (``httpx.RemoteProtocolError``,
``requests.ConnectionError``) rather than as an exception from inside the app.
"""

from __future__ import annotations

import io
from collections.abc import Iterable
from typing import Any
from urllib.parse import unquote_to_bytes, urljoin, urlsplit

import httpx

from geoserver_emulator.core.faults import ConnectionDropped

DROPPED = "Server disconnected without sending a response."
WSGIApp = Any


def wsgi_environ(
    method: str, url: str, headers: Iterable[tuple[str, str]], body: bytes
) -> dict[str, Any]:
    """The WSGI environ of a request to an absolute, percent-encoded ``url``."""
    parts = urlsplit(url)
    raw_path = parts.path or "/"
    port = parts.port or (443 if parts.scheme == "https" else 80)
    environ: dict[str, Any] = {
        "wsgi.version": (1, 0),
        "wsgi.url_scheme": parts.scheme or "http",
        "wsgi.input": io.BytesIO(body),
        "wsgi.errors": io.StringIO(),
        "wsgi.multithread": True,
        "wsgi.multiprocess": False,
        "wsgi.run_once": False,
        "REQUEST_METHOD": method.upper(),
        "SCRIPT_NAME": "",
        "PATH_INFO": unquote_to_bytes(raw_path).decode("latin-1"),
        "RAW_URI": raw_path,
        "QUERY_STRING": parts.query,
        "SERVER_NAME": parts.hostname or "localhost",
        "SERVER_PORT": str(port),
        "SERVER_PROTOCOL": "HTTP/1.1",
        "REMOTE_ADDR": "127.0.0.1",
        "CONTENT_LENGTH": str(len(body)),
    }
    for name, value in headers:
        key = name.upper().replace("-", "_")
        if key == "CONTENT_LENGTH":
            continue
        if key != "CONTENT_TYPE":
            key = "HTTP_" + key
        environ[key] = f"{environ[key]},{value}" if key in environ else value
    return environ


def call_wsgi(
    app: WSGIApp, environ: dict[str, Any]
) -> tuple[int, str, list[tuple[str, str]], bytes]:
    """Run a WSGI app to completion: status, reason, headers, body."""
    seen: dict[str, Any] = {}

    def start_response(status: str, headers: list[tuple[str, str]], exc_info: Any = None) -> Any:
        seen["status"], seen["headers"] = status, headers
        return lambda _: None

    result = app(environ, start_response)
    try:
        body = b"".join(result)
    finally:
        close = getattr(result, "close", None)
        if close is not None:
            close()
    code, _, reason = seen["status"].partition(" ")
    return int(code), reason, list(seen["headers"]), body


class EmulatorTransport(httpx.BaseTransport):
    """A sync httpx transport calling a WSGI app in process."""

    def __init__(self, app: WSGIApp) -> None:
        self.app = app

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        body = request.read()
        environ = wsgi_environ(
            request.method, str(request.url), _str_headers(request.headers.raw), body
        )
        try:
            status, _, headers, content = call_wsgi(self.app, environ)
        except ConnectionDropped as exc:
            raise httpx.RemoteProtocolError(DROPPED, request=request) from exc
        return httpx.Response(status, headers=headers, content=content, request=request)


class EmulatorAsyncTransport(httpx.AsyncBaseTransport):
    """httpx's ASGI transport, with dropped connections reported as httpx reports them."""

    def __init__(self, app: Any) -> None:
        self.inner = httpx.ASGITransport(app=app)

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        try:
            return await self.inner.handle_async_request(request)
        except ConnectionDropped as exc:
            raise httpx.RemoteProtocolError(DROPPED, request=request) from exc


def _str_headers(raw: Iterable[tuple[bytes, bytes]]) -> list[tuple[str, str]]:
    return [(k.decode("latin-1"), v.decode("latin-1")) for k, v in raw]


def httpx_client(app: WSGIApp, base_url: str, auth: tuple[str, str] | None) -> httpx.Client:
    return httpx.Client(
        transport=EmulatorTransport(app), base_url=base_url, auth=auth, trust_env=False
    )


def httpx_async_client(app: Any, base_url: str, auth: tuple[str, str] | None) -> httpx.AsyncClient:
    return httpx.AsyncClient(
        transport=EmulatorAsyncTransport(app), base_url=base_url, auth=auth, trust_env=False
    )


def origin(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}"


def join(base_url: str, url: str) -> str:
    """``url`` made absolute against ``base_url`` (a relative path continues the base path)."""
    if "://" in url:
        return url
    return urljoin(base_url.rstrip("/") + "/", url.lstrip("/"))
