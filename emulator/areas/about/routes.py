"""``/rest/about/*``: versions, manifests, module status (HTML by default) and system status
(JSON by default). All read-only: other methods answer 405."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute

from ...core.errors import NotFound
from ...http.context import base_url, emulator, respond, response_format
from ...http.routing import Route
from ...wire.negotiate import split_ext
from . import codec, host
from .model import (
    AboutStore,
    Filters,
    ModuleStatus,
    Resource,
    module_statuses,
    select,
    with_extensions,
)

ABOUT_OFFERED = ("html", "json", "xml")
"""``AboutController``/``AboutStatusController`` produce HTML first: HTML is the default"""
STATUS_OFFERED = ("json", "xml", "html")
"""``MonitorRest`` produces JSON first: JSON is the default"""


def _format(request: Request, offered: tuple[str, ...]) -> str:
    ext = request.path_params.get("ext")
    if ext is not None and ext not in offered:
        raise NotFound(f"No such resource: {request.url.path}")
    return response_format(request, ext, offered, default=offered[0])


NO_FILTERS = Filters()


def _filters(request: Request) -> Filters:
    if not request.scope.get("query_string"):  # most requests: no query, no filter
        return NO_FILTERS
    q = request.query_params
    return Filters(q.get("manifest"), q.get("from"), q.get("to"), q.get("key"), q.get("value"))


_DUMPS = {"xml": codec.dump_about_xml, "json": codec.dump_about_json}

_WHOLE: dict[tuple[int, str, str], tuple[list[Resource], bytes | str]] = {}
"""the unfiltered documents last written, by (list, format, prefix): the lists never change
once a scenario built them (REST only reads them), and a reset makes new ones"""


def _about(request: Request, resources: list[Resource]) -> Response:
    fmt = _format(request, ABOUT_OFFERED)
    filters = _filters(request)
    prefix = emulator(request).vendor.prefix
    dump = _DUMPS.get(fmt, codec.dump_about_html)
    if filters is not NO_FILTERS and filters != NO_FILTERS:
        return respond(dump(select(resources, filters), prefix), fmt)
    key = (id(resources), fmt, prefix)
    cached = _WHOLE.get(key)
    if cached is None or cached[0] is not resources:
        if len(_WHOLE) >= 64:
            _WHOLE.clear()
        cached = _WHOLE[key] = (resources, dump(select(resources, filters), prefix))
    return respond(cached[1], fmt)


async def version(request: Request) -> Response:
    return _about(request, emulator(request).state.about.versions)


_LISTED: dict[
    tuple[int, frozenset[str]], tuple[AboutStore, list[Resource], list[ModuleStatus]]
] = {}
"""the manifests and modules with the installed extensions', by (store, extensions): the same
lists for the same store, so ``_WHOLE`` keeps serving its cached documents"""


def _listed(request: Request) -> tuple[list[Resource], list[ModuleStatus]]:
    emu = emulator(request)
    store = emu.state.about
    if not emu.extensions:
        return store.manifests, store.modules
    key = (id(store), emu.extensions)
    found = _LISTED.get(key)
    if found is None or found[0] is not store:
        if len(_LISTED) >= 64:
            _LISTED.clear()
        found = _LISTED[key] = (store, *with_extensions(store, emu.extensions))
    return found[1], found[2]


async def manifest(request: Request) -> Response:
    return _about(request, _listed(request)[0])


async def status(request: Request) -> Response:
    target, ext = None, request.path_params.get("ext")
    if "module" in request.path_params:
        target, ext = split_ext(request.path_params["module"])
    if ext is not None and ext not in ABOUT_OFFERED:
        raise NotFound(f"No such resource: {request.url.path}")
    fmt = response_format(request, ext, ABOUT_OFFERED, default="html")
    modules = module_statuses(_listed(request)[1], target)
    page = base_url(request) + "/rest/about/status" + (f"/{target}" if target is not None else "")
    if fmt == "xml":
        return respond(codec.dump_status_xml(modules, page), "xml")
    if fmt == "json":
        return respond(codec.dump_status_json(modules, page), "json")
    return respond(codec.dump_status_html(modules), "html")


async def system_status(request: Request) -> Response:
    fmt = _format(request, STATUS_OFFERED)
    emu = emulator(request)
    store = emu.state.about
    rows = store.metric_values(
        emu.clock.now(), host.sample() if store.metrics_source == "host" else None
    )
    if fmt == "xml":
        return respond(codec.dump_metrics_xml(rows), "xml")
    if fmt == "html":
        return respond(codec.dump_metrics_html(rows), "html")
    return respond(codec.dump_metrics_json(rows), "json")


routes: list[BaseRoute] = [
    Route("/rest/about/version", version, methods=["GET"], name="about-version"),
    Route("/rest/about/version.{ext}", version, methods=["GET"], name="about-version-ext"),
    Route("/rest/about/manifest", manifest, methods=["GET"], name="about-manifest"),
    Route("/rest/about/manifest.{ext}", manifest, methods=["GET"], name="about-manifest-ext"),
    Route("/rest/about/status", status, methods=["GET"], name="about-status"),
    Route("/rest/about/status.{ext}", status, methods=["GET"], name="about-status-ext"),
    Route("/rest/about/status/{module}", status, methods=["GET"], name="about-status-module"),
    Route("/rest/about/system-status", system_status, methods=["GET"], name="system-status"),
    Route(
        "/rest/about/system-status.{ext}", system_status, methods=["GET"], name="system-status-ext"
    ),
]
