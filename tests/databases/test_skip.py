"""Where PostgreSQL or PostGIS is missing, the database tests skip and say why."""

from __future__ import annotations

from pathlib import Path

TESTS = Path(__file__).resolve().parents[1]


def test_without_binaries_the_database_tests_skip_saying_why(pytester):
    pytester.makeconftest((TESTS / "conftest.py").read_text())
    (pytester.path / "pgcluster.py").write_text((TESTS / "pgcluster.py").read_text())
    pytester.path.joinpath("__init__.py").write_text("")
    pytester.makepyfile(test_db="def test_needs_it(postgresql):\n    pass\n")
    result = pytester.runpytest(
        "-rs", "--postgresql-exec=/nonexistent/pg_ctl", "-p", "no:cacheprovider"
    )
    result.assert_outcomes(skipped=1)
    result.stdout.fnmatch_lines(["*database tests need PostgreSQL and PostGIS (no pg_ctl found;*"])
