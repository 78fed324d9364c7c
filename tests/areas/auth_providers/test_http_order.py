"""Black-box: PUT /rest/security/authproviders/order, and what it does to logging in."""

from __future__ import annotations

import pytest
from provider_helpers import ACCEPT_XML, P, create, listed, order, send, xml_fields

from geoserver_emulator.areas.users.model import UserGroupService


@pytest.fixture
def abc(client):
    for name in "abc":
        assert create(client, name).status_code == 201
    return client


@pytest.mark.parametrize(
    "path, content, content_type",
    [
        ("/order", "<order><order>c</order><order>a</order></order>", "application/xml"),
        ("/order", '{"order":["c","a"]}', "application/json"),
        ("/order", '["c","a"]', "application/json; charset=utf-8"),
        ("/order.xml", "<order><order>c</order><order>a</order></order>", "application/xml"),
        ("/order.json", '{"order":["c.json","a.XML"]}', "application/json"),
    ],
)
def test_order_sets_the_active_list(abc, emu, path, content, content_type):
    reloads = emu.state.security.reloads
    r = abc.put(P + path, content=content, headers={"Content-Type": content_type})
    assert r.status_code == 200 and r.content == b""
    assert listed(abc) == ["c", "a"]
    assert emu.state.security.reloads == reloads + 1


def test_omitted_providers_are_disabled_but_kept_and_can_come_back(abc, emu):
    assert order(abc, ["b"]).status_code == 200
    assert listed(abc) == ["b"]
    assert set(emu.state.auth_providers.configs) == {"default", "a", "b", "c"}
    for name in ("default", "a", "c"):
        assert abc.get(f"{P}/{name}.json").status_code == 200
    assert order(abc, ["a", "default", "b", "c"]).status_code == 200
    assert listed(abc) == ["a", "default", "b", "c"]


BAD_ORDERS = [
    ("empty-object", '{"order":[]}', "application/json", "`order` array required"),
    ("empty-array", "[]", "application/json", "`order` array required"),
    ("no-order-key", '{"names":["a"]}', "application/json", "`order` array required"),
    ("empty-body", "", "application/json", "`order` array required"),
    ("not-array", '{"order":"a"}', "application/json", "`order` array required"),
    ("object-entry", '{"order":[{"a":1}]}', "application/json", "entries must be provider names"),
    ("null-entry", '{"order":[null]}', "application/json", "entries must be provider names"),
    ("empty-xml", "<order/>", "application/xml", "`order` array required"),
    ("wrong-root", "<names><order>a</order></names>", "application/xml", "`order` array required"),
    ("unknown", '{"order":["a","zz"]}', "application/json", "Unknown provider: zz"),
    ("unknown-xml", "<order><order>zz</order></order>", "application/xml", "Unknown provider: zz"),
    ("duplicate", '{"order":["a","b","a"]}', "application/json", "Duplicate entries in order"),
    ("duplicate-after-suffix", '["a","a.xml"]', "application/json", "Duplicate entries in order"),
    ("malformed-json", '{"order":[', "application/json", "Malformed JSON payload"),
    ("malformed-xml", "<order><order>a</order>", "application/xml", "Malformed XML payload"),
    ("control-char", '["a\\u0000"]', "application/json", "characters not allowed"),
]


@pytest.mark.parametrize(
    "content, content_type, message", [b[1:] for b in BAD_ORDERS], ids=[b[0] for b in BAD_ORDERS]
)
@pytest.mark.parametrize("accept", ["json", "xml"])
def test_order_refused(abc, emu, content, content_type, message, accept):
    reloads = emu.state.security.reloads
    headers = {"Content-Type": content_type, **(ACCEPT_XML if accept == "xml" else {})}
    r = abc.put(P + "/order", content=content, headers=headers)
    assert r.status_code == 400
    fields = xml_fields(r.text)[1] if accept == "xml" else r.json()
    assert str(fields["status"]) == "400" and message in fields["message"]
    assert listed(abc) == ["default", "a", "b", "c"]
    assert emu.state.security.reloads == reloads


def test_order_of_a_deleted_provider_is_refused(abc):
    abc.delete(P + "/a")
    r = order(abc, ["a"])
    assert r.status_code == 400 and r.json()["message"] == "Unknown provider: a"


@pytest.mark.parametrize("path", ["/order", "/order.xml", "/order.json"])
@pytest.mark.parametrize("method", ["GET", "POST", "DELETE"])
def test_only_put_on_the_order_path(abc, emu, path, method):
    r = abc.request(method, P + path, content='["a"]', headers={"Content-Type": "application/json"})
    assert r.status_code == 405
    assert r.headers["allow"] == "PUT"
    assert listed(abc) == ["default", "a", "b", "c"]


def test_patch_on_the_order_path_is_stopped_by_the_rest_rules(abc):
    # no stock REST rule names PATCH, and GeoServer 3 refuses what no rule covers
    r = abc.patch(P + "/order", content='["a"]', headers={"Content-Type": "application/json"})
    assert r.status_code == 403
    assert listed(abc) == ["default", "a", "b", "c"]


def test_order_unsupported_content_type_is_415(abc):
    r = abc.put(P + "/order", content="a,b", headers={"Content-Type": "text/plain"})
    assert r.status_code == 415
    assert listed(abc) == ["default", "a", "b", "c"]


def test_order_path_with_capitals_is_a_provider_name(abc):
    """Only the lower-case ``order`` paths are the order endpoint (as GeoServer's route regex)."""
    assert abc.get(P + "/ORDER").status_code == 404
    r = send(abc, "PUT", P + "/Order", {"name": "Order", "className": "x"}, "json")
    assert r.status_code == 400


# -- reloads and authentication ---------------------------------------------------------------


def test_every_write_reloads_and_nothing_else_does(abc, emu):
    assert emu.state.security.reloads == 3  # three creates
    abc.get(P)
    abc.get(P + "/a")
    abc.put(P + "/order", json=[])
    assert emu.state.security.reloads == 3
    send(abc, "PUT", P + "/a", {"name": "a", "userGroupServiceName": "default"}, "json")
    order(abc, ["default", "a"])
    abc.delete(P + "/b")
    assert emu.state.security.reloads == 6


@pytest.fixture
def zed(emu, client):
    """User ``zed``, an administrator known only to the user/group service ``other``,
    whose provider ``p2`` is enabled after ``default``."""
    svc = UserGroupService("other")
    emu.state.users.services["other"] = svc
    emu.state.users.create_user("other", "zed", "zpw", True)
    emu.state.users.assign_user_role(None, "ADMIN", "zed", True)
    r = send(
        client,
        "POST",
        P,
        {
            "name": "p2",
            "className": "org.geoserver.security.auth.UsernamePasswordAuthenticationProvider",
            "userGroupServiceName": "other",
        },
        "json",
    )
    assert r.status_code == 201
    return ("zed", "zpw")


def test_disabling_a_provider_stops_its_users_from_the_next_request(client, client_for, zed):
    as_zed = client_for(auth=zed)
    assert as_zed.get(P).status_code == 200
    assert order(client, ["default"]).status_code == 200
    assert as_zed.get(P).status_code == 401
    assert client.get(P).status_code == 200  # admin is in default's service
    assert order(client, ["p2"]).status_code == 200
    assert as_zed.get(P).status_code == 200
    assert client.get(P).status_code == 401  # now admin's provider is the disabled one


def test_deleting_a_provider_stops_its_users(client, client_for, zed):
    as_zed = client_for(auth=zed)
    assert as_zed.delete(P + "/p2").status_code == 200
    assert as_zed.get(P).status_code == 401


def test_an_ldap_provider_authenticates_nobody(client, client_for, zed):
    """Providers other than username/password have nothing to talk to: skipped."""
    send(
        client,
        "POST",
        P + "?position=0",
        {
            "name": "l",
            "className": "org.geoserver.security.auth.LdapAuthenticationProvider",
            "userGroupServiceName": "other",
        },
        "json",
    )
    order(client, ["l", "default"])
    assert client_for(auth=zed).get(P).status_code == 401
    assert client.get(P).status_code == 200
