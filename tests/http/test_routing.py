"""``LazyRoutes``: the prefixes that decide when an area's routes are imported cover every
route, so routing answers as if every route were listed in place (``tests/test_startup.py``
checks which areas a request imports); ``Allow`` is the same in every process."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys

import pytest
from hypothesis import given
from hypothesis import strategies as st

from geoserver_emulator.http.app import AREAS
from geoserver_emulator.http.routing import LazyRoutes

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


START = """
import json
import httpx
import geoserver_emulator
transport = httpx.WSGITransport(app=geoserver_emulator.Emulator("stock").wsgi_app)
client = httpx.Client(transport=transport, base_url="http://localhost")
"""


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
