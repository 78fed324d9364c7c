"""pytest fixtures for testing code against an emulated GeoServer.

Registered through the ``pytest11`` entry point ``geoserver_emulator``: installing the package
is enough. The fixture graph (``docs/fixtures.md`` has the table):

    geoserver_default_scenario, geoserver_profile, geoserver_clock,       configuration,
    geoserver_vendor_prefix, geoserver_context_path, geoserver_credentials  override in conftest
        -> geoserver_emulator          a fresh Emulator per test (snapshot copy of the scenario)
            -> geoserver_asgi_app / geoserver_wsgi_app
            -> geoserver_client / geoserver_async_client / geoserver_requests   (in process)
            -> geoserver_url           the per-process live server, pointed at this emulator

Markers: ``geoserver_scenario(NAME_OR_PATH_OR_BUILDER)`` and ``geoserver_profile(NAME)`` on a
test, class or module. Options: ``--geoserver-scenario``, ``--geoserver-profile``,
``--geoserver-port``, ``--geoserver-clock``, ``--geoserver-clock-step``,
``--geoserver-coverage`` (and the ini settings ``geoserver_scenario``, ``geoserver_profile``,
``geoserver_port``, ``geoserver_clock``, ``geoserver_clock_step``).
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from geoserver_emulator import ScenarioError
from geoserver_emulator.core.clock import CLOCKS, DEFAULT_STEP
from geoserver_emulator.core.profile import PROFILES

from .hints import announcer

if TYPE_CHECKING:
    from geoserver_emulator import Emulator

    from .live import LiveTarget

# The emulator (with Starlette), uvicorn and httpx are imported by the fixtures that need
# them, not when pytest loads this plugin: a run that uses none of them does not pay for them.

ADMIN = ("admin", "geoserver")
IN_PROCESS_HOST = "http://localhost:8080"
SCENARIO_KEY = pytest.StashKey[str]()
PORT_KEY = pytest.StashKey[int]()
CLOCK_KEY = pytest.StashKey[tuple[str, float]]()
COVERAGE_KEY = pytest.StashKey["CoverageCollector"]()


# -- options, ini settings and markers -------------------------------------------------


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("geoserver-emulator")
    group.addoption(
        "--geoserver-scenario",
        default=None,
        metavar="NAME_OR_PATH",
        help="scenario the geoserver_* fixtures start from: stock (default), empty or a path",
    )
    group.addoption(
        "--geoserver-profile",
        default=None,
        choices=PROFILES,
        help="fidelity profile of the emulator: spec (default) or geoserver",
    )
    group.addoption(
        "--geoserver-port",
        default=None,
        type=int,
        metavar="PORT",
        help="port of the geoserver_url live server: 0 (default) picks a free one; under"
        " xdist worker N listens on PORT+N",
    )
    group.addoption(
        "--geoserver-clock",
        default=None,
        choices=CLOCKS,
        help="clock of the geoserver_* fixtures: manual (default), realtime, or step (each"
        " request moves time by --geoserver-clock-step seconds)",
    )
    group.addoption(
        "--geoserver-clock-step",
        default=None,
        type=float,
        metavar="SECONDS",
        help="seconds the step clock moves per request (default: 1)",
    )
    group.addoption(
        "--geoserver-coverage",
        action="store_true",
        default=False,
        help="report which emulated endpoints the run exercised and which it never touched",
    )
    group.addoption(
        "--geoserver-control-user",
        default=None,
        metavar="USER",
        help="user name of the emulator's control plane (/__emulator/...; default: admin)",
    )
    group.addoption(
        "--geoserver-control-password",
        default=None,
        metavar="PASSWORD",
        help="password of the emulator's control plane (default: geoserver)",
    )
    group.addoption(
        "--geoserver-databases",
        default=None,
        choices=("auto", "live", "memory"),
        help="PostGIS stores of the emulator: auto (default: used when the database answers),"
        " live (an unreachable database is an error) or memory (never connect)",
    )
    group.addoption(
        "--geoserver-database-hosts",
        default=None,
        metavar="HOST,...",
        help="hosts beyond loopback that the emulator's database stores may contact",
    )
    parser.addini("geoserver_databases", "databases mode: auto, live or memory", default=None)
    parser.addini(
        "geoserver_database_hosts", "hosts beyond loopback databases may be on", default=None
    )
    group.addoption(
        "--geoserver-extensions",
        default=None,
        metavar="NAME,...",
        help="GeoServer extensions the geoserver_* fixtures install (importer, geofence,"
        " monitor, ogcapi-features); default: the scenario's, else none",
    )
    group.addoption(
        "--geoserver-host-read",
        dest="geoserver_host_read",
        action="store_const",
        const=True,
        default=None,
        help="let the emulator read host files (external.* uploads, harvests, file: URLs);"
        " the default in-process and for the loopback live server",
    )
    group.addoption(
        "--geoserver-no-host-read",
        dest="geoserver_host_read",
        action="store_const",
        const=False,
        help="host paths resolve inside the emulated data directory, never on this machine",
    )
    parser.addini(
        "geoserver_extensions", "GeoServer extensions to install (comma-separated)", default=None
    )
    parser.addini(
        "geoserver_host_read", "whether the emulator reads host files (true/false)", default=None
    )
    parser.addini(
        "geoserver_scenario", "default scenario of the geoserver_* fixtures", default=None
    )
    parser.addini("geoserver_control_user", "user name of the control plane (admin)", default=None)
    parser.addini(
        "geoserver_control_password", "password of the control plane (geoserver)", default=None
    )
    parser.addini(
        "geoserver_journal_limit",
        "requests the journal keeps, oldest dropped first (default: all)",
        default=None,
    )
    parser.addini(
        "geoserver_profile", "default fidelity profile of the geoserver_* fixtures", default=None
    )
    parser.addini(
        "geoserver_port", "port of the geoserver_url live server (0: a free one)", default=None
    )
    parser.addini("geoserver_clock", "clock of the geoserver_* fixtures", default=None)
    parser.addini("geoserver_clock_step", "seconds per request of the step clock", default=None)


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "geoserver_scenario(name_or_path): the scenario the geoserver_emulator fixture starts from",
    )
    config.addinivalue_line(
        "markers", "geoserver_profile(name): the emulator's fidelity profile, spec or geoserver"
    )
    config.addinivalue_line(
        "markers",
        "geoserver_databases(mode, hosts=None): the emulator's databases mode (auto, live,"
        " memory) and the hosts beyond loopback it may contact",
    )
    config.addinivalue_line(
        "markers",
        "geoserver_extensions(names): GeoServer extensions installed, a list or 'a,b'",
    )
    config.addinivalue_line(
        "markers", "geoserver_host_read(flag): whether the emulator reads host files"
    )
    config.stash[SCENARIO_KEY] = _configured_scenario(config)
    profile = config.getini("geoserver_profile")
    if profile and profile not in PROFILES:
        raise pytest.UsageError(
            f"geoserver_profile = {profile!r}: expected one of {', '.join(PROFILES)}"
        )
    config.stash[PORT_KEY] = _configured_port(config)
    clock = config.getoption("geoserver_clock") or config.getini("geoserver_clock") or None
    if clock is not None and clock not in CLOCKS:
        raise pytest.UsageError(f"geoserver_clock = {clock!r}: expected one of {', '.join(CLOCKS)}")
    config.stash[CLOCK_KEY] = (clock or "manual", _configured_step(config))
    if config.getoption("geoserver_coverage"):
        from .coverage import CoverageCollector

        collector = CoverageCollector(config)
        config.stash[COVERAGE_KEY] = collector
        config.pluginmanager.register(collector, "geoserver-emulator-coverage")


def _configured_port(config: pytest.Config) -> int:
    """The live server's port: the option, else the ini value, else 0 (a free port)."""
    value: object = config.getoption("geoserver_port")
    if value is None:
        value = config.getini("geoserver_port") or 0
    try:
        port = int(str(value))
    except ValueError:
        raise pytest.UsageError(f"geoserver_port = {value!r}: expected a port number") from None
    if not 0 <= port <= 65535:
        raise pytest.UsageError(f"geoserver_port = {port}: expected 0 to 65535")
    return port


def _worker_port(config: pytest.Config) -> int:
    """The configured port, plus N on xdist worker ``gwN`` (a fixed port only)."""
    port = config.stash[PORT_KEY]
    worker = str(getattr(config, "workerinput", {}).get("workerid", ""))
    if port and worker.startswith("gw") and worker[2:].isdigit():
        port += int(worker[2:])
    return port


def _configured_step(config: pytest.Config) -> float:
    value: object = config.getoption("geoserver_clock_step")
    if value is None:
        value = config.getini("geoserver_clock_step") or DEFAULT_STEP
    try:
        step = float(str(value))
    except ValueError:
        step = math.nan
    if not math.isfinite(step) or step <= 0:
        raise pytest.UsageError(
            f"geoserver_clock_step = {value!r}: expected a positive number of seconds"
        )
    return step


def _configured_scenario(config: pytest.Config) -> str:
    """The default scenario from the option (relative to the invocation directory) or the
    ini file (relative to it), checked now so that a typo stops the run at once."""
    value, base = config.getoption("geoserver_scenario"), config.invocation_params.dir
    if value is None:
        value = config.getini("geoserver_scenario") or None
        base = config.inipath.parent if config.inipath else config.rootpath
    if value is None:
        return "stock"
    from geoserver_emulator.scenarios import loader

    try:
        ref = _relative(str(value), Path(base))
        loader.load(ref)
    except ScenarioError as exc:
        raise pytest.UsageError(f"geoserver-emulator: bad scenario {value!r}: {exc}") from None
    return ref


def _relative(ref: str, base: Path) -> str:
    """A relative scenario path: beside ``base`` first, else from the working directory;
    ``ScenarioError`` naming both places when neither has it."""
    from geoserver_emulator.scenarios.loader import BUILTINS, missing

    if ref in BUILTINS or Path(ref).is_absolute():
        return ref
    candidate = base / ref
    if candidate.exists():
        return str(candidate)
    if not Path(ref).exists():
        raise ScenarioError(missing(ref, [candidate, Path.cwd() / ref]))
    return ref


class GeoserverMarkerWarning(pytest.PytestWarning):
    """A geoserver_* marker on a test that uses no emulator fixture (it does nothing)."""


MARKERS = (
    "geoserver_scenario",
    "geoserver_profile",
    "geoserver_databases",
    "geoserver_extensions",
    "geoserver_host_read",
)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Warn, naming the test, when a marker of this plugin sits on a test function that uses
    no fixture built on ``geoserver_emulator`` (markers on a class or module are left alone:
    they may mark tests that do use one)."""
    for item in items:
        if "geoserver_emulator" in getattr(item, "fixturenames", ()):
            continue
        for marker in getattr(item, "own_markers", ()):
            if marker.name in MARKERS:
                item.warn(
                    GeoserverMarkerWarning(
                        f"{item.nodeid}: @pytest.mark.{marker.name} does nothing: the test"
                        " uses no geoserver-emulator fixture (geoserver_emulator, geoserver_url,"
                        " geoserver_client, ...)"
                    )
                )


def pytest_collection_finish(session: pytest.Session) -> None:
    """Import what the collected tests' fixtures need before the first test runs, so that
    neither that test's time nor xdist's balancing carries the imports. A run whose tests
    use no geoserver fixture imports nothing."""
    used: set[str] = set()
    for item in session.items:
        used.update(getattr(item, "fixturenames", ()))
    if not any(name.startswith("geoserver_") for name in used):
        return
    import geoserver_emulator

    geoserver_emulator.Emulator, geoserver_emulator.create_app  # noqa: B018 - imports them
    if "geoserver_url" in used:
        from . import live  # noqa: F401
    if used & {"geoserver_client", "geoserver_async_client", "geoserver_requests"}:
        from . import clients  # noqa: F401


def pytest_report_header(config: pytest.Config) -> str:
    from geoserver_emulator import __version__

    profile = config.getoption("geoserver_profile") or config.getini("geoserver_profile") or "spec"
    scenario = config.stash[SCENARIO_KEY]
    return f"geoserver-emulator {__version__}: scenario {scenario}, profile {profile}"


# -- configuration fixtures (override them in a conftest) --------------------------------


@pytest.fixture
def geoserver_default_scenario(pytestconfig: pytest.Config) -> Any:
    """The scenario of tests without a ``geoserver_scenario`` marker: the option, the ini
    setting, else ``"stock"``. May return a name, a path, a dict or a ``ScenarioBuilder``."""
    return pytestconfig.stash[SCENARIO_KEY]


@pytest.fixture
def geoserver_profile(pytestconfig: pytest.Config) -> str | None:
    """The fidelity profile (``spec`` or ``geoserver``); None: the scenario's, else ``spec``."""
    value = pytestconfig.getoption("geoserver_profile") or pytestconfig.getini("geoserver_profile")
    return str(value) if value else None


@pytest.fixture
def geoserver_clock(pytestconfig: pytest.Config) -> str:
    """``manual`` (time moves only when the test advances it; the default), ``realtime``, or
    ``step`` (each request moves time by ``geoserver_clock_step`` seconds before it is
    answered): the ``--geoserver-clock`` option or ``geoserver_clock`` ini value, else manual."""
    return pytestconfig.stash[CLOCK_KEY][0]


@pytest.fixture
def geoserver_clock_step(pytestconfig: pytest.Config) -> float:
    """Seconds per request of the ``step`` clock: ``--geoserver-clock-step``, the ini value
    ``geoserver_clock_step``, else 1."""
    return pytestconfig.stash[CLOCK_KEY][1]


@pytest.fixture
def geoserver_vendor_prefix() -> str | None:
    """Prefix of Java class names in payloads; None: the scenario's, else ``org.geoserver``."""
    return None


@pytest.fixture
def geoserver_context_path() -> str:
    """Where the emulated server is mounted."""
    return "/geoserver"


@pytest.fixture
def geoserver_control_credentials(pytestconfig: pytest.Config) -> tuple[str, str]:
    """The control plane's user and password (``/__emulator/…``): the options
    ``--geoserver-control-user`` / ``--geoserver-control-password``, the ini values
    ``geoserver_control_user`` / ``geoserver_control_password``, else ``admin``/``geoserver``.
    They are the emulator's own: no emulated user, whatever a test does over ``/rest``."""

    def pick(name: str, default: str) -> str:
        return str(pytestconfig.getoption(name) or pytestconfig.getini(name) or default)

    return pick("geoserver_control_user", ADMIN[0]), pick("geoserver_control_password", ADMIN[1])


@pytest.fixture
def geoserver_journal_limit(pytestconfig: pytest.Config) -> int | None:
    """How many requests the journal keeps (the oldest go first); None keeps them all. The
    ini value ``geoserver_journal_limit``, else None."""
    value = pytestconfig.getini("geoserver_journal_limit")
    if not value:
        return None
    try:
        limit = int(str(value))
    except ValueError:
        limit = 0
    if limit <= 0:
        raise pytest.UsageError(
            f"geoserver_journal_limit = {value!r}: expected a positive number of requests"
        )
    return limit


@pytest.fixture
def geoserver_extensions(pytestconfig: pytest.Config) -> list[str] | None:
    """The GeoServer extensions installed (``importer``, ``geofence``, ``monitor``,
    ``ogcapi-features``): ``--geoserver-extensions``, the ini value ``geoserver_extensions``,
    else None (the scenario's, else none, as on a stock install)."""
    value = pytestconfig.getoption("geoserver_extensions") or pytestconfig.getini(
        "geoserver_extensions"
    )
    return [n.strip() for n in str(value).split(",") if n.strip()] if value else None


@pytest.fixture
def geoserver_host_read(pytestconfig: pytest.Config) -> bool | None:
    """Whether the emulator reads host files: ``--geoserver-host-read`` /
    ``--geoserver-no-host-read``, the ini value ``geoserver_host_read``, else None (the
    scenario's ``hostRead``, else on: the emulator is in-process, the live server loopback)."""
    value = pytestconfig.getoption("geoserver_host_read")
    if value is None:
        text = str(pytestconfig.getini("geoserver_host_read") or "").strip().lower()
        if text in ("true", "1", "yes", "on"):
            return True
        if text in ("false", "0", "no", "off"):
            return False
        if text:
            raise pytest.UsageError(f"geoserver_host_read = {text!r}: expected true or false")
    return None if value is None else bool(value)


@pytest.fixture
def geoserver_credentials() -> tuple[str, str]:
    """The user the client fixtures log in as."""
    return ADMIN


@pytest.fixture
def geoserver_databases(pytestconfig: pytest.Config) -> tuple[str | None, str | None]:
    """(mode, hosts) of the emulator's database stores: ``--geoserver-databases`` or the
    ``geoserver_databases`` ini value (None: the scenario's, else ``auto``), and
    ``--geoserver-database-hosts`` / ``geoserver_database_hosts`` (``HOST,...``)."""
    mode = pytestconfig.getoption("geoserver_databases") or pytestconfig.getini(
        "geoserver_databases"
    )
    hosts = pytestconfig.getoption("geoserver_database_hosts") or pytestconfig.getini(
        "geoserver_database_hosts"
    )
    return (str(mode) if mode else None, str(hosts) if hosts else None)


# -- the emulator and its transports ----------------------------------------------------


@pytest.fixture
def geoserver_emulator(
    request: pytest.FixtureRequest,
    geoserver_default_scenario: Any,
    geoserver_profile: str | None,
    geoserver_clock: str,
    geoserver_clock_step: float,
    geoserver_vendor_prefix: str | None,
    geoserver_context_path: str,
    geoserver_control_credentials: tuple[str, str],
    geoserver_journal_limit: int | None,
    geoserver_databases: tuple[str | None, str | None],
    geoserver_extensions: list[str] | None,
    geoserver_host_read: bool | None,
) -> Iterator[Emulator]:
    """A fresh ``Emulator`` for this test, from the marker's scenario or the default one.

    At teardown its journal is closed, and the test errors if the emulator hit an
    unexpected exception (a bug in the emulator, answered 500).
    """
    try:
        scenario = _marker_scenario(request) or geoserver_default_scenario
    except ScenarioError as exc:
        pytest.fail(f"geoserver-emulator: cannot start the emulator: {exc}", pytrace=False)
    profile = _marker_arg(request, "geoserver_profile") or geoserver_profile
    if profile is not None and profile not in PROFILES:
        pytest.fail(
            f"geoserver_profile: expected one of {', '.join(PROFILES)}, got {profile!r}",
            pytrace=False,
        )
    from geoserver_emulator import Emulator

    databases, database_hosts = _marker_databases(request) or geoserver_databases
    try:
        emu = Emulator(
            scenario,
            clock=geoserver_clock,
            clock_step=geoserver_clock_step,
            profile=profile,
            vendor_prefix=geoserver_vendor_prefix,
            context_path=geoserver_context_path,
            control_user=geoserver_control_credentials[0],
            control_password=geoserver_control_credentials[1],
            journal_limit=geoserver_journal_limit,
            databases=databases,
            database_hosts=database_hosts,
            extensions=_marker_arg(request, "geoserver_extensions") or geoserver_extensions,
            host_read=_marker_flag(request, "geoserver_host_read", geoserver_host_read),
        )
    except (ScenarioError, ValueError) as exc:
        pytest.fail(f"geoserver-emulator: cannot start the emulator: {exc}", pytrace=False)
    collector = request.config.stash.get(COVERAGE_KEY, None)
    if collector is not None:
        emu.journal.observers.append(collector.observe)
    emu.journal.warn_on_hint = False  # issued below, in the test's context
    emu.journal.hint_listeners.append(announcer(request.config, request.node.nodeid))  # and now
    yield emu
    emu.close()
    if emu.journal.diagnostics:
        from geoserver_emulator.core.clock import FrozenClockWarning

        for hint in emu.journal.diagnostics:
            warnings.warn(FrozenClockWarning(f"{request.node.nodeid}: {hint}"), stacklevel=1)
    if emu.internal_errors:
        pytest.fail(
            "the emulator hit unexpected errors (a geoserver-emulator bug):\n"
            + "\n".join(emu.internal_errors)
        )


def _marker_databases(request: pytest.FixtureRequest) -> tuple[str | None, str | None] | None:
    """``@pytest.mark.geoserver_databases(mode, hosts=...)``, or None without one."""
    marker = request.node.get_closest_marker("geoserver_databases")
    if marker is None:
        return None
    if len(marker.args) != 1 or set(marker.kwargs) - {"hosts"}:
        pytest.fail(
            "@pytest.mark.geoserver_databases takes a mode and an optional hosts=", pytrace=False
        )
    hosts = marker.kwargs.get("hosts")
    return str(marker.args[0]), (",".join(hosts) if isinstance(hosts, list | tuple) else hosts)


def _marker_arg(request: pytest.FixtureRequest, name: str) -> Any:
    marker = request.node.get_closest_marker(name)
    if marker is None:
        return None
    if len(marker.args) != 1 or marker.kwargs:
        pytest.fail(f"@pytest.mark.{name} takes exactly one argument", pytrace=False)
    return marker.args[0]


def _marker_flag(request: pytest.FixtureRequest, name: str, default: bool | None) -> bool | None:
    value = _marker_arg(request, name)
    if value is None:
        return default
    if not isinstance(value, bool):
        pytest.fail(f"@pytest.mark.{name} takes True or False", pytrace=False)
    return value


def _marker_scenario(request: pytest.FixtureRequest) -> Any:
    """The marker's scenario; a relative path is taken relative to the test file first."""
    ref = _marker_arg(request, "geoserver_scenario")
    if isinstance(ref, str | Path):
        return _relative(str(ref), Path(request.node.path).parent)
    return ref


@pytest.fixture
def geoserver_asgi_app(geoserver_emulator: Emulator) -> Any:
    """The emulator's ASGI app (``httpx.AsyncClient(transport=httpx.ASGITransport(app=...))``)."""
    return geoserver_emulator.asgi_app


@pytest.fixture
def geoserver_wsgi_app(geoserver_emulator: Emulator) -> Any:
    """A WSGI callable over the same app (``httpx.WSGITransport``, werkzeug's ``Client``...)."""
    return geoserver_emulator.wsgi_app


@pytest.fixture(scope="session")
def _geoserver_live_target(pytestconfig: pytest.Config) -> Iterator[LiveTarget]:
    """The live server of this process (one per xdist worker), on the configured port."""
    from .live import LiveTarget

    port = _worker_port(pytestconfig)
    try:
        target = LiveTarget(port)
    except OSError as exc:
        pytest.fail(
            f"geoserver-emulator: cannot listen on 127.0.0.1:{port} for geoserver_url:"
            f" {exc.strerror} (--geoserver-port / geoserver_port; 0 picks a free port)",
            pytrace=False,
        )
    yield target
    target.stop()


@pytest.fixture
def geoserver_url(
    geoserver_emulator: Emulator, _geoserver_live_target: LiveTarget
) -> Iterator[str]:
    """The base URL (``http://127.0.0.1:PORT/geoserver``) of a live server backed by this
    test's emulator; any client, in any process, can use it."""
    url = _geoserver_live_target.attach(geoserver_emulator)
    yield url
    errors = _geoserver_live_target.detach()
    if errors:
        pytest.fail("the live server hit unexpected errors:\n" + "\n".join(errors))


# -- client conveniences ----------------------------------------------------------------


def _in_process_url(emu: Emulator) -> str:
    return IN_PROCESS_HOST + emu.context_path


@pytest.fixture
def geoserver_client(
    geoserver_emulator: Emulator, geoserver_credentials: tuple[str, str]
) -> Iterator[Any]:
    """An ``httpx.Client`` logged in as the administrator, answered in process; paths are
    relative to the context root (``client.get("/rest/about/version.json")``)."""
    from . import clients

    with clients.httpx_client(
        geoserver_emulator.wsgi_app, _in_process_url(geoserver_emulator), geoserver_credentials
    ) as client:
        yield client


@pytest.fixture
def geoserver_async_client(
    geoserver_emulator: Emulator, geoserver_credentials: tuple[str, str]
) -> Any:
    """An ``httpx.AsyncClient`` logged in as the administrator, over the ASGI app, for async
    tests (any runner: anyio, pytest-asyncio...). It holds no connection; closing it is optional."""
    from . import clients

    return clients.httpx_async_client(
        geoserver_emulator.asgi_app, _in_process_url(geoserver_emulator), geoserver_credentials
    )


@pytest.fixture
def geoserver_requests(
    geoserver_emulator: Emulator, geoserver_credentials: tuple[str, str]
) -> Iterator[Any]:
    """A ``requests.Session`` logged in as the administrator, answered in process; relative
    URLs continue the base URL (needs the ``requests`` package)."""
    try:
        import requests  # noqa: F401
    except ImportError:
        pytest.fail(
            "geoserver_requests needs the requests package (pip install requests)", pytrace=False
        )
    from . import requests_adapter

    with requests_adapter.requests_session(
        geoserver_emulator.wsgi_app, _in_process_url(geoserver_emulator), geoserver_credentials
    ) as session:
        yield session
