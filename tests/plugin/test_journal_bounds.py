"""The journal's bounds: a ring buffer of entries and of bytes, bodies kept truncated with
their length and digest, and assertions that still work on what it keeps."""

from __future__ import annotations

import hashlib

import httpx
import pytest

from geoserver_emulator import Emulator
from geoserver_emulator.core.errors import ScenarioError

BASE = "http://localhost:8080/geoserver"
ADMIN = ("admin", "geoserver")


def _client(emu: Emulator) -> httpx.Client:
    return httpx.Client(transport=httpx.WSGITransport(app=emu.wsgi_app), base_url=BASE, auth=ADMIN)


def test_the_journal_keeps_the_last_requests():
    emu = Emulator("stock", journal_limit=3)
    with _client(emu) as c:
        for name in ("a", "b", "c", "d", "e"):
            c.get(f"/rest/workspaces/{name}.json")
    assert [e.path for e in emu.journal] == [f"/rest/workspaces/{n}.json" for n in "cde"]
    assert emu.journal.dropped == 2
    emu.journal.assert_called("GET", "/rest/workspaces/e.json")
    with pytest.raises(AssertionError, match="2 older ones were dropped"):
        emu.journal.assert_called("GET", "/rest/workspaces/a.json")
    emu.journal.clear()
    assert len(emu.journal) == 0 and emu.journal.dropped == 0 and emu.journal.weight == 0


def test_the_journal_keeps_a_bounded_number_of_bytes():
    emu = Emulator("stock", journal_max_bytes=3000)
    with _client(emu) as c:
        for _ in range(10):
            c.post("/rest/workspaces", content=b"x" * 1000, headers={"Content-Type": "text/plain"})
    assert emu.journal.weight <= 3000
    assert 1 <= len(emu.journal) < 10


def test_a_long_body_is_kept_truncated_with_its_length_and_digest():
    emu = Emulator("stock", journal_body_limit=16)
    body = b'{"workspace": {"name": "long_enough_to_be_cut"}}'
    with _client(emu) as c:
        assert (
            c.post(
                "/rest/workspaces", content=body, headers={"Content-Type": "application/json"}
            ).status_code
            == 201
        )
        c.get("/rest/workspaces.json")
        short = c.post("/rest/workspaces", json={"a": 1})  # 8 bytes: kept whole
    posted, listed, whole = emu.journal
    assert posted.body == body[:16]
    assert posted.body_size == len(body)
    assert posted.body_sha256 == hashlib.sha256(body).hexdigest()
    doc = posted.to_json()
    assert doc["bodyTruncated"] is True and doc["bodyLength"] == len(body)
    assert listed.response_size is not None and len(listed.response_body) == 16
    assert whole.body_size is None and whole.json() == {"a": 1}
    assert short.status_code >= 400 and "bodyTruncated" not in whole.to_json()
    # assertions work on the kept part: a pattern over its first bytes, the JSON of short bodies
    emu.journal.assert_called("POST", "/rest/workspaces", times=2)


def test_the_scenario_sets_the_bounds_and_arguments_win():
    doc = {"extends": "stock", "settings": {"journalLimit": 2, "journalMaxBytes": 1000}}
    emu = Emulator(doc)
    assert (emu.journal.limit, emu.journal.max_bytes) == (2, 1000)
    assert Emulator(doc, journal_limit=5).journal.limit == 5
    assert emu.dump_scenario()["settings"]["journalLimit"] == 2
    with pytest.raises(ScenarioError, match="journalLimit"):
        Emulator({"extends": "stock", "settings": {"journalLimit": 0}})
    assert Emulator("stock").journal.limit is None  # in process: everything, by default


def test_the_control_plane_shows_a_truncated_body():
    emu = Emulator("stock", journal_body_limit=4)
    with _client(emu) as c:
        c.post("/rest/workspaces", content=b"0123456789", headers={"Content-Type": "text/plain"})
        found = c.get("/__emulator/requests").json()["requests"]
    assert found[0]["body"] == "0123"
    assert found[0]["bodyLength"] == 10
    assert found[0]["bodySha256"] == hashlib.sha256(b"0123456789").hexdigest()


def test_clearing_a_large_journal_hands_the_memory_back(monkeypatch):
    from geoserver_emulator.core import journal as journal_module

    released: list[bool] = []
    monkeypatch.setattr(journal_module, "_release_memory", lambda: released.append(True))
    monkeypatch.setattr(journal_module, "TRIM_AFTER", 5000)
    emu = Emulator("stock")
    with _client(emu) as c:
        c.post("/rest/workspaces", content=b"x" * 100, headers={"Content-Type": "text/plain"})
        emu.journal.clear()
        assert released == []  # a small journal: nothing worth handing back
        for _ in range(10):  # bodies of more than TRIM_AFTER bytes held at once
            c.post("/rest/workspaces", content=b"x" * 1000, headers={"Content-Type": "text/plain"})
    emu.journal.clear()
    assert released == [True]


def test_release_memory_runs():
    from geoserver_emulator.core.journal import _release_memory

    _release_memory()  # collects garbage and trims the heap where glibc is there
