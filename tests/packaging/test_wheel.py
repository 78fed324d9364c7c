"""The built wheel, installed as a user would get it (not the editable install)."""

from __future__ import annotations

import configparser
import re
import shutil
import subprocess
import sys
import sysconfig
import tomllib
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


WARNING = re.compile(r"\w*Warning\b|warning:|^\s*!!\s*$", re.MULTILINE)
"""a warning the build backend prints (setuptools' ``SetuptoolsWarning`` family and its ``!!``
banners); pip's own ``WARNING:`` lines about the machine's index settings do not count"""


def _source_files() -> set[Path]:
    """Every file of the two package trees a user would build from (caches left out)."""
    return {
        p
        for root in ("emulator", "plugin")
        for p in (ROOT / root).rglob("*")
        if p.is_file() and "__pycache__" not in p.parts and not p.name.endswith(".pyc")
    }


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """(wheel, what the build printed): the wheel built from a copy of the sources."""
    work = tmp_path_factory.mktemp("wheel")
    src = work / "src"
    src.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, src / name)
    for package in ("emulator", "plugin"):
        shutil.copytree(ROOT / package, src / package, ignore=shutil.ignore_patterns("__pycache__"))
    pip = [sys.executable, "-m", "pip", "--disable-pip-version-check", "--no-input"]
    done = subprocess.run(
        [
            *pip,
            "wheel",
            "--no-deps",
            "--no-build-isolation",
            "-q",
            "-w",
            str(work / "dist"),
            str(src),
        ],
        check=True,
        capture_output=True,
        text=True,
        timeout=300,
    )
    (wheel,) = (work / "dist").glob("geoserver_emulator-*.whl")
    return wheel, done.stdout + done.stderr


@pytest.fixture(scope="module")
def installed(built: tuple[Path, str]) -> tuple[Path, Path]:
    """(wheel, site): the wheel installed into ``site``."""
    wheel, _ = built
    pip = [sys.executable, "-m", "pip", "--disable-pip-version-check", "--no-input"]
    site = wheel.parent.parent / "site"
    subprocess.run(
        [*pip, "install", "--no-deps", "--no-compile", "-q", "--target", str(site), str(wheel)],
        check=True,
        capture_output=True,
        timeout=300,
    )
    return wheel, site


def _run_installed(site: Path, code: str) -> str:
    """Run ``code`` with the installed copy first on the path and no editable finders."""
    deps = sysconfig.get_paths()["purelib"]
    env = {"PYTHONPATH": f"{site}:{deps}", "PATH": "/usr/bin:/bin"}
    out = subprocess.run(
        [sys.executable, "-S", "-c", code],
        check=True,
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        cwd=site.parent,
    )
    return out.stdout


def test_wheel_holds_both_packages_and_the_scenario_data(installed):
    wheel, _ = installed
    names = set(zipfile.ZipFile(wheel).namelist())
    assert "geoserver_emulator/__init__.py" in names
    assert "geoserver_emulator_pytest/pytest_plugin.py" in names
    assert "geoserver_emulator/py.typed" in names
    # no installed top-level package takes a generic name another distribution could own
    tops = {n.split("/")[0] for n in names if not n.split("/")[0].endswith(".dist-info")}
    assert tops == {"geoserver_emulator", "geoserver_emulator_pytest"}
    for builtin in ("stock", "empty"):
        data = {
            n
            for n in names
            if n.startswith(f"geoserver_emulator/scenarios/{builtin}/") and n.endswith(".json")
        }
        source = {
            f"geoserver_emulator/scenarios/{builtin}/{p.name}"
            for p in (ROOT / "emulator/scenarios" / builtin).rglob("*.json")
        }
        assert source and data == source
    assert not any(n.startswith(("tests/", "benchmarks/")) for n in names)


def _declared() -> tuple[dict[str, str], list[str]]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    roots = {folder: name for name, folder in config["package-dir"].items()}
    return roots, list(config["packages"])


def test_pyproject_lists_every_folder_that_holds_files():
    """Code and data folders alike: setuptools ships only the folders ``packages`` lists (and
    warns at every build about an importable folder it does not list)."""
    roots, packages = _declared()
    relative = {f.parent.relative_to(ROOT) for f in _source_files()}
    folders = {".".join([roots[r.parts[0]], *r.parts[1:]]): r for r in relative}
    missing = sorted(set(folders) - set(packages))
    assert not missing, (
        "pyproject.toml [tool.setuptools] packages must list every folder that holds files"
        " (data folders too), or the wheel leaves them out and the build warns. Add: "
        + ", ".join(f'"{name}" (folder {folders[name]}/)' for name in missing)
    )
    stale = sorted(set(packages) - set(folders))
    assert not stale, f"pyproject.toml lists packages with no folder of files: {stale}"


def test_the_build_prints_no_warning(built):
    _, printed = built
    found = [line for line in printed.splitlines() if WARNING.search(line)]
    assert not found, "the wheel build warned:\n" + printed


def test_the_wheel_holds_every_file_of_the_sources(built):
    wheel, _ = built
    roots, _ = _declared()
    names = set(zipfile.ZipFile(wheel).namelist())
    expected = {
        "/".join([roots[p.relative_to(ROOT).parts[0]], *p.relative_to(ROOT).parts[1:]]): p
        for p in _source_files()
    }
    missing = sorted(str(expected[n].relative_to(ROOT)) for n in set(expected) - names)
    assert not missing, (
        f"not in the wheel: {missing}; list their folders in pyproject.toml's packages"
    )


def test_installed_wheel_runs_from_its_own_files(installed):
    _, site = installed
    out = _run_installed(
        site,
        "import geoserver_emulator, geoserver_emulator_pytest.pytest_plugin as p;"
        "from geoserver_emulator import Emulator;"
        "e = Emulator('stock'); print(geoserver_emulator.__file__); print(p.__file__);"
        "print(sorted(e.state.users.service().users))",
    )
    emulator_file, plugin_file, users = out.splitlines()
    assert emulator_file.startswith(str(site)) and plugin_file.startswith(str(site))
    assert users == "['admin']"


def test_entry_points(installed):
    wheel, site = installed
    with zipfile.ZipFile(wheel) as z:
        name = next(n for n in z.namelist() if n.endswith(".dist-info/entry_points.txt"))
        parser = configparser.ConfigParser()
        parser.read_string(z.read(name).decode())
    assert dict(parser["console_scripts"]) == {"geoserver-emulator": "geoserver_emulator.cli:main"}
    assert dict(parser["pytest11"]) == {
        "geoserver_emulator": "geoserver_emulator_pytest.pytest_plugin"
    }
    script = site / "bin" / "geoserver-emulator"
    assert script.exists() and "geoserver_emulator.cli" in script.read_text()
    out = _run_installed(
        site,
        "from importlib.metadata import distribution as d;"
        "ep = d('geoserver-emulator').entry_points;"
        "print(sorted((e.group, e.name, e.value) for e in ep))",
    )
    assert "('pytest11', 'geoserver_emulator', 'geoserver_emulator_pytest.pytest_plugin')" in out


def test_metadata_license_is_spdx(installed):
    wheel, _ = installed
    with zipfile.ZipFile(wheel) as z:
        name = next(n for n in z.namelist() if n.endswith(".dist-info/METADATA"))
        metadata = z.read(name).decode()
    assert "License-Expression: Apache-2.0" in metadata
    assert "Requires-Python: >=3.11" in metadata


def test_installed_wheel_holds_the_stock_sample_data(installed):
    wheel, site = installed
    names = set(zipfile.ZipFile(wheel).namelist())
    source = {
        f"geoserver_emulator/stockdata/{p.name}"
        for p in (ROOT / "emulator/stockdata").iterdir()
        if p.suffix in (".gst", ".gsg")
    }
    assert source and source <= names
    out = _run_installed(
        site,
        "from geoserver_emulator import stockdata;"
        "t = stockdata.load('topp', 'states'); print(len(t.features));"
        "print(stockdata.load_grid('nurc', 'Arc_Sample').width)",
    )
    assert out.split() == ["49", "720"]
