"""The built wheel, installed into a fresh virtual environment, serves a downstream test suite.

This is what a new user does: ``pip install geoserver-emulator pytest``, then write tests with
no conftest. Dependencies come from the package index pip is configured with here (no
``--system-site-packages``: nothing leaks in from the project's own environment).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
EXAMPLES = ["test_quickstart.py", "test_scenarios.py", "test_config.py", "test_journal.py"]
EXAMPLES += ["test_faults.py", "test_clock.py"]


def run(*args: str | Path, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("PYTHONPATH", "VIRTUAL_ENV", "PYTEST_ADDOPTS")
    }
    env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
    result = subprocess.run(
        [str(a) for a in args], cwd=cwd, env=env, capture_output=True, text=True
    )
    assert result.returncode == 0, (
        f"{args[:3]} failed:\n{result.stdout[-3000:]}\n{result.stderr[-3000:]}"
    )
    return result


def test_wheel_in_a_fresh_venv(tmp_path: Path) -> None:
    dist, venv, project = tmp_path / "dist", tmp_path / "venv", tmp_path / "downstream"
    source = tmp_path / "source"  # a clean copy: no stale build/ or .egg-info from the repo
    shutil.copytree(
        REPO,
        source,
        ignore=shutil.ignore_patterns(
            ".venv", ".git", "build", "*.egg-info", "__pycache__", ".*cache"
        ),
    )
    run(sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", dist, source)
    (wheel,) = dist.glob("geoserver_emulator-*.whl")
    run(sys.executable, "-m", "venv", venv)
    python = venv / "bin" / "python"
    run(python, "-m", "pip", "install", "-q", wheel, "pytest")
    project.mkdir()
    for name in EXAMPLES:
        shutil.copy(REPO / "tests" / "examples" / name, project / name)
    _own_packages(project)
    result = run(python, "-m", "pytest", "-q", "-p", "no:cacheprovider", cwd=project)
    expected = sum(_count_tests(project / n) for n in [*EXAMPLES, "test_own_packages.py"])
    assert f"{expected} passed" in result.stdout
    located = run(
        python,
        "-c",
        "import geoserver_emulator_pytest.pytest_plugin as p, geoserver_emulator as e;"
        "print(p.__file__, e.__file__)",
        cwd=project,  # not the repository: its plugin/ folder would shadow the installed one
    )
    assert str(venv) in located.stdout and str(REPO) not in located.stdout
    result = run(python, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--help", cwd=project)
    assert "--geoserver-scenario" in result.stdout and "--geoserver-coverage" in result.stdout


def _own_packages(project: Path) -> None:
    """A downstream project with packages called ``plugin`` and ``emulator`` of its own (a QGIS
    plugin's usual layout), whose tests import them beside the fixtures."""
    for name in ("plugin", "emulator"):
        (project / name).mkdir()
        (project / name / "__init__.py").write_text(f"OWNER = 'downstream {name}'\n")
    (project / "test_own_packages.py").write_text(
        "import emulator\n"
        "import plugin\n"
        "import httpx\n\n\n"
        "def test_own_packages_beside_the_fixtures(geoserver_url, geoserver_emulator):\n"
        "    assert plugin.OWNER == 'downstream plugin'\n"
        "    assert emulator.OWNER == 'downstream emulator'\n"
        "    r = httpx.get(f'{geoserver_url}/rest/workspaces.json', auth=('admin', 'geoserver'))\n"
        "    assert r.status_code == 200\n"
        "    geoserver_emulator.journal.assert_called('GET', '/rest/workspaces.json', status=200)\n"
    )


def _count_tests(path: Path) -> int:
    return len(re.findall(r"^\s*def test_", path.read_text(), re.MULTILINE))
