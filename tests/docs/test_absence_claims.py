"""Every claim in the docs that an endpoint is missing is checked against the route table.

A line that says an endpoint is "not emulated" (or "not implemented", or answers 404 "in
progress") must name the endpoint as a path in backticks (`` `/gwc/rest/filter/…` ``,
`` `POST /rest/x` ``), and no route may serve it: when someone emulates it, this test fails
until the claim goes. "In progress" is not a state the docs may claim: say "not emulated" and
name the path, or say nothing.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from geoserver_emulator_pytest.coverage import endpoints

ROOT = Path(__file__).resolve().parents[2]
PAGES = sorted((ROOT / "docs").glob("*.md")) + [ROOT / "README.md"]
CLAIM = re.compile(r"not (?:yet )?emulated|not implemented|in progress", re.IGNORECASE)
IN_PROGRESS = re.compile(r"in progress\W*(?:\)|\(404|: 404|404)|area, in progress", re.I)
PATH = re.compile(r"`(?:(GET|POST|PUT|DELETE|PATCH|HEAD) )?(/[^`\s]*)`")
METHODS = ("GET", "POST", "PUT", "DELETE", "PATCH")


def _claims() -> list[tuple[str, int, str]]:
    found = []
    for page in PAGES:
        if page.name == "coverage.md":  # generated from the route table itself
            continue
        for number, line in enumerate(page.read_text(encoding="utf-8").splitlines(), 1):
            if CLAIM.search(line):
                found.append((str(page.relative_to(ROOT)), number, line))
    return found


def _sample(path: str) -> str:
    """A concrete path for a documented one: ``{x}`` and ``…`` become a segment."""
    path = re.sub(r"\{[^}]*\}", "sample", path)
    path = path.replace("…", "sample").replace("...", "sample")
    return re.sub(r"\[[^\]]*\]", "", path)  # optional parts such as [.ext]


TABLE = endpoints()


def _served(method: str | None, path: str) -> list[tuple[str, str]]:
    sample = _sample(path)
    return [(m, p) for m, p, rx in TABLE if (method is None or m == method) and rx.match(sample)]


@pytest.mark.parametrize(("page", "line", "text"), _claims())
def test_an_absence_claim_names_paths_no_route_serves(page: str, line: int, text: str) -> None:
    where = f"{page}:{line}"
    assert not IN_PROGRESS.search(text), (
        f'{where}: "in progress" is not a state the docs can claim; say "not emulated" and'
        f" name the path in backticks, or drop the claim:\n{text}"
    )
    for method, path in PATH.findall(text):
        served = _served(method or None, path)
        assert not served, (
            f"{where} says {method + ' ' if method else ''}{path} is not emulated, but the"
            f" route table serves it ({served[:3]}): update the docs\n{text}"
        )


def test_the_claims_found_include_the_known_ones() -> None:
    """The scan finds claims at all (a guard against a pattern that matches nothing)."""
    texts = "\n".join(t for _, _, t in _claims())
    assert "`gtopo30`" in texts


def test_a_served_path_would_fail() -> None:
    assert _served(None, "/rest/security/usergroup/users")
    assert _served("POST", "/rest/workspaces/{ws}/coveragestores/{cs}/file.imagemosaic")
    assert not _served(None, "/gwc/rest/filter/…")
