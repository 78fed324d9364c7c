"""``regexUrlCheck`` and the URL check lists on the wire."""

from __future__ import annotations

import json

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st
from lxml import etree

from geoserver_emulator.areas.about.xstream import jettison
from geoserver_emulator.areas.urlchecks import codec
from geoserver_emulator.areas.urlchecks.model import CheckInput, UrlCheck
from geoserver_emulator.core.errors import Invalid

ATOM = "{http://www.w3.org/2005/Atom}link"
xml_text = st.text(
    alphabet=st.characters(blacklist_categories=("Cs", "Cc", "Cn"), blacklist_characters="\r"),
    max_size=30,
).map(str.strip)
checks = st.builds(
    UrlCheck,
    name=xml_text.filter(bool),
    regex=xml_text.filter(bool),
    description=st.none() | xml_text,
    enabled=st.booleans(),
)


def as_input(c: UrlCheck) -> CheckInput:
    return CheckInput(c.name, c.description, c.enabled, c.regex)


@given(checks)
def test_xml_round_trip(check):
    assert codec.parse_check_xml(codec.dump_check_xml(check)) == as_input(check)


def survives_jettison(text: str | None) -> bool:
    """Whether Jettison's typing of ``text`` reads back as the same text ("1.0" does not)."""
    if text is None:
        return True
    value = jettison(text)
    if isinstance(value, bool):
        return True
    return str(value) == text


@given(checks)
def test_json_round_trip(check):
    assume(all(survives_jettison(v) for v in (check.name, check.description, check.regex)))
    assert codec.parse_check_json(codec.dump_check_json(check)) == as_input(check)


def test_json_numeric_text_reads_back_as_its_number():
    check = UrlCheck("12", "1.0", "true", True)
    assert codec.parse_check_json(codec.dump_check_json(check)) == CheckInput(
        "12", "true", True, "1"
    )


def test_view_xml_is_geoservers_shape():
    body = codec.dump_check_xml(UrlCheck("check1", "check1://.*", "regex check 1", True))
    assert body == (
        b"<regexUrlCheck><name>check1</name><description>regex check 1</description>"
        b"<enabled>true</enabled><regex>check1://.*</regex></regexUrlCheck>"
    )


def test_view_json_types_enabled_and_omits_missing_description():
    doc = json.loads(codec.dump_check_json(UrlCheck("check2", "check2://.*", None, False)))
    assert doc == {"regexUrlCheck": {"name": "check2", "enabled": False, "regex": "check2://.*"}}


def test_view_json_numeric_name_is_a_number_as_jettison_writes_it():
    doc = json.loads(codec.dump_check_json(UrlCheck("2024", "x", "1.5", True)))
    assert doc["regexUrlCheck"]["name"] == 2024 and doc["regexUrlCheck"]["description"] == 1.5


def test_parse_json_accepts_string_booleans_and_empty_object():
    assert codec.parse_check_json(
        b'{"regexUrlCheck":{"name":"a","enabled":"true","regex":"x"}}'
    ) == CheckInput("a", None, True, "x")
    assert codec.parse_check_json(b'{"regexUrlCheck":{}}') == CheckInput()
    assert codec.parse_check_json(b'{"regexUrlCheck":""}') == CheckInput()


def test_parse_xml_absent_and_empty_fields():
    assert codec.parse_check_xml(b"<regexUrlCheck/>") == CheckInput()
    assert codec.parse_check_xml(
        b"<regexUrlCheck><name/><regex></regex></regexUrlCheck>"
    ) == CheckInput(name="", regex="")


@pytest.mark.parametrize(
    "body",
    [
        b"<urlCheck><name>a</name></urlCheck>",
        b"<regexUrlCheck><name>a</name><color>red</color></regexUrlCheck>",
        b"<regexUrlCheck><enabled>maybe</enabled></regexUrlCheck>",
        b"<regexUrlCheck>",
        b"",
    ],
)
def test_parse_xml_errors(body):
    with pytest.raises(Invalid):
        codec.parse_check_xml(body)


@pytest.mark.parametrize(
    "body",
    [
        b'{"urlCheck":{"name":"a"}}',
        b'{"regexUrlCheck":{"name":"a"},"extra":1}',
        b'{"regexUrlCheck":{"color":"red"}}',
        b'{"regexUrlCheck":{"enabled":"maybe"}}',
        b'{"regexUrlCheck":{"enabled":3}}',
        b'{"regexUrlCheck":{"name":["a"]}}',
        b'{"regexUrlCheck":{"name":"a\\u0001b"}}',
        b'{"regexUrlCheck":{"regex":"\\uffff"}}',
        b'{"regexUrlCheck":[]}',
        b"[1]",
        b"{",
    ],
)
def test_parse_json_errors(body):
    with pytest.raises(Invalid):
        codec.parse_check_json(body)


def test_list_xml_has_atom_links_with_extension():
    body = codec.dump_list_xml(
        [UrlCheck("a b", "x"), UrlCheck("c", "y")], "http://h/geoserver/rest/urlchecks"
    )
    root = etree.fromstring(body)
    assert root.tag == "urlChecks"
    items = root.findall("urlCheck")
    assert [i.findtext("name") for i in items] == ["a b", "c"]
    link = items[0].find(ATOM)
    assert link.get("href") == "http://h/geoserver/rest/urlchecks/a+b.xml"
    assert link.get("type") == "application/atom+xml" and link.get("rel") == "alternate"


def test_list_json_keys_come_from_the_profile_row_and_empty_is_a_string():
    base = "http://h/rest/urlchecks"
    one = json.loads(codec.dump_list_json([UrlCheck("a", "x")], base, ("urlChecks", "urlCheck")))
    assert one == {
        "urlChecks": {"urlCheck": [{"name": "a", "href": "http://h/rest/urlchecks/a.json"}]}
    }
    assert json.loads(codec.dump_list_json([], base, ("urlchecks", "urlcheck"))) == {
        "urlchecks": ""
    }
    assert etree.fromstring(codec.dump_list_xml([], base)).tag == "urlChecks"


def test_html_pages():
    page = codec.dump_list_html([UrlCheck("c<1>", "x")], "http://h/rest/urlchecks")
    assert '<li><a href="http://h/rest/urlchecks/c&lt;1&gt;.html">c&lt;1&gt;</a></li>' in page
    one = codec.dump_check_html(UrlCheck("check3", "check3://.*", "regex check 3", True))
    for line in (
        "Name: check3",
        "Description: regex check 3",
        "Configuration: check3://.*",
        "Enabled: true",
    ):
        assert f"<li>{line}</li>" in one
