"""The extension mechanism: a declared table of extensions, installed per emulator (argument,
scenario setting, CLI flag, plugin option); absent ones answer 404 as on a stock install."""

from __future__ import annotations

import sys
from pathlib import Path

import httpx
import pytest

from geoserver_emulator import Emulator
from geoserver_emulator.core import extensions
from geoserver_emulator.core.errors import ScenarioError
from geoserver_emulator.http import app as http_app
from geoserver_emulator.http.routing import ExtensionRoutes

ADMIN = ("admin", "geoserver")
BASE = "http://localhost:8080/geoserver"


def _client(emu: Emulator) -> httpx.Client:
    return httpx.Client(transport=httpx.WSGITransport(app=emu.wsgi_app), base_url=BASE, auth=ADMIN)


def test_the_table_names_the_extensions_of_the_contract():
    assert {"importer", "geofence", "monitor", "ogcapi-features"} <= set(extensions.EXTENSIONS)


@pytest.mark.parametrize("names", [["importer", "monitor"], "importer, monitor", ("monitor",)])
def test_the_argument_installs(names):
    emu = Emulator("empty", extensions=names)
    assert emu.extensions <= {"importer", "monitor"} and "monitor" in emu.extensions


def test_an_unknown_name_is_a_value_error_in_one_line():
    with pytest.raises(ValueError, match=r"unknown extension 'nope'; known: importer") as info:
        Emulator("empty", extensions=["importer", "nope"])
    assert "\n" not in str(info.value)


def test_the_scenario_setting_installs_and_round_trips():
    doc = {"extends": "empty", "settings": {"extensions": ["monitor", "importer"]}}
    emu = Emulator(doc)
    assert emu.extensions == {"importer", "monitor"}
    dumped = emu.dump_scenario()
    assert dumped["settings"]["extensions"] == ["importer", "monitor"]  # in table order
    assert Emulator(dumped).extensions == emu.extensions
    assert Emulator(doc, extensions=[]).extensions == frozenset()
    emu.reset()
    assert emu.extensions == {"importer", "monitor"}


@pytest.mark.parametrize(
    ("value", "says"),
    [(["nope"], "unknown extension 'nope'"), ("importer", "expected a list"), ([1], "string")],
)
def test_a_bad_scenario_setting_is_a_scenario_error(value, says):
    with pytest.raises(ScenarioError, match=says):
        Emulator({"extends": "empty", "settings": {"extensions": value}})


def test_a_stock_install_lists_no_extension():
    c = _client(Emulator("stock"))
    modules = c.get("/rest/about/status.xml").text
    assert "gs-importer" not in modules and "gs-monitor" not in modules
    assert "gs-importer" not in c.get("/rest/about/manifest.xml").text
    assert c.get("/rest/about/status/gs-importer-core.json").status_code == 404


@pytest.mark.parametrize("name", list(extensions.EXTENSIONS))
def test_an_installed_extension_is_listed_as_geoserver_lists_it(name):
    ext = extensions.EXTENSIONS[name]
    c = _client(Emulator("stock", extensions=[name]))
    version = "2.27.1"
    for jar in ext.jars:
        query = {"manifest": f"{jar.artifact}-[0-9].*"}
        resource = c.get("/rest/about/manifest.json", params=query).json()["about"]["resource"]
        assert resource["@name"] == f"{jar.artifact}-{version}"
        assert resource["GeoServerModule"] == "extension"
        assert resource["Implementation-Title"] == jar.title
    xml = c.get("/rest/about/manifest.xml?key=GeoServerModule&value=extension").text
    assert all(f'name="{j.artifact}-{version}"' in xml for j in ext.jars)
    for module in ext.modules:
        r = c.get(f"/rest/about/status/{module.module}.json")
        assert r.status_code == 200, r.text
        assert module.name in r.text
    others = set(extensions.EXTENSIONS) - {name}
    manifest = c.get("/rest/about/manifest.xml").text
    for other in others:
        assert not any(j.artifact + "-" in manifest for j in extensions.EXTENSIONS[other].jars)


@pytest.fixture
def fake_extension(monkeypatch):
    """A stand-in row's routes, as the table's rows add them (``tests/extensions``)."""
    sys.path.insert(0, str(Path(__file__).parent))
    area = ExtensionRoutes("monitor", "fake_routes", ("/rest/fakeext",))
    monkeypatch.setattr(http_app, "EXTENSION_AREAS", [area])
    yield
    sys.path.remove(str(Path(__file__).parent))


def test_extension_routes_answer_only_where_installed(fake_extension):
    assert _client(Emulator("empty")).get("/rest/fakeext").status_code == 404
    on = _client(Emulator("empty", extensions=["monitor"]))
    r = on.get("/rest/fakeext")
    assert (r.status_code, r.text) == (200, "installed")
    assert on.post("/rest/fakeext").status_code == 405
    assert _client(Emulator("empty", extensions=["importer"])).get("/rest/fakeext").status_code == (
        404
    )


def test_the_rest_index_lists_an_extension_only_where_installed(fake_extension, monkeypatch):
    from geoserver_emulator.http import rest_index as routes

    monkeypatch.setattr(routes, "_CACHE", {})
    assert ">fakeext<" not in _client(Emulator("empty")).get("/rest").text
    assert ">fakeext<" in _client(Emulator("empty", extensions=["monitor"])).get("/rest").text
