from __future__ import annotations

import pytest

from geoserver_emulator.core.errors import Invalid, NotAcceptable, UnsupportedMediaType
from geoserver_emulator.wire import json as wjson
from geoserver_emulator.wire import negotiate
from geoserver_emulator.wire import xml as wxml


def test_xml_with_doctype_or_entity_is_refused():
    xxe = b'<?xml version="1.0"?><!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]><x>&e;</x>'
    with pytest.raises(Invalid) as info:
        wxml.parse(xxe)
    assert "DOCTYPE" in info.value.message


@pytest.mark.parametrize("body", [b"", b"<a>", b"not xml", b"<a></b>"])
def test_malformed_xml_is_invalid(body: bytes):
    with pytest.raises(Invalid):
        wxml.parse(body)


@pytest.mark.parametrize("body", [b"", b"{", b"NaN", b"\xff"])
def test_malformed_json_is_invalid(body: bytes):
    with pytest.raises(Invalid):
        wjson.loads(body)


def test_json_dump_is_compact_and_ordered():
    assert wjson.dumps({"b": 1, "a": [True, None]}) == b'{"b":1,"a":[true,null]}'


def test_atom_link_shape():
    root = wxml.element("workspace")
    wxml.sub(root, "name", "topp")
    wxml.atom_link(root, "http://h/geoserver/rest/workspaces/topp.xml")
    assert wxml.dump(root) == (
        b'<workspace><name>topp</name><atom:link xmlns:atom="http://www.w3.org/2005/Atom" '
        b'rel="alternate" href="http://h/geoserver/rest/workspaces/topp.xml" '
        b'type="application/xml"/>'
        b"</workspace>"
    )


@pytest.mark.parametrize(
    ("accept", "ext", "expected"),
    [
        (None, None, "xml"),
        ("*/*", None, "xml"),
        ("application/json", None, "json"),
        ("text/json", None, "json"),
        ("text/xml;q=0.5, application/json", None, "json"),
        ("application/json", "xml", "xml"),
    ],
)
def test_response_format(accept, ext, expected):
    assert negotiate.response_format(accept, ext, ("xml", "json"), "xml") == expected


def test_response_format_not_acceptable():
    with pytest.raises(NotAcceptable):
        negotiate.response_format("image/png", None, ("xml", "json"), "xml")


def test_body_format():
    assert negotiate.body_format("text/xml; charset=utf-8", ("xml", "json")) == "xml"
    with pytest.raises(UnsupportedMediaType):
        negotiate.body_format("text/plain", ("xml", "json"))
    with pytest.raises(UnsupportedMediaType):
        negotiate.body_format(None, ("xml", "json"))


def test_split_ext():
    assert negotiate.split_ext("topp.xml") == ("topp", "xml")
    assert negotiate.split_ext("topp:states.json") == ("topp:states", "json")
    assert negotiate.split_ext("a.b") == ("a.b", None)
    assert negotiate.split_ext(".xml") == (".xml", None)


def test_xml_error_body_survives_characters_xml_cannot_hold():
    from geoserver_emulator.wire.errors import render

    body, media_type = render(
        404, "no such thing: a\x00b\x1f", "/rest/security/authproviders/x.xml", None
    )
    assert media_type == "application/xml"
    assert wxml.text(wxml.parse(body), "message") == "no such thing: a\ufffdb\ufffd"
