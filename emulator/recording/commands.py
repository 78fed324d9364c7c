"""The recording commands of ``geoserver-emulator``: ``record``, ``replay``, ``import``, and
``serve --record FILE``. ``cli.py`` registers them and hands over the parsed arguments."""

from __future__ import annotations

import argparse
import asyncio
import signal
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..core.errors import ScenarioError
from ..core.profile import PROFILES

if TYPE_CHECKING:
    from ..emulator import Emulator
    from .recorder import EmulatorRecorder

COMMANDS = ("record", "replay", "import")


def _fail(message: str) -> int:
    sys.stderr.write(f"geoserver-emulator: {message}\n")
    return 2


def add_serve_options(serve: argparse.ArgumentParser) -> None:
    serve.add_argument(
        "--record",
        metavar="FILE",
        default=None,
        help="record the traffic to a cassette, replaced when the server stops normally"
        " (default: no recording)",
    )
    serve.add_argument(
        "--no-scrub", action="store_true", help="keep credentials and hosts in the cassette"
    )


def register(sub: Any, error: Callable[[str], Any], formatter: Any = None) -> None:
    """Add the ``record``, ``replay`` and ``import`` subcommands (``formatter``: the help
    formatter class, which shows each flag's default)."""
    more = {} if formatter is None else {"formatter_class": formatter}
    rec = sub.add_parser("record", help="record traffic to a server through a proxy", **more)
    rec.error = error
    rec.add_argument("--upstream", required=True, metavar="URL", help="the server's base URL")
    rec.add_argument("--host", default="127.0.0.1", help="address the proxy listens on")
    rec.add_argument("--port", type=int, default=8080, help="port the proxy listens on")
    rec.add_argument(
        "--out",
        required=True,
        metavar="FILE",
        help="the cassette to write (replaced when the proxy stops normally)",
    )
    rec.add_argument(
        "--scenario",
        default="stock",
        metavar="stock|empty|PATH",
        help="the scenario replay starts from",
    )
    rec.add_argument(
        "--profile",
        choices=PROFILES,
        default=None,
        help="the profile replay uses (default: the scenario's, else spec)",
    )
    rec.add_argument("--no-scrub", action="store_true", help="keep credentials and hosts")

    rep = sub.add_parser(
        "replay", help="replay a cassette: apply its writes, or --verify it", **more
    )
    rep.error = error
    rep.add_argument("cassette", metavar="FILE", help="the cassette file (*.jsonl)")
    rep.add_argument(
        "--verify", action="store_true", help="compare every answer with the recording"
    )
    rep.add_argument(
        "--against",
        metavar="URL",
        help="a server's base URL (default: an emulator in this process)",
    )
    rep.add_argument(
        "--scenario",
        default=None,
        help="start from this scenario (default: the one the cassette's header names)",
    )
    rep.add_argument(
        "--profile",
        choices=PROFILES,
        default=None,
        help="the emulator's profile (default: the cassette header's)",
    )
    rep.add_argument(
        "--secret",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a scrubbed secret's value; repeatable (default: none)",
    )
    rep.add_argument(
        "--auth",
        action="append",
        default=[],
        metavar="USER:PASSWORD",
        help="credentials for a scrubbed user; repeatable (default: admin:geoserver only)",
    )
    rep.add_argument(
        "--skip",
        action="append",
        default=[],
        metavar="PATTERN",
        help="paths not compared; repeatable (default: none)",
    )
    rep.add_argument(
        "--out",
        metavar="SCENARIO",
        help="write the state the writes build as a scenario (default: not written)",
    )
    rep.add_argument("-v", "--verbose", action="store_true", help="list matching exchanges too")

    imp = sub.add_parser(
        "import", help="read a running server's configuration into a scenario", **more
    )
    imp.error = error
    imp.add_argument(
        "--from", dest="source", required=True, metavar="URL", help="the server's base URL"
    )
    imp.add_argument("--user", default="admin", help="the user to log in as")
    imp.add_argument("--password", default="geoserver", help="that user's password")
    imp.add_argument("--out", required=True, metavar="SCENARIO", help="the scenario file to write")
    imp.add_argument("--include-secrets", action="store_true", help="keep the keystore password")


def run(args: argparse.Namespace) -> int:
    if args.command == "record":
        return record(args)
    if args.command == "replay":
        return replay(args)
    return import_(args)


# -- record ---------------------------------------------------------------------------------


def record(args: argparse.Namespace) -> int:
    """``record``: the cassette at ``--out`` is replaced only when the proxy stops normally
    (SIGINT or SIGTERM); a failure (a busy port, an unwritable folder) leaves it as it was."""
    from .recorder import RecordingProxy

    if not 0 <= args.port <= 65535:
        return _fail(f"invalid port {args.port}")
    try:
        proxy = RecordingProxy(
            args.upstream,
            args.out,
            scenario=args.scenario,
            scrub=not args.no_scrub,
            profile=args.profile,
        )
    except ValueError as exc:
        return _fail(str(exc))
    except OSError as exc:
        return _fail(f"cannot write {args.out}: {exc.strerror}")
    status = 1
    try:
        status = serve_app(proxy.app, args.host, args.port, proxy.context_path)
    finally:
        if status == 0:
            proxy.close()
            sys.stderr.write(
                f"geoserver-emulator: recorded {proxy.recorded} exchanges to {args.out}\n"
            )
        else:
            proxy.discard()
    return status


def serve_app(app: Any, host: str, port: int, context_path: str) -> int:
    """Serve an ASGI app until SIGINT or SIGTERM, printing the ``ready:`` line."""
    from ..http.server import ThreadedServer, bind, config

    try:
        sock = bind(host, port)
    except OSError as exc:
        return _fail(f"cannot listen on {host}:{port}: {exc.strerror}")
    bound_host, bound_port = sock.getsockname()[:2]
    server = ThreadedServer(config(app, host))
    shown = f"[{bound_host}]" if ":" in bound_host else bound_host

    async def main() -> None:
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(sig, lambda: setattr(server, "should_exit", True))
        task = asyncio.create_task(server.serve(sockets=[sock]))
        while not server.started and not task.done():
            await asyncio.sleep(0.005)
        if server.started:
            print(f"ready: http://{shown}:{bound_port}{context_path}", flush=True)
        await task

    asyncio.run(main())
    return 0


def serve_recorder(emu: Emulator, args: argparse.Namespace) -> EmulatorRecorder | None:
    """The recorder ``serve --record FILE`` attaches to the emulator (None without the flag);
    raises OSError when the file cannot be written."""
    if not getattr(args, "record", None):
        return None
    from .recorder import EmulatorRecorder

    return EmulatorRecorder(emu, args.record, scrub=not args.no_scrub)


# -- replay ---------------------------------------------------------------------------------


def _pairs(values: list[str], sep: str, what: str) -> dict[str, str]:
    out = {}
    for value in values:
        key, found, rest = value.partition(sep)
        if not found or not key:
            raise ValueError(f"{value!r}: expected {what}")
        out[key] = rest
    return out


def replay(args: argparse.Namespace) -> int:
    from ..scenarios import replay as rp
    from ..scenarios.cassette import read
    from .verify import verify

    try:
        secrets = rp.Secrets(
            _pairs(args.secret, "=", "NAME=VALUE"),
            {"admin": "geoserver", **_pairs(args.auth, ":", "USER:PASSWORD")},
        )
        cassette = read(args.cassette)
        target: Any = rp.Remote(args.against) if args.against else None
    except (ValueError, ScenarioError) as exc:
        return _fail(str(exc))
    try:
        if target is None:
            target = rp.InProcess(rp.start_emulator(cassette, args.scenario, args.profile))
    except ScenarioError as exc:
        return _fail(f"bad scenario: {exc}")
    try:
        if args.verify:
            report = verify(cassette, target, secrets, tuple(args.skip))
            sys.stdout.write(report.text(args.verbose))
            return 0 if report.ok else 1
        try:
            sent = rp.apply_to(cassette, target, secrets)
        except ScenarioError as exc:
            sys.stderr.write(f"geoserver-emulator: {exc}\n")
            return 1
        print(f"applied {sent} writes from {args.cassette} to {target.description}")
        if args.out:
            if not isinstance(target, rp.InProcess):
                return _fail("--out needs the emulator in process (no --against)")
            target.emu.save_scenario(args.out)
            print(f"wrote the resulting scenario to {args.out}")
        return 0
    finally:
        target.close()


# -- import ---------------------------------------------------------------------------------


def import_(args: argparse.Namespace) -> int:
    from .importer import ImportFailed, import_scenario

    try:
        result = import_scenario(
            args.source, args.user, args.password, args.out, include_secrets=args.include_secrets
        )
    except ValueError as exc:
        return _fail(str(exc))
    except ImportFailed as exc:
        return _fail(f"import failed: {exc}")
    sys.stdout.write(result.summary())
    return 0
