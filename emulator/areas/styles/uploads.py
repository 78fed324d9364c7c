"""The write side of the styles endpoints: POST to a style list, PUT to a style.

What a request does depends on its ``Content-Type``, as in GeoServer's ``StyleController``:

- ``text/xml``, ``application/xml``, ``application/json``, ``text/json``: a style *record*
  (two-step creation's first step; on PUT: rename, move, file name, legend…);
- ``application/zip``: a style package (an SLD and its icons);
- an SLD (``application/vnd.ogc.sld+xml`` 1.0, ``application/vnd.ogc.se+xml`` 1.1) or CSS
  (``application/vnd.geoserver.geocss+css``, ``application/vnd.service.geocss+css``) body;
- with ``raw=true``, a PUT stores any body exactly as sent (no checks); a raw POST whose body
  fails the checks is stored as sent when ``name`` is given.

Bodies are always stored byte for byte.
"""

from __future__ import annotations

import hashlib
from urllib.parse import quote

from starlette.requests import Request
from starlette.responses import Response

from ...core.errors import Forbidden, Invalid, UnsupportedMediaType
from ...http import context as ctx
from ...wire import negotiate
from . import codec, css, package, sld
from .formats import CSS, SLD, V10, Handler, charset_of, handler_for_media_type
from .model import Body, Env, Style, StyleChanges, StyleStore

RECORD_FORMATS = ("xml", "json")
BODY_TYPES = (
    "application/xml, text/xml, application/json, text/json (a style record), "
    "application/zip (a style package), application/vnd.ogc.sld+xml, "
    "application/vnd.ogc.se+xml, application/vnd.geoserver.geocss+css"
)


def flag(request: Request, name: str) -> bool:
    return request.query_params.get(name, "").strip().lower() == "true"


def location(workspace: str | None, name: str) -> str:
    segment = quote(name, safe=":@")
    if workspace is None:
        return f"styles/{segment}"
    return f"workspaces/{quote(workspace, safe=':@')}/styles/{segment}"


def inspect(data: bytes, handler: Handler, content_type: str | None) -> tuple[Body, str | None]:
    """Check a body in ``handler``'s format: the body to write and the name it carries."""
    try:
        if handler.format == CSS:
            summary = css.check(data, charset_of(content_type))
            return Body(data, handler), summary.style_name
        found = sld.inspect(data, charset_of(content_type))
    except Invalid as exc:
        raise Invalid(f"Invalid style:{exc.message}") from None
    return Body(data, handler, found.named_layers, found.layer_count), found.style_name


def _body_handler(content_type: str | None) -> Handler:
    handler = handler_for_media_type(content_type)
    if handler is None:
        raise UnsupportedMediaType(
            f"Content type {content_type or '(none)'} is not a style format; "
            f"use one of {BODY_TYPES}"
        )
    return handler


# -- POST to a style list -------------------------------------------------------------------


async def create(request: Request, store: StyleStore, env: Env, workspace: str | None) -> Response:
    content_type = request.headers.get("content-type")
    fmt = negotiate.format_of_media_type(content_type)
    data = await ctx.body(request)
    if fmt in RECORD_FORMATS:
        style = _record_style(codec.parse_style(data, fmt), workspace)
        style = store.add(env, style)
    elif fmt == "zip":
        style = _create_from_package(request, store, env, workspace, data)
    else:
        style = _create_from_body(request, store, env, workspace, data, content_type)
    return ctx.created(request, location(style.workspace, style.name), style.name)


def _record_style(fields: StyleChanges, workspace: str | None) -> Style:
    """A new record from a two-step POST; a workspace path wins over the body's workspace."""
    ws = fields.workspace if workspace is None and isinstance(fields.workspace, str) else workspace
    style = Style(
        fields.name or "", ws, fields.format or SLD, fields.version or V10, fields.filename
    )
    style.legend, style.metadata = fields.legend, dict(fields.metadata or {})
    return style


def _create_from_body(
    request: Request,
    store: StyleStore,
    env: Env,
    workspace: str | None,
    data: bytes,
    content_type: str | None,
) -> Style:
    handler = _body_handler(content_type)
    name = request.query_params.get("name") or None
    try:
        body, found = inspect(data, handler, content_type)
    except Invalid:
        if not (flag(request, "raw") and name):
            raise
        body, found = Body(data, handler), None
    name = name or found or generated_name(store, env)
    return store.create(env, workspace, name, body)


def _create_from_package(
    request: Request, store: StyleStore, env: Env, workspace: str | None, data: bytes
) -> Style:
    found = package.read(data, ctx.emulator(request).max_body)
    try:
        summary = sld.inspect(found.sld)
    except Invalid as exc:
        raise Invalid(f"Style error. {exc.message}") from None
    name = request.query_params.get("name") or summary.style_name or generated_name(store, env)
    version = sld.version_of(found.sld) or V10
    handler = Handler(SLD, version, "sld", "")
    style = store.create(env, workspace, name, Body(found.sld, handler))
    store.save_files(env, workspace, found.icons)
    return style


def generated_name(store: StyleStore, env: Env) -> str:
    """GeoServer's ``style-`` plus seven hex digits, deterministic here."""
    for _ in range(100):
        n = env.ids.next("style-name")
        candidate = "style-" + hashlib.sha1(f"style-{n}".encode()).hexdigest()[:7]
        if store.find(candidate) is None:
            return candidate
    raise Invalid("Unable to generate style name, specify one with 'name' parameter")


# -- PUT to a style --------------------------------------------------------------------------


async def replace(
    request: Request, store: StyleStore, env: Env, workspace: str | None, name: str
) -> Response:
    content_type = request.headers.get("content-type")
    fmt = negotiate.format_of_media_type(content_type)
    data = await ctx.body(request)
    if fmt in RECORD_FORMATS:
        store.update(env, workspace, name, codec.parse_style(data, fmt))
    elif fmt == "zip":
        _replace_from_package(request, store, env, workspace, name, data)
    elif flag(request, "raw"):
        current = store.get(workspace, name)
        version = sld.version_of(data) if current is not None and current.format == SLD else None
        store.write_raw(env, workspace, name, data, version)
    else:
        body, _ = inspect(data, _body_handler(content_type), content_type)
        store.write(env, workspace, name, body)
    return Response(status_code=200)


def _replace_from_package(
    request: Request, store: StyleStore, env: Env, workspace: str | None, name: str, data: bytes
) -> None:
    if store.get(workspace, name) is None:
        raise Forbidden(f"Style {name} doesn't exist.")
    found = package.read(data, ctx.emulator(request).max_body)
    try:
        sld.inspect(found.sld)
    except Invalid as exc:
        raise Invalid(f"Style error. {exc.message}") from None
    handler = Handler(SLD, sld.version_of(found.sld) or V10, "sld", "")
    store.write(env, workspace, name, Body(found.sld, handler))
    store.save_files(env, workspace, found.icons)
