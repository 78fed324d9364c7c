"""Black-box: POST /rest/security/authproviders, in XML and JSON, and every refusal."""

from __future__ import annotations

import json

import pytest
from provider_helpers import (
    ACCEPT_JSON,
    ACCEPT_XML,
    JDBC,
    JDBC_CFG,
    LDAP,
    LDAP_CFG,
    UP,
    UP_CFG,
    P,
    create,
    listed,
    order,
    send,
    up_json,
    up_xml,
    xml_fields,
)

from geoserver_emulator import Emulator

BASE_URL = "http://localhost:8080/geoserver"


@pytest.mark.parametrize(
    "body",
    [
        up_json("a"),
        {"authprovider": up_json("a")},
        {"authproviders": [up_json("a")]},
        up_json("a", class_name=UP_CFG),  # className may name the config class
        up_json("a", class_name=UP.replace("org.geoserver", "org.service")),
        up_json("a", class_name="com.example." + UP.removeprefix("org.geoserver.")),
    ],
    ids=["plain", "envelope", "list-of-one", "config-class", "org.service", "other-prefix"],
)
def test_create_json_shapes(client, emu, body):
    r = send(client, "POST", P, body, "json", headers=ACCEPT_JSON)
    assert r.status_code == 201, r.text
    assert r.headers["location"] == f"{BASE_URL}{P}/a"
    saved = r.json()
    assert (
        saved["name"] == "a"
        and saved["className"] == UP
        and saved["userGroupServiceName"] == "default"
    )
    assert saved["id"] and saved["id"] != emu.state.auth_providers.configs["default"].id
    assert listed(client) == ["default", "a"]
    assert client.get(P + "/a.json").json() == saved


@pytest.mark.parametrize(
    "body",
    [
        up_xml("a"),
        f"<authproviders>{up_xml('a')}</authproviders>",
        up_xml("a", root=UP_CFG.replace("org.geoserver", "org.service")),
        up_xml("a", root="com.example." + UP_CFG.removeprefix("org.geoserver.")),
    ],
    ids=["plain", "wrapped", "org.service", "other-prefix"],
)
def test_create_xml(client, body):
    r = send(client, "POST", P, body, "xml")
    assert r.status_code == 201, r.text
    assert r.headers["location"] == f"{BASE_URL}{P}/a"
    assert r.headers["content-type"].startswith("application/xml")
    root, fields = xml_fields(r.text)
    assert root == UP_CFG
    assert fields["name"] == "a" and fields["className"] == UP and fields["id"]
    assert listed(client) == ["default", "a"]


def test_create_ignores_a_client_id(client):
    r = send(client, "POST", P, up_json("a", id="mine"), "json", headers=ACCEPT_JSON)
    assert r.status_code == 201 and r.json()["id"] != "mine"


def test_created_ids_are_distinct(client):
    for name in "abcde":
        assert create(client, name).status_code == 201
    ids = {client.get(f"{P}/{n}.json").json()["id"] for n in ["default", *"abcde"]}
    assert len(ids) == 6


def test_location_quotes_the_name(client):
    r = create(client, "a b/c")
    assert r.status_code == 201
    assert r.headers["location"] == f"{BASE_URL}{P}/a%20b%2Fc"


@pytest.mark.parametrize("fmt", ["xml", "json"])
@pytest.mark.parametrize(
    "position, expected",
    [
        (None, ["default", "a", "b", "new"]),
        ("0", ["new", "default", "a", "b"]),
        ("1", ["default", "new", "a", "b"]),
        ("3", ["default", "a", "b", "new"]),
        ("", ["default", "a", "b", "new"]),
        ("+2", ["default", "a", "new", "b"]),
    ],
)
def test_create_position(client, fmt, position, expected):
    create(client, "a")
    create(client, "b")
    params = {} if position is None else {"position": position}
    body = up_xml("new") if fmt == "xml" else up_json("new")
    assert send(client, "POST", P, body, fmt, params=params).status_code == 201
    assert listed(client) == expected


def test_vendor_prefix_of_the_emulator_is_emitted(client_for):
    emu = Emulator("stock", vendor_prefix="org.service")
    c = client_for(emulator=emu)
    r = send(c, "POST", P, up_json("a"), "json", headers=ACCEPT_JSON)
    assert (
        r.json()["className"] == "org.service.security.auth.UsernamePasswordAuthenticationProvider"
    )
    assert c.get(P + "/a.xml").text.startswith(
        "<org.service.security.config.UsernamePasswordAuthenticationProviderConfig>"
    )


def test_create_answers_in_the_accepted_format(client):
    assert (
        create(client, "a").headers["content-type"].startswith("application/xml")
    )  # no Accept: XML
    r = send(client, "POST", P, up_xml("b"), "xml", headers=ACCEPT_JSON)
    assert r.json()["name"] == "b"


# -- refusals -------------------------------------------------------------------------------

BAD = [
    # (id, fmt, body, query, status, message part)
    ("reserved-json", "json", up_json("order"), "", 400, "'order' is reserved"),
    ("reserved-case", "xml", up_xml("OrDeR"), "", 400, "'OrDeR' is reserved"),
    (
        "no-name-json",
        "json",
        {"className": UP, "userGroupServiceName": "default"},
        "",
        400,
        "name required",
    ),
    ("blank-name-xml", "xml", up_xml("  "), "", 400, "name required"),
    (
        "no-class-json",
        "json",
        {"authprovider": {"name": "a"}},
        "",
        400,
        "Missing 'className' in JSON payload",
    ),
    (
        "no-class-xml",
        "xml",
        up_xml("a", class_name=None),
        "",
        400,
        "Missing 'className' in XML payload",
    ),
    ("blank-class-json", "json", up_json("a", class_name=" "), "", 400, "Missing 'className'"),
    (
        "two-in-list",
        "json",
        {"authproviders": [up_json("a"), up_json("b")]},
        "",
        400,
        "Missing 'className'",
    ),
    (
        "unsupported-json",
        "json",
        up_json("a", class_name="org.geoserver.security.auth.SomeOtherProvider"),
        "",
        400,
        "Unsupported className: org.geoserver.security.auth.SomeOtherProvider",
    ),
    (
        "unsupported-root",
        "xml",
        up_xml("a", root="com.example.Nope"),
        "",
        400,
        "Unsupported className: com.example.Nope",
    ),
    (
        "unsupported-xml-class",
        "xml",
        up_xml("a", class_name="com.example.Nope"),
        "",
        400,
        "Unsupported className",
    ),
    ("root-is-provider", "xml", up_xml("a", root=UP), "", 400, "Unsupported className"),
    ("class-not-of-root", "xml", up_xml("a", class_name=LDAP), "", 400, "does not belong"),
    ("duplicate", "json", up_json("default"), "", 400, "Provider 'default' already exists"),
    ("position-negative", "json", up_json("a"), "?position=-1", 400, "position out of range"),
    ("position-past-end", "xml", up_xml("a"), "?position=2", 400, "position out of range"),
    ("position-huge", "json", up_json("a"), "?position=9999", 400, "position"),
    ("position-text", "json", up_json("a"), "?position=abc", 400, "position must be an integer"),
    ("malformed-json", "json", "{nope", "", 400, "Malformed JSON payload"),
    ("malformed-xml", "xml", "<a><b></a>", "", 400, "Malformed XML payload"),
    ("empty-json", "json", "", "", 400, "Empty JSON payload"),
    ("null-json", "json", "null", "", 400, "Empty JSON payload"),
    ("empty-xml", "xml", "", "", 400, "Empty XML payload"),
    ("array-json", "json", "[1]", "", 400, "Malformed JSON payload"),
    ("envelope-not-object", "json", {"authprovider": 5}, "", 400, "Malformed JSON payload"),
    ("empty-wrapper", "xml", "<authproviders/>", "", 400, "Malformed XML payload"),
    ("doctype", "xml", '<!DOCTYPE x [<!ENTITY e "v">]><x/>', "", 400, "DOCTYPE"),
    ("name-object", "json", up_json({"x": 1}), "", 400, "Invalid value for field 'name'"),
    (
        "unknown-ugs",
        "json",
        up_json("a", ugs="nope"),
        "",
        400,
        "User/group service nope does not exist",
    ),
    ("no-ugs", "xml", up_xml("a", ugs=None), "", 400, "User/group service name is required"),
    ("unknown-field", "json", up_json("a", colour="red"), "", 400, "Unknown field 'colour'"),
    (
        "unknown-element",
        "xml",
        up_xml("a").replace("<name>", "<colour>red</colour><name>"),
        "",
        400,
        "Unknown field 'colour'",
    ),
    (
        "bad-bool",
        "json",
        {"name": "l", "className": LDAP, "useTLS": "maybe"},
        "",
        400,
        "Invalid value for field 'useTLS'",
    ),
    (
        "bad-int",
        "xml",
        f"<{LDAP_CFG}><name>l</name><className>{LDAP}</className><maxGroupSearchLevel>x</maxGroupSearchLevel></{LDAP_CFG}>",
        "",
        400,
        "Invalid value for field 'maxGroupSearchLevel'",
    ),
    ("control-char", "json", up_json("a\u0001"), "", 400, "characters not allowed"),
    (
        "bad-field-name",
        "json",
        {"name": "j", "className": JDBC, "a b": 1},
        "",
        400,
        "Invalid field name 'a b'",
    ),
    (
        "infinite",
        "json",
        '{"name":"j","className":"' + JDBC + '","x":1e400}',
        "",
        400,
        "not a finite number",
    ),
    (
        "duplicate-name-element",
        "xml",
        up_xml("a").replace("<name>a</name>", "<name>a</name><name>b</name>"),
        "",
        400,
        "more than one name",
    ),
]


@pytest.mark.parametrize(
    "fmt, body, query, status, message", [b[1:] for b in BAD], ids=[b[0] for b in BAD]
)
@pytest.mark.parametrize("accept", ["json", "xml"])
def test_create_refused(client, emu, fmt, body, query, status, message, accept):
    before = emu.state.auth_providers.active[:], dict(emu.state.auth_providers.configs)
    headers = ACCEPT_XML if accept == "xml" else ACCEPT_JSON
    r = send(client, "POST", P + query, body, fmt, headers=headers)
    assert r.status_code == status
    if accept == "json":
        assert r.json()["status"] == status
        assert message in r.json()["message"]
    else:
        root, fields = xml_fields(r.text)
        assert root == "ErrorResponse" and fields["status"] == str(status)
        assert message in fields["message"]
    assert (emu.state.auth_providers.active, emu.state.auth_providers.configs) == before
    assert emu.state.security.reloads == 0


def test_create_name_of_a_disabled_provider_is_a_duplicate(client, emu):
    create(client, "a")
    order(client, ["default"])
    r = create(client, "a")
    assert r.status_code == 400 and "already exists" in r.json()["message"]
    assert listed(client) == ["default"]


@pytest.mark.parametrize(
    "content_type", ["text/plain", "text/xml", "application/x-www-form-urlencoded", None]
)
def test_create_unsupported_content_type_is_415(client, emu, content_type):
    headers = {} if content_type is None else {"Content-Type": content_type}
    r = client.post(P, content=up_xml("a"), headers=headers)
    assert r.status_code == 415 and r.json()["status"] == 415
    assert listed(client) == ["default"]


def test_create_unacceptable_accept_is_406(client, emu):
    r = send(client, "POST", P, up_json("a"), "json", headers={"Accept": "text/html"})
    assert r.status_code == 406
    assert listed(client) == ["default"]


def test_post_to_list_extension_or_item_is_405(client):
    assert send(client, "POST", P + ".json", up_json("a"), "json").status_code == 405
    assert send(client, "POST", P + "/a", up_json("a"), "json").status_code == 405


# -- the provider classes -----------------------------------------------------------------

LDAP_XML = (
    f"<{LDAP_CFG}><name>ldap</name><className>{LDAP}</className><serverURL>ldap://h:389/dc=x</serverURL>"
    "<userFilter>(uid={0})</userFilter><useTLS>TRUE</useTLS><maxGroupSearchLevel>3</maxGroupSearchLevel>"
    f"<userDnPattern>uid={{0}},ou=people</userDnPattern><userGroupServiceName>default</userGroupServiceName></{LDAP_CFG}>"
)
LDAP_AS_JSON = {
    "name": "ldap",
    "className": "org.geoserver.security.auth.LdapAuthenticationProvider",
    "serverURL": "ldap://h:389/dc=x",
    "userFilter": "(uid={0})",
    "useTLS": True,
    "useNestedParentGroups": False,
    "maxGroupSearchLevel": 3,
    "nestedGroupSearchFilter": "(member={0})",
    "userDnPattern": "uid={0},ou=people",
    "userGroupServiceName": "default",
}


def test_ldap_xml_in_json_out(client):
    r = send(client, "POST", P, LDAP_XML, "xml", headers=ACCEPT_JSON)
    assert r.status_code == 201, r.text
    saved = r.json()
    assert saved.pop("id")
    assert saved == LDAP_AS_JSON
    assert list(saved) == list(LDAP_AS_JSON)  # GeoServer's field order


def test_ldap_json_in_xml_out(client):
    body = {**LDAP_AS_JSON, "useTLS": "true", "maxGroupSearchLevel": "3"}  # scalars read leniently
    r = send(client, "POST", P, body, "json", headers=ACCEPT_XML)
    assert r.status_code == 201, r.text
    root, fields = xml_fields(r.text)
    assert root == "org.geoserver.security.config.LdapAuthenticationProviderConfig"
    assert fields["useTLS"] == "true" and fields["maxGroupSearchLevel"] == "3"
    assert fields["serverURL"] == "ldap://h:389/dc=x"
    again = client.get(P + "/ldap.json").json()
    again.pop("id")
    assert again == LDAP_AS_JSON


def test_geoserver_ldap_class_is_known_too(client):
    body = {
        "name": "l2",
        "className": "org.geoserver.security.ldap.LDAPAuthenticationProvider",
        "serverURL": "ldap://x",
    }
    r = send(client, "POST", P, body, "json", headers=ACCEPT_XML)
    assert r.status_code == 201
    assert xml_fields(r.text)[0] == "org.geoserver.security.ldap.LDAPSecurityServiceConfig"


JDBC_XML = (
    f'<{JDBC_CFG} kind="x"><name>j</name><className>{JDBC}</className>'
    "<userGroupServiceName>default</userGroupServiceName>"
    "<driverClassName>org.postgresql.Driver</driverClassName><connectURL>jdbc:postgresql://db/gs</connectURL>"
    '<nested><a>1</a><a>2</a><b t="y">z</b></nested><empty/></' + JDBC_CFG + ">"
)


def test_other_class_fields_kept_in_xml(client):
    r = send(client, "POST", P, JDBC_XML, "xml")
    assert r.status_code == 201, r.text
    stored = client.get(P + "/j.xml").text
    assert stored.startswith(f'<{JDBC_CFG} kind="x"><id>')
    assert stored.endswith(JDBC_XML.split("</className>", 1)[1])
    assert client.get(P + "/j.json").json()["nested"] == {
        "a": ["1", "2"],
        "b": {"@t": "y", "$": "z"},
    }


def test_other_class_fields_kept_in_json(client):
    body = {
        "name": "j",
        "className": JDBC,
        "connectURL": "jdbc:x",
        "poolSize": 5,
        "ssl": True,
        "props": {"k": ["v1", "v2"], "@class": "map"},
        "nothing": None,
    }
    r = send(client, "POST", P, body, "json", headers=ACCEPT_JSON)
    assert r.status_code == 201, r.text
    saved = r.json()
    saved.pop("id")
    assert saved == {k: v for k, v in body.items() if v is not None}
    xml = client.get(P + "/j.xml").text
    assert (
        '<props class="map"><k>v1</k><k>v2</k></props>' in xml and "<poolSize>5</poolSize>" in xml
    )


def test_spec_example_values_are_accepted(client):
    """The spec writes org.service class names for both provider classes it shows."""
    r = send(
        client,
        "POST",
        P,
        up_xml(
            "s",
            root=UP_CFG.replace("geoserver", "service"),
            class_name=UP.replace("geoserver", "service"),
        ),
        "xml",
    )
    assert r.status_code == 201
    r = send(
        client, "POST", P, json.dumps({"authprovider": {"name": "l", "className": LDAP}}), "json"
    )
    assert r.status_code == 201
    assert listed(client) == ["default", "s", "l"]


def test_other_class_user_group_service_is_read_as_text(client, emu):
    from geoserver_emulator.areas.users.model import UserGroupService

    emu.state.users.services["7"] = UserGroupService("7")
    body = {"name": "j", "className": JDBC, "userGroupServiceName": 7}
    r = send(client, "POST", P, body, "json", headers=ACCEPT_JSON)
    assert r.status_code == 201 and r.json()["userGroupServiceName"] == "7"
    body = {"name": "k", "className": JDBC, "userGroupServiceName": {"a": 1}}
    r = send(client, "POST", P, body, "json")
    assert r.status_code == 400 and "userGroupServiceName" in r.json()["message"]
