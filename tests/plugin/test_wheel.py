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
DOC_PAGES = [
    REPO / "README.md",
    *sorted(p for p in (REPO / "docs").glob("*.md") if p.name != "databases.md"),
]
"""databases.md's example needs a PostgreSQL (tests/examples runs it against the test cluster)"""
PYTHON_BLOCK = re.compile(r"^```python\n(.*?)^```", re.DOTALL | re.MULTILINE)
EXTRAS = ["pytest", "requests", "hypothesis"]
"""what a downstream project installs beside the wheel for the docs' examples"""


def doc_examples() -> list[tuple[str, str]]:
    """Every ``python`` block of the README and docs/, as (file name, code): a block with
    tests is a test module (``test_doc_<page>_<n>.py``), any other a script
    (``doc_<page>_<n>.py``). The examples of docs/fixtures.md and docs/recording.md are
    tests/examples' files (``test_docs.py`` keeps them equal)."""
    out = []
    for page in DOC_PAGES:
        for n, code in enumerate(PYTHON_BLOCK.findall(page.read_text(encoding="utf-8")), 1):
            stem = f"{page.stem.lower().replace('-', '_')}_{n}"
            is_test = re.search(r"^(async )?def test_", code, re.MULTILINE)
            out.append((f"test_doc_{stem}.py" if is_test else f"doc_{stem}.py", code))
    return out


def _client_pins() -> list[str]:
    """The real client libraries docs/clients.md uses, pinned as the test extra pins them."""
    text = (REPO / "pyproject.toml").read_text(encoding="utf-8")
    return re.findall(r'"(geoserver-rest[a-z]*[^"]*)"', text)


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
    run(python, "-m", "pip", "install", "-q", wheel, *EXTRAS, *_client_pins())
    project.mkdir()
    examples = doc_examples()
    for name, code in examples:
        (project / name).write_text(code, encoding="utf-8")
    _own_packages(project)
    result = run(python, "-m", "pytest", "-q", "-p", "no:cacheprovider", cwd=project)
    assert " passed" in result.stdout and "failed" not in result.stdout
    assert " skipped" not in result.stdout and " error" not in result.stdout
    ran = set(re.findall(r"^(test_\S+\.py)", run(
        python, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--collect-only", cwd=project
    ).stdout, re.MULTILINE))  # fmt: skip
    assert ran == {n for n, _ in examples if n.startswith("test_")} | {"test_own_packages.py"}
    for name, _ in examples:
        if not name.startswith("test_"):  # a script: runs as written, in a fresh directory
            work = tmp_path / name.removesuffix(".py")
            work.mkdir()
            run(python, project / name, cwd=work)
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


def test_every_example_of_the_docs_is_collected() -> None:
    names = [n for n, _ in doc_examples()]
    assert len(names) == len(set(names))
    shown = {f"test_doc_fixtures_{n}.py" for n in range(1, 10)}
    assert shown <= set(names)  # the fixtures page's nine examples
    assert any(n.startswith("doc_appschema_") for n in names)
