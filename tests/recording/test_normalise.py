"""Normalised bodies: what a verification ignores (formatting, volatile values) and what not."""

from __future__ import annotations

import pytest

from geoserver_emulator.scenarios.normalise import Masks

MASKS = Masks(["http://recorded.invalid", "http://localhost:8080"], ["/geoserver"])


def same(a: bytes, b: bytes, ctype: str | None) -> bool:
    return MASKS.normalise(a, ctype) == MASKS.normalise(b, ctype)


def test_xml_is_canonical() -> None:
    a = b'<?xml version="1.0"?><a y="2" x="1">\n  <b>t</b>\n</a>'
    b = b'<a x="1" y="2"><b>t</b></a>'
    assert same(a, b, "application/xml")
    assert not same(a, b'<a x="1" y="2"><b>u</b></a>', "application/xml")
    assert MASKS.normalise(b, "application/xml")[0] == "xml"


def test_json_ignores_key_order_and_spacing_but_not_list_order() -> None:
    assert same(b'{"a":1,"b":[1,2]}', b'{ "b": [1, 2], "a": 1 }', "application/json")
    assert not same(b'{"b":[1,2]}', b'{"b":[2,1]}', "application/json")
    assert not same(b'{"a":1}', b'{"a":"1"}', "application/json")


@pytest.mark.parametrize(
    ("recorded", "answered"),
    [
        (
            b'{"href":"http://recorded.invalid/geoserver/rest/x.json"}',
            b'{"href":"http://127.0.0.1:5/geoserver/rest/x.json"}',
        ),
        (b'{"id":"WorkspaceInfoImpl-1a2b:3c4d:-7ff"}', b'{"id":"ws-2"}'),
        (b'{"x":{"id":7}}', b'{"x":{"id":8}}'),
        (
            b'{"dateCreated":"2022-08-21 15:10:28.234 UTC"}',
            b'{"dateCreated":"2026-01-01 00:00:00.000 UTC"}',
        ),
        (b'{"note":"at 2024-01-01T10:00:00Z"}', b'{"note":"at 2026-03-04T05:06:07.123+02:00"}'),
        (b'{"oldMasterPassword":"scrubbed-secret-2"}', b'{"oldMasterPassword":"geoserver"}'),
        (
            b'{"connectionParameters":{"entry":[{"@key":"passwd","$":"a"}]}}',
            b'{"connectionParameters":{"entry":[{"@key":"passwd","$":"b"}]}}',
        ),
        (b'{"u":"52857278:13c7ffd66a8:-7ff7"}', b'{"u":"-2f2c1b6e:1429c8e6aa5:-8000"}'),
    ],
)
def test_volatile_json_values_are_masked(recorded: bytes, answered: bytes) -> None:
    assert same(recorded, answered, "application/json")


def test_volatile_xml_values_are_masked() -> None:
    a = (
        b'<w><id>1</id><dateModified>2020</dateModified><atom:link xmlns:atom="http://www.w3.org/2005/Atom"'
        b' href="http://recorded.invalid/geoserver/rest/w.xml"/><entry key="passwd">x</entry></w>'
    )
    b = (
        b'<w><id>2</id><dateModified>2026</dateModified><atom:link xmlns:atom="http://www.w3.org/2005/Atom"'
        b' href="http://localhost:8080/geoserver/rest/w.xml"/><entry key="passwd">y</entry></w>'
    )
    assert same(a, b, "application/xml")


def test_other_hosts_are_compared() -> None:
    a = b'{"uri":"http://www.openplans.org/topp"}'
    b = b'{"uri":"http://www.example.org/topp"}'
    assert not same(a, b, "application/json")
    assert MASKS.text("http://any.host:1/geoserver/rest") == "{server}/rest"
    assert MASKS.text("http://any.host:1/other") == "http://any.host:1/other"


def test_plain_text_and_bytes() -> None:
    assert same(b"No such style: x\n", b"No such style: x", "text/plain")
    assert not same(b"No such style: x", b"No such style: y", "text/plain")
    assert MASKS.normalise(b"\xff\x00", "application/zip")[0] == "bytes"
    assert not same(b"\xff\x00", b"\xff\x01", "application/zip")
    assert MASKS.normalise(b"  ", "application/json") == ("empty", "")


def test_html_is_text_and_malformed_xml_falls_back_to_text() -> None:
    assert MASKS.normalise(b"<html><p>x", "text/html")[0] == "text"
    assert MASKS.normalise(b"<a><b></a>", "application/xml")[0] == "text"
    assert MASKS.normalise(b"{bad", "application/json")[0] == "text"
