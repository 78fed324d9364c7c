"""Property: any valid filter of each described type created in XML reads back equal in JSON,
and created in JSON reads back equal in XML (over HTTP; bodies built here, not by the codec)."""

from __future__ import annotations

import json

import httpx
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from lxml import etree

from geoserver_emulator import Emulator

A = "/rest/security/authfilters"
PREFIXES = ("org.geoserver", "org.service")
ROLE_SOURCES = {
    "security.config.PreAuthenticatedUserNameFilterConfig$PreAuthenticatedUserNameRoleSource": [
        "Header",
        "UserGroupService",
        "RoleService",
    ],
    "security.oauth2.OpenIdConnectFilterConfig$OpenIdRoleSource": [
        "IdToken",
        "AccessToken",
        "MSGraphAPI",
        "UserInfo",
    ],
}
# The spec's field table of the OpenID Connect filter, by type.
OIDC_STRINGS = (
    "roleServiceName clientId clientSecret accessTokenUri userAuthorizationUri redirectUri "
    "checkTokenEndpointUrl introspectionEndpointUrl logoutUri jwkURI postLogoutRedirectUri scopes "
    "loginEndpoint logoutEndpoint principalKey"
).split()
OIDC_BOOLEANS = [
    *("enableRedirectAuthenticationEntryPoint", "forceAccessTokenUriHttps"),
    *("forceUserAuthorizationUriHttps", "allowUnSecureLogging", "sendClientSecret"),
    *("allowBearerTokens", "usePKCE", "enforceTokenValidation", "cacheAuthentication"),
]
ALWAYS_WRITTEN = {  # Java primitives: written even when a client leaves them out
    "SecurityInterceptorFilterConfig": {"allowIfAllAbstainDecisions"},
    "OpenIdConnectFilterConfig": {
        "allowUnSecureLogging",
        "sendClientSecret",
        "allowBearerTokens",
        "usePKCE",
        "enforceTokenValidation",
        "cacheAuthentication",
    },
}
TYPES = {  # (config class, implementation class as GeoServer and as the spec spell it)
    "anonymous": (
        "security.config.AnonymousAuthenticationFilterConfig",
        (
            "security.filter.GeoServerAnonymousAuthenticationFilter",
            "security.filter.ServiceAnonymousAuthenticationFilter",
        ),
    ),
    "interceptor": (
        "security.config.SecurityInterceptorFilterConfig",
        (
            "security.filter.GeoServerSecurityInterceptorFilter",
            "security.filter.ServiceSecurityInterceptorFilter",
        ),
    ),
    "oidc": (
        "security.oauth2.OpenIdConnectFilterConfig",
        ("security.oauth2.OpenIdConnectAuthenticationFilter",) * 2,
    ),
}

text = st.text(
    st.characters(blacklist_categories=("Cs", "Cc", "Cn")) | st.sampled_from("\t\n\r"), max_size=15
)
names = st.text("abcdefXYZ0189_-", min_size=1, max_size=12)


@st.composite
def filters(draw):
    """(kind, fields) where fields are typed as the JSON view writes them; class names canonical."""
    kind = draw(st.sampled_from(sorted(TYPES)))
    fields: dict = {}
    if kind == "interceptor":
        fields = {
            "allowIfAllAbstainDecisions": draw(st.booleans()),
            "securityMetadataSource": draw(text.filter(str.strip)),
        }
    elif kind == "oidc":
        for key in OIDC_STRINGS:
            if draw(st.booleans()):
                fields[key] = draw(text)
        for key in OIDC_BOOLEANS:
            if key in ALWAYS_WRITTEN["OpenIdConnectFilterConfig"] or draw(st.booleans()):
                fields[key] = draw(st.booleans())
        if draw(st.booleans()):
            cls = draw(st.sampled_from(sorted(ROLE_SOURCES)))
            fields["roleSource"] = {"@class": cls, "$": draw(st.sampled_from(ROLE_SOURCES[cls]))}
    return kind, fields


def wire(prefix: str, canonical: str) -> str:
    return f"{prefix}.{canonical}"


def xml_body(kind: str, name: str, fields: dict, prefix: str, spelling: int) -> bytes:
    config, impl = TYPES[kind]
    root = etree.Element(wire(prefix, config))
    etree.SubElement(root, "name").text = name
    etree.SubElement(root, "className").text = wire(prefix, impl[spelling])
    for key, value in fields.items():
        el = etree.SubElement(root, key)
        if isinstance(value, dict):
            el.set("class", wire(prefix, value["@class"]))
            el.text = value["$"]
        else:
            el.text = ("true" if value else "false") if isinstance(value, bool) else value
    return etree.tostring(root)


def json_body(kind: str, name: str, fields: dict, prefix: str, spelling: int) -> bytes:
    config, impl = TYPES[kind]
    inner = {"name": name, "className": wire(prefix, impl[spelling])}
    for key, value in fields.items():
        inner[key] = (
            {"@class": wire(prefix, value["@class"]), "$": value["$"]}
            if isinstance(value, dict)
            else value
        )
    return json.dumps({wire(prefix, config): inner}).encode()


def expected_json(kind: str, name: str, fields: dict) -> dict:
    config, impl = TYPES[kind]
    out = {
        "name": name,
        "@class": wire("org.geoserver", config),
        "className": wire("org.geoserver", impl[0]),
    }
    for key, value in fields.items():
        out[key] = (
            {"@class": wire("org.geoserver", value["@class"]), "$": value["$"]}
            if isinstance(value, dict)
            else value
        )
    return {wire("org.geoserver", config): out}


def read_json(r: httpx.Response) -> dict:
    doc = r.json()
    ((key, inner),) = doc.items()
    assert inner.pop("id")
    return doc


def read_xml(r: httpx.Response) -> tuple[str, dict]:
    root = etree.fromstring(r.content)
    out = {}
    for el in root:
        assert el.tag not in out, f"{el.tag} twice"
        out[el.tag] = (el.get("class"), el.text or "") if el.get("class") else (el.text or "")
    assert out.pop("id")
    return root.tag, out


def as_xml_values(expected: dict) -> tuple[str, dict]:
    ((key, inner),) = expected.items()
    out = {}
    for k, v in inner.items():
        if k == "@class":
            continue
        if isinstance(v, dict):
            out[k] = (v["@class"], v["$"])
        elif isinstance(v, bool):
            out[k] = "true" if v else "false"
        else:
            out[k] = v
    return key, out


def client(emu: Emulator) -> httpx.Client:
    return httpx.Client(
        transport=httpx.WSGITransport(app=emu.wsgi_app),
        base_url="http://localhost:8080/geoserver",
        auth=("admin", "geoserver"),
    )


def created(c: httpx.Client, body: bytes, content_type: str) -> str:
    r = c.post(A, content=body, headers={"Content-Type": content_type})
    assert r.status_code == 201, r.text
    return r.headers["location"].rsplit("/", 1)[1]


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(filters(), st.sampled_from(PREFIXES), st.integers(0, 1), names)
def test_created_in_xml_reads_back_equal_in_json(spec, prefix, spelling, stem):
    kind, fields = spec
    emu = Emulator("empty")
    with client(emu) as c:
        stem = "t-" + stem
        name = created(c, xml_body(kind, stem, fields, prefix, spelling), "application/xml")
        assert read_json(c.get(f"{A}/{name}.json")) == expected_json(kind, stem, fields)
    assert not emu.internal_errors


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(filters(), st.sampled_from(PREFIXES), st.integers(0, 1), names)
def test_created_in_json_reads_back_equal_in_xml(spec, prefix, spelling, stem):
    kind, fields = spec
    emu = Emulator("empty")
    with client(emu) as c:
        stem = "t-" + stem
        name = created(c, json_body(kind, stem, fields, prefix, spelling), "application/json")
        root = read_xml(c.get(f"{A}/{name}", headers={"Accept": "application/xml"}))
    assert root == as_xml_values(expected_json(kind, stem, fields))
    assert not emu.internal_errors


def test_primitive_fields_left_out_read_back_as_false():
    emu = Emulator("empty")
    with client(emu) as c:
        body = {
            "org.geoserver.security.oauth2.OpenIdConnectFilterConfig": {
                "name": "o",
                "className": "org.geoserver.security.oauth2.OpenIdConnectAuthenticationFilter",
            }
        }
        created(c, json.dumps(body).encode(), "application/json")
        inner = c.get(f"{A}/o.json").json()[
            "org.geoserver.security.oauth2.OpenIdConnectFilterConfig"
        ]
    assert {k for k, v in inner.items() if v is False} == ALWAYS_WRITTEN[
        "OpenIdConnectFilterConfig"
    ]


json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=5),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3)
    ),
    max_leaves=8,
)
class_keys = st.sampled_from(
    [
        "org.geoserver.security.config.AnonymousAuthenticationFilterConfig",
        "org.service.security.config.SecurityInterceptorFilterConfig",
        "org.geoserver.security.oauth2.OpenIdConnectFilterConfig",
        "com.acme.Whatever",
    ]
)


@settings(max_examples=80, deadline=None)
@given(class_keys, st.dictionaries(st.text(max_size=8), json_values, max_size=4), names)
def test_any_json_body_is_created_or_refused_never_an_error(key, inner, stem):
    emu = Emulator("empty")
    body = {key: {"name": "t-" + stem, "className": "x.Y", **inner}}
    with client(emu) as c:
        r = c.post(A, json=body)
        assert r.status_code in (201, 400), r.text
        if r.status_code == 201:
            name = r.headers["location"].rsplit("/", 1)[1]
            assert c.get(f"{A}/{name}.xml").status_code == 200
            assert c.get(f"{A}/{name}.json").status_code == 200
    assert not emu.internal_errors


tags = st.text("abcXY_.", min_size=1, max_size=6).filter(lambda t: t[0] not in "._")


@st.composite
def xml_trees(draw, depth: int = 2) -> etree._Element:
    el = etree.Element(draw(tags))
    for attr in draw(st.lists(st.sampled_from(["class", "a", "b"]), max_size=2, unique=True)):
        el.set(attr, draw(st.text("abc.$XY", max_size=10)))
    if depth and draw(st.booleans()):
        for _ in range(draw(st.integers(0, 3))):
            el.append(draw(xml_trees(depth - 1)))
    else:
        el.text = draw(text)
    return el


@settings(max_examples=60, deadline=None)
@given(class_keys, st.lists(xml_trees(), max_size=4), names)
def test_any_xml_body_is_created_or_refused_never_an_error(key, children, stem):
    root = etree.Element(key)
    etree.SubElement(root, "name").text = "t-" + stem
    etree.SubElement(root, "className").text = "x.Y"
    root.extend(children)
    emu = Emulator("empty")
    with client(emu) as c:
        r = c.post(A, content=etree.tostring(root), headers={"Content-Type": "application/xml"})
        assert r.status_code in (201, 400), r.text
        if r.status_code == 201:  # kept fields survive XML -> JSON -> XML unchanged
            name = r.headers["location"].rsplit("/", 1)[1]
            as_xml = c.get(f"{A}/{name}.xml").content
            as_json = c.get(f"{A}/{name}.json").content
            put = c.put(
                f"{A}/{name}", content=as_json, headers={"Content-Type": "application/json"}
            )
            assert put.status_code == 200, put.text
            assert c.get(f"{A}/{name}.xml").content == as_xml
    assert not emu.internal_errors


@settings(max_examples=40, deadline=None)
@given(st.binary(max_size=60), st.sampled_from(["application/xml", "application/json"]))
def test_garbage_bodies_are_400(body, content_type):
    emu = Emulator("empty")
    with client(emu) as c:
        r = c.post(A, content=body, headers={"Content-Type": content_type})
    assert r.status_code == 400 and not emu.internal_errors
