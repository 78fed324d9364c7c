"""Black-box: access rules for layers, services and REST over HTTP, in XML and JSON.

Follows GeoServer's ``AccessControllersTest`` case by case, against the stock rules.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from geoserver_emulator import Emulator

FORMATS = ("xml", "json")
ACL = "/rest/security/acl"
ADMIN_REQUIRED = "Administrative privileges required"
STOCK = {
    "layers": {"*.*.r": {"*"}, "*.*.w": {"GROUP_ADMIN", "ADMIN"}},
    "services": {},
    "rest": {
        "/**:GET,HEAD,OPTIONS": {"ROLE_ADMINISTRATOR"},
        "/**:POST,DELETE,PUT": {"ROLE_ADMINISTRATOR"},
    },
}
ROLES = "TEST_ROLE1,TEST_ROLE2"


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("kind", ["layers", "services", "rest"])
def test_get_stock_rules(client, h, kind, fmt):
    assert h.read_rules(client, kind, fmt) == STOCK[kind]


@pytest.mark.parametrize(
    "path", [f"{ACL}/layers.xml", f"{ACL}/catalog.json", "/rest/security/masterpw"]
)
def test_head(client, path):
    r = client.head(path)
    assert r.status_code == 200
    assert r.headers["content-type"] == client.get(path).headers["content-type"]


def test_empty_rule_set_shapes(client):
    assert client.get(f"{ACL}/services.xml").text == "<rules/>"
    assert client.get(f"{ACL}/services.json").json() == {}
    assert client.get(f"{ACL}/services").json() == {}  # JSON when nothing says otherwise


# -- POST -------------------------------------------------------------------------------------


@pytest.mark.parametrize("fmt", FORMATS)
def test_post_layer_rules(client, h, fmt):
    r = h.send(
        client,
        "POST",
        f"{ACL}/layers.{fmt}",
        h.rules_body({"*.*.r": "*", "ws.layer1.r": ROLES}, fmt),
        fmt,
    )
    assert r.status_code == 409
    assert r.text == "Already existing rules: *.*.r"
    assert h.read_rules(client, "layers", fmt) == STOCK["layers"]
    added = {"ws.layer1.w": "TEST_ROLE1", "ws.layer1.r": ROLES}
    r = h.send(client, "POST", f"{ACL}/layers.{fmt}", h.rules_body(added, fmt), fmt)
    assert (r.status_code, r.content) == (201, b"")
    expected = {
        **STOCK["layers"],
        "ws.layer1.w": {"TEST_ROLE1"},
        "ws.layer1.r": {"TEST_ROLE1", "TEST_ROLE2"},
    }
    assert h.read_rules(client, "layers", fmt) == expected


@pytest.mark.parametrize("fmt", FORMATS)
def test_post_service_rules_twice_conflicts(client, h, fmt):
    added = {"ws.*": "TEST_ROLE1", "ws2.GetFeature": ROLES}
    assert (
        h.send(client, "POST", f"{ACL}/services.{fmt}", h.rules_body(added, fmt), fmt).status_code
        == 200
    )
    assert h.read_rules(client, "services", fmt) == {
        "ws.*": {"TEST_ROLE1"},
        "ws2.GetFeature": {"TEST_ROLE1", "TEST_ROLE2"},
    }
    r = h.send(client, "POST", f"{ACL}/services.{fmt}", h.rules_body(added, fmt), fmt)
    assert r.status_code == 409
    assert r.text.startswith("Already existing rules: ")
    assert set(r.text.split(": ", 1)[1].split(",")) == {"ws.*", "ws2.GetFeature"}


@pytest.mark.parametrize("fmt", FORMATS)
def test_post_rest_rules(client, h, fmt):
    conflict = {"/**:GET,HEAD,OPTIONS": "ADMIN", "/myworkspace/**:GET": ROLES}
    assert (
        h.send(client, "POST", f"{ACL}/rest.{fmt}", h.rules_body(conflict, fmt), fmt).status_code
        == 409
    )
    assert h.read_rules(client, "rest", fmt) == STOCK["rest"]
    added = {"/myworkspace/**:PUT,POST": "TEST_ROLE1", "/myworkspace/**:GET": ROLES}
    assert (
        h.send(client, "POST", f"{ACL}/rest.{fmt}", h.rules_body(added, fmt), fmt).status_code
        == 200
    )
    expected = {
        **STOCK["rest"],
        "/myworkspace/**:PUT,POST": {"TEST_ROLE1"},
        "/myworkspace/**:GET": {"TEST_ROLE1", "TEST_ROLE2"},
    }
    assert h.read_rules(client, "rest", fmt) == expected


def test_post_status_follows_the_profile(client_for, h):
    geoserver = client_for(emulator=Emulator("stock", profile="geoserver"))
    r = h.send(geoserver, "POST", f"{ACL}/layers.xml", h.rules_body({"ws.l.r": "A"}, "xml"), "xml")
    assert (r.status_code, r.content) == (200, b"")


def test_roles_are_split_on_commas_and_spaces_and_star_collapses(client, h):
    body = h.rules_body({"a.b.r": "a,,b, ,, c", "a.b.w": "X,*,Y"}, "json")
    assert h.send(client, "POST", f"{ACL}/layers", body, "json").status_code == 201
    rules = client.get(f"{ACL}/layers.json").json()
    assert set(rules["a.b.r"].split(",")) == {"a", "b", "c"}
    assert rules["a.b.w"] == "*"


def test_layer_keys_are_stored_normalised(client, h):
    body = h.rules_body({"ws . layer . r": "A"}, "xml")
    assert h.send(client, "POST", f"{ACL}/layers.xml", body, "xml").status_code == 201
    assert "ws.layer.r" in client.get(f"{ACL}/layers.json").json()


# -- PUT --------------------------------------------------------------------------------------


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("kind", ["layers", "rest"])
def test_put_modifies_existing_rules(client, h, kind, fmt):
    first, second = STOCK[kind]
    unknown = {first: "X", "ws.layer1.r" if kind == "layers" else "/myworkspace/**:GET": ROLES}
    r = h.send(client, "PUT", f"{ACL}/{kind}.{fmt}", h.rules_body(unknown, fmt), fmt)
    assert r.status_code == 409
    assert r.text.startswith("Unknown rules: ")
    assert h.read_rules(client, kind, fmt) == STOCK[kind]
    admin = "ROLE_ADMINISTRATOR," if kind == "rest" else ""  # keep the administrator in
    changed = {first: admin + "TEST_ROLE1", second: admin + ROLES}
    r = h.send(client, "PUT", f"{ACL}/{kind}.{fmt}", h.rules_body(changed, fmt), fmt)
    assert (r.status_code, r.content) == (200, b"")
    expected = {k: set(v.split(",")) for k, v in changed.items()}
    assert h.read_rules(client, kind, fmt) == expected


@pytest.mark.parametrize("fmt", FORMATS)
def test_put_services(client, h, fmt):
    r = h.send(
        client,
        "PUT",
        f"{ACL}/services.{fmt}",
        h.rules_body({"ws.*": "A", "ws2.GetFeature": "B"}, fmt),
        fmt,
    )
    assert r.status_code == 409
    assert h.read_rules(client, "services", fmt) == {}
    assert (
        h.send(client, "PUT", f"{ACL}/services.{fmt}", h.rules_body({}, fmt), fmt).status_code
        == 200
    )


# -- DELETE -----------------------------------------------------------------------------------


def test_delete_rules(client):
    assert client.delete(f"{ACL}/layers/*.*.r").status_code == 200
    r = client.delete(f"{ACL}/layers/*.*.r")
    assert (r.status_code, r.text) == (404, "Rule not found: *.*.r")
    assert client.get(f"{ACL}/layers.json").json() == {"*.*.w": "GROUP_ADMIN,ADMIN"}
    assert client.delete(f"{ACL}/services/wfs.getFeature").status_code == 404


def test_delete_rest_rule_with_encoded_slash(client):
    assert client.delete(f"{ACL}/rest/%2F**:GET,HEAD,OPTIONS").status_code == 200
    r = client.delete(f"{ACL}/rest/%2F**:GET,HEAD,OPTIONS")
    assert (r.status_code, r.text) == (404, "Rule not found: /**:GET,HEAD,OPTIONS")
    # no rule grants GET any more: even the administrator is refused (see the next test)
    assert client.get(f"{ACL}/rest.json").status_code == 403


def test_deleting_the_write_rule_locks_writes(emu, client):
    assert client.delete(f"{ACL}/rest/%2F**:POST,DELETE,PUT").status_code == 200
    assert list(client.get(f"{ACL}/rest.json").json()) == ["/**:GET,HEAD,OPTIONS"]
    assert client.delete(f"{ACL}/rest/%2F**:GET,HEAD,OPTIONS").status_code == 403
    assert list(emu.state.security.rest_rules) == ["/**:GET,HEAD,OPTIONS"]


def test_delete_key_is_decoded_once_more(client, h):
    added = {"/rest/a+b/**:GET": "ROLE_ADMINISTRATOR"}
    assert (
        h.send(client, "POST", f"{ACL}/rest", h.rules_body(added, "json"), "json").status_code
        == 200
    )
    # the server decodes %2F to "/", then the key is decoded again: "+" reads as a space
    r = client.delete(f"{ACL}/rest/%2Frest%2Fa+b%2F**:GET")
    assert r.status_code == 422
    assert "/rest/a b/**:GET" in r.text
    assert client.delete(f"{ACL}/rest/%252Frest%252Fa%252Bb%252F**:GET").status_code == 200
    assert "/rest/a+b/**:GET" not in client.get(f"{ACL}/rest.json").json()


@pytest.mark.parametrize(
    ("kind", "key"), [("layers", "*.x.r"), ("services", "*.getMap"), ("rest", "nothing")]
)
def test_delete_malformed_key_is_422(client, kind, key):
    r = client.delete(f"{ACL}/{kind}/{key}")
    assert r.status_code == 422
    assert key in r.text


@pytest.mark.parametrize("kind", ["layers", "services", "rest"])
@pytest.mark.parametrize(("profile", "status"), [("spec", 404), ("geoserver", 500)])
def test_delete_without_a_key(client_for, kind, profile, status):
    """GeoServer cuts the key out of the path past its end: 500; the spec profile says 404.
    Nothing is removed either way."""
    client = client_for(emulator=Emulator("stock", profile=profile))
    before = client.get(f"{ACL}/{kind}.json").json()
    r = client.delete(f"{ACL}/{kind}")
    assert r.status_code == status
    n = len(f"/security/acl/{kind}")
    says = f"begin {n + 1}, end {n}, length {n}" if status == 500 else "Rule not found: "
    assert r.text == says
    assert client.get(f"{ACL}/{kind}.json").json() == before
    assert client.get(f"{ACL}/layers/*.*.r").status_code == 405


# -- invalid rules ------------------------------------------------------------------------------


INVALID = [
    (
        "layers",
        "ws.layer1.r.c",
        "Invalid rule ws.layer1.r.c, the expected format is workspace.layer.mode=role1,role2,...",
    ),
    ("layers", "ws.layer1.x", "Unknown access mode x in ws.layer1.x"),
    (
        "layers",
        "*.layer1.r",
        "Invalid rule *.layer1.r, when namespace is * then also layer must be *.",
    ),
    (
        "layers",
        "ws.layer1.a",
        "Invalid rule ws.layer1.a, admin (a) privileges may only be applied globally to a "
        "workspace, layer must be *.",
    ),
    (
        "services",
        "ws.getMap.c",
        "Invalid rule ws.getMap.c, the expected format is service.method=role1,role2,...",
    ),
    (
        "services",
        "*.getMap",
        "Invalid rule *.getMap, when namespace is * then also layer must be *.",
    ),
    ("rest", "/myworkspace/**!!!GET", "Invalid '/myworkspace/**!!!GET' not matching "),
]


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("method", ["POST", "PUT"])
@pytest.mark.parametrize(("kind", "key", "message"), INVALID)
def test_invalid_rules_are_422_and_change_nothing(client, h, kind, key, message, method, fmt):
    r = h.send(client, method, f"{ACL}/{kind}.{fmt}", h.rules_body({key: "A"}, fmt), fmt)
    assert r.status_code == 422
    assert r.headers["content-type"].startswith("text/plain")
    assert r.text.startswith(message)
    assert h.read_rules(client, kind, fmt) == STOCK[kind]


# -- formats and methods -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "content_type", ["application/xml", "text/xml", "application/json", "text/json"]
)
def test_all_four_media_types_are_accepted(client, h, content_type):
    fmt = "json" if "json" in content_type else "xml"
    r = h.send(
        client, "POST", f"{ACL}/services", h.rules_body({"wms.GetMap": "A"}, fmt), fmt, content_type
    )
    assert r.status_code == 200  # service rules: 200 in both profiles (GeoServer's)


def test_rule_errors(client):
    assert (
        client.post(
            f"{ACL}/layers", content=b"*.*.r=*", headers={"Content-Type": "text/plain"}
        ).status_code
        == 415
    )
    assert (
        client.post(
            f"{ACL}/layers", content=b"{", headers={"Content-Type": "application/json"}
        ).status_code
        == 400
    )
    assert (
        client.post(
            f"{ACL}/layers", content=b'{"a.b.r":1}', headers={"Content-Type": "application/json"}
        ).status_code
        == 400
    )
    r = client.post(
        f"{ACL}/layers",
        content=b"<rules><rule>A</rule></rules>",
        headers={"Content-Type": "text/xml"},
    )
    assert r.status_code == 400
    assert client.get(f"{ACL}/layers", headers={"Accept": "text/html"}).status_code == 406
    assert client.get(f"{ACL}/layers.html").status_code == 406
    assert client.get(f"{ACL}/layers.txt").status_code == 404
    assert client.delete(f"{ACL}/layers.xml").status_code == 405
    assert client.get(f"{ACL}/nothing.xml").status_code == 404


def test_rules_xxe_is_400_without_leaking(client):
    body = (
        '<?xml version="1.0"?><!DOCTYPE rules [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>'
        '<rules><rule resource="a.b.r">&xxe;</rule></rules>'
    )
    r = client.post(f"{ACL}/layers", content=body.encode(), headers={"Content-Type": "text/xml"})
    assert r.status_code == 400
    assert "root:" not in r.text
    assert "a.b.r" not in client.get(f"{ACL}/layers.json").json()


# -- who may ----------------------------------------------------------------------------------


@pytest.mark.parametrize("kind", ["layers", "services", "rest"])
def test_non_admin_meets_the_controller_check(reader, relaxed, h, kind):
    body = h.rules_body({}, "json")
    for r in (
        reader.get(f"{ACL}/{kind}.json"),
        h.send(reader, "POST", f"{ACL}/{kind}", body, "json"),
        h.send(reader, "PUT", f"{ACL}/{kind}", body, "json"),
        reader.delete(f"{ACL}/{kind}/whatever"),
    ):
        assert (r.status_code, r.text) == (403, ADMIN_REQUIRED)


def test_anonymous_and_non_admin_with_stock_rules(anon, reader):
    assert anon.get(f"{ACL}/layers.json").status_code == 401
    assert reader.get(f"{ACL}/layers.json").status_code == 403
    assert reader.delete(f"{ACL}/layers/*.*.r").status_code == 403


# -- property: what is POSTed is what is read ----------------------------------------------------


NAME = st.from_regex(r"[A-Za-z0-9_-]{1,10}", fullmatch=True)
ROLE = st.from_regex(r"[A-Z][A-Z0-9_]{0,9}", fullmatch=True)
ROLE_SETS = st.one_of(st.just(["*"]), st.lists(ROLE, min_size=1, max_size=3, unique=True))


@st.composite
def layer_keys(draw):
    ws = draw(st.one_of(st.just("*"), NAME))
    mode = draw(st.sampled_from("rwa"))
    layer = "*" if ws == "*" or mode == "a" else draw(st.one_of(st.just("*"), NAME))
    return f"{ws}.{layer}.{mode}"


@st.composite
def service_keys(draw):
    service = draw(st.one_of(st.just("*"), NAME))
    return f"{service}.{'*' if service == '*' else draw(st.one_of(st.just('*'), NAME))}"


@st.composite
def rest_keys(draw):
    segments = draw(
        st.lists(st.one_of(st.just("**"), st.just("*"), NAME.map(str.lower)), max_size=4)
    )
    methods = draw(
        st.lists(
            st.sampled_from(["GET", "POST", "PUT", "DELETE", "HEAD", "OPTIONS"]),
            min_size=1,
            max_size=3,
            unique=True,
        )
    )
    return "/" + "/".join(segments) + ":" + ",".join(methods)


KEYS = {"layers": layer_keys(), "services": service_keys(), "rest": rest_keys()}


@st.composite
def rule_sets(draw):
    kind = draw(st.sampled_from(sorted(KEYS)))
    rules = draw(st.dictionaries(KEYS[kind], ROLE_SETS, min_size=1, max_size=5))
    return kind, {k: v for k, v in rules.items() if k not in STOCK[kind]}


@settings(max_examples=60, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(rule_sets(), st.sampled_from(FORMATS), st.sampled_from(FORMATS))
def test_posted_rules_read_back(client_for, h, case, post_fmt, get_fmt):
    kind, rules = case
    client = client_for(emulator=Emulator("stock"))
    body = h.rules_body({k: ",".join(v) for k, v in rules.items()}, post_fmt)
    r = h.send(client, "POST", f"{ACL}/{kind}", body, post_fmt)
    assert r.status_code == (201 if kind == "layers" else 200), r.text
    assert h.read_rules(client, kind, get_fmt) == {
        **STOCK[kind],
        **{k: set(v) for k, v in rules.items()},
    }
