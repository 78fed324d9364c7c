"""``geoserver-emulator serve …``: the standalone process of the outside contract."""

from __future__ import annotations

import argparse
import asyncio
import ipaddress
import math
import re
import signal
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING

from .core.clock import CLOCKS, DEFAULT_STEP
from .core.errors import ScenarioError
from .core.extensions import EXTENSIONS
from .core.extensions import parse as parse_extensions
from .core.profile import PROFILES
from .http.timeouts import BODY, HEADER, KEEP_ALIVE
from .recording import commands

if TYPE_CHECKING:
    from .emulator import Emulator

SERVE_JOURNAL_LIMIT = 10_000
"""requests ``serve``'s journal keeps by default"""
SERVE_JOURNAL_BYTES = 64 * 1024 * 1024
"""bytes of bodies ``serve``'s journal keeps by default (64 MiB)"""
SERVE_BODY_LIMIT = 64 * 1024
"""bytes of each body a ``serve`` journal entry keeps by default (64 KiB)"""
JAVA_PACKAGE = re.compile(r"[A-Za-z_$][\w$]*(\.[A-Za-z_$][\w$]*)*")
CONTEXT_PATH = re.compile(
    r"/?([A-Za-z0-9._~!$&'()*+,;=:@%-]+(/[A-Za-z0-9._~!$&'()*+,;=:@%-]+)*)?/?"
)


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        sys.stderr.write(f"geoserver-emulator: {message}\n")
        raise SystemExit(2)


class HelpWithDefaults(argparse.HelpFormatter):
    """Every option's help ends with its default (``off`` for a switch) unless the help
    already says it (help text of an option without a fixed default says what it is)."""

    def _get_help_string(self, action: argparse.Action) -> str:
        text = action.help or ""
        if action.required or action.default is argparse.SUPPRESS or "default" in text:
            return text
        if action.option_strings and action.nargs == 0 and action.default is False:
            return f"{text} (default: off)"
        if not action.option_strings or action.default is None or action.default == []:
            return text
        return f"{text} (default: %(default)s)"


def _version() -> str:
    from . import __version__

    return f"geoserver-emulator {__version__}"


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="geoserver-emulator",
        description="An emulated GeoServer REST interface.",
        formatter_class=HelpWithDefaults,
    )
    parser.add_argument("--version", action="version", version=_version())
    sub = parser.add_subparsers(dest="command", required=True)
    serve = sub.add_parser(
        "serve", help="serve the emulator over HTTP", formatter_class=HelpWithDefaults
    )
    serve.error = parser.error  # type: ignore[method-assign]
    serve.add_argument("--host", default="127.0.0.1", help="address to listen on")
    serve.add_argument(
        "--port", type=int, default=8080, help="port to listen on; 0 picks a free one"
    )
    serve.add_argument("--context-path", default="/geoserver", help="where the server is mounted")
    serve.add_argument(
        "--scenario",
        default="stock",
        metavar="stock|empty|PATH",
        help="stock, empty, or a scenario file or folder",
    )
    serve.add_argument(
        "--clock",
        choices=CLOCKS,
        default="realtime",
        help="realtime: simulated time follows the wall clock; manual: frozen until the control"
        " plane advances it; step: it moves by --clock-step seconds as each request arrives",
    )
    serve.add_argument(
        "--clock-step",
        type=float,
        default=DEFAULT_STEP,
        metavar="SECONDS",
        help="seconds the step clock moves per request",
    )
    serve.add_argument(
        "--vendor-prefix",
        default=None,
        metavar="PREFIX",
        help="prefix of Java class names in payloads (default: the scenario's, else org.geoserver)",
    )
    serve.add_argument(
        "--profile",
        choices=PROFILES,
        default=None,
        help="spec answers as the interface spec states, geoserver as the newest GeoServer"
        " (default: the scenario's, else spec)",
    )
    serve.add_argument(
        "--control-user",
        default="admin",
        metavar="USER",
        help="user name of the control plane (/__emulator/...): the process's own, not an"
        " emulated user",
    )
    serve.add_argument(
        "--control-password",
        default="geoserver",
        metavar="PASSWORD",
        help="password of the control plane",
    )
    serve.add_argument(
        "--log-requests",
        action="store_true",
        help="write one access-log line per request to stderr",
    )
    serve.add_argument(
        "--journal-limit",
        type=int,
        default=None,
        metavar="N",
        help=f"requests the journal keeps, the oldest dropped first (default: the scenario's"
        f" journalLimit, else {SERVE_JOURNAL_LIMIT})",
    )
    serve.add_argument(
        "--journal-max-bytes",
        type=int,
        default=None,
        metavar="BYTES",
        help=f"bytes of bodies the journal keeps in all (default: the scenario's"
        f" journalMaxBytes, else {SERVE_JOURNAL_BYTES})",
    )
    serve.add_argument(
        "--journal-body-limit",
        type=int,
        default=SERVE_BODY_LIMIT,
        metavar="BYTES",
        help="bytes of each request and answer body a journal entry keeps; longer ones are"
        " kept truncated with their length and SHA-256 (whole bodies with --record)",
    )
    serve.add_argument(
        "--timeout-header",
        type=float,
        default=HEADER,
        metavar="SECONDS",
        help="a request's line and headers must arrive within this time, else the"
        " connection is closed",
    )
    serve.add_argument(
        "--timeout-body",
        type=float,
        default=BODY,
        metavar="SECONDS",
        help="a request body may pause this long between two reads, else the connection is closed",
    )
    serve.add_argument(
        "--timeout-keep-alive",
        type=float,
        default=KEEP_ALIVE,
        metavar="SECONDS",
        help="an idle keep-alive connection is closed after this time",
    )
    reading = serve.add_mutually_exclusive_group()
    reading.add_argument(
        "--host-read",
        action="store_true",
        default=None,
        help="read host files (external.* uploads, mosaic harvests, file: URLs), bounded per"
        " request, also when bound to a non-loopback address (default: read only when bound"
        " to a loopback address)",
    )
    reading.add_argument(
        "--no-host-read",
        dest="host_read",
        action="store_false",
        help="never read host files: host paths resolve inside the emulated data directory"
        " (default: off)",
    )
    serve.add_argument(
        "--extensions",
        default=None,
        metavar="NAME,...",
        help="GeoServer extensions to install, comma-separated: "
        + ", ".join(EXTENSIONS)
        + " (default: the scenario's, else none, as on a stock install)",
    )
    serve.add_argument(
        "--databases",
        choices=("auto", "live", "memory"),
        default=None,
        help="PostGIS stores: auto (default: a database that answers is used for real, one"
        " that does not keeps in-memory tables), live (an unreachable database is an error"
        " where GeoServer reports one) or memory (never connect)",
    )
    serve.add_argument(
        "--database-hosts",
        default=None,
        metavar="HOST,...",
        help="hosts beyond loopback that database stores may contact (default: loopback only)",
    )
    commands.add_serve_options(serve)
    commands.register(sub, parser.error, HelpWithDefaults)
    return parser


SYNOPSIS_WIDTH = 96
"""columns of a synopsis line (docs indent it by four)"""


def synopsis(command: str) -> str:
    """The synopsis of a subcommand, from its parser: what the docs show (and a test holds
    them to). ``[--flag DEFAULT]``, ``[--flag a|b]`` for choices, ``--flag VALUE`` when
    required, ``[--flag VALUE]...`` when repeatable, ``[--a | --no-a]`` for a pair."""
    sub = next(a for a in _parser()._actions if isinstance(a, argparse._SubParsersAction)).choices[
        command
    ]
    head = f"geoserver-emulator {command}"
    words = [_synopsis_word(a) for a in sub._actions if a.dest != "help"]
    lines, line = [], head
    for word in (w for w in words if w):
        if len(line) + 1 + len(word) > SYNOPSIS_WIDTH and line.strip() != head:
            lines.append(line)
            line = " " * len(head)
        line += " " + word
    return "\n".join([*lines, line])


def _synopsis_word(action: argparse.Action) -> str:
    value = action.metavar or (action.dest.upper() if not action.option_strings else None)
    if not action.option_strings:
        return str(value)
    if isinstance(action, argparse.BooleanOptionalAction):
        return "[" + " | ".join(action.option_strings) + "]"
    flag = min(action.option_strings, key=len) if action.nargs == 0 else action.option_strings[-1]
    if action.nargs == 0:
        return f"[{flag}]"
    if action.metavar is None and action.choices:
        value = "|".join(map(str, action.choices))
    elif action.metavar is None and action.default not in (None, [], argparse.SUPPRESS):
        value = str(action.default)
    word = f"{flag} {value or action.dest.upper()}"
    if action.required:
        return word
    return f"[{word}]..." if isinstance(action, argparse._AppendAction) else f"[{word}]"


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    if args.command == "serve":
        return serve(args)
    if args.command in commands.COMMANDS:
        return commands.run(args)
    return 2  # pragma: no cover


DATABASE_HOST = re.compile(r"\[?[A-Za-z0-9._:%-]{1,253}\]?")


def _check(args: argparse.Namespace) -> str | None:
    """What is wrong with the flags argparse let through, or None."""
    if not 0 <= args.port <= 65535:
        return f"invalid port {args.port}"
    if args.vendor_prefix is not None and not JAVA_PACKAGE.fullmatch(args.vendor_prefix):
        return f"invalid vendor prefix {args.vendor_prefix!r}: expected a Java package name"
    if not CONTEXT_PATH.fullmatch(args.context_path):
        return f"invalid context path {args.context_path!r}"
    if args.extensions is not None:
        try:
            parse_extensions(args.extensions)
        except ValueError as exc:
            return str(exc)
    if not math.isfinite(args.clock_step) or args.clock_step <= 0:
        return f"invalid clock step {args.clock_step}: expected a positive number of seconds"
    for flag in ("journal_limit", "journal_max_bytes", "journal_body_limit"):
        value = getattr(args, flag)
        if value is not None and value <= 0:
            return f"invalid --{flag.replace('_', '-')} {value}: expected a positive integer"
    for host in (args.database_hosts or "").split(","):
        if host.strip() and not DATABASE_HOST.fullmatch(host.strip()):
            return f"invalid --database-hosts entry {host.strip()!r}: expected a host or address"
    if args.database_hosts is not None and not args.database_hosts.strip(","):
        return "invalid --database-hosts: expected HOST,..."
    for flag in ("timeout_header", "timeout_body", "timeout_keep_alive"):
        value = getattr(args, flag)
        if not math.isfinite(value) or value <= 0:
            return f"invalid --{flag.replace('_', '-')} {value}: expected a positive number"
    return None


def is_loopback(host: str) -> bool:
    """Whether ``--host`` names a loopback address (``localhost``, ``127.x.y.z``, ``::1``):
    a server bound there reads host files unless ``--no-host-read`` says not to."""
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def serve(args: argparse.Namespace) -> int:
    from .emulator import Emulator

    problem = _check(args)
    if problem:
        sys.stderr.write(f"geoserver-emulator: {problem}\n")
        return 2
    try:
        emu = Emulator(
            args.scenario,
            clock=args.clock,
            clock_step=args.clock_step,
            profile=args.profile,
            vendor_prefix=args.vendor_prefix,
            context_path=args.context_path,
            control_user=args.control_user,
            control_password=args.control_password,
            journal_limit=args.journal_limit,
            journal_max_bytes=args.journal_max_bytes,
            journal_body_limit=None if getattr(args, "record", None) else args.journal_body_limit,
            databases=args.databases,
            database_hosts=args.database_hosts,
            host_read=args.host_read,
            host_read_default=is_loopback(args.host),
            extensions=None if args.extensions is None else parse_extensions(args.extensions),
        )
    except ScenarioError as exc:
        sys.stderr.write(f"geoserver-emulator: bad scenario: {exc}\n")
        return 2
    try:
        recorder = commands.serve_recorder(emu, args)
    except OSError as exc:
        sys.stderr.write(f"geoserver-emulator: cannot write {args.record}: {exc.strerror}\n")
        return 2
    status = 2
    try:
        status = _serve_emulator(emu, args)
    finally:  # the recording replaces the cassette only when the server ran and stopped
        if recorder is not None and status == 0:
            recorder.close()
        elif recorder is not None:
            recorder.discard()
    return status


def _say_hint(message: str) -> None:
    """A hint about how the server is used (a client polling under a frozen clock), written
    to stderr the moment it is made."""
    sys.stderr.write(f"geoserver-emulator: warning: {message}\n")
    sys.stderr.flush()


def _serve_emulator(emu: Emulator, args: argparse.Namespace) -> int:
    """Bind, print the ``ready:`` line, serve until SIGINT or SIGTERM (0), or 2 when the
    address cannot be bound."""
    from .http.server import AccessLog, ThreadedServer, bind, config
    from .http.timeouts import Timeouts

    try:
        sock = bind(args.host, args.port)
    except OSError as exc:
        sys.stderr.write(
            f"geoserver-emulator: cannot listen on {args.host}:{args.port}: {exc.strerror}\n"
        )
        return 2
    emu.journal.warn_on_hint = False  # said at once on stderr instead, as one line
    emu.journal.hint_listeners.append(_say_hint)
    if emu.journal.limit is None:
        emu.journal.limit = SERVE_JOURNAL_LIMIT
    if emu.journal.max_bytes is None:
        emu.journal.max_bytes = SERVE_JOURNAL_BYTES
    host, port = sock.getsockname()[:2]
    app = AccessLog(emu.asgi_app, sys.stderr) if args.log_requests else emu.asgi_app
    timeouts = Timeouts(args.timeout_header, args.timeout_body, args.timeout_keep_alive)
    server = ThreadedServer(config(app, args.host, timeouts))
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

    asyncio.run(run())
    return 0
