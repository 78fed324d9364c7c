"""docs/coverage.md lists exactly the routes the app serves."""

from __future__ import annotations

from pathlib import Path

from geoserver_emulator_pytest.coverage import markdown

DOC = Path(__file__).resolve().parents[2] / "docs" / "coverage.md"


def test_coverage_doc_is_current():
    assert DOC.read_text(encoding="utf-8") == markdown(), (
        "docs/coverage.md is stale: run "
        "`python -m geoserver_emulator_pytest.coverage > docs/coverage.md`"
    )
