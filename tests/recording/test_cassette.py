"""The cassette format: writing, reading, side files, replacement, bad files."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from geoserver_emulator.core.errors import ScenarioError
from geoserver_emulator.scenarios import cassette
from geoserver_emulator.scenarios.cassette import (
    CassetteWriter,
    Header,
    RecordedRequest,
    RecordedResponse,
)
from geoserver_emulator.scenarios.scrub import Scrubber

ZIP = b"PK\x03\x04\x14\x00\x00\x00\x08\x00\xff\xfe binary"


def _write(
    path: Path, *exchanges: tuple[RecordedRequest, RecordedResponse], scrub: bool = True
) -> None:
    with CassetteWriter(path, Header(), Scrubber(scrub)) as writer:
        for request, response in exchanges:
            writer.add(request, response, elapsed=1.5)


def test_round_trip_keeps_every_part(tmp_path: Path) -> None:
    path = tmp_path / "a.jsonl"
    request = RecordedRequest(
        "post",
        "/rest/urlchecks",
        "x=1&y=%20",
        {"content-type": "application/json", "accept": "*/*"},
        b'{"regexUrlCheck":{"name":"n"}}',
    )
    response = RecordedResponse(201, {"content-type": "text/plain", "location": "/x"}, b"n")
    _write(path, (request, response), scrub=False)
    read = cassette.read(path)
    assert read.header.scenario == "stock" and read.header.context_path == "/geoserver"
    assert read.header.scrubbed is False
    [ex] = read.exchanges
    assert (ex.number, ex.line, ex.elapsed) == (1, 2, 1.5)
    assert ex.request == RecordedRequest(
        "POST", "/rest/urlchecks", "x=1&y=%20", request.headers, request.body
    )
    assert ex.response == response
    assert ex.is_write and ex.describe() == "exchange 1 (POST /rest/urlchecks?x=1&y=%20, line 2)"


def test_header_line_is_versioned(tmp_path: Path) -> None:
    path = tmp_path / "a.jsonl"
    _write(path)
    header = json.loads(path.read_text().splitlines()[0])
    assert header["cassette"] == "geoserver-emulator-cassette" and header["version"] == 1
    assert set(header) == {
        "cassette",
        "version",
        "scenario",
        "contextPath",
        "source",
        "timing",
        "profile",
        "vendorPrefix",
        "scrubbed",
        "upstream",
    }


def test_binary_bodies_go_to_side_files(tmp_path: Path) -> None:
    path = tmp_path / "b.jsonl"
    request = RecordedRequest("PUT", "/rest/x", "", {"content-type": "application/zip"}, ZIP)
    response = RecordedResponse(200, {"content-type": "image/png"}, b"\x89PNG\r\n\x1a\n\x00")
    _write(path, (request, response))
    line = json.loads(path.read_text().splitlines()[1])
    assert line["request"]["bodyFile"] == "b.files/0001-request.zip"
    assert line["response"]["bodyFile"] == "b.files/0001-response.png"
    assert "body" not in line["request"]
    assert (tmp_path / "b.files" / "0001-request.zip").read_bytes() == ZIP
    [ex] = cassette.read(path).exchanges
    assert ex.request.body == ZIP and ex.response.body == b"\x89PNG\r\n\x1a\n\x00"


def test_text_that_is_not_utf8_is_a_side_file(tmp_path: Path) -> None:
    path = tmp_path / "c.jsonl"
    request = RecordedRequest("POST", "/rest/x", "", {"content-type": "text/plain"}, b"caf\xe9")
    _write(path, (request, RecordedResponse(200)))
    assert json.loads(path.read_text().splitlines()[1])["request"]["bodyFile"].endswith(".txt")


def test_rerecording_replaces_the_cassette_and_its_side_files(tmp_path: Path) -> None:
    path = tmp_path / "r.jsonl"
    big = RecordedRequest("PUT", "/rest/x", "", {"content-type": "application/zip"}, ZIP)
    _write(path, (big, RecordedResponse(200)), (big, RecordedResponse(200)))
    (tmp_path / "r.files" / "notes.txt").write_text("mine")
    _write(path, (RecordedRequest("GET", "/rest/y"), RecordedResponse(200)))
    assert len(path.read_text().splitlines()) == 2
    assert sorted(p.name for p in (tmp_path / "r.files").iterdir()) == ["notes.txt"]
    _write(path)
    (tmp_path / "r.files" / "notes.txt").unlink()
    _write(path)
    assert not (tmp_path / "r.files").exists()


def test_scenario_path_in_header_is_relative_to_the_cassette(tmp_path: Path) -> None:
    scenario = tmp_path / "scenarios" / "base.json"
    scenario.parent.mkdir()
    scenario.write_text("{}")
    path = tmp_path / "tapes" / "t.jsonl"
    with CassetteWriter(path, Header(scenario=str(scenario))):
        pass
    assert json.loads(path.read_text().splitlines()[0])["scenario"] == "../scenarios/base.json"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "empty cassette"),
        ("[1]\n", ":1: expected a JSON object"),
        ('{"cassette": "other"}\n', ":1: not a cassette header"),
        (
            '{"cassette": "geoserver-emulator-cassette", "version": 2}\n',
            "version 2 is not supported",
        ),
        (
            '{"cassette": "geoserver-emulator-cassette", "version": 1, "timing": "x"}\n',
            ":1: contextPath",
        ),
        (
            '{"cassette": "geoserver-emulator-cassette", "version": 1}\n{nope\n',
            ":2: not valid JSON",
        ),
        (
            '{"cassette": "geoserver-emulator-cassette", "version": 1}\n{"request": {}}\n',
            ":2: an exchange",
        ),
        (
            '{"cassette": "geoserver-emulator-cassette", "version": 1}\n'
            '{"request": {"method": "GET", "path": "rest"}, "response": {"status": 200}}\n',
            "path starting",
        ),
        (
            '{"cassette": "geoserver-emulator-cassette", "version": 1}\n'
            '{"request": {"method": "GET", "path": "/r"}, "response": {"status": "200"}}\n',
            "integer status",
        ),
        (
            '{"cassette": "geoserver-emulator-cassette", "version": 1}\n'
            '{"request": {"method": "GET", "path": "/r", "bodyFile": "../../etc/passwd"},'
            ' "response": {"status": 200}}\n',
            "beside the cassette",
        ),
        (
            '{"cassette": "geoserver-emulator-cassette", "version": 1}\n'
            '{"request": {"method": "GET", "path": "/r", "bodyFile": "gone.bin"},'
            ' "response": {"status": 200}}\n',
            "bodyFile gone.bin",
        ),
        (
            '{"cassette": "geoserver-emulator-cassette", "version": 1}\n'
            '{"request": {"method": "GET", "path": "/r", "headers": {"a": 1}},'
            ' "response": {"status": 200}}\n',
            "headers must be",
        ),
    ],
)
def test_bad_cassettes_are_refused_with_the_line(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text(text)
    with pytest.raises(ScenarioError, match=message.replace("(", r"\(")) as info:
        cassette.read(path)
    assert str(path) in str(info.value)


def test_a_missing_cassette_is_a_scenario_error(tmp_path: Path) -> None:
    with pytest.raises(ScenarioError, match="cannot read"):
        cassette.read(tmp_path / "none.jsonl")


@pytest.mark.parametrize(
    ("body", "content_type", "text"),
    [
        (b"", "application/zip", True),
        (b"<a/>", "application/vnd.ogc.sld+xml", True),
        (b"{}", "application/json; charset=UTF-8", True),
        (b"x", None, True),
        (b"a,b", "text/csv", True),
        (b"PK", "application/zip", False),
        (b"abc", "application/octet-stream", False),
        (b"\xff", None, False),
    ],
)
def test_which_bodies_stay_inline(body: bytes, content_type: str | None, text: bool) -> None:
    assert cassette.is_text(body, content_type) is text


header_names = st.text("abcdefghijklmnopqrstuvwxyz-", min_size=1, max_size=12).filter(
    lambda n: n not in cassette.UNRECORDED_REQUEST | cassette.UNRECORDED_RESPONSE
)
header_values = st.text(st.characters(codec="latin-1", exclude_categories=("Cc",)), max_size=20)
media = st.sampled_from([None, "application/json", "text/xml", "application/zip", "image/png"])


@settings(
    deadline=None, max_examples=60, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    method=st.sampled_from(["GET", "POST", "PUT", "DELETE", "PATCH", "HEAD"]),
    path=st.text("abc/%20.:-_", max_size=20).map(lambda p: "/rest/" + p),
    query=st.text("ab=&%2B", max_size=10),
    headers=st.dictionaries(header_names, header_values, max_size=3),
    bodies=st.tuples(st.binary(max_size=40), st.binary(max_size=40)),
    types=st.tuples(media, media),
    status=st.integers(100, 599),
)
def test_any_exchange_round_trips_unscrubbed(
    tmp_path: Path, method, path, query, headers, bodies, types, status
) -> None:
    req_headers = {**headers, **({"content-type": types[0]} if types[0] else {})}
    res_headers = {**headers, **({"content-type": types[1]} if types[1] else {})}
    request = RecordedRequest(method, path, query, req_headers, bodies[0])
    response = RecordedResponse(status, res_headers, bodies[1])
    file = tmp_path / "p.jsonl"
    _write(file, (request, response), scrub=False)
    [ex] = cassette.read(file).exchanges
    assert (ex.request, ex.response) == (request, response)
