"""HTTP routes of GeoWebCache's seeding and tile-layer REST (``/gwc/rest/…``).

One route per path shape; each endpoint answers 405 with the ``Allow`` the path has in the
active profile (the spec's table: GET on the kill paths is 405 under ``spec``).
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute

from ...core.errors import Invalid, MethodNotAllowed
from ...http.context import base_url, body, emulator, respond, response_format
from ...http.routing import Route
from ...wire.negotiate import format_of_media_type, split_ext
from . import codec, html, layer_codec
from . import layers as tile_layers
from .request import SeedRequest

METHODS = ["GET", "POST", "PUT", "DELETE", "PATCH"]
"""every route takes these and refuses, with its own 405 and ``Allow``, what it does not answer
(the profile decides GET on the kill paths)"""
KILL_PATH = "POST (GET too under the `geoserver` profile)"


def _refuse(request: Request, allowed: list[str], hint: str = "") -> None:
    if request.method not in allowed and not (request.method == "HEAD" and "GET" in allowed):
        raise MethodNotAllowed(
            f"Request method '{request.method}' is not supported{hint}",
            headers={"Allow": ", ".join(allowed)},
        )


def _list_hint(request: Request, layer: str | None = None) -> str:
    """Where a GET on a kill path should go instead (the status list)."""
    if request.method not in ("GET", "HEAD"):
        return ""
    where = "/gwc/rest/seed.json" if layer is None else f"/gwc/rest/seed/{layer}.json"
    return f"; to list the seed tasks, GET {where}"


def _kill_path_methods(request: Request) -> list[str]:
    return (
        ["GET", "POST"] if emulator(request).decisions.seed_get_on_kill_path_allowed else ["POST"]
    )


def _task_list(request: Request, layer: str | None, fmt: str = "json") -> Response:
    scheduler = emulator(request).scheduler
    if layer is not None:
        scheduler.store.find_tile_layer(layer, 400)
    rows = scheduler.status(layer)
    _watch_frozen(request, layer, rows)
    if fmt == "xml":
        return respond(codec.dump_task_list_xml(rows), "xml")
    return respond(codec.dump_task_list_json(rows), "json")


FROZEN_POLLS = 20
"""status lists in a row, with work pending, at one instant of a manual clock, before the
emulator says that the clock is frozen"""


def _watch_frozen(request: Request, layer: str | None, rows: list[list[int]]) -> None:
    """Say once (a warning and a journal diagnostic) when a client polls seed status again
    and again under a frozen manual clock: the tasks will never move."""
    emu = emulator(request)
    if emu.clock.kind != "manual":
        return
    if emu.scheduler.count_poll(layer, emu.clock.now(), rows) != FROZEN_POLLS:
        return
    from ...core.clock import FrozenClockWarning

    emu.journal.hint(
        f"the seed status {request.url.path} was polled {FROZEN_POLLS} times at simulated"
        f" time {emu.clock.now():g}s with tasks still pending, but the manual clock is frozen:"
        " nothing moves until time does. Advance it (emu.clock.advance(seconds), POST"
        " /__emulator/clock/advance?seconds=S), finish the work (emu.scheduler.drain(), POST"
        ' /__emulator/scheduler/drain), or use the step clock (Emulator(clock="step"),'
        ' serve --clock step, the geoserver_clock fixture returning "step")',
        FrozenClockWarning,
    )


async def seed_root(request: Request) -> Response:
    """``/gwc/rest/seed``: POST kill_all for every layer (GET lists, geoserver profile)."""
    _refuse(request, _kill_path_methods(request), _list_hint(request))
    if request.method in ("GET", "HEAD"):
        return _task_list(request, None)
    emu = emulator(request)
    form = codec.parse_form(await body(request), decode=False)
    text = ""
    if "kill_all" in form:
        text = html.kill_reply(emu.scheduler.kill_all(form["kill_all"]), None)
    return respond(text, media_type=emu.decisions.kill_all_content_type)


async def seed_list(request: Request) -> Response:
    """``/gwc/rest/seed.json``: every layer's tasks."""
    _refuse(request, ["GET"])
    return _task_list(request, None)


async def seed_layer(request: Request) -> Response:
    """``/gwc/rest/seed/<layer>[.xml|.json]``: submit, list or kill."""
    name, ext = split_ext(request.path_params["name"], ("xml", "json"))
    if ext is None:
        _refuse(request, _kill_path_methods(request), _list_hint(request, name))
    else:
        _refuse(request, ["GET", "POST"])
    if request.method in ("GET", "HEAD"):
        if ext is None:
            return _form_page(request, name)
        return _task_list(request, name, ext)
    kind = ext or format_of_media_type(request.headers.get("content-type"))
    if kind in ("xml", "json"):
        return await _submit(request, name, kind)
    return await _form_post(request, name)


async def _submit(request: Request, layer: str, kind: str) -> Response:
    emu = emulator(request)
    raw = await body(request)
    req = (
        codec.parse_seed_request_json(raw) if kind == "json" else codec.parse_seed_request_xml(raw)
    )
    emu.scheduler.submit(layer, req, one_truncate_task=emu.decisions.truncate_one_task)
    return respond(b"", media_type="text/plain")


def _form_page(request: Request, layer: str) -> Response:
    emu = emulator(request)
    emu.scheduler.store.find_tile_layer(layer, 400)
    page = html.task_page(layer, emu.scheduler.tasks, f"{layer}: seed tasks")
    return respond(page, media_type="text/html;charset=utf-8")


async def _form_post(request: Request, layer: str) -> Response:
    """``FormService.handleFormPost``: list, kill_thread, kill_all or a form seed."""
    emu = emulator(request)
    scheduler = emu.scheduler
    scheduler.store.find_tile_layer(layer, 400)
    params = dict(request.query_params)
    raw = await body(request)
    if raw:
        params.update(codec.parse_form(raw, decode=True))
    html_type = "text/html;charset=utf-8"
    if "list" in params:
        title = "All seed tasks" if params["list"] == "all" else f"{layer}: seed tasks"
        return respond(html.task_page(layer, scheduler.tasks, title), media_type=html_type)
    if "kill_thread" in params:
        task_id = params.get("thread_id", "")
        if not task_id.strip().lstrip("-").isdigit():
            raise Invalid(f'For input string: "{task_id}"')
        done = scheduler.kill_task(int(task_id))
        return respond(html.kill_thread_reply(task_id, done, layer), media_type=html_type)
    if "kill_all" in params:
        report = scheduler.kill_all(params["kill_all"], layer)
        return respond(html.kill_reply(report, layer), media_type=html_type)
    if params.get("minX") is not None:
        scheduler.submit(
            layer, _form_seed_request(params), one_truncate_task=emu.decisions.truncate_one_task
        )
        page = html.task_page(layer, scheduler.tasks, "Task submitted")
        return respond(page, media_type=html_type)
    raise Invalid(
        "The form asks for nothing: send list, kill_thread (with thread_id), kill_all, or a"
        " seed request (minX, minY, maxX, maxY, type, zoomStart, zoomStop, …)"
    )


def _form_seed_request(p: dict[str, str]) -> SeedRequest:
    def number(key: str) -> float:
        value = p.get(key)
        if not value:
            raise Invalid(f"Missing value for {key}")
        try:
            return float(value)
        except ValueError:
            raise Invalid(f"Value for {key} is not a double") from None

    def integer(key: str) -> int:
        return codec.java_decode(p.get(key, ""), key)

    kind = p.get("type", "").upper()
    if kind not in codec.ENUM_TYPES:
        raise Invalid(f"No enum constant org.geowebcache.seed.GWCTask.TYPE.{kind}")
    return SeedRequest(
        bounds=(number("minX"), number("minY"), number("maxX"), number("maxY")),
        gridset_id=p.get("gridSetId"),
        zoom_start=integer("zoomStart"),
        zoom_stop=integer("zoomStop"),
        thread_count=integer("threadCount"),
        format=p.get("tileFormat"),
        enum_type=kind,
        parameters=[
            (k[len("parameter_") :], v) for k, v in p.items() if k.startswith("parameter_")
        ],
    )


async def layers(request: Request) -> Response:
    """``/gwc/rest/layers[.xml|.json]``: the names of the tile layers."""
    _refuse(request, ["GET"])
    ext = request.path_params.get("ext")
    fmt = response_format(request, ext, ("xml", "json"), "xml")
    store = emulator(request).state.seeding
    names = store.layer_names()
    if fmt == "json":
        return respond(layer_codec.dump_layer_list_json(names), "json")
    return respond(layer_codec.dump_layer_list_xml(names, base_url(request)), "xml")


async def layer(request: Request) -> Response:
    """``/gwc/rest/layers/<layer>[.xml|.json]``: read, create or replace (PUT), modify
    (POST, deprecated), delete one tile layer."""
    _refuse(request, ["GET", "POST", "PUT", "DELETE"])
    name, ext = split_ext(request.path_params["name"], ("xml", "json"))
    name = name.replace("+", " ")
    emu = emulator(request)
    store = emu.state.seeding
    if request.method == "DELETE":
        emu.scheduler.commit()
        tile_layers.delete(store, name)
        return respond(f"{name} deleted", media_type="text/plain")
    if request.method in ("PUT", "POST"):
        return await _write_layer(request, name, ext)
    fmt = response_format(request, ext, ("xml", "json"), "xml")
    found = tile_layers.find(store, name)
    if fmt == "json":
        return respond(layer_codec.dump_layer_json(found), "json")
    return respond(layer_codec.dump_layer_xml(store, found), "xml")


async def _write_layer(request: Request, name: str, ext: str | None) -> Response:
    emu = emulator(request)
    store = emu.state.seeding
    raw = await body(request)
    kind = ext or format_of_media_type(request.headers.get("content-type")) or "xml"
    try:
        parsed = (
            layer_codec.parse_layer_json(raw)
            if kind == "json"
            else layer_codec.parse_layer_xml(raw)
        )
    except Invalid as exc:
        raise tile_layers.rest_error(400, exc.message) from None
    tile_layers.validate(store, name, parsed)
    emu.scheduler.commit()
    if request.method == "POST":
        tile_layers.modify(store, parsed)
        return respond(
            b"",
            headers={"Warning": "299: Deprecated API. Use PUT instead."},
            media_type="text/plain",
        )
    tile_layers.save(store, parsed)
    return respond("layer saved", media_type="text/plain")


routes: list[BaseRoute] = [
    Route("/gwc/rest/seed", seed_root, methods=METHODS, answers=KILL_PATH),
    Route("/gwc/rest/seed.json", seed_list, methods=METHODS, answers="GET"),
    Route(
        "/gwc/rest/seed/{name}",
        seed_layer,
        methods=METHODS,
        answers="GET, POST with `.xml`/`.json`; without: " + KILL_PATH,
    ),
    Route("/gwc/rest/layers", layers, methods=METHODS, answers="GET"),
    Route("/gwc/rest/layers.{ext}", layers, methods=METHODS, answers="GET"),
    Route("/gwc/rest/layers/{name}", layer, methods=METHODS, answers="GET, POST, PUT, DELETE"),
]
