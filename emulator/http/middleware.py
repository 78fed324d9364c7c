"""Pure-ASGI middleware: the request journal (outermost), then authentication.

Paths are classified relative to the context root: ``/rest…`` follows the REST access
rules, ``/gwc/rest…`` and ``/__emulator…`` need an administrator; anything else is open.
"""

from __future__ import annotations

import base64
import binascii
from typing import TYPE_CHECKING

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .. import access
from ..journal import JournalEntry
from ..wire import errors as wire_errors

if TYPE_CHECKING:
    from ..emulator import Emulator

REALM = 'Basic realm="GeoServer Realm"'
JOURNAL_BODY_LIMIT = 1024 * 1024


def _emulator(scope: Scope) -> Emulator:
    emu: Emulator = scope["app"].state.emulator
    return emu


def inner_path(scope: Scope, emu: Emulator) -> str | None:
    """The path after the context root, or None when outside it."""
    path: str = scope["path"]
    ctx = emu.context_path
    if not ctx:
        return path
    if path == ctx or path.startswith(ctx + "/"):
        return path[len(ctx) :] or "/"
    return None


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", []):
        if key == name:
            return str(value.decode("latin-1"))
    return None


class JournalMiddleware:
    """Records method, path, query, headers, body and status of every request."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        emu = _emulator(scope)
        emu.tick()
        path = inner_path(scope, emu) or scope["path"]
        if path.startswith("/__emulator"):
            await self.app(scope, receive, send)
            return
        chunks: list[bytes] = []
        size = 0
        result: dict[str, object] = {"status": 500, "type": None}

        async def receive_wrapper() -> Message:
            nonlocal size
            message = await receive()
            if message["type"] == "http.request":
                chunk = message.get("body", b"")
                if size < JOURNAL_BODY_LIMIT:
                    chunks.append(chunk[: JOURNAL_BODY_LIMIT - size])
                size += len(chunk)
            return message

        async def send_wrapper(message: Message) -> None:
            if message["type"] == "http.response.start":
                result["status"] = message["status"]
                for key, value in message.get("headers", []):
                    if key.lower() == b"content-type":
                        result["type"] = value.decode("latin-1")
            await send(message)

        try:
            await self.app(scope, receive_wrapper, send_wrapper)
        finally:
            headers = {
                k.decode("latin-1").lower(): v.decode("latin-1")
                for k, v in scope.get("headers", [])
                if k.lower() != b"authorization"
            }
            emu.journal.record(
                JournalEntry(
                    method=scope["method"],
                    path=path,
                    query=scope.get("query_string", b"").decode("latin-1"),
                    status=int(result["status"]),  # type: ignore[call-overload]
                    headers=headers,
                    body=b"".join(chunks),
                    at=emu.clock.now(),
                    response_type=result["type"],  # type: ignore[arg-type]
                )
            )


class AuthMiddleware:
    """HTTP Basic against the emulator's providers; 401 with the realm, or 403."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        emu = _emulator(scope)
        path = inner_path(scope, emu)
        if path is None:
            await self.app(scope, receive, send)
            return
        path = _trim_slash(scope, path)
        principal = access.ANONYMOUS
        header = _header(scope, b"authorization")
        if header is not None:
            found = _basic(emu, header)
            if found is None:
                await self._deny(scope, send, 401, "Bad credentials", path)
                return
            principal = found
        method = scope["method"]
        if path == "/rest" or path.startswith(("/rest/", "/rest.")):
            allowed = access.rest_allowed(emu.state, principal, method, path)
        elif path.startswith(("/gwc/rest", "/__emulator")):
            allowed = principal.is_admin
        else:
            allowed = True
        if not allowed:
            if principal.anonymous:
                await self._deny(scope, send, 401, "Full authentication is required to access this resource", path)
            else:
                await self._deny(scope, send, 403, "Access denied", path)
            return
        scope.setdefault("state", {})["principal"] = principal
        await self.app(scope, receive, send)

    async def _deny(self, scope: Scope, send: Send, status: int, message: str, path: str) -> None:
        body, media_type = wire_errors.render(status, message, path, _header(scope, b"accept"))
        headers = [(b"content-type", media_type.encode()), (b"content-length", str(len(body)).encode())]
        if status == 401:
            headers.append((b"www-authenticate", REALM.encode()))
        await send({"type": "http.response.start", "status": status, "headers": headers})
        await send({"type": "http.response.body", "body": body})


def _trim_slash(scope: Scope, path: str) -> str:
    """Drop one trailing slash from a REST path, in the scope too: GeoServer's REST
    dispatcher matches ``/rest/x/`` as ``/rest/x`` (Spring's trailing-slash match)."""
    if not path.startswith(("/rest/", "/gwc/rest/")) or not path.endswith("/"):
        return path
    if path.endswith("//"):
        return path
    scope["path"] = scope["path"][:-1]
    raw = scope.get("raw_path")
    if isinstance(raw, bytes) and raw.endswith(b"/"):
        scope["raw_path"] = raw[:-1]
    return path[:-1]


def _basic(emu: Emulator, header: str) -> access.Principal | None:
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "basic":
        return None
    try:
        decoded = base64.b64decode(token.strip(), validate=True).decode("utf-8")
    except (binascii.Error, UnicodeDecodeError):
        return None
    username, sep, password = decoded.partition(":")
    if not sep:
        return None
    return access.authenticate(emu.state, username, password)
