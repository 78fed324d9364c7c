"""The style record codec: golden bytes, both input forms, and parse(dump(x)) == x."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from geoserver_emulator.areas.styles import codec
from geoserver_emulator.areas.styles.model import UNSET, Legend, Style, StyleChanges
from geoserver_emulator.core.errors import Invalid


def test_golden_xml_and_json():
    style = Style(
        "countries",
        "ne",
        filename="countries.sld",
        date_created="2026-01-01 00:00:00.000 UTC",
        legend=Legend(32, 32, "image/png", "a.png"),
        metadata={"cacheAgeMax": "300"},
    )
    assert codec.dump_style(style, "xml") == (
        b"<style><name>countries</name><workspace><name>ne</name></workspace><format>sld</format>"
        b"<languageVersion><version>1.0.0</version></languageVersion><filename>countries.sld</filename>"
        b"<legend><width>32</width><height>32</height><format>image/png</format>"
        b"<onlineResource>a.png</onlineResource></legend>"
        b"<dateCreated>2026-01-01 00:00:00.000 UTC</dateCreated>"
        b'<metadata><entry key="cacheAgeMax">300</entry></metadata></style>'
    )
    assert json.loads(codec.dump_style(style, "json")) == {
        "style": {
            "name": "countries",
            "workspace": {"name": "ne"},
            "format": "sld",
            "languageVersion": {"version": "1.0.0"},
            "filename": "countries.sld",
            "legend": {"width": 32, "height": 32, "format": "image/png", "onlineResource": "a.png"},
            "dateCreated": "2026-01-01 00:00:00.000 UTC",
            "metadata": {"entry": {"@key": "cacheAgeMax", "$": "300"}},
        }
    }


def test_lists():
    assert codec.dump_list([], "xml") == b"<styles/>"
    assert json.loads(codec.dump_list([], "json")) == {"styles": ""}
    assert json.loads(codec.dump_list([("a", "http://x/a.json")], "json")) == {
        "styles": {"style": [{"name": "a", "href": "http://x/a.json"}]}
    }
    assert b'<a href="http://x/a&amp;b.html">a&amp;b</a>' in codec.dump_list(
        [("a&b", "http://x/a&b.html")], "html"
    )


@pytest.mark.parametrize(
    ("body", "fmt", "workspace"),
    [
        (b"<style><workspace>cite</workspace></style>", "xml", "cite"),
        (b"<style><workspace><name>cite</name></workspace></style>", "xml", "cite"),
        (b"<style><workspace></workspace></style>", "xml", None),
        (b"<style><workspace/></style>", "xml", None),
        (b"<style><name>x</name></style>", "xml", UNSET),
        (b'{"style": {"workspace": "cite"}}', "json", "cite"),
        (b'{"style": {"workspace": {"name": "cite"}}}', "json", "cite"),
        (b'{"style": {"workspace": ""}}', "json", None),
        (b'{"style": {"workspace": null}}', "json", None),
        (b'{"name": "x"}', "json", UNSET),
    ],
)
def test_workspace_forms(body, fmt, workspace):
    assert codec.parse_style(body, fmt).workspace == workspace


@pytest.mark.parametrize(
    ("body", "fmt"),
    [
        (b"<layer><name>x</name></layer>", "xml"),
        (b"<style><legend><width>wide</width></legend></style>", "xml"),
        (b"<style><metadata><entry>1</entry></metadata></style>", "xml"),
        (b'{"style": {"name": ["x"]}}', "json"),
        (b'{"style": {"legend": {"width": "wide"}}}', "json"),
        (b'{"style": {"metadata": {"entry": [{"$": "1"}]}}}', "json"),
        (b'{"style": {"legend": {"width": true}}}', "json"),
        (b"[]", "json"),
    ],
)
def test_malformed_records(body, fmt):
    with pytest.raises(Invalid):
        codec.parse_style(body, fmt)


text = st.text(st.characters(blacklist_categories=("Cs", "Cc")), min_size=1, max_size=20).filter(
    lambda s: s.strip() == s
)
styles = st.builds(
    Style,
    name=text,
    workspace=st.none() | text,
    format=st.sampled_from(["sld", "css"]),
    version=st.sampled_from(["1.0.0", "1.1.0"]),
    filename=text,
    legend=st.none()
    | st.builds(
        Legend,
        st.none() | st.integers(0, 999),
        st.none() | st.integers(0, 999),
        st.none() | text,
        st.none() | text,
    ),
    metadata=st.dictionaries(text, text, max_size=3),
)


@settings(max_examples=60, deadline=None)
@given(styles, st.sampled_from(["xml", "json"]))
def test_parse_of_dump_is_the_record(style, fmt):
    got = codec.parse_style(codec.dump_style(style, fmt), fmt)
    legend = style.legend
    assert got == StyleChanges(
        name=style.name,
        filename=style.filename,
        format=style.format,
        version=style.version,
        legend=legend,
        metadata=style.metadata or None,
        workspace=style.workspace if style.workspace is not None else UNSET,
    )
