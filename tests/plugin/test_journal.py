"""The request journal: entries, queries, assertions and their near-miss reports."""

from __future__ import annotations

import re

import pytest

from geoserver_emulator import Emulator
from geoserver_emulator.core.journal import Journal, JournalClosed, JournalEntry


def entry(
    method: str, path: str, status: int = 200, ctype: str | None = None, **kw: object
) -> JournalEntry:
    headers = {"content-type": ctype} if ctype else {}
    return JournalEntry(method=method, path=path, query="", status=status, headers=headers, **kw)  # type: ignore[arg-type]


@pytest.fixture
def journal() -> Journal:
    j = Journal("/geoserver")
    for e in [
        entry("GET", "/rest/styles.json"),
        entry(
            "POST",
            "/rest/styles",
            201,
            "application/vnd.ogc.sld+xml; charset=utf-8",
            body=b"<sld/>",
        ),
        entry("PUT", "/rest/styles/roads", 200, "application/vnd.ogc.sld+xml"),
        entry("GET", "/rest/styles/roads.sld"),
        entry("GET", "/rest/styles/roads.sld"),
    ]:
        j.record(e)
    return j


def test_entries_keep_what_the_request_carried(client, emu):
    client.post(
        "/rest/things?raw=true", content=b'{"a": 1}', headers={"Content-Type": "application/json"}
    )
    e = emu.journal.last
    assert (e.method, e.path, e.query, e.status) == ("POST", "/rest/things", "raw=true", 404)
    assert e.body == b'{"a": 1}' and e.json() == {"a": 1} and e.text == '{"a": 1}'
    assert e.content_type == "application/json"
    assert "authorization" not in e.headers and e.headers["content-type"] == "application/json"
    assert e.fault is None and e.at == 0.0


def test_calls_filters_by_each_criterion(journal):
    assert len(journal.calls("GET")) == 3
    assert len(journal.calls(path="/rest/styles/roads.sld")) == 2
    assert len(journal.calls("get", "/rest/styles/*")) == 2
    assert len(journal.calls("*", "/rest/**")) == 5
    assert len(journal.calls(content_type="application/vnd.ogc.sld+xml")) == 2
    assert len(journal.calls(status=201)) == 1
    assert len(journal.calls("GET", re.compile(r"/rest/styles/\w+\.sld"))) == 2


def test_context_path_is_accepted_in_assertions(journal):
    journal.assert_called("PUT", "/geoserver/rest/styles/roads", times=1)
    journal.assert_called("GET", re.compile("/geoserver/rest/styles.json"))


def test_assert_called_passes_and_returns_the_matches(journal):
    found = journal.assert_called("GET", "/rest/styles/roads.sld", times=2)
    assert [e.path for e in found] == ["/rest/styles/roads.sld"] * 2
    journal.assert_called("POST", "/rest/styles", content_type="application/vnd.ogc.sld+xml")
    journal.assert_called("POST", "/rest/styles", status=201)


def test_assert_called_wrong_times_reports(journal):
    with pytest.raises(
        AssertionError, match=r"expected GET /rest/styles/roads.sld 1 time, it was made 2 times"
    ):
        journal.assert_called("GET", "/rest/styles/roads.sld", times=1)


def test_assert_called_lists_near_misses_best_first(journal):
    with pytest.raises(AssertionError) as info:
        journal.assert_called("POST", "/rest/styles.xml", content_type="application/json")
    lines = str(info.value).splitlines()
    assert lines[0] == (
        "expected POST /rest/styles.xml with content type application/json at least once, "
        "it was made 0 times."
    )
    assert lines[1] == "Closest requests made:"
    assert lines[2] == "  POST /rest/styles [application/vnd.ogc.sld+xml] -> 201"
    assert len(lines) == 2 + 5


def test_near_miss_report_is_capped(journal):
    for _ in range(10):
        journal.record(entry("DELETE", "/rest/x"))
    text = journal.near_misses("GET", "/nothing")
    assert text.endswith("... and 10 more") and text.count("\n  ") == 6


def test_assert_called_on_empty_journal():
    with pytest.raises(AssertionError, match="No requests were made"):
        Journal().assert_called("GET", "/rest")


def test_assert_not_called(journal):
    journal.assert_not_called("DELETE", "/rest/styles/roads")
    journal.assert_not_called("POST", "/rest/styles", status=500)
    with pytest.raises(
        AssertionError, match=r"expected no GET /rest/styles/\*\*, it was made 2 times:\n  GET"
    ):
        journal.assert_not_called("GET", "/rest/styles/**")


def test_describe_shows_drop_and_fault():
    assert (
        entry("GET", "/rest/a", 0, fault="f").describe()
        == "GET /rest/a -> dropped (injected fault)"
    )
    e = JournalEntry("GET", "/rest/a", "x=1", 404)
    assert e.describe() == "GET /rest/a?x=1 -> 404"


def test_closed_journal_refuses_requests(journal):
    journal.close()
    with pytest.raises(JournalClosed, match="after the end of its test"):
        journal.record(entry("GET", "/x"))


def test_observers_see_every_entry():
    seen: list[str] = []
    j = Journal()
    j.observers.append(lambda e: seen.append(e.path))
    j.record(entry("GET", "/a"))
    assert seen == ["/a"]


def test_clear_and_reset_empty_it(emu, client):
    client.get("/rest/a")
    assert len(emu.journal) == 1
    emu.reset()
    assert len(emu.journal) == 0 and list(emu.journal) == []


def test_control_plane_json_carries_the_fault(client, emu):
    emu.faults.add("GET", "/rest/a", status=503)
    client.get("/rest/a")
    (row,) = client.get("/__emulator/requests").json()["requests"]
    assert row["status"] == 503 and row["fault"] == "fault 1: GET /rest/a -> 503"


def test_two_emulators_keep_separate_journals():
    a, b = Emulator("empty"), Emulator("empty")
    a.journal.record(entry("GET", "/x"))
    assert len(b.journal) == 0


def test_entries_recorded_for_later_keep_their_order_among_the_others():
    j = Journal()
    made: list[str] = []

    def later(path: str):
        def make() -> JournalEntry:
            made.append(path)
            return entry("GET", path)

        return make

    j.record_later(later("/a"))
    j.record(entry("GET", "/b"))
    j.record_later(later("/c"))
    assert made == ["/a"]  # made when a later entry came in, not before
    assert [e.path for e in j] == ["/a", "/b", "/c"] and made == ["/a", "/c"]
    j.record_later(later("/d"))
    j.clear()
    assert len(j) == 0 and made == ["/a", "/c"]


def test_recorded_for_later_goes_at_once_to_observers_and_to_a_closed_journal():
    seen: list[str] = []
    j = Journal()
    j.observers.append(lambda e: seen.append(e.path))
    j.record_later(lambda: entry("GET", "/a"))
    assert seen == ["/a"]
    j.close()
    with pytest.raises(JournalClosed, match="after the end of its test"):
        j.record_later(lambda: entry("GET", "/b"))


def test_a_request_journaled_for_later_reads_as_it_was_sent(client, emu):
    client.get("/rest/about/version.json?x=1", headers={"X-Probe": "one"})
    client.request("GET", "/rest/about/version.json", content=b"late body")
    first, second = emu.journal
    assert (first.query, first.headers["x-probe"], first.status) == ("x=1", "one", 200)
    assert first.authorization is not None and "authorization" not in first.headers
    assert second.body == b"late body"
