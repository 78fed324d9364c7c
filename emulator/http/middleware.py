"""Pure-ASGI middleware: the request journal (outermost), injected faults, then authentication.

Paths are classified relative to the context root: ``/rest…`` follows the REST access
rules, ``/gwc/rest…`` needs an administrator, ``/__emulator…`` (but ``health``) the
emulator's own control credentials, never an emulated user; anything else is open.
"""

from __future__ import annotations

import asyncio
import base64
import binascii
import hashlib
import hmac
from functools import lru_cache, partial
from typing import TYPE_CHECKING, Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ..areas import access
from ..core.errors import EmulatorError
from ..core.faults import ConnectionDropped, Fault
from ..core.journal import JournalEntry
from ..wire import errors as wire_errors
from ..wire.json import dumps
from .own import is_own_request

if TYPE_CHECKING:
    from ..emulator import Emulator

REALM = 'Basic realm="GeoServer Realm"'
OPEN_CONTROL_PATHS = frozenset({"/__emulator/health"})
"""control-plane paths anyone may read (a readiness probe has no credentials)"""


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
        path = inner_path(scope, emu) or scope["path"]
        own = path.startswith("/__emulator") or is_own_request(scope, emu, path)
        emu.tick(control=own)
        if own:  # the emulator's own pages and what they ask for: never journaled
            scope["emulator.own"] = True
            await self.app(scope, receive, send)
            return
        exchange = _Exchange(emu, scope, path, receive, send)
        scope["emulator.record"] = exchange.record
        try:  # a request without a body has nothing to capture: its receive goes as it is
            receiving = receive if exchange.body_done else exchange.receive
            await self.app(scope, receiving, exchange.send)
        finally:
            if not exchange.recorded:  # usually written as the answer's last byte went out
                await exchange.record()


class _Body:
    """A body as it streams by: its first ``limit`` bytes, its length, and its SHA-256 once it
    outgrows the limit (computed only then)."""

    __slots__ = ("limit", "chunks", "size", "hash")

    def __init__(self, limit: int | None) -> None:
        self.limit = limit
        self.chunks: list[bytes] = []
        self.size = 0
        self.hash: Any = None

    def add(self, chunk: bytes) -> None:
        limit = self.limit
        if limit is None or (self.hash is None and self.size + len(chunk) <= limit):
            self.chunks.append(chunk)
        else:
            if self.hash is None:
                self.hash = hashlib.sha256(b"".join(self.chunks))
                self.chunks.append(chunk[: max(0, limit - self.size)])
            self.hash.update(chunk)
        self.size += len(chunk)

    @property
    def full(self) -> bool:
        """Whether the journal wants more of it (its limit is not reached)."""
        return self.limit is not None and self.size >= self.limit

    def kept(self, complete: bool = True) -> tuple[bytes, int | None, str | None]:
        """The bytes kept, and for a truncated body its length and digest (the digest only
        when the body was read to its end)."""
        data = b"".join(self.chunks)
        if self.hash is None:
            return data, None, None
        return data, self.size, self.hash.hexdigest() if complete else None


def _has_body(scope: Scope) -> bool:
    """Whether the request may have a body: its length is not 0, it comes in chunks, or it
    says nothing and is not a ``GET``, ``HEAD`` or ``OPTIONS`` (a WSGI server may hand on a
    de-chunked body without either header)."""
    for key, value in scope.get("headers", ()):
        if key == b"content-length":
            return bool(value.strip() != b"0")
        if key == b"transfer-encoding":
            return True
    return scope.get("method") not in _BODILESS


_BODILESS = frozenset({"GET", "HEAD", "OPTIONS"})


class _Exchange:
    """One journaled request: its body as read, the answer's status, headers and body.

    The entry is written once, before the client can hold its whole answer (so a client
    finds its request journaled, even on the live server), else when the app ends. The
    answer's start is held back until its first body message: an answer whose body is
    empty (or sent in one message) is complete for the client as soon as its headers go
    out, so the entry is written before them. Body the app did not read is read then, up to
    the journal's own limit, so that the journal holds it (a body refused as too large is
    not read further). Bodies longer than the journal's ``body_limit`` are kept truncated.
    """

    __slots__ = (
        "emu", "scope", "path", "_receive", "_send", "at", "body", "body_done", "status",
        "response_headers", "response", "start", "recorded",
    )  # fmt: skip

    def __init__(
        self, emu: Emulator, scope: Scope, path: str, receive: Receive, send: Send
    ) -> None:
        self.emu, self.scope, self.path = emu, scope, path
        self._receive, self._send = receive, send
        self.at = emu.clock.now()
        limit = emu.journal.body_limit
        self.body: _Body | None = None
        """made with the first chunk (most requests have none)"""
        self.body_done = not _has_body(scope)
        """the request's body is all read (or it has none: nothing to read for the entry)"""
        self.status = 500
        self.response_headers: list[tuple[bytes, bytes]] = []
        """as sent: decoded when the entry is made"""
        self.response = _Body(limit)
        self.start: Message | None = None
        self.recorded = False

    async def receive(self) -> Message:
        message = await self._receive()
        if message["type"] == "http.request":
            chunk = message.get("body", b"")
            if chunk:
                if self.body is None:
                    self.body = _Body(self.response.limit)
                self.body.add(chunk)
            self.body_done = not message.get("more_body", False)
        else:
            self.body_done = True
        return message

    async def send(self, message: Message) -> None:
        if message["type"] == "http.response.start":
            self.status = message["status"]
            self.response_headers = list(message.get("headers", []))
            self.start = message  # sent with the first body message
            return
        if message["type"] == "http.response.body":
            self.response.add(message.get("body", b""))
            if not message.get("more_body", False):
                await self.record()
        await self._flush()
        await self._send(message)

    async def _flush(self) -> None:
        if self.start is not None:
            start, self.start = self.start, None
            await self._send(start)

    async def record(self) -> None:
        if self.recorded:
            await self._flush()
            return
        self.recorded = True
        while not self.body_done and self.status != 413 and not (self.body and self.body.full):
            await self.receive()
        scope = self.scope
        kept = (b"", None, None) if self.body is None else self.body.kept(self.body_done)
        body, body_size, body_sha = kept
        answer, answer_size, answer_sha = self.response.kept()
        self.emu.journal.record_later(
            partial(  # made when the journal is read: no header decoded for the request
                _entry,
                raw_headers=list(scope.get("headers", [])),
                method=scope["method"],
                path=self.path,
                query=scope.get("query_string", b""),
                status=0 if scope.get("emulator.dropped") else self.status,
                body=body,
                at=self.at,
                fault=scope.get("emulator.fault"),
                raw_response_headers=self.response_headers,
                response_body=answer,
                body_size=body_size,
                body_sha256=body_sha,
                response_size=answer_size,
                response_sha256=answer_sha,
                databases=scope.get("emulator.databases"),
            ),
            len(body) + len(answer),
        )
        await self._flush()


def _entry(
    *,
    raw_headers: list[tuple[bytes, bytes]],
    method: str,
    path: str,
    query: bytes,
    status: int,
    body: bytes,
    at: float,
    fault: str | None,
    raw_response_headers: list[tuple[bytes, bytes]],
    response_body: bytes,
    body_size: int | None,
    body_sha256: str | None,
    response_size: int | None,
    response_sha256: str | None,
    databases: dict[str, str] | None = None,
) -> JournalEntry:
    headers: dict[str, str] = {}
    authorization = None  # the first, as ``_header`` finds it
    for k, v in raw_headers:
        if k.lower() != b"authorization":
            headers[k.decode("latin-1").lower()] = v.decode("latin-1")
        elif authorization is None and k == b"authorization":
            authorization = v.decode("latin-1")
    response_headers: dict[str, str] = {}
    for k, v in raw_response_headers:
        name, text = k.decode("latin-1").lower(), v.decode("latin-1")
        seen = response_headers.get(name)
        response_headers[name] = text if seen is None else f"{seen}, {text}"
    return JournalEntry.of(
        method=method,
        path=path,
        query=query.decode("latin-1"),
        status=status,
        headers=headers,
        body=body,
        at=at,
        response_type=response_headers.get("content-type"),
        fault=fault,
        response_headers=response_headers,
        response_body=response_body,
        body_size=body_size,
        body_sha256=body_sha256,
        response_size=response_size,
        response_sha256=response_sha256,
        authorization=authorization,
        databases=dict(databases) if databases else {},
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
        header = _header(scope, b"authorization")
        if path == "/__emulator" or path.startswith("/__emulator/"):
            if path in OPEN_CONTROL_PATHS or _is_control(emu, header):
                await self.app(scope, receive, send)
            else:
                message = "The control plane needs the emulator's control credentials"
                await self._deny(scope, send, 401, message, path)
            return
        principal = access.ANONYMOUS
        if header is not None:
            found = _basic(emu, header)
            if found is None:
                await self._deny(scope, send, 401, "Bad credentials", path)
                return
            principal = found
        method = scope["method"]
        if path == "/rest" or path.startswith(("/rest/", "/rest.")):
            try:
                allowed = access.rest_allowed(emu.state, principal, method, path)
            except EmulatorError as exc:  # a rule's pattern that cannot be decided in time
                await self._deny(scope, send, exc.status, exc.message, path)
                return
        elif path.startswith("/gwc/rest"):
            allowed = principal.is_admin
        else:
            allowed = True
        if not allowed:
            if principal.anonymous:
                await self._deny(
                    scope,
                    send,
                    401,
                    "Full authentication is required to access this resource",
                    path,
                )
            else:
                await self._deny(scope, send, 403, "Access denied", path)
            return
        scope.setdefault("state", {})["principal"] = principal
        await self.app(scope, receive, send)

    async def _deny(self, scope: Scope, send: Send, status: int, message: str, path: str) -> None:
        if path.startswith("/__emulator"):  # the control plane speaks JSON
            body, media_type = dumps({"error": message}), "application/json"
        else:
            body, media_type = wire_errors.render(status, message, path, _header(scope, b"accept"))
        headers = [
            (b"content-type", media_type.encode()),
            (b"content-length", str(len(body)).encode()),
        ]
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


@lru_cache(maxsize=256)
def _credentials(header: str) -> tuple[str, str] | None:
    """User name and password of a Basic ``Authorization`` header, or None (a pure function
    of the header: remembered, as a client sends the same one with every request)."""
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "basic":
        return None
    try:
        decoded = base64.b64decode(token.strip(), validate=True).decode("utf-8")
    except (binascii.Error, UnicodeDecodeError):
        return None
    username, sep, password = decoded.partition(":")
    return (username, password) if sep else None


def _basic(emu: Emulator, header: str) -> access.Principal | None:
    found = _credentials(header)
    return None if found is None else access.authenticate(emu.state, *found)


def _is_control(emu: Emulator, header: str | None) -> bool:
    """Whether the header carries the process's control credentials (not an emulated
    user: nothing done over ``/rest`` changes who may use the control plane)."""
    found = None if header is None else _credentials(header)
    if found is None:
        return False
    user, password = emu.control_credentials
    return hmac.compare_digest(found[0].encode(), user.encode()) & hmac.compare_digest(
        found[1].encode(), password.encode()
    )


class FaultMiddleware:
    """Answers requests that match an injected fault (``faults.py``).

    Sits inside the journal (faulted requests are journaled) and before authentication (a
    failing server fails whoever asks). The control plane is never faulted.
    """

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        emu = _emulator(scope) if scope["type"] == "http" else None
        path = None if emu is None or not len(emu.faults) else inner_path(scope, emu)
        fault = None
        own = path is not None and (path.startswith("/__emulator") or scope.get("emulator.own"))
        if emu is not None and path is not None and not own:
            fault = emu.faults.take(scope["method"], path)
        if fault is None:
            await self.app(scope, receive, send)
            return
        assert emu is not None and path is not None
        scope["emulator.fault"] = fault.describe()
        if fault.delay:
            await _wait(emu, fault.delay)
        if fault.drop:
            await _drop(scope, receive)
        elif fault.status is None:
            await self.app(scope, receive, send)
        else:
            await _answer(scope, send, fault, path)


async def _wait(emu: Emulator, seconds: float) -> None:
    if emu.clock.kind != "realtime":  # simulated time: the delay passes at once
        emu.clock.advance(min(seconds, max(emu.clock.room(), 0.0)))  # time ends in 9999
    else:
        await asyncio.sleep(seconds)


async def _drop(scope: Scope, receive: Receive) -> None:
    """Close the connection without an answer: through the live server's hook, else raise."""
    scope["emulator.dropped"] = True
    hook = scope.get("emulator.drop")
    record = scope.get("emulator.record")
    if hook is not None and record is not None:
        await record()  # journaled before the client learns of the drop
    if hook is None or not hook():
        raise ConnectionDropped("connection dropped by an injected fault")
    while (await receive())["type"] != "http.disconnect":
        pass


async def _answer(scope: Scope, send: Send, fault: Fault, path: str) -> None:
    if fault.status in (204, 304):  # answers that carry no body
        body, media_type = b"", "text/plain"
    elif isinstance(fault.body, bytes):
        body, media_type = fault.body, fault.content_type or "text/plain"
    else:
        accept = _header(scope, b"accept")
        body, media_type = wire_errors.render(fault.status or 500, fault.message, path, accept)
    headers = [
        (b"content-type", media_type.encode("latin-1")),
        (b"content-length", b"%d" % len(body)),
        *((k.lower().encode("latin-1"), v.encode("latin-1")) for k, v in fault.headers.items()),
    ]
    await send({"type": "http.response.start", "status": fault.status, "headers": headers})
    await send({"type": "http.response.body", "body": body})
