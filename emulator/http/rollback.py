"""All-or-nothing writes: a request that does not end in 2xx leaves the state as it was.

Every request but ``GET``, ``HEAD`` and ``OPTIONS`` under the context root (REST, the tile
cache's REST, OGC ``POST``s such as a WFS Transaction, the control plane's writes: the
remote documents of cascaded stores, the scheduler's work) runs under a ``Rollback`` of the
state (``core/rollback.py``, an undo log of what the write changes): committed when the
answer starts with a 2xx status, undone when it starts with any other status or when an
exception escapes (before the 500 goes out). Reads pass straight through and pay nothing.
An endpoint that changes something outside the state along with it joins the write's
outcome through ``core.rollback.running(state).on_outcome(commit, undo)``.

Writes run one at a time (across event loops and threads: the in-process transports and
the live server may share one emulator), so that undoing one never undoes another. The
body is read before a write waits for its turn, so a slow client does not hold the others
up. ``reset`` and ``PUT /__emulator/scenario`` replace the state whole: the rollback they
began holds the state they replaced, and is dropped with it.

What is not rolled back: simulated time (a ``step`` clock moved as the request arrived,
and the seed work that time allowed was done before the request began), the journal, and
injected faults a request used up.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ..core.tracking import settle
from .middleware import inner_path

if TYPE_CHECKING:
    from ..emulator import Emulator

READS = frozenset({"GET", "HEAD", "OPTIONS"})
WAIT = 0.0005
"""seconds between two tries at the write lock"""


class RollbackMiddleware:
    """Sits inside authentication: what authentication reads is not saved."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] in READS:
            settle()  # reads at full speed: the write hooks go (kept between writes in a row)
            await self.app(scope, receive, send)
            return
        emu: Emulator = scope["app"].state.emulator
        if inner_path(scope, emu) is None:
            await self.app(scope, receive, send)
            return
        receive = await _read_ahead(scope, receive, emu.max_body)
        lock = emu.write_lock
        while not lock.acquire(blocking=False):
            await asyncio.sleep(WAIT)
        try:
            await _guarded(self.app, emu, scope, receive, send)
        finally:
            lock.release()


async def _guarded(app: ASGIApp, emu: Emulator, scope: Scope, receive: Receive, send: Send) -> None:
    rollback = emu.state.begin()
    decided = False

    def decide(ok: bool) -> None:
        nonlocal decided
        if not decided:
            decided = True
            rollback.commit() if ok else rollback.undo()

    async def watch(message: Message) -> None:
        if message["type"] == "http.response.start":
            decide(200 <= message["status"] < 300)
        await send(message)

    try:
        await app(scope, receive, watch)
    finally:
        try:
            decide(False)  # an exception escaped, or no answer at all
        finally:
            rollback.close()  # even when an undo callback raised


async def _read_ahead(scope: Scope, receive: Receive, limit: int) -> Receive:
    """The body read in full (up to ``limit``; past it the app refuses it with 413), and a
    ``receive`` that gives it again, then whatever the connection says next."""
    for key, value in scope.get("headers", []):
        if key == b"content-length" and value.isdigit() and int(value) > limit:
            return receive
    messages: list[Message] = []
    size = 0
    while True:
        message = await receive()
        messages.append(message)
        if message["type"] != "http.request":
            break
        size += len(message.get("body", b""))
        if not message.get("more_body", False) or size > limit:
            break
    messages.reverse()

    async def replay() -> Message:
        return messages.pop() if messages else await receive()

    return replay
