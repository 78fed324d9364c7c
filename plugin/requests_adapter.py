"""A ``requests`` transport adapter that answers from a WSGI app in process (no socket)."""

from __future__ import annotations

import io
from typing import Any

import requests
from requests.adapters import BaseAdapter
from requests.structures import CaseInsensitiveDict
from requests.utils import get_encoding_from_headers

from geoserver_emulator.core.faults import ConnectionDropped

from .clients import DROPPED, WSGIApp, call_wsgi, join, origin, wsgi_environ


class WSGIAdapter(BaseAdapter):
    """Send requests to ``app`` (a WSGI callable); mount it on the emulator's origin."""

    def __init__(self, app: Any) -> None:
        super().__init__()
        self.app = app

    def send(  # type: ignore[override]
        self,
        request: requests.PreparedRequest,
        stream: bool = False,
        timeout: Any = None,
        **kwargs: Any,
    ) -> requests.Response:
        environ = wsgi_environ(
            request.method or "GET", request.url or "/", request.headers.items(), _body(request)
        )
        try:
            status, reason, headers, content = call_wsgi(self.app, environ)
        except ConnectionDropped as exc:
            raise requests.ConnectionError(DROPPED, request=request) from exc
        response = requests.Response()
        response.status_code = status
        response.reason = reason
        response.headers = CaseInsensitiveDict(headers)
        response.encoding = get_encoding_from_headers(response.headers)
        response.raw = io.BytesIO(content)
        response._content = content
        response.url = request.url or ""
        response.request = request
        response.connection = self  # type: ignore[assignment]
        return response

    def close(self) -> None:
        pass


class BaseURLSession(requests.Session):
    """A session whose relative URLs continue ``base_url`` (``s.get("/rest/styles.json")``)."""

    def __init__(self, base_url: str) -> None:
        super().__init__()
        self.base_url = base_url.rstrip("/")

    def request(
        self, method: str | bytes, url: str | bytes, *args: Any, **kwargs: Any
    ) -> requests.Response:
        text = url.decode() if isinstance(url, bytes) else url
        return super().request(method, join(self.base_url, text), *args, **kwargs)


def _body(request: requests.PreparedRequest) -> bytes:
    body = request.body
    if body is None:
        return b""
    if isinstance(body, str):
        return body.encode("utf-8")
    if isinstance(body, bytes):
        return body
    if hasattr(body, "read"):
        data = body.read()
        return data.encode("utf-8") if isinstance(data, str) else bytes(data)
    return b"".join(c.encode("utf-8") if isinstance(c, str) else bytes(c) for c in body)


def requests_session(app: WSGIApp, base_url: str, auth: tuple[str, str] | None) -> Any:
    """A ``requests.Session`` answering ``base_url`` in process; relative URLs join ``base_url``."""
    session: requests.Session = BaseURLSession(base_url)
    session.trust_env = False
    session.mount(origin(base_url) + "/", WSGIAdapter(app))
    session.auth = auth
    return session
