"""GeoServer's own provider tests (reference/security.md §1.6), replayed over HTTP.

``AuthenticationProviderRestControllerTest`` calls the controller directly and
``AuthenticationProviderRestControllerMarshallingTest`` goes through the dispatcher; both
are black-box here. Names follow theirs. (Their 403 for "no user" is a controller check
without the filter chain; over HTTP an anonymous caller gets 401, a non-administrator 403.)
"""

from __future__ import annotations

import pytest
from provider_helpers import (
    ACCEPT_JSON,
    UP,
    UP_CFG,
    P,
    create,
    listed,
    order,
    send,
    up_json,
    up_xml,
)

A, B = "TEST-a", "TEST-b"


@pytest.fixture
def ab(client):
    assert create(client, A).status_code == 201
    assert create(client, B, fmt="xml").status_code == 201
    return client


def test_list_json_and_xml_structure(ab):
    assert listed(ab) == ["default", A, B]
    xml = ab.get(P + ".xml").text
    assert "<authproviders>" in xml and f"<{UP_CFG}>" in xml


def test_one_xml_structure_and_fields(ab):
    xml = ab.get(f"{P}/{A}.xml").text
    assert xml.startswith(f"<{UP_CFG}>")
    assert f"<name>{A}</name>" in xml and f"<className>{UP}</className>" in xml and "<id>" in xml
    one = ab.get(f"{P}/{A}.json").json()
    assert one["id"] and one["className"] == UP and one["userGroupServiceName"] == "default"


def test_create_json_sets_location_header_and_201(client):
    r = send(client, "POST", P, {"authprovider": up_json(A)}, "json", headers=ACCEPT_JSON)
    assert r.status_code == 201
    assert r.headers["location"].endswith(f"/security/authproviders/{A}")
    assert r.json()["id"]


def test_create_xml_roundtrip_position_0(client, emu):
    r = send(client, "POST", P + "?position=0", up_xml(A), "xml")
    assert r.status_code == 201
    assert emu.state.auth_providers.active[0] == A
    assert listed(client)[0] == A


def test_create_reserved_name_order_is_rejected(client):
    r = send(client, "POST", P, up_json("order"), "json")
    assert r.status_code == 400 and "reserved" in r.json()["message"]


def test_create_duplicate_name_rejected(ab):
    r = create(ab, A)
    assert r.status_code == 400 and "already exists" in r.json()["message"]


def test_create_json_missing_class_name(client):
    r = send(client, "POST", P, {"authprovider": {"name": A}}, "json")
    assert r.status_code == 400 and "className" in r.json()["message"]


def test_create_position_out_of_range_is_bad_request(client):
    r = send(client, "POST", P + "?position=9999", up_json(A), "json")
    assert r.status_code == 400 and "position" in r.json()["message"]


def test_update_move_position_and_persist(ab, emu):
    assert order(ab, [A, B]).status_code == 200
    r = send(
        ab,
        "PUT",
        f"{P}/{A}?position=1",
        up_json(A, id=ab.get(f"{P}/{A}.json").json()["id"]),
        "json",
    )
    assert r.status_code == 200
    assert listed(ab) == [B, A]
    assert "default" not in emu.state.auth_providers.active
    assert {"default", A, B} <= set(emu.state.auth_providers.configs)
    assert order(ab, [B]).status_code == 200
    assert listed(ab) == [B] and A in emu.state.auth_providers.configs


def test_update_bad_path_payload_mismatch(ab):
    r = send(ab, "PUT", f"{P}/{A}", up_json(A + "-other"), "json")
    assert r.status_code == 400 and "path name and payload name differ" in r.json()["message"]


def test_update_rejects_class_name_change(ab):
    other = "org.geoserver.security.auth.SomeOtherProvider"
    r = send(ab, "PUT", f"{P}/{A}", up_json(A, class_name=other), "json")
    assert r.status_code == 400 and "Unsupported className" in r.json()["message"]


def test_update_position_out_of_range_is_bad_request(ab):
    r = send(ab, "PUT", f"{P}/{A}?position=9999", up_json(A), "json")
    assert r.status_code == 400 and "position" in r.json()["message"]


def test_delete_removes_provider(ab):
    assert ab.delete(f"{P}/{A}").status_code == 200
    assert ab.get(f"{P}/{A}").status_code == 404
    assert A not in listed(ab)


def test_order_xml_updates_enabled_list(ab):
    body = f"<order><order>{A}</order><order>{B}</order></order>"
    assert (
        ab.put(P + "/order", content=body, headers={"Content-Type": "application/xml"}).status_code
        == 200
    )
    assert listed(ab) == [A, B]


def test_order_json_unknown_name_is_bad_request(ab):
    assert order(ab, ["does-not-exist"]).status_code == 400


def test_list_no_user(anon, bob):
    assert anon.get(P).status_code == 401
    assert bob.get(P).status_code == 403
    assert bob.delete(f"{P}/default").status_code == 403


@pytest.mark.parametrize("method", ["GET", "POST", "DELETE"])
def test_order_methods_not_allowed(client, method):
    assert client.request(method, P + "/order").status_code == 405


@pytest.fixture
def bob(emu, client_for):
    emu.state.users.create_user(None, "bob", "pw", True)
    return client_for(auth=("bob", "pw"))
