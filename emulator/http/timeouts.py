"""Slow clients are disconnected, as a production server does it.

uvicorn closes a keep-alive connection left idle after an answer (``timeout_keep_alive``)
but waits for ever for a request's headers and for its body. ``guarded_protocol`` wraps
uvicorn's HTTP protocol with two more bounds:

- ``header``: the whole request line and headers must arrive within this many seconds of
  the connection opening, or of the first byte of a request after an answer (a client
  trickling a header a byte at a time is cut off);
- ``body``: while a request's body is expected, no more than this many seconds may pass
  without a byte of it.

A connection over either bound is closed without an answer. An answer being computed or
sent is never cut off. The defaults are ``serve``'s (``--timeout-header``,
``--timeout-body``, ``--timeout-keep-alive``).
"""

from __future__ import annotations

import asyncio
from typing import Any

from ..core.record import record

HEADER = 10.0
"""seconds a request's line and headers may take to arrive"""
BODY = 10.0
"""seconds a request's body may pause between two reads"""
KEEP_ALIVE = 5.0
"""seconds an idle keep-alive connection stays open (uvicorn's own default)"""


@record(frozen=True)
class Timeouts:
    """The bounds on slow clients of one live server (seconds)."""

    header: float = HEADER
    body: float = BODY
    keep_alive: float = KEEP_ALIVE


def guarded_protocol(header: float = HEADER, body: float = BODY) -> type[asyncio.Protocol]:
    """uvicorn's HTTP protocol with the header and body bounds above."""
    from uvicorn.protocols.http.auto import AutoHTTPProtocol  # imported by a live server only

    tick = max(0.01, min(header, body) / 4)

    class Guarded(AutoHTTPProtocol):  # type: ignore[misc,valid-type]
        _waiting_since: float | None = None  # headers awaited since then
        _last_byte = 0.0
        _seen: Any = None  # the request cycle whose headers were complete
        _timer: asyncio.TimerHandle | None = None

        def connection_made(self, transport: Any) -> None:
            super().connection_made(transport)
            self._waiting_since = self._last_byte = self.loop.time()
            self._timer = self.loop.call_later(tick, self._check)

        def data_received(self, data: bytes) -> None:
            now = self._last_byte = self.loop.time()
            cycle = getattr(self, "cycle", None)
            if self._waiting_since is None and (cycle is None or cycle.response_complete):
                self._waiting_since = now  # a new request begins
            super().data_received(data)
            cycle = getattr(self, "cycle", None)
            if cycle is not None and cycle is not self._seen:
                self._seen = cycle  # its headers are complete
                self._waiting_since = None

        # after an answer, uvicorn's keep-alive timer governs until the next request's byte

        def connection_lost(self, exc: Exception | None) -> None:
            if self._timer is not None:
                self._timer.cancel()
                self._timer = None
            super().connection_lost(exc)

        def _check(self) -> None:
            self._timer = None
            transport = self.transport
            if transport is None or transport.is_closing():
                return
            now = self.loop.time()
            cycle = getattr(self, "cycle", None)
            busy = cycle is not None and not cycle.response_complete
            if self._waiting_since is not None and not busy:
                if now - self._waiting_since > header:
                    transport.close()
                    return
            elif busy and cycle.more_body and now - self._last_byte > body:
                transport.close()
                return
            self._timer = self.loop.call_later(tick, self._check)

    return Guarded
