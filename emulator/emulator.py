"""``Emulator``: the one root object. It owns the state, clock, scheduler, journal and the
scenario it started from; every fixture and server hands out this object or something
built from it. There are no module globals: two emulators share nothing."""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .core import extensions as core_extensions
from .core.clock import DEFAULT_STEP, make_clock
from .core.faults import Faults
from .core.journal import BODY_LIMIT, Journal
from .core.profile import Decisions, decisions_for
from .core.progress import ProgressHistory
from .core.record import replace
from .core.state import State
from .core.vendor import VendorNames
from .scenarios import loader

if TYPE_CHECKING:
    from starlette.applications import Starlette

    from .areas.seeding.scheduler import SeedScheduler
    from .databases.service import Databases
    from .view import StateView

DEFAULT_MAX_BODY = 64 * 1024 * 1024


class Emulator:
    """An emulated GeoServer.

    Parameters:
        scenario: ``"stock"``, ``"empty"``, a path to a scenario file or folder, or an
            in-memory scenario document (a dict, or a ``ScenarioBuilder``).
        clock: ``"manual"`` (time moves only when advanced), ``"realtime"`` (it follows the
            wall clock) or ``"step"`` (it moves by ``clock_step`` seconds as each request
            arrives, before the answer).
        clock_step: the ``step`` clock's seconds per request (default 1).
        profile: ``"spec"`` or ``"geoserver"``; default: the scenario's, else ``"spec"``.
        vendor_prefix: prefix of Java class names written in payloads; default: the
            scenario's, else ``org.geoserver``.
        context_path: where the server is mounted, ``/geoserver`` by default.
        max_body: the largest request body accepted, in bytes (413 beyond).
        control_user, control_password: the credentials of the control plane
            (``/__emulator/…``), ``admin``/``geoserver`` by default. They are the
            process's own, not an emulated user's: nothing done over ``/rest`` changes them.
        journal_limit: how many requests the journal keeps, oldest dropped first (default:
            the scenario's ``journalLimit``, else all).
        journal_max_bytes: how many bytes of bodies the journal keeps in all (default: the
            scenario's ``journalMaxBytes``, else no bound).
        journal_body_limit: bytes of each request and answer body a journal entry keeps
            (longer ones are kept truncated, with their length and SHA-256); 1 MiB by
            default, None for whole bodies.
        databases: how PostGIS stores are used: ``"auto"`` (a database that answers is used
            for real, one that does not keeps in-memory tables), ``"live"`` (an unreachable
            database is an error where GeoServer reports one) or ``"memory"`` (never
            connect); default: the scenario's ``databases``, else ``"auto"``.
        database_hosts: hosts beyond loopback that database stores may contact (``"a,b"``
            or a list); default: the scenario's ``databaseHosts``, else none.
        host_read: whether host paths (``external.*`` uploads, harvests, ``file:`` URLs)
            read this machine's files, bounded per request, as GeoServer reads them; off,
            they resolve inside the emulated data directory. Default: the scenario's
            ``hostRead``, else ``host_read_default``.
        host_read_default: ``host_read`` when neither the argument nor the scenario says
            (on: an in-process emulator reads the host; ``serve`` bound to a non-loopback
            address passes False).
        extensions: GeoServer extensions to install (names of ``core/extensions.py``'s
            table: ``importer``, ``geofence``, ``monitor``, ``ogcapi-features``); default: the
            scenario's ``extensions``, else none. An unknown name raises ``ValueError``.
    """

    def __init__(
        self,
        scenario: loader.ScenarioRef = "stock",
        *,
        clock: str = "manual",
        clock_step: float = DEFAULT_STEP,
        profile: str | None = None,
        vendor_prefix: str | None = None,
        context_path: str = "/geoserver",
        max_body: int = DEFAULT_MAX_BODY,
        control_user: str = "admin",
        control_password: str = "geoserver",
        journal_limit: int | None = None,
        journal_max_bytes: int | None = None,
        journal_body_limit: int | None = BODY_LIMIT,
        host_read: bool | None = None,
        databases: str | None = None,
        database_hosts: str | list[str] | tuple[str, ...] | None = None,
        host_read_default: bool = True,
        extensions: Iterable[str] | None = None,
    ) -> None:
        self.context_path = "/" + context_path.strip("/") if context_path.strip("/") else ""
        self.max_body = max_body
        self.control_credentials = (control_user, control_password)
        """who may use the control plane (``/__emulator/…``; ``health`` is open)"""
        self._profile_arg = profile
        self._prefix_arg = vendor_prefix
        self.scenario = loader.load(scenario)
        settings = self.scenario.settings
        self.clock = make_clock(clock, settings.clock_origin, clock_step)
        self.journal = Journal(
            self.context_path,
            limit=journal_limit if journal_limit is not None else settings.journal_limit,
            max_bytes=(
                journal_max_bytes if journal_max_bytes is not None else settings.journal_max_bytes
            ),
            body_limit=journal_body_limit,
        )
        self._host_read_arg = host_read
        self._database_args = (databases, database_hosts)
        self._databases: Databases | None = None
        self._host_read_default = host_read_default
        self._extensions_arg = (
            None if extensions is None else core_extensions.check(extensions, "extensions")
        )
        self.journal.cassette_writer = self._save_journal
        self.on_reset: list[Callable[[], None]] = []
        """called after every ``reset`` (a ``serve --record`` cassette starts over)"""
        self.faults = Faults()
        self.internal_errors: list[str] = []
        """tracebacks of unexpected exceptions (each also answered 500); empty when healthy"""
        self.state: State = self.scenario.state()
        """the area stores as the emulator uses them: internal, their shapes may change
        between versions; tests read ``view`` instead"""
        self._attach_databases()
        self._scheduler: SeedScheduler | None = None
        self.seed_history = ProgressHistory()
        self.generation = 0
        """how many times the state started over (resets, scenario loads): the inspector's
        live updates notice a start-over that leaves every other figure as it was"""
        """each seed task's progress over simulated time (the inspector draws it)"""
        self.clock.subscribe(self._run_scheduler)
        self.clock.subscribe(self._run_imports)
        self.write_lock = threading.Lock()
        """held by a write request while it runs (``http/rollback.py``): one at a time"""
        self._configure()
        self._app: Starlette | None = None
        self._wsgi: Any = None

    def _configure(self) -> None:
        settings = self.scenario.settings
        self.profile: str = self._profile_arg or settings.profile or "spec"
        self.decisions: Decisions = decisions_for(self.profile)
        self.vendor = VendorNames(self._prefix_arg or settings.vendor_prefix or "org.geoserver")
        host_read = self._host_read_arg
        if host_read is None:
            host_read = settings.host_read
        self.host_read: bool = self._host_read_default if host_read is None else host_read
        """whether host paths read this machine (``areas/mosaics/sources.py``)"""
        self.extensions: frozenset[str] = (
            settings.extensions if self._extensions_arg is None else self._extensions_arg
        )
        """the GeoServer extensions installed (``core/extensions.py``)"""
        from .databases.policy import Policy, check_mode, parse_hosts

        mode, hosts = self._database_args
        self.database_policy = Policy(
            check_mode(mode or settings.databases or "auto"),
            parse_hosts(hosts) if hosts is not None else settings.database_hosts,
        )
        """which databases stores may use (``docs/databases.md``)"""
        if self._databases is not None:
            self._databases.policy = self.database_policy

    def _attach_databases(self) -> None:
        """Let the layers below reach this emulator's databases through its state (a PostGIS
        store's feature source, a mosaic's database index)."""
        from .databases.service import attach

        attach(self.state, lambda: self.databases)

    @property
    def databases(self) -> Databases:
        """The database side: pools and the back end each store uses (made on first use)."""
        if self._databases is None:
            from .databases.service import Databases

            self._databases = Databases(self.database_policy)
        return self._databases

    @property
    def view(self) -> StateView:
        """The public, typed, read-only view of the state, made now (``geoserver_emulator.view``:
        ``view.layers["topp:states"]``, ``view.users["admin"].roles``, ...)."""
        from .view import StateView

        return StateView.of(self)

    @property
    def scheduler(self) -> SeedScheduler:
        """The simulated seed scheduler (made on first use: it holds nothing of its own)."""
        if self._scheduler is None:
            from .areas.seeding.scheduler import SeedScheduler

            self._scheduler = SeedScheduler(lambda: self.state)
        return self._scheduler

    def _run_scheduler(self, now: float) -> None:
        self.scheduler.run_until(now)
        self.note_progress()

    def _run_imports(self, now: float) -> None:
        """Let the importer's asynchronous imports do the work simulated time allows
        (``areas/importer/jobs.py``); nothing to do without the extension or jobs."""
        if "importer" not in self.extensions or not self.state.importer.jobs:
            return
        from .areas.importer import jobs

        ctx = self._import_context()
        jobs.advance(ctx, ctx.state.importer, now)

    def drain_imports(self) -> None:
        """Run every asynchronous import to its end (the clock does not move)."""
        if "importer" not in self.extensions or not self.state.importer.jobs:
            return
        from .areas.importer import jobs

        ctx = self._import_context()
        jobs.drain(ctx, ctx.state.importer)

    def _import_context(self) -> Any:
        from .areas.mosaics.sources import HostBudget
        from .areas.uploads.context import Context
        from .wire.geoserver.dates import catalog_timestamp

        return Context(
            self.state, catalog_timestamp(self.clock.datetime()), self.clock.now(),
            self.url_allowed, self.max_body * 4, self.decisions,
            HostBudget() if self.host_read else None,
        )  # fmt: skip

    def note_progress(self) -> None:
        """Note each seed task's progress at this simulated time (``seed_history``, drawn by
        the inspector); cheap when there are no tasks."""
        if self._scheduler is None or not self._scheduler.store.tasks:
            return
        now = self.clock.now()
        self.seed_history.sample(now, ((t.id, t.row[0], t.row[1]) for t in self.scheduler.tasks))

    def cassette_header(self) -> dict[str, Any]:
        """The cassette header fields of this emulator's start: scenario (a built-in's name, a
        file's path, else the start state itself), context path, profile, vendor prefix."""
        name = self.scenario.name
        scenario: str | dict[str, Any]
        if name in loader.BUILTINS or Path(name).is_absolute() and Path(name).exists():
            scenario = name
        else:  # an in-memory document: carry the start state itself
            scenario = loader.dump(self.scenario.state(), self.scenario.settings)
        return {
            "scenario": scenario,
            "context_path": self.context_path,
            "source": "emulator",
            "timing": "simulated",
            "profile": self.profile,
            "vendor_prefix": self.vendor.prefix,
        }

    def _save_journal(self, journal: Journal, path: Path, scrub: bool) -> Path:
        from .scenarios.journal_cassette import save_journal

        return save_journal(journal, path, self.cassette_header(), scrub=scrub)

    @staticmethod
    def state_of_cassette(path: Path) -> tuple[State, loader.Settings]:
        """The state a cassette's successful writes build from its start scenario, and that
        scenario's settings (the scenario loader's reader for ``*.jsonl``)."""
        from .scenarios import replay

        return replay.build(path)

    # -- lifecycle ---------------------------------------------------------------------

    def reset(self) -> None:
        """Restore the start state: state, clock, scheduler and journal; clear the faults."""
        self.state = self.scenario.state()
        self._attach_databases()
        self.generation += 1
        self.clock.reset()
        if self._scheduler is not None:
            self._scheduler.reset()
        self.seed_history.clear()
        self.journal.clear()
        self.journal.diagnostics.clear()
        self.faults.clear()
        for hook in list(self.on_reset):
            hook()

    def load_scenario(self, scenario: loader.ScenarioRef) -> None:
        """Start over from another scenario."""
        self.scenario = loader.load(scenario)
        self._configure()
        self.clock.origin = self.scenario.settings.clock_origin
        self.reset()

    def dump_scenario(self) -> dict[str, Any]:
        """The current state as a self-contained scenario document (no ``extends``), with
        the profile and vendor prefix in use: loading it gives an equal emulator."""
        settings = replace(
            self.scenario.settings,
            profile=self.profile,
            vendor_prefix=self.vendor.prefix,
            extensions=self.extensions,
        )
        return loader.dump(self.state, settings)

    def save_scenario(self, path: str | Path) -> None:
        """Write ``dump_scenario()`` to a file that ``Emulator(path)`` loads."""
        Path(path).write_text(json.dumps(self.dump_scenario(), indent=2) + "\n", encoding="utf-8")

    def url_allowed(self, url: str) -> bool:
        """Whether the URL checks let the server fetch ``url`` (see ``areas/urlchecks``)."""
        return self.state.urlchecks.allows(url)

    def close(self) -> None:
        """End this emulator's use: its journal refuses further requests, and the WSGI
        adapter's event loop, if one was made, is closed."""
        self.journal.close()
        if self._databases is not None:
            self._databases.close()
        if self._wsgi is not None:
            self._wsgi.close()

    def __enter__(self) -> Emulator:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @contextmanager
    def serve(self, port: int = 0, host: str = "127.0.0.1") -> Iterator[str]:
        """A live server for this emulator during the ``with`` block; yields its base URL
        (``http://127.0.0.1:PORT/geoserver``). ``port=0`` picks a free port.

        ``with Emulator("stock") as emu, emu.serve() as url: ...``
        """
        from .http.server import LiveServer

        server = LiveServer(self.asgi_app, host, port).start()
        try:
            yield server.url(self.context_path)
        finally:
            server.stop()

    def tick(self, control: bool = False) -> None:
        """Called at the start of each request: a realtime clock's listeners catch up; a step
        clock moves by its step (not for the control plane's own requests: ``control``)."""
        sync = getattr(self.clock, "sync", None)
        if sync is not None:
            sync()
        step = getattr(self.clock, "tick", None)
        if step is not None and not control:
            step()

    # -- transports --------------------------------------------------------------------

    @property
    def asgi_app(self) -> Starlette:
        if self._app is None:
            from .http.app import create_app

            self._app = create_app(self)
        return self._app

    @property
    def wsgi_app(self) -> Any:
        if self._wsgi is None:
            from .http.wsgi import WSGIApp

            self._wsgi = WSGIApp(self.asgi_app)
        return self._wsgi
