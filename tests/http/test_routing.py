"""``LazyRoutes``: each area's routes wait for the first request that reaches the area, and
the prefixes that decide it cover every route, so routing answers as if every route were
listed in place."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys

import pytest
from hypothesis import given
from hypothesis import strategies as st

from emulator.http.app import AREAS
from emulator.http.routing import LazyRoutes

SEGMENT = st.text("abcXYZ019_-.", min_size=1, max_size=8).filter(lambda s: s not in (".", ".."))


def _sample(path: str, value: str) -> str:
    """A concrete path the route matches: parameters filled with ``value``."""
    path = re.sub(r"\{[^}:]+:path\}", f"{value}/{value}", path)
    return re.sub(r"\{[^}]+\}", value, path)


@pytest.mark.parametrize("area", AREAS, ids=lambda a: a.module.split(".")[2])
@given(value=SEGMENT)
def test_the_prefixes_cover_every_route_of_the_area(area: LazyRoutes, value: str) -> None:
    for route in area.routes:
        path = _sample(route.path, value)  # type: ignore[attr-defined]
        assert area.covers(path), path
        assert area.covers(path + "/"), path


@pytest.mark.parametrize(
    "prefixes,path,covered",
    [
        (("/rest/about",), "/rest/about", True),
        (("/rest/about",), "/rest/about.json", True),
        (("/rest/about",), "/rest/about/version.xml", True),
        (("/rest/about",), "/rest/aboutx", False),
        (("/rest/about",), "/rest", False),
        (("/rest/*/styles",), "/rest/ws/styles.json", True),
        (("/rest/*/styles",), "/rest/ws/layers", False),
        (("/rest/a/b",), "/rest/a.x/b", False),  # the suffix is allowed on the last only
    ],
)
def test_covers(prefixes: tuple[str, ...], path: str, covered: bool) -> None:
    assert LazyRoutes("unused", prefixes).covers(path) is covered


def _loaded_after(code: str) -> set[str]:
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    return {m for m in json.loads(out.stdout) if m.endswith(".routes")}


START = """
import json, sys
import httpx
import emulator
transport = httpx.WSGITransport(app=emulator.Emulator("stock").wsgi_app)
client = httpx.Client(transport=transport, base_url="http://localhost")
"""


def test_a_request_imports_only_the_areas_its_path_reaches() -> None:
    code = START + (
        "assert client.get('/geoserver/rest/about/version.json',"
        " auth=('admin', 'geoserver')).status_code == 200\n"
        "assert client.get('/geoserver/rest/nothing/here',"
        " auth=('admin', 'geoserver')).status_code == 404\n"
        "print(json.dumps(sorted(sys.modules)))"
    )
    assert _loaded_after(code) == {"emulator.control.routes", "emulator.areas.about.routes"}


def test_a_method_the_area_lacks_answers_405_with_allow() -> None:
    """The PARTIAL match of a lazy area's route is answered by that route."""
    code = START + (
        "r = client.delete('/geoserver/rest/about/version.json', auth=('admin', 'geoserver'))\n"
        "assert r.status_code == 405 and r.headers['allow'] == 'GET, HEAD', r\n"
        "print(json.dumps(sorted(sys.modules)))"
    )
    assert "emulator.areas.about.routes" in _loaded_after(code)


def test_allow_names_the_methods_in_the_declared_order_in_every_process() -> None:
    """Byte-identical answers: the header does not follow the process's string hashing."""
    code = START + (
        "r = client.put('/geoserver/rest/security/usergroup/users', auth=('admin', 'geoserver'))\n"
        "print(json.dumps([r.status_code, r.headers['allow']]))"
    )
    seen = set()
    for seed in ("1", "2", "3"):
        run = [sys.executable, "-c", code]
        env = {**os.environ, "PYTHONHASHSEED": seed}
        out = subprocess.run(run, capture_output=True, text=True, env=env)
        assert out.returncode == 0, out.stderr
        seen.add(out.stdout)
    assert seen == {json.dumps([405, "GET, HEAD, POST"]) + "\n"}
