"""XML and JSON of the security settings, without HTTP."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st
from lxml import etree

from geoserver_emulator.areas.security import codec
from geoserver_emulator.core.errors import Invalid

FORMATS = ("xml", "json")


def test_keystore_password_xml_and_json():
    assert codec.dump_keystore_password("geoserver", "xml") == (
        b"<masterPassword><oldMasterPassword>geoserver</oldMasterPassword></masterPassword>"
    )
    assert json.loads(codec.dump_keystore_password("geoserver", "json")) == {
        "oldMasterPassword": "geoserver"
    }


def test_keystore_change_xml_and_json():
    xml = b"""<masterPassword>
      <oldMasterPassword>cur</oldMasterPassword>
      <newMasterPassword>new</newMasterPassword>
    </masterPassword>"""
    assert codec.parse_keystore_change(xml, "xml") == ("cur", "new")
    assert codec.parse_keystore_change(
        b'{"oldMasterPassword":"cur","newMasterPassword":"new"}', "json"
    ) == (
        "cur",
        "new",
    )
    assert codec.parse_keystore_change(b"<masterPassword><x>1</x></masterPassword>", "xml") == (
        None,
        None,
    )


def test_catalog_mode_xml_and_json():
    assert codec.dump_catalog_mode("HIDE", "xml") == b"<catalog><mode>HIDE</mode></catalog>"
    assert json.loads(codec.dump_catalog_mode("MIXED", "json")) == {"mode": "MIXED"}
    assert codec.parse_catalog_mode(b"<catalog><mode>MIXED</mode></catalog>", "xml") == "MIXED"
    assert codec.parse_catalog_mode(b'{"mode":"CHALLENGE"}', "json") == "CHALLENGE"


@pytest.mark.parametrize(
    ("body", "fmt", "mode"),
    [
        (b'{"modexxxxx":"HIDE"}', "json", None),
        (b'{"mode":null}', "json", None),
        (b"<catalog><modexxxxx>HIDE</modexxxxx></catalog>", "xml", None),
        (b"<catalog><mode/></catalog>", "xml", None),
        (b"<catalog><mode> HIDE </mode></catalog>", "xml", " HIDE "),  # not trimmed
        (b"<anything><mode>HIDE</mode></anything>", "xml", "HIDE"),  # root name not checked
    ],
)
def test_catalog_mode_edge_cases(body, fmt, mode):
    assert codec.parse_catalog_mode(body, fmt) == mode


@pytest.mark.parametrize(
    ("body", "fmt"),
    [
        (b"<catalog/>", "xml"),
        (b"<catalog>HIDE</catalog>", "xml"),
        (b"<catalog><mode>HIDE</catalog>", "xml"),
        (b"", "xml"),
        (b"[1]", "json"),
        (b"{", "json"),
        (b"", "json"),
    ],
)
def test_malformed_maps_are_400(body, fmt):
    with pytest.raises(Invalid):
        codec.parse_map(body, fmt)


def test_xxe_is_refused_without_resolving():
    body = b"""<?xml version="1.0"?>
    <!DOCTYPE catalog [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>
    <catalog><mode>&xxe;</mode></catalog>"""
    with pytest.raises(Invalid) as info:
        codec.parse_catalog_mode(body, "xml")
    assert "root:" not in info.value.message


def test_rules_xml_and_json():
    rules = {"*.*.r": ["*"], "*.*.w": ["GROUP_ADMIN", "ADMIN"]}
    xml = codec.dump_rules(rules, "xml")
    assert (
        xml == b'<rules><rule resource="*.*.r">*</rule>'
        b'<rule resource="*.*.w">GROUP_ADMIN,ADMIN</rule></rules>'
    )
    assert json.loads(codec.dump_rules(rules, "json")) == {
        "*.*.r": "*",
        "*.*.w": "GROUP_ADMIN,ADMIN",
    }
    assert codec.parse_rules(xml, "xml") == {"*.*.r": "*", "*.*.w": "GROUP_ADMIN,ADMIN"}


def test_empty_rule_set():
    assert codec.dump_rules({}, "xml") == b"<rules/>"
    assert codec.dump_rules({}, "json") == b"{}"
    assert codec.parse_rules(b"<rules/>", "xml") == {}
    assert codec.parse_rules(b"{}", "json") == {}


def test_rule_text_is_trimmed_and_any_child_counts():
    body = (
        b'<rules>\n  <rule resource="a.b.r">\n   A, B  </rule>'
        b'<!-- c --><x resource="c.d.w">C</x>\n</rules>'
    )
    assert codec.parse_rules(body, "xml") == {"a.b.r": "A, B", "c.d.w": "C"}


@pytest.mark.parametrize(
    ("body", "fmt"),
    [
        (b"<rules><rule>A</rule></rules>", "xml"),
        (b'{"a.b.r": 1}', "json"),
        (b'{"a.b.r": ["A"]}', "json"),
        (b'["a.b.r"]', "json"),
        (b"<rules>", "xml"),
    ],
)
def test_malformed_rules_are_400(body, fmt):
    with pytest.raises(Invalid):
        codec.parse_rules(body, fmt)


keys = st.text(
    st.characters(min_codepoint=33, max_codepoint=0x2FF, exclude_categories=("Cc", "Cs")),
    min_size=1,
    max_size=20,
)
roles = st.lists(st.from_regex(r"[A-Z_]{1,8}", fullmatch=True), min_size=1, max_size=3, unique=True)


@given(st.dictionaries(keys, roles, max_size=6), st.sampled_from(FORMATS))
def test_rules_round_trip(rules, fmt):
    parsed = codec.parse_rules(codec.dump_rules(rules, fmt), fmt)
    assert parsed == {k: ",".join(v) for k, v in rules.items()}


def test_dumped_xml_is_well_formed_with_special_characters():
    body = codec.dump_rules({'/a&b/"x"/**:GET': ["R<1>"]}, "xml")
    root = etree.fromstring(body)
    assert root[0].get("resource") == '/a&b/"x"/**:GET'
    assert root[0].text == "R<1>"
