"""``geoserver-emulator serve …``: the standalone process of the outside contract."""

from __future__ import annotations

import argparse
import asyncio
import re
import signal
import sys
from collections.abc import Sequence

from .core.errors import ScenarioError
from .core.profile import PROFILES
from .recording import commands

JAVA_PACKAGE = re.compile(r"[A-Za-z_$][\w$]*(\.[A-Za-z_$][\w$]*)*")
CONTEXT_PATH = re.compile(
    r"/?([A-Za-z0-9._~!$&'()*+,;=:@%-]+(/[A-Za-z0-9._~!$&'()*+,;=:@%-]+)*)?/?"
)


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        sys.stderr.write(f"geoserver-emulator: {message}\n")
        raise SystemExit(2)


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="geoserver-emulator", description="An emulated GeoServer REST interface.")
    sub = parser.add_subparsers(dest="command", required=True)
    serve = sub.add_parser("serve", help="serve the emulator over HTTP")
    serve.error = parser.error  # type: ignore[method-assign]
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=8080)
    serve.add_argument("--context-path", default="/geoserver")
    serve.add_argument("--scenario", default="stock")
    serve.add_argument("--clock", choices=("manual", "realtime"), default="realtime")
    serve.add_argument("--vendor-prefix", default=None)
    serve.add_argument("--profile", choices=PROFILES, default=None)
    commands.add_serve_options(serve)
    commands.register(sub, parser.error)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    if args.command == "serve":
        return serve(args)
    if args.command in commands.COMMANDS:
        return commands.run(args)
    return 2  # pragma: no cover


def _check(args: argparse.Namespace) -> str | None:
    """What is wrong with the flags argparse let through, or None."""
    if not 0 <= args.port <= 65535:
        return f"invalid port {args.port}"
    if args.vendor_prefix is not None and not JAVA_PACKAGE.fullmatch(args.vendor_prefix):
        return f"invalid vendor prefix {args.vendor_prefix!r}: expected a Java package name"
    if not CONTEXT_PATH.fullmatch(args.context_path):
        return f"invalid context path {args.context_path!r}"
    return None


def serve(args: argparse.Namespace) -> int:
    from .emulator import Emulator
    from .http.server import ThreadedServer, bind, config

    problem = _check(args)
    if problem:
        sys.stderr.write(f"geoserver-emulator: {problem}\n")
        return 2
    try:
        emu = Emulator(
            args.scenario,
            clock=args.clock,
            profile=args.profile,
            vendor_prefix=args.vendor_prefix,
            context_path=args.context_path,
        )
    except ScenarioError as exc:
        sys.stderr.write(f"geoserver-emulator: bad scenario: {exc}\n")
        return 2
    try:
        recorder = commands.serve_recorder(emu, args)
    except OSError as exc:
        sys.stderr.write(f"geoserver-emulator: cannot write {args.record}: {exc.strerror}\n")
        return 2
    try:
        sock = bind(args.host, args.port)
    except OSError as exc:
        sys.stderr.write(
            f"geoserver-emulator: cannot listen on {args.host}:{args.port}: {exc.strerror}\n"
        )
        return 2
    host, port = sock.getsockname()[:2]
    server = ThreadedServer(config(emu.asgi_app, args.host))
    shown_host = f"[{host}]" if ":" in host else host

    async def run() -> None:
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(sig, lambda: setattr(server, "should_exit", True))
        task = asyncio.create_task(server.serve(sockets=[sock]))
        while not server.started:
            if task.done():
                break
            await asyncio.sleep(0.005)
        if server.started:
            print(f"ready: http://{shown_host}:{port}{emu.context_path}", flush=True)
        await task

    try:
        asyncio.run(run())
    finally:
        if recorder is not None:
            recorder.close()
    return 0
