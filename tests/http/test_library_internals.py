"""The private parts of Starlette and uvicorn the emulator relies on (``docs/architecture.md``,
"Reliance on library internals"): each test fails with what changed and what to update.

Starlette and uvicorn are pinned below their next major version (``pyproject.toml``); a minor
release may still move these, so they are checked here rather than found by a failing
request.
"""

from __future__ import annotations

import inspect

import pytest
import uvicorn
from starlette import routing
from starlette.routing import Match, Mount, Route

from geoserver_emulator.http import routing as ours


def _update(what: str, where: str) -> str:
    return f"{what} changed: update {where} (docs/architecture.md, 'Reliance on library internals')"


async def _endpoint(request: object) -> None:  # pragma: no cover - never called
    return None


def test_starlette_routes_compile_their_path_into_three_attributes() -> None:
    """``http/routing.Route`` deletes them after ``__init__`` and compiles on first use."""
    why = _update("Starlette's Route path compilation", "emulator/http/routing.py (Route)")
    route = Route("/a/{b}", _endpoint)
    assert set(ours._COMPILED) <= set(vars(route)), why
    regex, fmt, convertors = routing.compile_path("/a/{b}")
    assert regex.match("/a/x") and fmt == "/a/{b}" and set(convertors) == {"b"}, why
    source = inspect.getsource(Route.matches)
    assert all(name in source for name in ("path_regex", "param_convertors", "methods")), why


def test_our_route_compiles_lazily_and_matches_as_starlettes() -> None:
    route = ours.Route("/a/{b}", _endpoint, methods=["GET"])
    assert not route.compiled()
    scope = {"type": "http", "path": "/a/x", "method": "GET", "root_path": ""}
    assert route.matches(scope)[0] is Match.FULL
    assert route.compiled()


def test_starlette_mount_gives_the_child_scope_contextroot_copies() -> None:
    """``http/routing.ContextRoot`` builds a mount's child scope itself, without its regex."""
    why = _update("Starlette's Mount child scope", "emulator/http/routing.py (ContextRoot)")
    mount = Mount("/ctx", routes=[Route("/x", _endpoint)])
    scope = {"type": "http", "path": "/ctx/x", "root_path": "", "path_params": {}}
    match, child = mount.matches(scope)
    assert match is Match.FULL, why
    assert set(child) == {"path_params", "app_root_path", "root_path", "endpoint"}, why
    assert child["root_path"] == "/ctx" and child["endpoint"] is mount.app, why
    assert isinstance(mount.app, routing.Router), why
    assert 'scope["router"]' in inspect.getsource(routing.Router.app), why


def test_starlette_no_match_found_takes_name_and_params() -> None:
    why = _update("starlette.routing.NoMatchFound", "emulator/http/routing.py (RouteGroup)")
    assert list(inspect.signature(routing.NoMatchFound).parameters) == ["name", "path_params"], why


def test_uvicorn_http_protocol_has_what_the_guard_reads() -> None:
    """``http/timeouts.guarded_protocol`` subclasses uvicorn's HTTP protocol and reads its
    event loop, transport and current request cycle."""
    why = _update("uvicorn's HTTP protocol", "emulator/http/timeouts.py (guarded_protocol)")
    from uvicorn.protocols.http.auto import AutoHTTPProtocol

    for method in ("connection_made", "data_received", "connection_lost"):
        assert callable(getattr(AutoHTTPProtocol, method, None)), why
    source = inspect.getsource(AutoHTTPProtocol)
    assert all(f"self.{name}" in source for name in ("loop", "transport", "cycle")), why
    cycle = inspect.getsource(inspect.getmodule(AutoHTTPProtocol))  # type: ignore[arg-type]
    assert "self.response_complete" in cycle and "self.more_body" in cycle, why


def test_uvicorn_server_state_lists_connections_with_client_and_transport() -> None:
    """``http/server.DropHook`` finds a client's connection among the server's to drop it."""
    why = _update("uvicorn's server state", "emulator/http/server.py (DropHook)")
    config = uvicorn.Config(app=_endpoint)
    server = uvicorn.Server(config)
    assert isinstance(server.server_state.connections, set), why
    from uvicorn.protocols.http.auto import AutoHTTPProtocol

    source = inspect.getsource(AutoHTTPProtocol)
    assert "self.client" in source and "self.transport" in source, why


def test_uvicorn_installs_signal_handlers_only_in_the_main_thread() -> None:
    """The live server of the fixtures runs uvicorn in a thread: it must not install signal
    handlers there (``http/server.ThreadedServer``)."""
    why = _update("uvicorn's signal handling", "emulator/http/server.py (ThreadedServer)")
    capture = getattr(uvicorn.Server, "capture_signals", None)
    if capture is None:  # uvicorn before 0.29: the override of install_signal_handlers
        assert hasattr(uvicorn.Server, "install_signal_handlers"), why
        return
    assert "main_thread" in inspect.getsource(capture), why


@pytest.mark.parametrize(("name", "below"), [("starlette", "2"), ("uvicorn", "1")])
def test_pinned_below_the_next_major_version(name: str, below: str) -> None:
    import tomllib
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    deps = tomllib.loads((root / "pyproject.toml").read_text())["project"]["dependencies"]
    spec = next(d for d in deps if d.startswith(name))
    assert f"<{below}" in spec, spec
