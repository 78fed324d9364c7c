"""Start-up stays light: the slow third-party imports wait for the first request that needs
them (``benchmarks/startup.py`` prints the times; this guards the imports, not the clock)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

SLOW = [
    "pygeofilter",  # mosaic granule filters (with lark's grammar, ~170 ms)
    "lark",
    "shapely",  # geometry predicates of filters (with numpy, ~140 ms)
    "numpy",
    "PIL",  # granule headers
    "dateparser",  # pulled in by pygeofilter
    "regex",  # URL checks, mosaic collectors
    "werkzeug",  # header parsing beyond the simple cases
    "lxml",  # XML bodies
    "urllib.request",  # pulled in by xml.sax.saxutils
    "pyproj",  # PROJ's EPSG database: the first request that names or transforms a CRS
    # the emulator's own modules that only some endpoints need
    "geoserver_emulator.areas.styles.sld",  # style bodies: SLD versions, CSS shells
    "geoserver_emulator.areas.styles.uploads",  # style POST/PUT, with the CSS and ZIP readers
    "geoserver_emulator.areas.styles.css",
    "geoserver_emulator.areas.styles.package",
    # the stock sample data: read and decoded by the first request that needs a stock layer
    "geoserver_emulator.stockdata",
    "geoserver_emulator.stockdata.codec",
]

START = """
import json, sys
import geoserver_emulator
emu = geoserver_emulator.Emulator("stock")
geoserver_emulator.create_app(emu)
emu.reset()
print(json.dumps(sorted(sys.modules)))
"""


def loaded_after(code: str, env: dict[str, str] | None = None) -> set[str]:
    run = [sys.executable, "-c", code]
    out = subprocess.run(run, capture_output=True, text=True, env=env)
    assert out.returncode == 0, out.stderr
    return set(json.loads(out.stdout))


@pytest.fixture(scope="module")
def at_start() -> set[str]:
    return loaded_after(START)


@pytest.mark.parametrize("module", SLOW)
def test_start_up_does_not_import(at_start: set[str], module: str) -> None:
    assert module not in at_start


def test_with_the_scenario_cache_warm_start_up_imports_no_area_beyond_the_login(
    tmp_path,
) -> None:
    """The stock baseline comes from the disk cache (``scenarios/diskcache.py``), the routes
    wait for their area (``http/routing.LazyRoutes``): only the models that authentication
    reads are imported."""
    env = {**os.environ, "GEOSERVER_EMULATOR_CACHE": str(tmp_path)}
    cold = loaded_after(START, env)
    assert "geoserver_emulator.areas.sections" in cold  # the first start parsed the scenario
    warm = {m for m in loaded_after(START, env) if m.startswith("geoserver_emulator.areas.")}
    assert warm == {
        "geoserver_emulator.areas.access",
        "geoserver_emulator.areas.users",
        "geoserver_emulator.areas.users.model",
        "geoserver_emulator.areas.auth_providers",
        "geoserver_emulator.areas.auth_providers.model",
        "geoserver_emulator.areas.auth_providers.classes",
    }


CLIENT = """
import json, sys
import httpx
import geoserver_emulator
transport = httpx.WSGITransport(app=geoserver_emulator.Emulator("stock").wsgi_app)
client = httpx.Client(transport=transport, base_url="http://localhost", auth=("admin", "geoserver"))
"""


def routes_after(code: str) -> set[str]:
    return {m for m in loaded_after(CLIENT + code) if m.endswith(".routes")}


def test_a_request_imports_only_the_areas_its_path_reaches() -> None:
    """Each area's routes wait for the first request that reaches the area
    (``emulator/http/routing.LazyRoutes``)."""
    code = (
        "assert client.get('/geoserver/rest/about/version.json').status_code == 200\n"
        "assert client.get('/geoserver/rest/nothing/here').status_code == 404\n"
        "print(json.dumps(sorted(sys.modules)))"
    )
    assert routes_after(code) == {
        "geoserver_emulator.control.routes",
        "geoserver_emulator.areas.about.routes",
    }


def test_a_method_the_area_lacks_answers_405_with_allow() -> None:
    """The PARTIAL match of a lazy area's route is answered by that route."""
    code = (
        "r = client.delete('/geoserver/rest/about/version.json')\n"
        "assert r.status_code == 405 and r.headers['allow'] == 'GET, HEAD', r\n"
        "print(json.dumps(sorted(sys.modules)))"
    )
    assert "geoserver_emulator.areas.about.routes" in routes_after(code)


def test_the_check_sees_what_a_first_use_imports() -> None:
    """The same check after one spatial granule filter and one XML body: it would notice
    them (shapely and numpy come with the first spatial filter only)."""
    code = START.replace(
        "print(",
        "from geoserver_emulator.filters import predicates\n"
        'predicates.compile_filter("BBOX(the_geom, 0, 0, 1, 1)")(\n'
        '    {"the_geom": predicates.shapely.geometry.box(0, 0, 2, 2)})\n'
        "from geoserver_emulator.wire import xml\n"
        "xml.element('x')\n"
        "print(",
    )
    loaded = loaded_after(code)
    assert {"pygeofilter", "lark", "shapely", "numpy", "lxml"} <= loaded


def test_loading_the_pytest_plugin_imports_no_emulator_server_or_client() -> None:
    """pytest loads the plugin in every run where the package is installed: the emulator,
    Starlette, uvicorn and httpx wait for the first test that uses a fixture."""
    code = (
        "import json, sys\nimport geoserver_emulator_pytest.pytest_plugin\n"
        "print(json.dumps(sorted(sys.modules)))"
    )
    loaded = loaded_after(code)
    assert (
        not {
            "geoserver_emulator.emulator",
            "geoserver_emulator.core.state",
            "starlette",
            "uvicorn",
            "httpx",
        }
        & loaded
    )


def test_a_pytest_run_without_geoserver_fixtures_imports_no_emulator(tmp_path) -> None:
    (tmp_path / "test_plain.py").write_text(
        "import sys\n\n"
        "def test_plain():\n"
        "    loaded = {'geoserver_emulator.emulator', 'geoserver_emulator.core.state',\n"
        "              'starlette', 'uvicorn'}\n"
        "    assert not loaded & set(sys.modules), loaded & set(sys.modules)\n"
    )
    run = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "test_plain.py"]
    out = subprocess.run(run, cwd=tmp_path, capture_output=True, text=True)
    assert out.returncode == 0, out.stdout + out.stderr


def test_a_run_with_geoserver_fixtures_imports_them_before_the_first_test(tmp_path) -> None:
    (tmp_path / "test_live.py").write_text("def test_first(geoserver_url):\n    pass\n")
    (tmp_path / "conftest.py").write_text(
        "import sys\n\n"
        "def pytest_runtest_setup(item):\n"
        "    wanted = {'geoserver_emulator.emulator', 'geoserver_emulator.http.app',\n"
        "              'geoserver_emulator_pytest.live'}\n"
        "    assert not wanted - set(sys.modules), wanted - set(sys.modules)\n"
    )
    run = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider"]
    out = subprocess.run(run, cwd=tmp_path, capture_output=True, text=True)
    assert out.returncode == 0, out.stdout + out.stderr


def test_start_up_compiles_no_route_path() -> None:
    """Every route is ``http.routing.Route`` (an extension's wrapped in ``Installed``): its
    path regex waits for a match."""
    code = START.replace(
        "print(",
        "from geoserver_emulator.http.app import all_routes\n"
        "from geoserver_emulator.http.routing import Route, unwrapped\n"
        "routes = [unwrapped(r) for r in all_routes()]\n"
        "assert routes and all(isinstance(r, Route) for r in routes)\n"
        "sys.modules['compiled'] = [r.path for r in routes if r.compiled()]\n"
        "print(",
    )
    assert "compiled" in loaded_after(code)  # the check ran
    code = code.replace("sorted(sys.modules)", "sys.modules['compiled']")
    assert loaded_after(code) == set()


def test_every_route_path_compiles_as_starlette_compiles_it() -> None:
    from starlette.routing import compile_path

    from geoserver_emulator.http.app import all_routes

    for route in all_routes():
        regex, fmt, convertors = compile_path(route.path)  # type: ignore[attr-defined]
        assert route.path_regex.pattern == regex.pattern  # type: ignore[attr-defined]
        assert route.path_format == fmt  # type: ignore[attr-defined]
        assert list(route.param_convertors) == list(convertors)  # type: ignore[attr-defined]
        assert route.compiled()  # type: ignore[attr-defined]
