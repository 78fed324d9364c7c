"""Black-box: PUT and DELETE /rest/security/authproviders/<name>."""

from __future__ import annotations

import pytest
from provider_helpers import (
    ACCEPT_JSON,
    ACCEPT_XML,
    JDBC,
    LDAP,
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
from geoserver_emulator.areas.users.model import UserGroupService


@pytest.fixture
def abc(client):
    for name in "abc":
        assert create(client, name).status_code == 201
    return client


@pytest.fixture
def other_service(emu):
    emu.state.users.services["other"] = UserGroupService("other")


def _id(client, name):
    return client.get(f"{P}/{name}.json").json()["id"]


@pytest.mark.parametrize("fmt", ["xml", "json"])
def test_update_replaces_fields_and_keeps_id(abc, emu, other_service, fmt):
    old_id = _id(abc, "a")
    body = (
        up_xml("a", ugs="other", id_="client-id")
        if fmt == "xml"
        else up_json("a", ugs="other", id="client-id")
    )
    r = send(abc, "PUT", P + "/a", body, fmt, headers=ACCEPT_JSON)
    assert r.status_code == 200, r.text
    assert r.json() == {"id": old_id, "name": "a", "className": UP, "userGroupServiceName": "other"}
    assert abc.get(P + "/a.json").json() == r.json()
    assert listed(abc) == ["default", "a", "b", "c"]
    assert emu.state.security.reloads == 4


@pytest.mark.parametrize("fmt", ["xml", "json"])
def test_update_without_class_name_keeps_it(abc, other_service, fmt):
    body = (
        up_xml("a", ugs="other", class_name=None)
        if fmt == "xml"
        else up_json("a", ugs="other", class_name=None)
    )
    r = send(abc, "PUT", P + "/a", body, fmt, headers=ACCEPT_XML)
    assert r.status_code == 200, r.text
    root, fields = xml_fields(r.text)
    assert (
        root == UP_CFG and fields["className"] == UP and fields["userGroupServiceName"] == "other"
    )


def test_update_with_envelope_and_extension(abc):
    r = send(abc, "PUT", P + "/a.json", {"authprovider": up_json("a")}, "json")
    assert r.status_code == 200 and r.headers["content-type"].startswith("application/json")
    r = send(abc, "PUT", P + "/a.XML", up_xml("a"), "xml")
    assert r.status_code == 200 and r.headers["content-type"].startswith("application/xml")


@pytest.mark.parametrize("fmt", ["xml", "json"])
@pytest.mark.parametrize(
    "name, position, expected",
    [
        ("a", "0", ["a", "default", "b", "c"]),
        ("a", "3", ["default", "b", "c", "a"]),
        ("c", "1", ["default", "c", "a", "b"]),
        ("b", "2", ["default", "a", "b", "c"]),  # already there
        ("default", "2", ["a", "b", "default", "c"]),
        ("a", "", ["default", "a", "b", "c"]),
    ],
)
def test_update_moves_to_position(abc, fmt, name, position, expected):
    body = up_xml(name) if fmt == "xml" else up_json(name)
    r = send(abc, "PUT", f"{P}/{name}", body, fmt, params={"position": position})
    assert r.status_code == 200, r.text
    assert listed(abc) == expected


def test_update_of_ldap_fields(client):
    body = {"name": "l", "className": LDAP, "serverURL": "ldap://one", "useTLS": True}
    assert send(client, "POST", P, body, "json").status_code == 201
    r = send(
        client,
        "PUT",
        P + "/l",
        {"name": "l", "serverURL": "ldap://two"},
        "json",
        headers=ACCEPT_JSON,
    )
    assert r.status_code == 200
    assert r.json()["serverURL"] == "ldap://two"
    assert "useTLS" not in r.json()  # a PUT replaces the whole configuration
    assert r.json()["maxGroupSearchLevel"] == 10  # Java default


def test_update_of_other_class_keeps_new_fields(client):
    send(
        client, "POST", P, {"name": "j", "className": JDBC, "connectURL": "jdbc:a", "x": 1}, "json"
    )
    r = send(
        client,
        "PUT",
        P + "/j",
        {"name": "j", "connectURL": "jdbc:b", "y": [1, 2]},
        "json",
        headers=ACCEPT_JSON,
    )
    assert r.status_code == 200
    assert {k: v for k, v in r.json().items() if k != "id"} == {
        "name": "j",
        "className": JDBC,
        "connectURL": "jdbc:b",
        "y": [1, 2],
    }


BAD_UPDATES = [
    # (id, path name, fmt, body, query, status, message part)
    ("mismatch", "a", "json", up_json("a-other"), "", 400, "path name and payload name differ"),
    ("mismatch-xml", "a", "xml", up_xml("b"), "", 400, "path name and payload name differ"),
    (
        "unsupported-class",
        "a",
        "json",
        up_json("a", class_name="org.geoserver.security.auth.SomeOtherProvider"),
        "",
        400,
        "Unsupported className",
    ),
    (
        "class-change",
        "a",
        "json",
        up_json("a", class_name=LDAP),
        "",
        400,
        "className cannot change",
    ),
    (
        "class-change-xml",
        "a",
        "xml",
        up_xml(
            "a",
            root="org.geoserver.security.config.LdapAuthenticationProviderConfig",
            class_name=None,
        ),
        "",
        400,
        "className cannot change",
    ),
    ("position-end", "a", "json", up_json("a"), "?position=4", 400, "position out of range"),
    ("position-negative", "a", "xml", up_xml("a"), "?position=-1", 400, "position out of range"),
    ("position-huge", "a", "json", up_json("a"), "?position=9999", 400, "position"),
    (
        "position-text",
        "a",
        "json",
        up_json("a"),
        "?position=1.5",
        400,
        "position must be an integer",
    ),
    ("reserved", "Order", "json", up_json("Order"), "", 400, "'Order' is reserved"),
    ("no-name", "a", "json", {"className": UP}, "", 400, "name required"),
    (
        "unknown-ugs",
        "a",
        "json",
        up_json("a", ugs="nope"),
        "",
        400,
        "User/group service nope does not exist",
    ),
    (
        "missing-ugs",
        "a",
        "xml",
        up_xml("a", ugs=None),
        "",
        400,
        "User/group service name is required",
    ),
    ("malformed", "a", "json", "{", "", 400, "Malformed JSON payload"),
    ("unknown", "zz", "json", up_json("zz"), "", 404, "Provider 'zz' not found"),
    ("unknown-xml", "zz", "xml", up_xml("zz"), "", 404, "Provider 'zz' not found"),
]


@pytest.mark.parametrize(
    "name, fmt, body, query, status, message",
    [b[1:] for b in BAD_UPDATES],
    ids=[b[0] for b in BAD_UPDATES],
)
def test_update_refused(abc, emu, name, fmt, body, query, status, message):
    before = (
        emu.state.auth_providers.active[:],
        {k: repr(v) for k, v in emu.state.auth_providers.configs.items()},
    )
    reloads = emu.state.security.reloads
    r = send(abc, "PUT", f"{P}/{name}{query}", body, fmt)
    assert r.status_code == status
    assert r.json()["status"] == status and message in r.json()["message"]
    after = (
        emu.state.auth_providers.active,
        {k: repr(v) for k, v in emu.state.auth_providers.configs.items()},
    )
    assert after == before and emu.state.security.reloads == reloads


def test_update_of_a_disabled_provider_is_geoserver_500(abc, emu):
    """GeoServer requires the name in the active list and answers its catch-all 500."""
    order(abc, ["default", "b"])
    r = send(abc, "PUT", P + "/a", up_json("a"), "json", headers=ACCEPT_XML)
    assert r.status_code == 500
    message = "<message>Cannot save security configuration</message>"
    assert r.text == f"<ErrorResponse><status>500</status>{message}</ErrorResponse>"
    assert not emu.internal_errors


def test_update_unsupported_content_type_is_415(abc):
    r = abc.put(P + "/a", content=up_xml("a"), headers={"Content-Type": "text/xml"})
    assert r.status_code == 415


# -- delete ---------------------------------------------------------------------------------


@pytest.mark.parametrize("suffix", ["", ".xml", ".json"])
def test_delete(abc, emu, suffix):
    r = abc.delete(f"{P}/b{suffix}")
    assert r.status_code == 200 and r.content == b""
    assert listed(abc) == ["default", "a", "c"]
    assert "b" not in emu.state.auth_providers.configs
    assert abc.get(P + "/b").status_code == 404


@pytest.mark.parametrize("headers, fmt", [({}, "json"), (ACCEPT_XML, "xml")])
def test_delete_again_is_410(abc, headers, fmt):
    assert abc.delete(P + "/b").status_code == 200
    r = abc.delete(P + "/b", headers=headers)
    assert r.status_code == 410
    if fmt == "json":
        assert r.json() == {"status": 410, "message": "Provider 'b' was already deleted"}
    else:
        assert xml_fields(r.text)[1]["status"] == "410"


def test_delete_of_a_name_that_never_existed_is_404(client, emu):
    r = client.delete(P + "/never")
    assert r.status_code == 404
    assert r.json() == {"status": 404, "message": "Provider 'never' not found"}
    assert emu.state.security.reloads == 0


def test_delete_of_a_disabled_provider(abc, emu):
    order(abc, ["default", "a"])
    assert abc.delete(P + "/c").status_code == 200
    assert "c" not in emu.state.auth_providers.configs
    assert order(abc, ["c"]).status_code == 400


def test_recreate_after_delete_then_delete_again(abc):
    assert abc.delete(P + "/a").status_code == 200
    assert create(abc, "a").status_code == 201
    assert listed(abc) == ["default", "b", "c", "a"]
    assert abc.delete(P + "/a").status_code == 200
    assert abc.delete(P + "/a").status_code == 410


def test_delete_under_the_geoserver_profile_is_500(client_for):
    emu = Emulator("stock", profile="geoserver")
    c = client_for(emulator=emu)
    create(c, "a")
    assert c.delete(P + "/a").status_code == 200
    for name in ("a", "never"):
        r = c.delete(f"{P}/{name}")
        assert r.status_code == 500
        assert r.json() == {"status": 500, "message": "Cannot save security configuration"}
    assert listed(c) == ["default"]
