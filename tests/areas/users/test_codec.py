"""Wire forms of users, groups and roles."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from geoserver_emulator.areas.users import codec
from geoserver_emulator.areas.users.model import User, UserChange
from geoserver_emulator.core.errors import Invalid
from geoserver_emulator.core.vendor import VendorNames

V = VendorNames()
# XML 1.0 text: no control characters, no surrogates; names as GeoServer users would have
names = (
    st.text(
        alphabet=st.characters(blacklist_categories=("Cs", "Cc"), blacklist_characters="<>&"),
        min_size=1,
        max_size=20,
    )
    .map(str.strip)
    .filter(bool)
)


def _user_xml(change: UserChange) -> bytes:
    parts = ["<user>"]
    if change.name is not None:
        parts.append(f"<userName>{change.name}</userName>")
    if change.password is not None:
        parts.append(f"<password>{change.password}</password>")
    if change.enabled is not None:
        parts.append(f"<enabled>{str(change.enabled).lower()}</enabled>")
    return ("".join(parts) + "</user>").encode()


changes = st.builds(UserChange, st.none() | names, st.none() | names, st.none() | st.booleans())


@given(changes)
def test_user_xml_parses_what_a_client_sends(change):
    assert codec.parse_user_xml(_user_xml(change), V) == change


@given(changes)
def test_user_json_parses_the_wrapped_form(change):
    fields = {"userName": change.name, "password": change.password, "enabled": change.enabled}
    body = json.dumps({"user": {k: v for k, v in fields.items() if v is not None}}).encode()
    assert codec.parse_user_json(body, V) == change


@pytest.mark.parametrize(
    "root", ["org.geoserver.rest.security.xml.JaxbUser", "org.service.rest.security.xml.JaxbUser"]
)
def test_user_class_name_is_accepted_as_root(root):
    body = json.dumps({root: {"userName": "bob", "password": "x", "enabled": "true"}}).encode()
    assert codec.parse_user_json(body, V) == UserChange("bob", "x", True)
    xml = f"<{root}><userName>bob</userName></{root}>".encode()
    assert codec.parse_user_xml(xml, V).name == "bob"


@pytest.mark.parametrize(
    "body",
    [
        b'{"userName": "bob", "password": "x", "enabled": true}',  # flat: GeoServer fails too
        b'{"person": {"userName": "bob"}}',
        b'{"user": {"userName": "bob", "role": "x"}}',
        b'{"user": {"userName": ["bob"]}}',
        b'{"user": {"enabled": "maybe"}}',
        b'{"user": {"enabled": 1}}',
        b'{"user": "bob"}',
        b"[]",
        b"{",
        b"",
    ],
)
def test_bad_user_json(body):
    with pytest.raises(Invalid):
        codec.parse_user_json(body, V)


@pytest.mark.parametrize(
    "body",
    [
        b"<person><userName>bob</userName></person>",
        b"<user><userName>bob</userName><role>x</role></user>",
        b"<user><userName>a</userName><userName>b</userName></user>",
        b"<user><enabled>yes</enabled></user>",
        b"<user><userName>bob</user>",
        b'<!DOCTYPE user [<!ENTITY x SYSTEM "file:///etc/passwd">]><user><userName>&x;</userName></user>',
    ],
)
def test_bad_user_xml(body):
    with pytest.raises(Invalid):
        codec.parse_user_xml(body, V)


def test_numbers_are_taken_as_text_in_json():
    body = b'{"user": {"userName": "bob", "password": 1234, "enabled": false}}'
    assert codec.parse_user_json(body, V) == UserChange("bob", "1234", False)


def test_user_lists_never_carry_passwords():
    users = [User("admin", "geoserver", True), User("bob", "secret", False)]
    xml = codec.dump_users_xml(users)
    assert xml.startswith(b'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>')
    assert xml.endswith(
        b"<users><user><userName>admin</userName><enabled>true</enabled></user>"
        b"<user><userName>bob</userName><enabled>false</enabled></user></users>"
    )
    assert json.loads(codec.dump_users_json(users)) == {
        "users": [
            {"userName": "admin", "password": None, "enabled": True},
            {"userName": "bob", "password": None, "enabled": False},
        ]
    }
    assert b"geoserver" not in xml and b"secret" not in codec.dump_users_json(users)


@given(st.lists(names, unique=True))
def test_name_lists_round_trip(values):
    assert codec.parse_names_xml(codec.dump_roles(values, "xml"), "roles", "role") == values
    assert codec.parse_names_xml(codec.dump_groups(values, "xml"), "groups", "group") == values
    assert json.loads(codec.dump_roles(values, "json")) == {"roles": values}
    assert json.loads(codec.dump_groups(values, "json")) == {"groups": values}


def test_empty_lists():
    assert codec.dump_roles([], "xml").endswith(b"<roles/>")
    assert json.loads(codec.dump_users([], "json")) == {"users": []}


def test_new_password_forms():
    assert (
        codec.parse_new_password(
            b"<userPassword><newPassword>p</newPassword></userPassword>", "xml"
        )
        == "p"
    )
    assert codec.parse_new_password(b"<userPassword><other>p</other></userPassword>", "xml") is None
    assert codec.parse_new_password(b'{"newPassword": "p"}', "json") == "p"
    with pytest.raises(Invalid):
        codec.parse_new_password(b'{"newPassword": 5}', "json")
