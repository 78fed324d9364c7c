"""The shared GeoServer writers (``wire/geoserver/``): Jettison's JSON typing, dates, the
XStream name-and-link lists, the REST HTML frame and XML text escaping."""

from __future__ import annotations

import json
import math
from datetime import UTC, datetime, timedelta, timezone

import pytest
from hypothesis import given
from hypothesis import strategies as st
from lxml import etree

from geoserver_emulator.wire.geoserver import dates, html, jettison, xmltext, xstream
from geoserver_emulator.wire.geoserver.java import double_text

ATOM = "{http://www.w3.org/2005/Atom}link"


@pytest.mark.parametrize(
    ("text", "leaf"),
    [("4", 4), ("12.5", 12.5), ("1.0", 1), ("1.0E10", 1e10), ("true", True), ("007", "007")]
    + [("NaN", "NaN"), ("Infinity", "Infinity"), ("-Infinity", "-Infinity"), ("-0.0", 0)],
)
def test_jettison_types_a_leaf_as_geoserver_json_does(text: str, leaf: object) -> None:
    got = jettison.jettison(text)
    assert got == leaf and type(got) is type(leaf)


@given(st.floats())
def test_a_double_leaf_is_always_valid_json(value: float) -> None:
    """Jettison keeps NaN and the infinities strings: the JSON stays readable."""
    for written in (jettison.leaf(value), jettison.number(value)):
        text = json.dumps({"v": written}, allow_nan=False)
        back = json.loads(text)["v"]
        if math.isfinite(value):
            assert back == value
        else:
            assert back == double_text(value)


def test_dates() -> None:
    dt = datetime(2024, 1, 31, 10, 0, 0, 42_000, tzinfo=UTC)
    assert dates.catalog_timestamp(dt) == "2024-01-31 10:00:00.042 UTC"
    assert dates.resource_timestamp(dt) == "2024-01-31 10:00:00.42 UTC"
    assert dates.iso_instant(dt) == "2024-01-31T10:00:00.042Z"
    assert dates.iso_instant(dt.replace(microsecond=0)) == "2024-01-31T10:00:00Z"
    east = dt.astimezone(timezone(timedelta(hours=2)))
    assert dates.geojson_instant(east) == "2024-01-31T10:00:00.042+0000"


ENTRIES = [("topp", "http://h/geoserver/rest/workspaces/topp.xml"), ("a&b", "http://h/x?a=1&b=2")]


def test_names_xml_is_the_xstream_list() -> None:
    """The shape of GeoServer's ``GET /rest/workspaces.xml`` (docs: REST workspaces)."""
    body = xstream.names_xml("workspaces", "workspace", ENTRIES, "application/xml")
    root = etree.fromstring(body)
    assert root.tag == "workspaces" and [c.tag for c in root] == ["workspace", "workspace"]
    first = root[0]
    assert first.findtext("name") == "topp"
    link = first.find(ATOM)
    assert link is not None and link.attrib == {
        "rel": "alternate",
        "href": "http://h/geoserver/rest/workspaces/topp.xml",
        "type": "application/xml",
    }
    assert root[1].findtext("name") == "a&b"
    assert xstream.names_xml("workspaces", "workspace", []) == b"<workspaces/>"


def test_names_json_is_the_jettison_list() -> None:
    body = json.loads(xstream.names_json("workspaces", "workspace", ENTRIES))
    assert body == {"workspaces": {"workspace": [{"name": n, "href": h} for n, h in ENTRIES]}}
    assert xstream.names_json("workspaces", "workspace", []) == b'{"workspaces":""}'
    empty = xstream.names_json("authfilters", "authfilter", [], empty=None)
    assert empty == b'{"authfilters":{"authfilter":[]}}'
    typed = json.loads(xstream.names_json("s", "t", [("12", "h")], name=jettison.leaf))
    assert typed == {"s": {"t": [{"name": 12, "href": "h"}]}}


@given(st.lists(st.tuples(st.text(), st.text()), max_size=5))
def test_the_fast_json_list_equals_the_plain_one(entries: list[tuple[str, str]]) -> None:
    fast = xstream.names_json("xs", "x", entries)
    plain = xstream.names_json("xs", "x", entries, name=str)
    assert json.loads(fast) == json.loads(plain)


def test_names_xml_pretty_is_gwc_output() -> None:
    """GWC's ``GET /gwc/rest/layers.xml`` (its REST docs), two-space indent."""
    body = xstream.names_xml_pretty(
        "layers", "layer", [("topp:states", "http://h/gwc/rest/layers/topp%3Astates.xml")]
    )
    assert body.decode() == (
        "<layers>\n  <layer>\n    <name>topp:states</name>\n"
        '    <atom:link xmlns:atom="http://www.w3.org/2005/Atom" rel="alternate"'
        ' href="http://h/gwc/rest/layers/topp%3Astates.xml" type="text/xml"/>\n'
        "  </layer>\n</layers>"
    )
    assert xstream.names_xml_pretty("layers", "layer", [], declaration=True) == (
        b'<?xml version="1.0" encoding="UTF-8"?>\n<layers/>'
    )
    assert etree.fromstring(xstream.names_xml_pretty("a", "b", [("<&>", "'\"")]))[0].findtext(
        "name"
    ) == ("<&>")


def test_html_page_is_geoservers_frame() -> None:
    """``head.ftl`` + body + ``tail.ftl``."""
    assert html.page("<p>x</p>") == (
        "<html>\n<head>\n<title>GeoServer Configuration</title>\n"
        '<meta name="ROBOTS" content="NOINDEX, NOFOLLOW"/>\n</head>\n<body>\n'
        "<p>x</p>\n</body>\n</html>\n"
    )
    assert "<title>A &amp; B</title>" in html.page("", title="A & B")
    assert html.esc('<a href="x">') == "&lt;a href=&quot;x&quot;&gt;"


@given(st.text(st.characters(codec="utf-8", exclude_categories=("Cs", "Cc"))))
def test_escaped_text_reads_back(text: str) -> None:
    for escaped in (xmltext.escape(text), xmltext.escape_attribute(text)):
        root = etree.fromstring(f'<a b="{xmltext.escape(text, quote=True)}">{escaped}</a>')
        assert (root.text or "") == text
        assert root.get("b") == text
