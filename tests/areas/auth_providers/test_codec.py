"""XML and JSON of providers: parse/dump pairs, round trips, class-name spellings."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from geoserver_emulator.areas.auth_providers import codec
from geoserver_emulator.areas.auth_providers.classes import KNOWN_CLASSES, KNOWN_NAMES
from geoserver_emulator.areas.auth_providers.model import ProviderConfig, ProviderStore
from geoserver_emulator.core.errors import Invalid
from geoserver_emulator.core.vendor import VendorNames

VENDOR = VendorNames()
JDBC = next(c for c in KNOWN_CLASSES if c.provider.endswith("JDBCConnectAuthProvider"))
CORE_NAMES = {"id", "name", "className", "userGroupServiceName"}


@pytest.mark.parametrize(
    "name, expected",
    [
        (
            "org.geoserver.security.auth.UsernamePasswordAuthenticationProvider",
            "security.auth.UsernamePasswordAuthenticationProvider",
        ),
        (
            "org.service.security.auth.UsernamePasswordAuthenticationProvider",
            "security.auth.UsernamePasswordAuthenticationProvider",
        ),
        (
            "com.acme.security.auth.UsernamePasswordAuthenticationProvider",
            "security.auth.UsernamePasswordAuthenticationProvider",
        ),
        ("com.acme.security.auth.Other", "=com.acme.security.auth.Other"),
        ("UsernamePasswordAuthenticationProvider", "=UsernamePasswordAuthenticationProvider"),
    ],
)
def test_canonical_class(name, expected):
    assert codec.canonical_class(VENDOR, name, KNOWN_NAMES) == expected


def test_canonical_class_keeps_a_foreign_class_in_use():
    assert codec.canonical_class(VENDOR, "com.acme.X", {"=com.acme.X"}) == "=com.acme.X"


def test_parse_json_envelopes_agree():
    inner = {"name": "a", "className": "c", "userGroupServiceName": "u", "k": [1]}
    drafts = [
        codec.parse_provider_json(json.dumps(body).encode())
        for body in (inner, {"authprovider": inner}, {"authproviders": [inner]})
    ]
    assert drafts[0] == drafts[1] == drafts[2]
    assert (drafts[0].name, drafts[0].class_name, drafts[0].fields) == (
        "a",
        "c",
        {"userGroupServiceName": "u", "k": [1]},
    )


def test_parse_json_reads_scalars_as_text():
    d = codec.parse_provider_json(b'{"name": 12, "className": true, "id": 1.5}')
    assert (d.name, d.class_name, d.id) == ("12", "true", "1.5")


def test_parse_xml_reads_attributes_repeats_and_text():
    d = codec.parse_provider_xml(
        b'<r a="1"><name> n </name><k>x</k><k>y</k><m b="2">t</m><e/><d><x>1</x></d></r>'
    )
    assert (d.config_class, d.name) == ("r", " n ")
    assert d.fields == {
        "@a": "1",
        "k": ["x", "y"],
        "m": {"@b": "2", "$": "t"},
        "e": "",
        "d": {"x": "1"},
    }


def test_parse_xml_refuses_deep_nesting():
    body = "<r>" + "<a>" * 40 + "x" + "</a>" * 40 + "</r>"
    with pytest.raises(Invalid, match="nested too deeply"):
        codec.parse_provider_xml(body.encode())


def test_parse_json_refuses_deep_nesting():
    body = '{"name":"a","x":' + "[" * 40 + "]" * 40 + "}"
    with pytest.raises(Invalid, match="nested too deeply"):
        codec.parse_provider_json(body.encode())


# -- provider round trips -------------------------------------------------------------------

SAFE_TEXT = st.text(
    st.characters(min_codepoint=0x20, max_codepoint=0xD7FF) | st.sampled_from("\t\n\r"), max_size=12
)
XML_NAME = st.from_regex(r"[A-Za-z_][A-Za-z0-9_.-]{0,8}", fullmatch=True).filter(
    lambda n: n not in CORE_NAMES and not n.lower().startswith("xml")
)


@pytest.mark.parametrize("fmt", ["xml", "json"])
@settings(max_examples=40)
@given(names=st.lists(SAFE_TEXT, max_size=5))
def test_order_round_trip(fmt, names):
    assert codec.parse_order(codec.dump_order(names, fmt), fmt) == names


def _xml_shaped(depth: int = 0) -> st.SearchStrategy[Any]:
    """Values XML carries unchanged: text, text with attributes, or nested elements."""
    leaf = SAFE_TEXT | st.builds(
        lambda attrs, text: {**{f"@{k}": v for k, v in attrs.items()}, "$": text},
        st.dictionaries(XML_NAME, SAFE_TEXT, min_size=1, max_size=2),
        SAFE_TEXT,
    )
    if depth >= 2:
        return leaf
    child = _xml_shaped(depth + 1)
    nested = st.dictionaries(
        XML_NAME, child | st.lists(child, min_size=2, max_size=3), min_size=1, max_size=3
    )
    return leaf | nested


JSON_VALUE = st.recursive(
    st.none() | st.booleans() | st.integers(-(10**6), 10**6) | SAFE_TEXT,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(XML_NAME, inner, max_size=3),
    max_leaves=8,
)


def _round_trip(cfg: ProviderConfig, fmt: str) -> ProviderConfig:
    """Dump, parse and build again through a store that holds nothing."""
    store = ProviderStore()
    pclass = store.class_of(cfg)
    body = codec.dump_provider(cfg, pclass, VENDOR, fmt)
    draft = codec.parse_provider(body, fmt)
    canon = lambda n: codec.canonical_class(VENDOR, n, KNOWN_NAMES)  # noqa: E731
    return store.create(
        draft, None, canon, lambda: cfg.id, {cfg.user_group_service or "", "default"}
    )


UP_CONFIGS = st.builds(
    lambda name, ugs: ProviderConfig(
        "id-1", name, KNOWN_CLASSES[0].provider, KNOWN_CLASSES[0].config, ugs, {}
    ),
    SAFE_TEXT.filter(lambda n: n.strip() and n.lower() != "order"),
    SAFE_TEXT.filter(lambda n: n.strip()),
)

LDAP_CLASS = KNOWN_CLASSES[1]
LDAP_CONFIGS = st.builds(
    lambda name, values, ugs: ProviderConfig(
        "id-2", name, LDAP_CLASS.provider, LDAP_CLASS.config, ugs, values
    ),
    SAFE_TEXT.filter(lambda n: n.strip() and n.lower() != "order"),
    st.fixed_dictionaries(
        {
            "serverURL": SAFE_TEXT,
            "useTLS": st.booleans(),
            "useNestedParentGroups": st.booleans(),
            "maxGroupSearchLevel": st.integers(-(2**31), 2**31 - 1),
            "nestedGroupSearchFilter": SAFE_TEXT,
        },
        optional={
            "userDnPattern": SAFE_TEXT,
            "bindBeforeGroupSearch": st.booleans(),
            "password": SAFE_TEXT,
        },
    ),
    st.none() | st.just("default"),
)


@settings(max_examples=40)
@pytest.mark.parametrize("fmt", ["xml", "json"])
@given(cfg=UP_CONFIGS | LDAP_CONFIGS)
def test_typed_provider_round_trip(fmt, cfg):
    assert _round_trip(cfg, fmt) == cfg


@settings(max_examples=40)
@given(name=XML_NAME, extra=st.dictionaries(XML_NAME, _xml_shaped(), max_size=4))
def test_free_form_fields_round_trip_in_xml(name, extra):
    cfg = ProviderConfig("id-3", name, JDBC.provider, JDBC.config, None, extra)
    assert _round_trip(cfg, "xml") == cfg


@settings(max_examples=40)
@given(
    name=XML_NAME,
    extra=st.dictionaries(XML_NAME, JSON_VALUE.filter(lambda v: v is not None), max_size=4),
)
def test_free_form_fields_round_trip_in_json(name, extra):
    cfg = ProviderConfig("id-4", name, JDBC.provider, JDBC.config, None, extra)
    assert _round_trip(cfg, "json") == cfg


@settings(max_examples=40)
@given(name=XML_NAME, extra=st.dictionaries(XML_NAME, JSON_VALUE, max_size=4))
def test_any_accepted_json_can_be_written_as_xml(name, extra):
    """JSON in, XML out never fails, whatever free-form fields came in."""
    body = json.dumps(
        {"name": name, "className": "org.geoserver." + JDBC.provider, **extra}
    ).encode()
    store = ProviderStore()
    canon = lambda n: codec.canonical_class(VENDOR, n, KNOWN_NAMES)  # noqa: E731
    cfg = store.create(codec.parse_provider_json(body), None, canon, lambda: "i", set())
    xml = codec.dump_provider_xml(cfg, store.class_of(cfg), VENDOR)
    assert codec.parse_provider_xml(xml).name == name


def test_list_dump_shapes():
    store = ProviderStore()
    cfg = ProviderConfig("i", "a", KNOWN_CLASSES[0].provider, KNOWN_CLASSES[0].config, "default")
    items = [(cfg, store.class_of(cfg))]
    assert json.loads(codec.dump_providers(items, VENDOR, "json")) == {
        "authproviders": [
            {
                "id": "i",
                "name": "a",
                "className": "org.geoserver." + cfg.class_name,
                "userGroupServiceName": "default",
            }
        ]
    }
    assert codec.dump_providers([], VENDOR, "xml") == b"<authproviders/>"
