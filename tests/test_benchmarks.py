"""The scripts in ``benchmarks/`` run to the end and print their figures (in their quickest
form; the figures themselves are never checked here: timings belong to the scripts)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"

RUNS = {
    "startup.py": (["--repeat", "1"], "import geoserver_emulator + create_app (fresh, CPU)"),
    "plugin_overhead.py": (["--tests", "3"], "Fixture overhead per test"),
    "seeding.py": ([], "worst advance:"),
    "scale.py": (["--quick"], "first ECQL query in a fresh process"),
    "ows.py": (["--repeat", "1"], "OWS requests in-process"),
    "crs.py": (["--quick"], "the fast path imports pyproj: False"),
    "ogcapi_features.py": (["--repeat", "1"], "OGC API Features in-process"),
    "load.py": (["--quick"], "server RSS: before"),
    "patterns.py": (["--quick"], "another client's request meanwhile"),
    "amplification.py": (["--quick"], "rows: "),
    "stockdata.py": (["--quick"], "this tree (stock data imported: False)"),
    "stockmaps.py": (["--quick"], "GetMap topp:states 768x384 PNG"),
    "wcs.py": (["--repeat", "1"], "WCS GetCoverage in-process"),
    "postgis.py": (["--quick"], "PostGIS: "),
}


def test_every_benchmark_is_run_here() -> None:
    scripts = {p.name for p in BENCHMARKS.glob("*.py")} - {"run.py"}
    assert scripts == set(RUNS)


@pytest.mark.parametrize("script", sorted(RUNS))
def test_the_benchmark_runs_and_prints_its_figures(script: str) -> None:
    args, expected = RUNS[script]
    run = [sys.executable, str(BENCHMARKS / script), *args]
    out = subprocess.run(run, capture_output=True, text=True, cwd=BENCHMARKS.parent)
    assert "Traceback" not in out.stderr, out.stderr
    assert expected in out.stdout, out.stdout + out.stderr
    if script != "seeding.py":  # seeding.py exits 1 on a slow advance (a timing)
        assert out.returncode == 0, out.stdout + out.stderr
