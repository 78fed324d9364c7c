"""Filter configurations in XML and JSON: spec examples, class names, bad bodies, round trips."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from lxml import etree

from geoserver_emulator.areas.auth_filters import codec
from geoserver_emulator.areas.auth_filters.model import FilterConfig, draft
from geoserver_emulator.areas.auth_filters.schema import (
    ANONYMOUS,
    INTERCEPTOR,
    OPENID_CONNECT,
    PREAUTH_ROLE_SOURCE,
)
from geoserver_emulator.core.errors import Invalid
from geoserver_emulator.core.vendor import VendorNames

GS = VendorNames("org.geoserver")
SPEC = VendorNames("org.service")

INTERCEPTOR_XML = b"""<org.geoserver.security.config.SecurityInterceptorFilterConfig>
  <id>-2bf62d17:196c4deaf9b:-7fff</id>
  <name>restInterceptor9</name>
  <className>org.geoserver.security.filter.GeoServerSecurityInterceptorFilter</className>
  <allowIfAllAbstainDecisions>false</allowIfAllAbstainDecisions>
  <securityMetadataSource>restFilterDefinitionMap</securityMetadataSource>
</org.geoserver.security.config.SecurityInterceptorFilterConfig>"""

OIDC_JSON = {
    "org.service.security.oauth2.OpenIdConnectFilterConfig": {
        "name": "Keycloak12",
        "className": "org.service.security.oauth2.OpenIdConnectAuthenticationFilter",
        "roleSource": {
            "@class": "org.service.security.config.PreAuthenticatedUserNameFilterConfig"
            "$PreAuthenticatedUserNameRoleSource",
            "$": "RoleService",
        },
        "clientId": "myclient",
        "clientSecret": "<CLIENT_SECRET>",
        "scopes": "openid email",
        "enableRedirectAuthenticationEntryPoint": False,
        "allowBearerTokens": True,
    }
}


def test_xml_spec_example_parses_typed():
    cfg = codec.parse_filter_xml(INTERCEPTOR_XML, GS)
    assert (cfg.name, cfg.class_name, cfg.config_class) == (
        "restInterceptor9",
        "security.filter.GeoServerSecurityInterceptorFilter",
        INTERCEPTOR,
    )
    assert cfg.fields == {
        "allowIfAllAbstainDecisions": False,
        "securityMetadataSource": "restFilterDefinitionMap",
    }
    assert cfg.id == ""  # a client's id is never taken


def test_json_spec_example_with_either_prefix():
    cfg = codec.parse_filter_json(json.dumps(OIDC_JSON).encode(), GS)
    assert cfg.config_class == OPENID_CONNECT
    assert cfg.fields["roleSource"] == {"@class": PREAUTH_ROLE_SOURCE, "$": "RoleService"}
    assert cfg.fields["clientSecret"] == "<CLIENT_SECRET>"
    assert cfg.fields["allowBearerTokens"] is True


def test_dump_json_carries_class_and_id_in_geoserver_order():
    cfg = codec.parse_filter_json(json.dumps(OIDC_JSON).encode(), GS)
    cfg.id = "i-1"
    doc = json.loads(codec.dump_filter_json(cfg, GS))
    ((key, inner),) = doc.items()
    assert key == "org.geoserver.security.oauth2.OpenIdConnectFilterConfig"
    assert list(inner)[:4] == ["id", "name", "@class", "className"]
    assert inner["@class"] == key
    assert inner["roleSource"]["@class"].startswith("org.geoserver.security.config.")


def test_dump_xml_writes_role_source_as_class_attribute():
    cfg = codec.parse_filter_json(json.dumps(OIDC_JSON).encode(), GS)
    cfg.id = "i-1"
    root = etree.fromstring(codec.dump_filter_xml(cfg, GS))
    assert root.tag == "org.geoserver.security.oauth2.OpenIdConnectFilterConfig"
    assert [c.tag for c in root][:3] == ["id", "name", "className"]
    role = root.find("roleSource")
    assert (
        role.get("class").endswith("$PreAuthenticatedUserNameRoleSource")
        and role.text == "RoleService"
    )


def test_spec_spelling_of_implementation_classes():
    wire = "org.service.security.filter.ServiceAnonymousAuthenticationFilter"
    canonical = codec.read_class(GS, wire)
    assert canonical == "security.filter.GeoServerAnonymousAuthenticationFilter"
    assert (
        codec.write_class(GS, canonical)
        == "org.geoserver.security.filter.GeoServerAnonymousAuthenticationFilter"
    )
    assert codec.write_class(SPEC, canonical) == wire
    assert (
        codec.read_class(GS, "org.service.security.filter.ServiceUnknownThing")
        == "security.filter.ServiceUnknownThing"
    )
    assert codec.write_class(SPEC, "security.config.AnonymousAuthenticationFilterConfig") == (
        "org.service.security.config.AnonymousAuthenticationFilterConfig"
    )


@pytest.mark.parametrize(
    "body, message",
    [
        (b"", "Empty"),
        (b"<a><b></a>", "Malformed"),
        (b"<authFilter><name>x</name></authFilter>", "class name as the root"),
        (b"<a.B><name>x</name><name>y</name></a.B>", "given twice"),
        (b"<a.B><name><x/></name></a.B>", "text only"),
        (b'<!DOCTYPE a [<!ENTITY e "x">]><a.B/>', "DOCTYPE"),
    ],
)
def test_malformed_xml(body, message):
    with pytest.raises(Invalid, match=message):
        codec.parse_filter_xml(body, GS)


@pytest.mark.parametrize(
    "doc, message",
    [
        ([], "one key"),
        ({"a.B": {}, "c.D": {}}, "one key"),
        ({"notAClass": {}}, "class name"),
        ({"a.B": "x"}, "Expected a JSON object"),
        ({"a.B": {"name": 5}}, "name must be a string"),
        ({"a.B": {"@class": "c.D"}}, "does not match"),
        ({"a.B": {"@other": "x"}}, "Unexpected key"),
        ({"a.B": {"bad key": "x"}}, "not a valid field name"),
        ({"a.B": {"x": {"@xmlns": "u"}}}, "reserved"),
        ({"a.B": {"x": "\u0001"}}, "XML cannot carry"),
        ({"a.B": {"x": {"@class": 5}}}, "must be a class name"),
        ({"a.B": {"x": {"$": [1]}}}, "plain value"),
    ],
)
def test_malformed_json(doc, message):
    with pytest.raises(Invalid, match=message):
        codec.parse_filter_json(json.dumps(doc).encode(), GS)


def test_malformed_json_text():
    with pytest.raises(Invalid, match="Malformed"):
        codec.parse_filter_json(b"{", GS)


def test_json_class_key_matching_body_class_is_accepted():
    doc = {
        "org.geoserver.security.config.AnonymousAuthenticationFilterConfig": {
            "@class": "org.service.security.config.AnonymousAuthenticationFilterConfig",
            "name": "a",
            "className": "x.Y",
            "id": "ignored",
        }
    }
    cfg = codec.parse_filter_json(json.dumps(doc).encode(), GS)
    assert (cfg.config_class, cfg.name, cfg.id) == (ANONYMOUS, "a", "")


def test_unknown_class_keeps_structure_through_both_formats():
    xml = b"""<com.acme.MyFilterConfig>
      <name>mine</name><className>com.acme.MyFilter</className>
      <flag>true</flag><port>80</port>
      <source class="org.service.security.config.Thing">Value</source>
      <nested a="1"><item>x</item><item>y</item></nested>
    </com.acme.MyFilterConfig>"""
    cfg = codec.parse_filter_xml(xml, GS)
    assert cfg.fields == {
        "flag": "true",
        "port": "80",
        "source": {"@class": "security.config.Thing", "$": "Value"},
        "nested": {"@a": "1", "item": ["x", "y"]},
    }
    again = codec.parse_filter_json(codec.dump_filter_json(cfg, GS), GS)
    assert again.fields == cfg.fields and again.config_class == "=com.acme.MyFilterConfig"
    assert codec.parse_filter_xml(codec.dump_filter_xml(cfg, GS), GS).fields == cfg.fields


def test_json_values_of_unknown_classes_kept_as_given():
    doc = {
        "com.acme.C": {
            "name": "n",
            "className": "com.acme.F",
            "n": 1.5,
            "b": True,
            "z": None,
            "l": [1, "a"],
        }
    }
    cfg = codec.parse_filter_json(json.dumps(doc).encode(), GS)
    assert cfg.fields == {"n": 1.5, "b": True, "l": [1, "a"]}
    xml = etree.fromstring(codec.dump_filter_xml(cfg, GS))
    assert [(c.tag, c.text) for c in xml][3:] == [
        ("n", "1.5"),
        ("b", "true"),
        ("l", "1"),
        ("l", "a"),
    ]


def test_list_dumps():
    items = [("anonymous", "http://h/geoserver/rest/security/authfilters/anonymous.xml")]
    root = etree.fromstring(codec.dump_list_xml(items))
    link = root.find("authfilter/{http://www.w3.org/2005/Atom}link")
    assert root.tag == "authfilters" and root.findtext("authfilter/name") == "anonymous"
    assert (link.get("rel"), link.get("href"), link.get("type")) == (
        "alternate",
        items[0][1],
        "application/xml",
    )
    assert json.loads(codec.dump_list_json(items)) == {
        "authfilters": {"authfilter": [{"name": "anonymous", "href": items[0][1]}]}
    }


# -- round trips ---------------------------------------------------------------------------

text = st.text(
    st.characters(blacklist_categories=("Cs", "Cc", "Cn")) | st.sampled_from("\t\n\r"), max_size=12
)
names = st.text("abcXYZ019_-", min_size=1, max_size=10)
role_sources = st.sampled_from(["Header", "UserGroupService", "RoleService"]).map(
    lambda v: {"@class": PREAUTH_ROLE_SOURCE, "$": v}
)
OIDC_STRINGS = (
    "roleServiceName clientId clientSecret accessTokenUri userAuthorizationUri redirectUri "
    "checkTokenEndpointUrl introspectionEndpointUrl logoutUri scopes loginEndpoint logoutEndpoint "
    "principalKey jwkURI postLogoutRedirectUri"
).split()
OIDC_BOOLS = (
    "enableRedirectAuthenticationEntryPoint forceAccessTokenUriHttps forceUserAuthorizationUriHttps"
).split()
OIDC_PRIMITIVES = (
    "allowUnSecureLogging sendClientSecret allowBearerTokens usePKCE enforceTokenValidation "
    "cacheAuthentication"
).split()


@st.composite
def configs(draw) -> FilterConfig:
    kind = draw(st.sampled_from(["anonymous", "interceptor", "oidc"]))
    name = draw(names)
    if kind == "anonymous":
        return draft(name, "security.filter.GeoServerAnonymousAuthenticationFilter", ANONYMOUS, {})
    if kind == "interceptor":
        fields = {
            "allowIfAllAbstainDecisions": draw(st.booleans()),
            "securityMetadataSource": draw(names),
        }
        return draft(
            name, "security.filter.GeoServerSecurityInterceptorFilter", INTERCEPTOR, fields
        )
    optional = {k: draw(text) for k in OIDC_STRINGS if draw(st.booleans())}
    optional |= {k: draw(st.booleans()) for k in OIDC_BOOLS if draw(st.booleans())}
    if draw(st.booleans()):
        optional["roleSource"] = draw(role_sources)
    optional |= {k: draw(st.booleans()) for k in OIDC_PRIMITIVES}
    return draft(
        name, "security.oauth2.OpenIdConnectAuthenticationFilter", OPENID_CONNECT, optional
    )


@settings(max_examples=60, deadline=None)
@given(configs(), st.sampled_from([GS, SPEC]))
def test_parse_dump_round_trip(cfg, vendor):
    cfg.id = "i-9"
    for dump, parse in (
        (codec.dump_filter_xml, codec.parse_filter_xml),
        (codec.dump_filter_json, codec.parse_filter_json),
    ):
        back = parse(dump(cfg, vendor), vendor)
        assert (back.name, back.class_name, back.config_class, back.fields) == (
            cfg.name,
            cfg.class_name,
            cfg.config_class,
            cfg.fields,
        )


@pytest.mark.parametrize("blank", ["", " ", None])
def test_blank_class_name_reads_as_none_given(blank):
    inner = "" if blank is None else f"<className>{blank}</className>"
    cfg = codec.parse_filter_xml(f"<a.B><name>n</name>{inner}</a.B>".encode(), GS)
    assert cfg.class_name == ""


def test_blank_class_attribute_stays_blank():
    cfg = codec.parse_filter_xml(b'<a.B><name>n</name><x class="">v</x></a.B>', GS)
    assert cfg.fields == {"x": {"@class": "", "$": "v"}}
    assert b'<x class="">v</x>' in codec.dump_filter_xml(cfg, GS)
    assert json.loads(codec.dump_filter_json(cfg, GS))["a.B"]["x"] == {"@class": "", "$": "v"}
