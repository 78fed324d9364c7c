"""The endpoint coverage report, from route tables and journal entries."""

from __future__ import annotations

from starlette.routing import Mount, Route

from geoserver_emulator.core.journal import JournalEntry
from geoserver_emulator_pytest.coverage import CoverageCollector, endpoints, report_lines


async def _endpoint(request):  # pragma: no cover - never called
    return None


ROUTES = [
    Route("/__emulator/reset", _endpoint, methods=["POST"]),
    Route("/rest/styles", _endpoint, methods=["GET", "POST"]),
    Route("/rest/styles/{name}", _endpoint, methods=["GET", "PUT", "DELETE"]),
    Mount("/gwc/rest", routes=[Route("/seed/{layer}.json", _endpoint, methods=["GET"])]),
]


def test_endpoints_flatten_mounts_and_leave_out_the_control_plane():
    rows = [(m, p) for m, p, _ in endpoints(ROUTES)]
    assert rows == [
        ("GET", "/rest/styles"),
        ("POST", "/rest/styles"),
        ("DELETE", "/rest/styles/{name}"),
        ("GET", "/rest/styles/{name}"),
        ("PUT", "/rest/styles/{name}"),
        ("GET", "/gwc/rest/seed/{layer}.json"),
    ]


def test_endpoints_of_the_real_app_come_from_all_routes():
    from geoserver_emulator.http.app import all_routes

    rows = endpoints()
    assert rows == endpoints(all_routes())
    assert not any(p.startswith("/__emulator") for _, p, _ in rows)


def test_tally_and_report(pytestconfig, monkeypatch):
    monkeypatch.setattr("geoserver_emulator_pytest.coverage.endpoints", lambda: endpoints(ROUTES))
    collector = CoverageCollector(pytestconfig)
    for method, path in [
        ("GET", "/rest/styles/a"),
        ("HEAD", "/rest/styles/b"),
        ("PUT", "/rest/styles/a"),
        ("GET", "/gwc/rest/seed/topp:states.json"),
        ("PATCH", "/rest/styles"),
        ("GET", "/nope"),
    ]:
        collector.observe(JournalEntry(method, path, "", 200))
    hits, unmatched = collector.tally()
    assert hits[("GET", "/rest/styles/{name}")] == 2 and hits[("PUT", "/rest/styles/{name}")] == 1
    assert hits[("POST", "/rest/styles")] == 0 and unmatched == 2
    lines = report_lines(hits, unmatched)
    assert "geoserver-emulator endpoint coverage: 3 of 6 endpoints exercised (50%)" in lines
    assert "  GET     /rest/styles/{name}               2 requests" in lines
    assert lines[lines.index("never touched (3):") + 1 :] == [
        "  GET     /rest/styles",
        "  POST    /rest/styles",
        "  DELETE  /rest/styles/{name}",
        "",
        "requests to no emulated endpoint (answered 404 or 405): 2",
    ]


def test_worker_counts_are_merged(pytestconfig):
    collector = CoverageCollector(pytestconfig)
    node = type("Node", (), {"workeroutput": {"geoserver_coverage": [["GET", "/rest/a", 3]]}})()
    collector.pytest_testnodedown(node, None)
    collector.pytest_testnodedown(node, None)
    assert collector.requests[("GET", "/rest/a")] == 6
