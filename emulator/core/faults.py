"""Fault injection: make matching requests fail, stall or lose their connection, then recover.

``emu.faults.add("PUT", "/rest/styles/*", status=503, times=2)`` answers the next two matching
requests with 503 and a GeoServer-shaped error body (plain text for most paths, an
``ErrorResponse`` for authentication providers and filters), then the emulator answers
normally again. Faults are tried in the order they were added; the first that matches a
request answers it. They never apply to the control plane (``/__emulator``).

``delay`` is simulated time. With the manual clock (the fixtures' default) the request
advances the emulator clock by ``delay`` seconds, so seed tasks progress and journal times
move, but no real time passes. With the realtime clock the request really waits. A fault
with ``status=None`` only delays: the request is then answered as usual.

``drop=True`` closes the connection without an answer. On a live server the client sees
the connection reset (``httpx.RemoteProtocolError``, ``requests.ConnectionError``); through
an in-process transport the app raises ``ConnectionDropped`` (a ``ConnectionResetError``),
which the plugin's client fixtures turn into their library's error.
"""

from __future__ import annotations

import math
import re
import threading
from collections.abc import Iterator
from http import HTTPStatus
from typing import Any

from .antpath import ant_match
from .record import field, record

METHOD = re.compile(r"[A-Za-z]+|\*")
HEADER = re.compile(r"[!#$%&'*+.^_`|~0-9A-Za-z-]+")


class ConnectionDropped(ConnectionResetError):
    """Raised by the app, in process, for a request that an injected fault drops."""


@record
class Fault:
    """One injected fault and how often it has answered."""

    id: int
    method: str
    """an upper-case method, or ``*`` for any"""
    path: str
    """an Ant pattern relative to the context root, e.g. ``/rest/styles/**``"""
    status: int | None = 500
    body: str | bytes | None = None
    """a message (str, rendered GeoServer-style) or the exact body (bytes)"""
    content_type: str | None = None
    """media type of a bytes body (default ``text/plain``)"""
    headers: dict[str, str] = field(default_factory=dict)
    times: int | None = 1
    """how many requests it answers before it is removed; None: until cleared"""
    delay: float = 0.0
    drop: bool = False
    hits: int = 0

    def matches(self, method: str, path: str) -> bool:
        if self.method != "*" and self.method != method:
            return False
        return ant_match(self.path, path)

    @property
    def message(self) -> str:
        """The error message of a str or default body."""
        if isinstance(self.body, str):
            return self.body
        try:
            phrase = HTTPStatus(self.status or 500).phrase
        except ValueError:
            phrase = "Error"
        return f"{phrase} (injected fault)"

    def describe(self) -> str:
        what = "drop" if self.drop else (str(self.status) if self.status is not None else "delay")
        return f"fault {self.id}: {self.method} {self.path} -> {what}"

    def to_json(self) -> dict[str, Any]:
        body: str | None
        if isinstance(self.body, bytes):
            body = self.body.decode("utf-8", "replace")
        else:
            body = self.body
        return {
            "id": self.id,
            "method": self.method,
            "path": self.path,
            "status": self.status,
            "body": body,
            "contentType": self.content_type,
            "headers": self.headers,
            "times": self.times,
            "delay": self.delay,
            "drop": self.drop,
            "hits": self.hits,
        }


class Faults:
    """The faults of one emulator, in the order they were added."""

    def __init__(self) -> None:
        self._faults: list[Fault] = []
        self._next_id = 1
        self._lock = threading.Lock()

    def add(
        self,
        method: str,
        path_pattern: str,
        *,
        status: int | None = 500,
        body: str | bytes | None = None,
        times: int | None = 1,
        delay: float = 0.0,
        drop: bool = False,
        headers: dict[str, str] | None = None,
        content_type: str | None = None,
    ) -> Fault:
        """Inject a fault; ValueError on a bad argument.

        Parameters:
            method: ``GET``, ``POST``… or ``*`` for any method.
            path_pattern: Ant pattern relative to the context root (``/rest/styles/**``); the
                context path itself may be included (``/geoserver/rest/…``).
            status: the status to answer (200-599), or None to only delay.
            body: the error message (str) in GeoServer's error shape, or the exact body (bytes).
            times: how many matching requests it answers; None: every one, until cleared.
            delay: simulated seconds before answering (see the module docstring).
            drop: close the connection instead of answering.
            headers: extra response headers (``Retry-After``…).
            content_type: media type of a bytes body.
        """
        fault = _validated(
            method, path_pattern, status, body, times, delay, drop, headers, content_type
        )
        with self._lock:
            fault.id = self._next_id
            self._next_id += 1
            self._faults.append(fault)
        return fault

    def add_json(self, data: Any, context_path: str = "") -> Fault:
        """Inject a fault from its control-plane JSON form; ValueError on bad input."""
        if not isinstance(data, dict):
            raise ValueError("expected a JSON object")
        allowed = {
            "method",
            "path",
            "status",
            "body",
            "times",
            "delay",
            "drop",
            "headers",
            "contentType",
        }
        unknown = sorted(set(data) - allowed)
        if unknown:
            raise ValueError(f"unknown field {unknown[0]!r} (known: {', '.join(sorted(allowed))})")
        if "path" not in data:
            raise ValueError("missing field 'path'")
        body = data.get("body")
        if body is not None and not isinstance(body, str):
            raise ValueError("body must be a string")
        return self.add(
            data.get("method", "*"),
            _strip_context(data["path"], context_path),
            status=data.get("status", 500),
            body=body,
            times=data.get("times", 1),
            delay=data.get("delay", 0.0),
            drop=data.get("drop", False),
            headers=data.get("headers"),
            content_type=data.get("contentType"),
        )

    def take(self, method: str, path: str) -> Fault | None:
        """The fault that answers this request, counted (and removed when used up)."""
        with self._lock:
            for fault in self._faults:
                if fault.matches(method, path):
                    fault.hits += 1
                    if fault.times is not None and fault.hits >= fault.times:
                        self._faults.remove(fault)
                    return fault
        return None

    def clear(self) -> None:
        with self._lock:
            self._faults.clear()

    def active(self) -> list[Fault]:
        """The faults still waiting for requests, in the order they are tried."""
        with self._lock:
            return list(self._faults)

    def __len__(self) -> int:
        return len(self._faults)

    def __iter__(self) -> Iterator[Fault]:
        return iter(self.active())

    def to_json(self) -> list[dict[str, Any]]:
        return [f.to_json() for f in self.active()]


def _strip_context(path: Any, context_path: str) -> Any:
    if isinstance(path, str) and context_path and path.startswith(context_path + "/"):
        return path[len(context_path) :]
    return path


def _validated(
    method: Any,
    path: Any,
    status: Any,
    body: Any,
    times: Any,
    delay: Any,
    drop: Any,
    headers: Any,
    content_type: Any,
) -> Fault:
    if not isinstance(method, str) or not METHOD.fullmatch(method):
        raise ValueError(f"method must be an HTTP method or '*', got {method!r}")
    if not isinstance(path, str) or not path.startswith("/"):
        raise ValueError(f"path must be a pattern starting with '/', got {path!r}")
    if status is not None and (not _is_int(status) or not 200 <= status <= 599):
        raise ValueError(f"status must be an integer from 200 to 599 or null, got {status!r}")
    if body is not None and not isinstance(body, str | bytes):
        raise ValueError("body must be a string or bytes")
    if times is not None and (not _is_int(times) or times < 1):
        raise ValueError(f"times must be a positive integer or null, got {times!r}")
    if (
        isinstance(delay, bool)
        or not isinstance(delay, int | float)
        or not math.isfinite(delay)
        or delay < 0
    ):
        raise ValueError(f"delay must be a non-negative number of seconds, got {delay!r}")
    if not isinstance(drop, bool):
        raise ValueError(f"drop must be true or false, got {drop!r}")
    if status is None and not drop and (body is not None or headers):
        raise ValueError("a delay-only fault (status null) takes no body or headers")
    if headers is not None and (
        not isinstance(headers, dict) or not all(_header_ok(k, v) for k, v in headers.items())
    ):
        raise ValueError("headers must map header names to Latin-1 string values")
    if content_type is not None and not isinstance(content_type, str):
        raise ValueError("contentType must be a string")
    return Fault(
        id=0,
        method=method.upper(),
        path=path,
        status=status,
        body=body,
        content_type=content_type,
        headers=dict(headers or {}),
        times=times,
        delay=float(delay),
        drop=drop,
    )


def _header_ok(name: Any, value: Any) -> bool:
    if not isinstance(name, str) or not isinstance(value, str) or not HEADER.fullmatch(name):
        return False
    try:
        value.encode("latin-1")
    except UnicodeEncodeError:
        return False
    return "\r" not in value and "\n" not in value


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)
