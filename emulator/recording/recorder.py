"""Recording: a proxy in front of any GeoServer, and an emulator's own traffic.

``RecordingProxy`` is a Starlette app that forwards every request to the upstream base URL
(``http://host:8080/geoserver``) and writes each exchange under the upstream's context path
to a cassette as it completes. Clients talk to the proxy as they would to the server: the
upstream's origin is rewritten to the proxy's in ``Location`` headers and text bodies, so
links lead back through the proxy. The cassette keeps what the upstream answered (scrubbed).
Requests outside the context path, and the emulator control plane (``/__emulator``), are
forwarded but not recorded.

``EmulatorRecorder`` writes an emulator's journal entries to a cassette as they are made
(``serve --record``); a reset of the emulator starts the cassette over.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

import httpx
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response
from starlette.routing import Route

from ..scenarios.cassette import (
    HOP_BY_HOP,
    CassetteWriter,
    Header,
    RecordedRequest,
    RecordedResponse,
    is_text,
)
from ..scenarios.journal_cassette import entry_exchange, header_for, journal_origins
from ..scenarios.scrub import RECORDED_ORIGIN, Scrubber

if TYPE_CHECKING:
    from ..core.journal import JournalEntry
    from ..emulator import Emulator

METHODS = ["GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS"]
NOT_FORWARDED = HOP_BY_HOP | {"host", "content-length", "accept-encoding"}
NOT_RETURNED = HOP_BY_HOP | {"content-length", "content-encoding", "date", "server"}


def split_base(url: str) -> tuple[str, str]:
    """``(origin, context path)`` of a base URL, or ValueError."""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.netloc or parts.query or parts.fragment:
        raise ValueError(f"{url}: expected a base URL such as http://host:8080/geoserver")
    return f"{parts.scheme}://{parts.netloc}", parts.path.rstrip("/")


class RecordingProxy:
    """A recording reverse proxy (an ASGI app: ``proxy.app``).

    Parameters:
        upstream: the server's base URL, ``http://host:8080/geoserver``.
        out: the cassette to write, replaced when the recording ends normally (``close()``);
            ``discard()`` leaves it as it was.
        scenario: the scenario replay starts from, written in the header (``stock``,
            ``empty``, a scenario path, e.g. one made by ``import``).
        scrub: False keeps credentials and the host (``--no-scrub``).
        profile: the fidelity profile replay should use, written in the header.
    """

    def __init__(
        self,
        upstream: str,
        out: str | Path,
        *,
        scenario: str | None = "stock",
        scrub: bool = True,
        profile: str | None = None,
        timeout: float = 60.0,
    ) -> None:
        self.origin, self.context_path = split_base(upstream)
        self.scrubber = Scrubber(scrub, [self.origin])
        if isinstance(scenario, str) and Path(scenario).exists():
            scenario = str(Path(scenario).resolve())
        header = Header(
            scenario,
            self.context_path,
            "proxy",
            "wall",
            profile,
            None,
            scrub,
            RECORDED_ORIGIN if scrub else self.origin,
        )
        self.writer = CassetteWriter(Path(out), header, self.scrubber)
        self.client = httpx.Client(base_url=self.origin, timeout=timeout, follow_redirects=False)
        self.started = time.monotonic()
        self.app = Starlette(routes=[Route("/{path:path}", self.forward, methods=METHODS)])

    @property
    def recorded(self) -> int:
        return self.writer.count

    async def forward(self, request: Request) -> Response:
        body = await request.body()
        raw_path: bytes = request.scope.get("raw_path") or request.url.path.encode()
        target = raw_path.decode("latin-1")
        query = request.url.query
        headers = {k: v for k, v in request.headers.items() if k not in NOT_FORWARDED}
        headers["accept-encoding"] = "identity"
        try:
            answer = await run_in_threadpool(
                self.client.request,
                request.method,
                target + (f"?{query}" if query else ""),
                headers=headers,
                content=body,
            )
        except httpx.HTTPError as exc:
            sys.stderr.write(f"geoserver-emulator record: {request.method} {target}: {exc}\n")
            return PlainTextResponse(f"Upstream unreachable: {exc}", status_code=502)
        here = f"{request.url.scheme}://{request.headers.get('host', request.url.netloc)}"
        if self._recordable(target):
            self._record(
                request, target[len(self.context_path) :] or "/", query, body, answer, here
            )
        return self._answer(answer, here)

    def _recordable(self, target: str) -> bool:
        ctx = self.context_path
        inside = not ctx or target == ctx or target.startswith(ctx + "/")
        return inside and not target[len(ctx) :].startswith("/__emulator")

    def _record(
        self,
        request: Request,
        path: str,
        query: str,
        body: bytes,
        answer: httpx.Response,
        here: str,
    ) -> None:
        self.scrubber.add_origin(here)
        recorded = RecordedRequest(request.method, path, query, dict(request.headers.items()), body)
        headers: dict[str, str] = {}
        for name, value in answer.headers.multi_items():
            key = name.lower()
            headers[key] = value if key not in headers else f"{headers[key]}, {value}"
        response = RecordedResponse(answer.status_code, headers, answer.content)
        self.writer.add(recorded, response, time.monotonic() - self.started)

    def _answer(self, answer: httpx.Response, here: str) -> Response:
        """The upstream's answer for the client, links pointed back at the proxy."""
        content = answer.content
        content_type = answer.headers.get("content-type")
        if is_text(content, content_type):
            content = _rewrite(content.decode("utf-8"), self.origin, here).encode("utf-8")
        response = Response(content, status_code=answer.status_code)
        for name, value in answer.headers.multi_items():
            if name.lower() not in NOT_RETURNED:
                response.headers.append(name, _rewrite(value, self.origin, here))
        if answer.request.method == "HEAD" and "content-length" in answer.headers:
            response.headers["content-length"] = answer.headers["content-length"]
        return response

    def close(self) -> None:
        """End the recording normally: the cassette replaces ``out``."""
        self.writer.commit()
        self.client.close()

    def discard(self) -> None:
        """End the recording as failed: ``out`` and its side files stay as they were."""
        self.writer.discard()
        self.client.close()


def _rewrite(text: str, upstream: str, here: str) -> str:
    text = text.replace(upstream, here)
    return text.replace(upstream.replace("/", "\\/"), here.replace("/", "\\/"))


class EmulatorRecorder:
    """Writes an emulator's traffic to a cassette as it happens (``serve --record FILE``).

    Parameters:
        emu: the emulator; its journal is observed and its resets start the cassette over.
        out: the cassette to write, replaced when the recording ends normally (``close()``);
            ``discard()`` leaves it as it was.
        scrub: False keeps credentials and the host.
    """

    def __init__(self, emu: Emulator, out: str | Path, *, scrub: bool = True) -> None:
        self.emu = emu
        self.scrubber = Scrubber(scrub)
        header = header_for(emu.journal, emu.cassette_header())
        header.upstream = RECORDED_ORIGIN if scrub else None
        self.writer = CassetteWriter(Path(out), header, self.scrubber)
        emu.journal.observers.append(self.on_entry)
        emu.on_reset.append(self.writer.restart)

    def on_entry(self, entry: JournalEntry) -> None:
        if entry.fault is not None or not entry.status:
            return
        for origin in journal_origins(entry):
            self.scrubber.add_origin(origin)
        self.writer.add(*entry_exchange(entry), elapsed=entry.at)

    def close(self) -> None:
        """End the recording normally: the cassette replaces ``out``."""
        self._detach()
        self.writer.commit()

    def discard(self) -> None:
        """End the recording as failed: ``out`` and its side files stay as they were."""
        self._detach()
        self.writer.discard()

    def _detach(self) -> None:
        if self.on_entry in self.emu.journal.observers:
            self.emu.journal.observers.remove(self.on_entry)
        if self.writer.restart in self.emu.on_reset:
            self.emu.on_reset.remove(self.writer.restart)
