"""One live server per test process (per xdist worker), pointed at the current test's emulator.

The server is started once, on 127.0.0.1 and a free port (or the one ``--geoserver-port``
names); its ASGI app is a ``Dispatcher`` that forwards every request to the app of the
emulator it is attached to. ``geoserver_url``
attaches the test's emulator at setup and detaches it at teardown, so each test sees its own
state while paying only for a swap (the pytest-httpserver session-server idea, applied as a
swap rather than a ``clear()``).

A swap happens only when no request is in flight: detaching first stops routing (requests
between tests get 503), then cancels whatever the test left running (a client that timed
out while the emulator was still waiting on a realtime-clock delay) and waits for it to end.
"""

from __future__ import annotations

import asyncio
import threading
import traceback
import weakref
from typing import TYPE_CHECKING, Any

from geoserver_emulator.http.server import LiveServer

if TYPE_CHECKING:
    from geoserver_emulator import Emulator

IDLE_BODY = b"No test is using this geoserver-emulator live server right now."
SETTLE_SECONDS = 5.0


class Dispatcher:
    """ASGI app forwarding each request to the attached target app, counting requests in flight."""

    def __init__(self) -> None:
        self._target: Any = None
        self._cond = threading.Condition()
        self._running: dict[asyncio.Task[None], asyncio.AbstractEventLoop] = {}
        self.errors: list[str] = []
        """exceptions a target app raised without answering, on the server thread"""

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            return
        loop = asyncio.get_running_loop()
        started = False

        async def watch(message: Any) -> None:
            nonlocal started
            started = True
            await send(message)

        with self._cond:
            target = self._target
            task = None if target is None else loop.create_task(target(scope, receive, watch))
            if task is not None:
                self._running[task] = loop
        if task is None:
            await _answer(send, 503, IDLE_BODY)
            return
        try:
            await task
        except asyncio.CancelledError:
            current = asyncio.current_task()
            if current is not None and current.cancelling():
                raise  # the server itself is shutting down
            await _drop(scope, receive)  # cancelled by detach(): the client gets no answer
        except Exception:
            if not started:  # else the app answered 500 itself (and the emulator noted it)
                self.errors.append(traceback.format_exc())
                await _answer(send, 500, b"Internal error in the live server")
        finally:
            with self._cond:
                self._running.pop(task, None)
                self._cond.notify_all()

    def attach(self, app: Any) -> None:
        with self._cond:
            if self._target is not None:
                raise RuntimeError("the live server is still attached to another test's emulator")
            self._target = app

    def detach(self) -> int:
        """Stop routing, end the requests still running; the number that had to be cancelled."""
        with self._cond:
            self._target = None
            running = list(self._running.items())
        for task, loop in running:
            loop.call_soon_threadsafe(task.cancel)
        with self._cond:
            if not self._cond.wait_for(lambda: not self._running, timeout=SETTLE_SECONDS):
                raise RuntimeError("requests to the live server did not end after the test")
        return len(running)


async def _answer(send: Any, status: int, body: bytes) -> None:
    headers = [
        (b"content-type", b"text/plain; charset=utf-8"),
        (b"content-length", b"%d" % len(body)),
    ]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


async def _drop(scope: Any, receive: Any) -> None:
    hook = scope.get("emulator.drop")
    if hook is not None and hook():
        while (await receive())["type"] != "http.disconnect":
            pass


class LiveTarget:
    """The per-process live server and the emulator it currently serves."""

    def __init__(self, port: int = 0) -> None:
        self.dispatcher = Dispatcher()
        self.server = LiveServer(self.dispatcher, port=port).start()
        self._previous: weakref.ref[Emulator] | None = None
        self.cancelled = 0
        """requests cancelled at teardown because their test had ended (for diagnostics)"""

    def attach(self, emulator: Emulator) -> str:
        """Point the server at ``emulator``; its base URL."""
        previous = self._previous() if self._previous is not None else None
        if previous is not None and not previous.journal.closed:
            raise RuntimeError(
                "the previous test's emulator is still open; was its teardown skipped?"
            )
        self.dispatcher.attach(emulator.asgi_app)
        self._previous = weakref.ref(emulator)
        return self.server.url(emulator.context_path)

    def detach(self) -> list[str]:
        """Stop serving the current emulator; the server-side errors seen while it was attached."""
        self.cancelled += self.dispatcher.detach()
        errors, self.dispatcher.errors = self.dispatcher.errors, []
        return errors

    def stop(self) -> None:
        self.dispatcher.detach()
        self.server.stop()
