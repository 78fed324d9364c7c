"""What the importer's endpoints share: the operation context of a request, its writer,
path ids, content negotiation (JSON out; 406 for an ``Accept`` that excludes it; JSON
bodies or 415), and reading uploads (multipart forms, URL-encoded forms)."""

from __future__ import annotations

import io
from typing import IO, Any
from urllib.parse import parse_qsl

from starlette.requests import Request
from starlette.responses import Response

from ...core.errors import Invalid, NotAcceptable, NotFound, ServerError, UnsupportedMediaType
from ...http import context
from ...wire import json as wjson
from ..catalog import web
from ..mosaics.sources import HostBudget
from ..uploads.context import Context
from .codec import Writer, expand
from .model import ImportContext, ImportStore, ImportTask

JSON_TYPES = frozenset({"application/json", "text/json"})
ACCEPTED = frozenset(
    {"*/*", "application/*", "application/json", "text/*", "text/json", "text/html"}
)
MAX_PARTS = 1000


def rt(request: Request) -> Context:
    """The operation context of a request (the uploads area's: state, time, limits)."""
    emu = context.emulator(request)
    return Context(
        emu.state, web.now(request), emu.clock.now(), emu.url_allowed, emu.max_body * 4,
        emu.decisions, HostBudget() if emu.host_read else None,
    )  # fmt: skip


def store(request: Request) -> ImportStore:
    found: ImportStore = web.state(request).importer
    return found


def writer(request: Request) -> Writer:
    emu = context.emulator(request)
    state = emu.state
    return Writer(context.rest_url(request, ""), state.catalog, state.styles, emu.vendor.prefix)


def depth(request: Request, default: int) -> int:
    return expand(request.query_params.get("expand"), default)


def number(request: Request, name: str) -> int:
    """A path id (a Java ``Long``/``Integer``): anything else is refused as GeoServer's
    controllers refuse an argument they cannot convert."""
    raw = request.path_params[name]
    try:
        value = int(raw)
    except ValueError:
        value = None
    if value is None or not -(2**63) <= value < 2**63 or not raw.strip().lstrip("+-").isdigit():
        status = context.emulator(request).decisions.bad_argument_status
        raise Invalid(f"Invalid {name}: '{raw}' is not a number", status=status)
    return value


def import_of(request: Request) -> ImportContext:
    return store(request).require(number(request, "id"))


def task_of(request: Request) -> tuple[ImportContext, ImportTask]:
    c = import_of(request)
    task_id = number(request, "task")
    task = c.task(task_id)
    if task is None:
        raise NotFound(f"No such task: {task_id} for import: {c.id}")
    return c, task


def check_accept(request: Request) -> None:
    """406 when ``Accept`` names only types the importer does not write (JSON, HTML)."""
    raw = request.headers.get("accept")
    if not raw or not raw.strip():
        return
    types = {p.split(";")[0].strip().lower() for p in raw.split(",")}
    if not types & ACCEPTED:
        raise NotAcceptable(f"Could not find acceptable representation for {raw.strip()}")


def media(request: Request) -> str:
    return (request.headers.get("content-type") or "").split(";")[0].strip().lower()


def is_json(request: Request) -> bool:
    return media(request) in JSON_TYPES


async def json_body(request: Request, optional: bool = False) -> bytes:
    """The body of a request that takes JSON: 415 for another content type (an empty
    body passes when ``optional``)."""
    body = await context.body(request)
    if optional and not body.strip():
        return body
    if not is_json(request):
        shown = request.headers.get("content-type") or "none"
        raise UnsupportedMediaType(f"Content type '{shown}' not supported")
    return body


def answer(doc: Any, status: int = 200, headers: dict[str, str] | None = None) -> Response:
    return Response(wjson.dumps(doc), status, headers, media_type="application/json")


def empty(status: int) -> Response:
    return Response(b"", status_code=status)


def multipart(request: Request, body: bytes) -> list[tuple[str, bytes]]:
    """(file name, bytes) of every file item of a multipart form (items without a file
    name are left out, as GeoServer leaves them)."""
    from werkzeug.formparser import MultiPartParser
    from werkzeug.http import parse_options_header

    _, options = parse_options_header(request.headers.get("content-type") or "")
    boundary = options.get("boundary")
    if not boundary:
        raise ServerError("File upload failed")
    parser = MultiPartParser(_memory, max_form_parts=MAX_PARTS)
    try:
        _, files = parser.parse(io.BytesIO(body), boundary.encode("latin-1"), len(body))
    except Exception:  # a malformed form: GeoServer's FileUploadException
        raise ServerError("File upload failed") from None
    out = []
    for _, item in files.items(multi=True):
        if item.filename:
            out.append((item.filename, item.stream.read()))
    return out


def _memory(
    total_content_length: int | None,
    content_type: str | None,
    filename: str | None,
    content_length: int | None = None,
) -> IO[bytes]:
    """Every part kept in memory (the body is in memory already, within the size cap)."""
    return io.BytesIO()


def form_url(body: bytes) -> str:
    """The ``url`` field of a URL-encoded form."""
    try:
        fields = dict(parse_qsl(body.decode("utf-8"), keep_blank_values=True))
    except UnicodeDecodeError:
        raise Invalid("Invalid request") from None
    url = fields.get("url")
    if url is None:
        raise Invalid("Invalid request")
    return url
