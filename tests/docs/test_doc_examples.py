"""The examples in README.md and docs/ do what they say."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from geoserver_emulator import Emulator

ROOT = Path(__file__).resolve().parents[2]


def _blocks(path: Path, lang: str) -> list[str]:
    return re.findall(rf"```{lang}\n(.*?)```", path.read_text(encoding="utf-8"), re.S)


def test_readme_pytest_example_passes(pytester: pytest.Pytester):
    (block,) = _blocks(ROOT / "README.md", "python")
    pytester.makepyfile(test_readme=block)
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider")
    result.assert_outcomes(passed=2)


def test_readme_quick_start_commands():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "    make serve" in text and "    make test" in text
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    assert "PORT ?= 8080" in makefile  # make serve PORT=8081 picks another
    assert "--host 127.0.0.1 --port $(PORT) --scenario stock" in makefile
    assert "pytest -n auto" in makefile


@pytest.mark.skipif(shutil.which("make") is None, reason="needs make")
def test_make_serve_takes_a_port():
    out = subprocess.run(
        ["make", "-n", "-W", "pyproject.toml", "serve", "PORT=8081"],
        cwd=ROOT, capture_output=True, text=True, check=True,
    ).stdout  # fmt: skip
    assert "serve --host 127.0.0.1 --port 8081 --scenario stock" in out


@pytest.mark.parametrize(
    "block",
    [
        b
        for b in _blocks(ROOT / "docs" / "scenarios.md", "json")
        if b.lstrip().startswith("{") and '"extends"' in b
    ],
)
def test_scenario_examples_load(tmp_path, block):
    path = tmp_path / "example.json"
    path.write_text(block)
    emu = Emulator(path)
    assert emu.dump_scenario()["users"]["services"]


def test_scenarios_doc_documents_every_section():
    from geoserver_emulator.areas.sections import SECTIONS

    text = (ROOT / "docs" / "scenarios.md").read_text(encoding="utf-8")
    documented = set(re.findall(r"^## (?:<a id=\"\w+\"></a>)?`(\w+)`", text, re.M))
    # the foundation's sections are described on the page itself
    assert not {"users", "security", "authProviders", "authFilters"} - documented
    # every section is in the page's table, pointing at a page that has a section heading
    for key, _ in SECTIONS:
        row = re.search(rf"^\| `{key}` \|.*\[(?:[\w.]+)\]\(([\w-]+\.md)?#?[\w-]*\)", text, re.M)
        assert row, f"scenario section {key} is not in docs/scenarios.md's table"
        if row.group(1):
            page = (ROOT / "docs" / row.group(1)).read_text(encoding="utf-8")
            assert re.search(r"^#+ Scenario section", page, re.M), row.group(1)


def test_users_doc_json_examples_match_the_emulator(client):
    assert client.get("/rest/security/usergroup/users.json").json() == json.loads(
        '{"users": [{"userName": "admin", "password": null, "enabled": true}]}'
    )
