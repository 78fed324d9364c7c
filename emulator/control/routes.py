"""Control-plane endpoints (JSON in and out; administrators only, via the auth middleware)."""

from __future__ import annotations

import math

from starlette.requests import Request
from starlette.responses import Response

from ..core.clock import ClockLimit
from ..core.errors import Invalid, NotFound
from ..http.context import body, emulator
from ..http.routing import Route
from ..wire import json as wjson
from ..wire.json import dumps
from . import filters, inspector, live

SCENARIO_VALUES = 10 * wjson.MAX_VALUES
"""the most values a scenario document sent to ``PUT /__emulator/scenario`` may hold (the stock
scenario's holds about 5,000)"""


def _json(value: object, status: int = 200) -> Response:
    return Response(dumps(value), status, media_type="application/json")


async def reset(request: Request) -> Response:
    emulator(request).reset()
    return Response(status_code=204)


async def advance(request: Request) -> Response:
    raw = request.query_params.get("seconds")
    if raw is None:
        raise Invalid("Missing query parameter seconds")
    try:
        seconds = float(raw)
    except ValueError:
        raise Invalid(f"seconds must be a number, got {raw!r}") from None
    if not math.isfinite(seconds) or seconds < 0:
        raise Invalid(f"seconds must be a non-negative number, got {raw!r}")
    emu = emulator(request)
    try:
        now = emu.clock.advance(seconds)
    except ClockLimit as exc:
        raise Invalid(str(exc)) from None
    return _json({"now": now})


async def drain(request: Request) -> Response:
    emu = emulator(request)
    emu.scheduler.drain()
    emu.drain_imports()
    return _json({"now": emu.clock.now()})


async def requests(request: Request) -> Response:
    emu = emulator(request)
    if request.method == "DELETE":
        emu.journal.clear()
        return Response(status_code=204)
    found = filters.journal_entries(emu.journal, request.query_params)
    out: dict[str, object] = {"requests": [e.to_json() for e in found]}
    if emu.journal.diagnostics:  # hints about the use of the emulator, when there are any
        out["diagnostics"] = list(emu.journal.diagnostics)
    return _json(out)


async def state(request: Request) -> Response:
    """The current state as a scenario document (``Emulator.dump_scenario()``)."""
    return _json(emulator(request).dump_scenario())


async def scenario(request: Request) -> Response:
    """Start over from a scenario document (the body) or a built-in (``?name=``): it becomes
    the reset point. Nothing changes when the scenario is refused."""
    from ..core.errors import ScenarioError

    emu = emulator(request)
    name = request.query_params.get("name")
    raw = await body(request)
    if name is not None and raw.strip():
        raise Invalid("give either a scenario document in the body or ?name=, not both")
    if name is not None:
        from ..scenarios.loader import BUILTINS

        if name not in BUILTINS:
            raise Invalid(
                f"unknown scenario {name!r}: ?name= takes one of {', '.join(BUILTINS)}"
                " (send any other scenario as a JSON document in the body)"
            )
        ref: object = name
    else:
        if not raw.strip():
            raise Invalid("expected a scenario document (JSON) in the body, or ?name=stock|empty")
        try:
            ref = wjson.loads(raw, "scenario document", SCENARIO_VALUES)
        except Invalid as exc:
            if not exc.message.startswith("Malformed"):
                raise
            raise Invalid(f"the body is not valid JSON: {exc.message}") from None
        if not isinstance(ref, dict):
            raise Invalid("a scenario document must be a JSON object")
    try:
        emu.load_scenario(ref)  # type: ignore[arg-type]
    except ScenarioError as exc:
        raise Invalid(f"bad scenario: {exc}") from None
    return Response(status_code=204)


async def health(request: Request) -> Response:
    emu = emulator(request)
    return _json(
        {
            "status": "ok",
            "scenario": emu.scenario.name,
            "profile": emu.profile,
            "clock": emu.clock.kind,
            "now": emu.clock.now(),
            "vendorPrefix": emu.vendor.prefix,
        }
    )


async def urlcheck_evaluate(request: Request) -> Response:
    url = request.query_params.get("url")
    if url is None:
        raise Invalid("Missing query parameter url")
    result = emulator(request).state.urlchecks.evaluate(url)
    return _json(
        {
            "url": result.url,
            "allowed": result.allowed,
            "checksEnabled": result.checks_enabled,
            "matchedBy": result.matched_by,
            "timedOut": list(result.timed_out),
        }
    )


routes = [
    Route("/__emulator/reset", reset, methods=["POST"]),
    Route("/__emulator/clock/advance", advance, methods=["POST"]),
    Route("/__emulator/scheduler/drain", drain, methods=["POST"]),
    Route("/__emulator/requests", requests, methods=["GET", "DELETE"]),
    Route("/__emulator/health", health, methods=["GET"]),
    Route("/__emulator/state", state, methods=["GET"]),
    Route("/__emulator/scenario", scenario, methods=["PUT"]),
    Route("/__emulator/", inspector.inspector, methods=["GET"]),
    Route("/__emulator/inspector/stamp", live.stamp, methods=["GET"]),
    Route("/", inspector.landing, methods=["GET"]),
    Route("/__emulator/urlchecks/evaluate", urlcheck_evaluate, methods=["GET"]),
]


# -- fault injection (the plugin issue) ---------------------------------------------------


async def faults(request: Request) -> Response:
    """GET lists the injected faults, POST injects one (JSON, see ``emulator/core/faults.py``),
    DELETE clears them."""
    emu = emulator(request)
    if request.method == "GET":
        return _json({"faults": emu.faults.to_json()})
    if request.method == "DELETE":
        emu.faults.clear()
        return Response(status_code=204)
    raw = await body(request)
    data = wjson.loads(raw, "fault (a JSON object describing a fault)")
    try:
        fault = emu.faults.add_json(data, emu.context_path)
    except ValueError as exc:
        raise Invalid(str(exc)) from None
    return _json(fault.to_json(), 201)


routes.append(Route("/__emulator/faults", faults, methods=["GET", "POST", "DELETE"]))


# -- what remote servers answer (the emulated server has no network) ---------------------


async def remote(request: Request) -> Response:
    """What the emulated server reads from other servers. PUT ``?url=U`` registers the body:
    a WMS or WMTS capabilities document as the answer of U's server to cascaded stores
    (``areas/cascade``; any URL naming the same server finds it), anything else as the
    content ``url.`` uploads of exactly U read (``areas/uploads``). GET lists both (or, with
    ``url``, answers what is registered for it); DELETE forgets it (without ``url``: all)."""
    from ..areas.cascade import capabilities  # the cascade area, loaded on first use

    state = emulator(request).state
    documents, contents = state.cascade, state.features.remote
    url = request.query_params.get("url")
    if request.method == "GET" and url is None:
        listed: list[dict[str, object]] = [
            {"url": u, "size": len(data)} for u, data in contents.items()
        ]
        for known, document in documents.listed():
            caps = capabilities.parse(document)
            listed.append(
                {
                    "url": known,
                    "size": len(document.encode("utf-8")),
                    "service": caps.service,
                    "version": caps.version,
                    "layers": [layer.name for layer in caps.layers],
                }
            )
        return _json({"remotes": sorted(listed, key=lambda entry: str(entry["url"]))})
    if request.method == "DELETE" and url is None:
        documents.documents.clear()
        contents.clear()
        return Response(status_code=204)
    if not url:
        raise Invalid("Missing query parameter url")
    if request.method == "GET":
        document = documents.document(url)
        if document is not None:
            return Response(document, media_type="application/xml")
        if url in contents:
            return Response(contents[url], media_type="application/octet-stream")
        raise NotFound(f"Nothing is registered for {url}")
    if request.method == "DELETE":
        forgot = documents.forget(url)
        if contents.pop(url, None) is None and not forgot:
            raise NotFound(f"Nothing is registered for {url}")
        return Response(status_code=204)
    raw = await body(request)
    if capabilities.looks_like_capabilities(raw):  # then it must be a whole one
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise Invalid("The capabilities document must be UTF-8") from None
        capabilities.parse(text)
        documents.register(url, text)
    else:
        contents[url] = raw
    return Response(status_code=204)


routes.append(Route("/__emulator/remote", remote, methods=["GET", "PUT", "DELETE"]))
