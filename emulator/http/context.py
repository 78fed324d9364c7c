"""Helpers every endpoint uses: the emulator behind a request, its body, links, responses."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from contextlib import aclosing
from functools import partial
from typing import TYPE_CHECKING, Any, TypeVar

import anyio.to_thread
from starlette.requests import Request
from starlette.responses import Response

from ..core.errors import PayloadTooLarge
from ..wire import negotiate

if TYPE_CHECKING:
    from ..areas.access import Principal
    from ..emulator import Emulator

T = TypeVar("T")


def emulator(request: Request) -> Emulator:
    emu: Emulator = request.app.state.emulator
    return emu


def principal(request: Request) -> Principal | None:
    found: Principal | None = request.scope.get("state", {}).get("principal")
    return found


async def body(request: Request) -> bytes:
    """The request body, refused with 413 past the emulator's cap: at once when
    ``Content-Length`` says so, else as soon as the streamed body grows past it."""
    limit = emulator(request).max_body
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > limit:
        raise PayloadTooLarge(f"Request body larger than {limit} bytes")
    chunks: list[bytes] = []
    size = 0
    async with aclosing(request.stream()) as stream:  # closed here even when refused
        async for chunk in stream:
            size += len(chunk)
            if size > limit:
                raise PayloadTooLarge(f"Request body larger than {limit} bytes")
            chunks.append(chunk)
    return b"".join(chunks)


async def off_loop(work: Callable[..., T], *args: Any) -> T:
    """``work(*args)`` on a worker thread, while the event loop answers other clients: for
    the slow part of a write that only reads (an upload's files unpacked, read and checked).
    The write keeps the write lock meanwhile (no other write runs), and ``work`` must not
    touch the state: take what it reads from the state first, on the loop, and make the
    changes after it, on the loop too (a read answered meanwhile sees the state whole)."""
    return await anyio.to_thread.run_sync(partial(work, *args))


def base_url(request: Request) -> str:
    """``scheme://host[:port]/context`` as the client addressed the server."""
    host = request.headers.get("host") or f"{request.url.hostname}:{request.url.port}"
    return f"{request.url.scheme}://{host}{emulator(request).context_path}"


def rest_url(request: Request, path: str) -> str:
    """An absolute link to ``/rest/<path>``."""
    return f"{base_url(request)}/rest/{path.lstrip('/')}"


def response_format(
    request: Request,
    ext: str | None,
    offered: Sequence[str] = ("xml", "json"),
    default: str = "xml",
) -> str:
    """The response format: the path extension, else a ``?format=`` parameter (GeoServer's
    REST configuration favours it), else ``Accept``, else ``default``; 406 when the one
    asked for is not ``offered``."""
    if ext is None:
        param = request.query_params.get("format")
        if param:
            ext = param.strip().lower()
    if ext is not None:  # ``Accept`` is not read then: no headers parsed
        return negotiate.response_format(None, ext, offered, default)
    return negotiate.response_format(request.headers.get("accept"), ext, offered, default)


def body_format(request: Request, accepted: Sequence[str] = ("xml", "json")) -> str:
    return negotiate.body_format(request.headers.get("content-type"), accepted)


def respond(
    content: bytes | str = b"",
    fmt: str | None = None,
    status: int = 200,
    headers: dict[str, str] | None = None,
    media_type: str | None = None,
) -> Response:
    """A response in a short format name (``xml``, ``json``, ``html``, ``text``…)."""
    if media_type is None and fmt is not None:
        media_type = negotiate.media_type(fmt)
    if isinstance(content, str):
        content = content.encode("utf-8")
    return Response(content, status_code=status, headers=headers, media_type=media_type)


def created(request: Request, location_path: str, name: str, status: int = 201) -> Response:
    """GeoServer's create reply: ``Location`` absolute, the new name as plain text."""
    return Response(
        name,
        status_code=status,
        headers={"Location": rest_url(request, location_path)},
        media_type="text/plain",
    )
