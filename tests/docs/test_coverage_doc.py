"""docs/coverage.md lists exactly the routes the app serves."""

from __future__ import annotations

from pathlib import Path

from geoserver_emulator_pytest.coverage import compare_reference, markdown

DOC = Path(__file__).resolve().parents[2] / "docs" / "coverage.md"


def test_coverage_doc_is_current():
    assert DOC.read_text(encoding="utf-8") == markdown(), (
        "docs/coverage.md is stale: run "
        "`python -m geoserver_emulator_pytest.coverage > docs/coverage.md`"
    )


def test_every_reference_operation_is_answered_or_explained():
    """Each core operation of GeoServer's REST reference the route table does not answer
    has a reason in ``reference.EXCEPTIONS``; no reason is kept for one it answers."""
    from geoserver_emulator_pytest.reference import EXCEPTIONS, OPERATIONS

    answered, missing = compare_reference()
    assert len(answered) + len(missing) == len(OPERATIONS) > 400
    assert [(m, p) for m, p, why in missing if not why] == []
    stale = set(EXCEPTIONS) - {(m, p) for m, p, _ in missing}
    assert stale == set(), f"exceptions for operations the route table answers: {stale}"
