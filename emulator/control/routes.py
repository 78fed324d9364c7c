"""Control-plane endpoints (JSON in and out; administrators only, via the auth middleware)."""

from __future__ import annotations

import json
import math

from starlette.requests import Request
from starlette.responses import Response

from ..core.errors import Invalid
from ..http.context import body, emulator
from ..http.routing import Route
from ..wire.json import dumps


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
    now = emu.clock.advance(seconds)
    return _json({"now": now})


async def drain(request: Request) -> Response:
    emu = emulator(request)
    emu.scheduler.drain()
    return _json({"now": emu.clock.now()})


async def requests(request: Request) -> Response:
    emu = emulator(request)
    if request.method == "DELETE":
        emu.journal.clear()
        return Response(status_code=204)
    return _json({"requests": emu.journal.to_json()})


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
    Route("/__emulator/urlchecks/evaluate", urlcheck_evaluate, methods=["GET"]),
]


# -- fault injection (the plugin issue) ---------------------------------------------------


async def faults(request: Request) -> Response:
    """GET lists the injected faults, POST injects one (JSON, see ``emulator/faults.py``),
    DELETE clears them."""
    emu = emulator(request)
    if request.method == "GET":
        return _json({"faults": emu.faults.to_json()})
    if request.method == "DELETE":
        emu.faults.clear()
        return Response(status_code=204)
    raw = await body(request)
    try:
        data = json.loads(raw)
    except (UnicodeDecodeError, json.JSONDecodeError):
        raise Invalid("expected a JSON object describing a fault") from None
    try:
        fault = emu.faults.add_json(data, emu.context_path)
    except ValueError as exc:
        raise Invalid(str(exc)) from None
    return _json(fault.to_json(), 201)


routes.append(Route("/__emulator/faults", faults, methods=["GET", "POST", "DELETE"]))


# -- remote content for url. uploads (the uploads issue) ------------------------------------


async def remote(request: Request) -> Response:
    """Content the emulated server reads for ``url.`` uploads of a URL (it has no network):
    PUT ``?url=U`` with the bytes as body registers it, DELETE ``?url=U`` forgets it
    (without ``url``: all), GET lists the registered URLs with their sizes."""
    store = emulator(request).state.features
    url = request.query_params.get("url")
    if request.method == "GET":
        return _json(
            {"remote": [{"url": u, "size": len(d)} for u, d in sorted(store.remote.items())]}
        )
    if request.method == "DELETE":
        if url is None:
            store.remote.clear()
        else:
            store.remote.pop(url, None)
        return Response(status_code=204)
    if not url:
        raise Invalid("Missing query parameter url")
    store.remote[url] = await body(request)
    return Response(status_code=204)


routes.append(Route("/__emulator/remote", remote, methods=["GET", "PUT", "DELETE"]))
